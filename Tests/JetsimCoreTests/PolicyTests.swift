@testable import JetsimCore
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let anyContext = KillContext(now: sec(3600), reason: .vmPageShortage, availableBytes: 0)

func pick<P: EvictionPolicy>(_ policy: P, _ candidates: [KillCandidate], context: KillContext = anyContext) -> Int32? {
    var p = policy
    return p.selectVictim(among: candidates, context: context).map { candidates[$0].app }
}

/// Each built-in's ranking on hand-made situations.
@Suite struct BuiltInPolicyTests {
    /// A keyed policy's key must order candidates as its `selectVictim` does: the engine answers from the key alone.
    func keyAgreesWithSelection<P: EvictionPolicy>(_ policy: P) {
        var random = SplitMix64(seed: 5)
        for _ in 0..<500 {
            let candidates = (0..<Int32(random.below(8) + 1)).map { app in
                KillCandidate(app: app, band: Int(random.below(3)) * 20, bandEntrySequence: random.below(1_000),
                              lastUseSequence: random.below(1_000), launchSequence: random.below(1_000))
            }
            let byKey = candidates.min { a, b in
                let x = policy.rankingKey(RankingInputs(a))!, y = policy.rankingKey(RankingInputs(b))!
                return x != y ? x < y : a.app < b.app
            }
            #expect(pick(policy, candidates) == byKey?.app)
        }
    }

    @Test func keyedPoliciesRankByTheirKeyAsTheySelect() {
        #expect(XNUPolicy().hasRankingKey && LRUPolicy().hasRankingKey && FIFOPolicy().hasRankingKey)
        #expect(!LargestPolicy().hasRankingKey)
        keyAgreesWithSelection(XNUPolicy())
        keyAgreesWithSelection(LRUPolicy())
        keyAgreesWithSelection(FIFOPolicy())
    }

    /// A policy that says it ranks a band by entry has its idle-band and reaper victims taken off the engine's entry
    /// order of the idle band, without its key: every built-in that says so must order two apps of one band by their
    /// entry, whatever else differs, and selecting among apps of one band must take the earliest entrant.
    @Test func policiesThatRankABandByEntryDo() throws {
        let env = PolicyEnvironment(seed: 1, device: testDevice())
        var declaring: [String] = []
        var random = SplitMix64(seed: 11)
        for entry in PolicyRegistry.builtIns {
            let policy = try entry.make([:], env)
            guard policy.ranksBandByEntry else { continue }
            declaring.append(entry.name)
            for _ in 0..<500 {
                let band = Int(random.below(3)) * 20
                let candidates = (0..<Int32(random.below(6) + 2)).map { app in
                    KillCandidate(app: app, band: band, bandEntrySequence: random.below(1_000) * 8 + UInt64(app),
                                  lastUseSequence: random.below(1_000), launchSequence: random.below(1_000))
                }
                for a in candidates {
                    for b in candidates where a.bandEntrySequence < b.bandEntrySequence {
                        let x = try #require(policy.rankingKey(RankingInputs(a))), y = try #require(policy.rankingKey(RankingInputs(b)))
                        #expect(x < y)
                    }
                }
                let earliest = candidates.min { $0.bandEntrySequence < $1.bandEntrySequence }
                #expect(pick(policy, candidates) == earliest?.app)
            }
        }
        #expect(declaring == ["xnu"])
        #expect(!LRUPolicy().ranksBandByEntry && !FIFOPolicy().ranksBandByEntry)
    }

    @Test func lruTakesTheLeastRecentlyUsed() {
        let c = [KillCandidate(app: 0, lastUseSequence: 5), KillCandidate(app: 1, lastUseSequence: 2), KillCandidate(app: 2, lastUseSequence: 9)]
        #expect(pick(LRUPolicy(), c) == 1)
    }

    @Test func fifoTakesTheEarliestLaunchedWhateverItsUse() {
        let c = [KillCandidate(app: 0, lastUseSequence: 1, launchSequence: 4), KillCandidate(app: 1, lastUseSequence: 9, launchSequence: 2)]
        #expect(pick(FIFOPolicy(), c) == 1)
    }

    @Test func largestTakesTheBiggestFootprintThenTheLeastRecent() {
        let c = [KillCandidate(app: 0, footprintBytes: mb(100), lastUseSequence: 1), KillCandidate(app: 1, footprintBytes: mb(300), lastUseSequence: 7),
                 KillCandidate(app: 2, footprintBytes: mb(300), lastUseSequence: 3)]
        #expect(pick(LargestPolicy(), c) == 2)
    }

    @Test func lmkdWalksAdjustmentsFromTheTop() {
        // Cached (suspended) apps have adj ≥ 700; a background worker 500; audio 200.
        let audio = KillCandidate(app: 0, state: .background, priorityClass: .audio, footprintBytes: mb(900), lastUseSequence: 0, backgroundActivity: .audio)
        let worker = KillCandidate(app: 1, state: .background, priorityClass: .backgroundWork, footprintBytes: mb(500), lastUseSequence: 1, backgroundActivity: .task)
        let previous = KillCandidate(app: 2, footprintBytes: mb(50), lastUseSequence: 9)   // most recent cached: adj 700
        let oldSmall = KillCandidate(app: 3, footprintBytes: mb(10), lastUseSequence: 2)
        let oldBig = KillCandidate(app: 4, footprintBytes: mb(400), lastUseSequence: 3)
        #expect(pick(LMKDPolicy(), [audio, worker, previous, oldSmall, oldBig]) == 3)   // oldest cached level first
        #expect(pick(LMKDPolicy(), [audio, worker, previous]) == 2)
        #expect(pick(LMKDPolicy(), [audio, worker]) == 1)
        #expect(pick(LMKDPolicy(), [audio]) == 0)
        // Two background workers share adj 500: LRU above 200, unless kill_heaviest.
        let worker2 = KillCandidate(app: 5, state: .background, priorityClass: .backgroundWork, footprintBytes: mb(800), lastUseSequence: 4, backgroundActivity: .task)
        #expect(pick(LMKDPolicy(), [worker, worker2]) == 1)
        #expect(pick(LMKDPolicy(killHeaviest: true), [worker, worker2]) == 5)
        // At adj ≤ 200 always the heaviest.
        let audio2 = KillCandidate(app: 6, state: .background, priorityClass: .audio, footprintBytes: mb(100), lastUseSequence: 8, backgroundActivity: .audio)
        #expect(pick(LMKDPolicy(), [audio2, audio]) == 0)
    }

    @Test func linuxOOMScoresFootprintPlusAdjustment() {
        // RAM 1000 MB: adj 500 adds 500 MB; a cached app (adj ≥ 700) of 100 MB scores 800 MB+, a worker of 350 MB 850 MB.
        let worker = KillCandidate(app: 0, state: .background, priorityClass: .backgroundWork, footprintBytes: mb(350), lastUseSequence: 0, backgroundActivity: .task)
        let cached = KillCandidate(app: 1, footprintBytes: mb(100), lastUseSequence: 1)
        #expect(pick(LinuxOOMPolicy(physicalBytes: mb(1000)), [worker, cached]) == 0)
        #expect(pick(LinuxOOMPolicy(physicalBytes: mb(1000)), [KillCandidate(app: 0, state: .background, priorityClass: .backgroundWork,
                                                                           footprintBytes: mb(250), backgroundActivity: .task), cached]) == 1)
    }

    @Test func costKeepsFrequentExpensiveAppsAndKillsCheapOnes() {
        var p = CostPolicy(alpha: 1, halfLifeHours: 24)
        for k in 0..<10 { p.didOpen(0, at: sec(k)) }   // app 0 is used a lot
        p.didOpen(1, at: 0)
        let frequent = KillCandidate(app: 0, footprintBytes: mb(100), relaunchCostMillis: 1000)
        let rare = KillCandidate(app: 1, footprintBytes: mb(100), relaunchCostMillis: 1000)
        let cheap = KillCandidate(app: 2, footprintBytes: mb(100), relaunchCostMillis: 100)
        #expect(pick(p, [frequent, rare, cheap]) == 2)
        #expect(pick(p, [frequent, rare]) == 1)
        // Per byte freed: a big rarely-used app goes before a small one of the same cost …
        let big = KillCandidate(app: 3, footprintBytes: mb(800), relaunchCostMillis: 1000)
        #expect(pick(p, [rare, big]) == 3)
        // … unless size is ignored (alpha 0): then the tie goes to the least recently used.
        #expect(pick(CostPolicy(alpha: 0), [KillCandidate(app: 1, footprintBytes: mb(100), lastUseSequence: 5, relaunchCostMillis: 1000),
                                            KillCandidate(app: 3, footprintBytes: mb(800), lastUseSequence: 2, relaunchCostMillis: 1000)]) == 3)
    }

    /// `cost` at its default alpha 1 divides by the footprint itself, without a call to pow: the same doubles as
    /// pow(footprint, 1), in the scan and in the score the cache replay indexes.
    @Test func costAtAlphaOneDividesByTheFootprintAsPowDoes() {
        var random = SplitMix64(seed: 11)
        var p = CostPolicy(alpha: 1)
        p.didOpen(0, at: 0)
        let footprints = [-5, 0, 1, 2, 3, 4096, (1 << 53) + 1, Int.max] + (0..<2000).map { _ in Int(random.below(1 << 44)) }
        for footprint in footprints {
            let c = KillCandidate(app: 0, footprintBytes: footprint, relaunchCostMillis: 1234)
            let weight = pow(Double(max(footprint, 1)), 1)
            #expect(p.value(c, at: sec(60)) == (p.decayingScore(c)!.decayedCount(at: sec(60)) + 1) * 1234 / weight)
            #expect(p.decayingScore(c)?.divisor == weight)
        }
        // Any other alpha still takes pow.
        let c = KillCandidate(app: 0, footprintBytes: 3_000_000, relaunchCostMillis: 1234)
        #expect(CostPolicy(alpha: 0.5).decayingScore(c)?.divisor == pow(3_000_000, 0.5))
    }

    /// A count read at the time it was recorded is the count itself (2^(−0 / halfLife) is 1: no exp2 to call), and
    /// the same double as the formula's at every other time.
    @Test func aDecayedCountAtItsOwnTimeIsTheCount() {
        for count in [1.0, 1 + 0x1p-52, 2.5, 1e300, 0x1p-1000] {
            for halfLife in [1.0, 3.6e9, 1e15] {
                let score = DecayingScore(count: count, since: 1_000, halfLifeMicros: halfLife)
                for time in [1_000, 1_001, 5_000_000] {
                    #expect(score.decayedCount(at: time) == count * exp2(-Double(time - 1_000) / halfLife))
                }
            }
        }
    }

    /// An open's count is the formula's double, bit for bit, whatever the memo of decay factors holds: gaps repeated,
    /// more distinct gaps than the memo has entries (so that gaps replace one another in an entry), a gap of 0, and
    /// half-lives short enough for the factors to underflow.
    @Test func opensCountAsTheFormulaWhateverTheDecayMemoHolds() {
        for hours in [0.001, 1.0, 24.0] {
            var lfu = LFUPolicy(halfLifeHours: hours), legacy = LegacyLFUPolicy(halfLifeHours: hours)
            var rng = SplitMix64(seed: 29)
            var time = 0, mismatches = 0
            for k in 0..<20_000 {
                time += k % 7 == 0 ? 0 : Int(rng.next() % 3_000) * 1_000 + (k % 3 == 0 ? 0 : 1)
                let app = Int32(rng.next() % 40)
                lfu.didOpen(app, at: time)
                legacy.didOpen(app, at: time)
                if lfu.decayingScore(KillCandidate(app: app))?.count != legacy.frequency.value(app, at: time) { mismatches += 1 }
            }
            #expect(mismatches == 0, "half-life \(hours) h")
        }
    }

    /// A copy of a policy keeps its own counts whichever copy opens first: `didOpen` copies what the two share, and so
    /// does `makeStateUnique`, after which `didOpenInPlace` writes in place (the cache replay's way) with the same result.
    @Test func aCopiedPolicyKeepsItsOwnCounts() {
        var a = CostPolicy(halfLifeHours: 1)
        a.didOpen(3, at: sec(1))
        var b = a
        b.didOpen(3, at: sec(2))
        b.didOpen(5, at: sec(2))
        #expect(a.decayingScore(KillCandidate(app: 3))?.count == 1 && a.decayingScore(KillCandidate(app: 5))?.count == 0)
        var c = b, d = b
        c.makeStateUnique()
        c.didOpenInPlace(3, at: sec(3))
        d.didOpen(3, at: sec(3))
        #expect(b.decayingScore(KillCandidate(app: 3))?.since == sec(2) && c.decayingScore(KillCandidate(app: 3))?.since == sec(3))
        #expect(c.decayingScore(KillCandidate(app: 3)) == d.decayingScore(KillCandidate(app: 3)))
        var lfu = LFUPolicy(halfLifeHours: 1)
        lfu.didOpen(0, at: 0)
        let before = lfu
        lfu.makeStateUnique()
        for k in 1...3 { lfu.didOpenInPlace(0, at: sec(k)) }
        #expect(before.decayingScore(KillCandidate(app: 0))?.count == 1 && (lfu.decayingScore(KillCandidate(app: 0))?.count ?? 0) > 3)
    }

    /// A prefetch hint is only a hint: any id, even one never seen or out of range, changes no count.
    @Test func prefetchingAnAppsStateChangesNothing() {
        var lfu = LFUPolicy(halfLifeHours: 1), cost = CostPolicy()
        for app: Int32 in [0, 3, 3, 7] {
            lfu.didOpen(app, at: sec(Int(app)))
            cost.didOpen(app, at: sec(Int(app)))
        }
        let before = (0..<9).map { lfu.decayingScore(KillCandidate(app: $0)) }
        for app: Int32 in [-1, 0, 3, 8, 9, 1 << 20, .max, .min] {
            lfu.prefetchState(of: app)
            cost.prefetchState(of: app)
            LRUPolicy().prefetchState(of: app)
        }
        #expect((0..<9).map { lfu.decayingScore(KillCandidate(app: $0)) } == before)
    }

    @Test func lfuForgetsOldPopularity() {
        var p = LFUPolicy(halfLifeHours: 1)
        for k in 0..<8 { p.didOpen(0, at: sec(k)) }          // popular long ago
        p.didOpen(1, at: sec(5 * 3600))                       // used once, recently
        let c = [KillCandidate(app: 0, lastUseSequence: 7), KillCandidate(app: 1, lastUseSequence: 8)]
        #expect(pick(p, c, context: KillContext(now: sec(5 * 3600), reason: .idleExit, availableBytes: 0)) == 0)  // 8 / 32 < 1
        var fresh = LFUPolicy(halfLifeHours: 1)
        for k in 0..<8 { fresh.didOpen(0, at: sec(k)) }
        fresh.didOpen(1, at: sec(10))
        #expect(pick(fresh, c, context: KillContext(now: sec(60), reason: .idleExit, availableBytes: 0)) == 1)  // ≈ 8 against ≈ 1
    }

    @Test func randomIsDeterministicPerSeedAndUniform() {
        let c = (0..<4).map { KillCandidate(app: Int32($0)) }
        func draws(_ seed: UInt64) -> [Int32] {
            var p = RandomPolicy(seed: seed)
            return (0..<400).compactMap { _ in p.selectVictim(among: c, context: anyContext).map { c[$0].app } }
        }
        #expect(draws(7) == draws(7))
        #expect(draws(7) != draws(8))
        let counts = (0..<4).map { a in draws(3).filter { $0 == a }.count }
        #expect(counts.allSatisfy { $0 > 60 && $0 < 140 }, "\(counts)")
    }

    @Test func oracleTakesTheFarthestNextUseAndNeverUsedAgainFirst() {
        let c = [KillCandidate(app: 0, lastUseSequence: 1, nextUse: 40), KillCandidate(app: 1, lastUseSequence: 2, nextUse: 90),
                 KillCandidate(app: 2, lastUseSequence: 3, nextUse: 10)]
        #expect(pick(OraclePolicy(), c) == 1)
        #expect(pick(OraclePolicy(), c + [KillCandidate(app: 3, lastUseSequence: 4, nextUse: .max)]) == 3)
        #expect(OraclePolicy().descriptor.capabilities.contains(.needsFuture))
    }

    /// Issue 20: `oracle` counts launches and ignores footprints, so a size-aware policy could beat "the optimum".
    /// `belady-size` weighs each app by footprint × distance to its next open (at event 100 here).
    @Test func beladySizeTakesTheLargestFootprintTimesDistanceAndNeverUsedAgainFirst() {
        let context = KillContext(now: 0, reason: .perProcessLimit, availableBytes: 0, eventIndex: 100)
        let c = [KillCandidate(app: 0, footprintBytes: 500, lastUseSequence: 1, nextUse: 140),    // 500 × 40 = 20 000
                 KillCandidate(app: 1, footprintBytes: 100, lastUseSequence: 2, nextUse: 190),    // 100 × 90 =  9 000 (oracle's pick)
                 KillCandidate(app: 2, footprintBytes: 900, lastUseSequence: 3, nextUse: 110)]    // 900 × 10 =  9 000
        var policy = BeladySizePolicy()
        #expect(policy.selectVictim(among: c, context: context) == 0)
        #expect(pick(OraclePolicy(), c) == 1)
        // Never used again: first of all, the largest of them first; equal costs go to the least recently used.
        let never = [KillCandidate(app: 3, footprintBytes: 10, lastUseSequence: 4, nextUse: .max),
                     KillCandidate(app: 4, footprintBytes: 20, lastUseSequence: 5, nextUse: .max)]
        #expect(policy.selectVictim(among: c + never, context: context) == 4)
        #expect(policy.selectVictim(among: [c[1], c[2]], context: context) == 0)
        // Products beyond 64 bits still compare exactly.
        let huge = [KillCandidate(app: 5, footprintBytes: 1 << 40, lastUseSequence: 6, nextUse: (1 << 40) + 100),
                    KillCandidate(app: 6, footprintBytes: (1 << 40) + 1, lastUseSequence: 7, nextUse: (1 << 40) + 100)]
        #expect(policy.selectVictim(among: huge, context: context) == 1)
        #expect(policy.descriptor.capabilities == [.needsFuture, .sizeAware])
    }

    @Test func nextUseTableIsABackwardPass() {
        let e = [TraceEvent(time: 0, app: 0, kind: .open), TraceEvent(time: 1, app: 1, kind: .open),
                 TraceEvent(time: 2, app: 0, kind: .alloc), TraceEvent(time: 3, app: 0, kind: .open), TraceEvent(time: 4, app: -1, kind: .home)]
        #expect(NextUseTable(events: e, appCount: 2).nextOpen == [3, .max, 3, .max, .max])
    }

    @Test func parametersAreParsedCheckedAndEchoed() throws {
        let env = PolicyEnvironment(seed: 1, device: testDevice())
        #expect(try PolicyRegistry.make(PolicySpec(parsing: "cost:alpha=0.5"), environment: env).descriptor.displayName == "cost(alpha=0.5,half_life_h=24)")
        #expect(try PolicyRegistry.make(PolicySpec(parsing: "lfu:half_life_h=6"), environment: env).descriptor.displayName == "lfu(half_life_h=6)")
        #expect(try PolicyRegistry.make(PolicySpec(parsing: "lmkd:kill_heaviest=true"), environment: env).descriptor.displayName == "lmkd(kill_heaviest=true)")
        #expect(try PolicyRegistry.make(PolicySpec(parsing: "lru"), environment: env).descriptor.displayName == "lru")
        #expect(throws: PolicySpecError.self) { try PolicyRegistry.make(PolicySpec(parsing: "cost:alpha=9"), environment: env) }
        #expect(throws: PolicySpecError.self) { try PolicyRegistry.make(PolicySpec(parsing: "cost:alpha=much"), environment: env) }
        #expect(throws: PolicySpecError.self) { try PolicyRegistry.make(PolicySpec(parsing: "lru:depth=2"), environment: env) }
        #expect(throws: PolicySpecError.self) { try PolicyRegistry.make(PolicySpec(parsing: "lmkd:kill_heaviest=maybe"), environment: env) }
        for entry in PolicyRegistry.builtIns {
            let policy = try entry.make([:], env)
            #expect(policy.descriptor.name == entry.name)
            #expect(policy.descriptor.parameters.map(\.name) == entry.parameters.map(\.name))
            #expect(policy.descriptor.parameters.map(\.value) == entry.parameters.map(\.defaultValue), "\(entry.name)")
        }
    }
}

/// Cache-equivalent runs against plain reference implementations of the cache algorithms.
@Suite struct CacheEquivalenceTests {
    struct Request { var object: Int; var size: Int }

    /// A seeded Zipf-like request stream over `objects` objects with fixed, variable sizes (a few larger than `capacity`).
    static func requests(count: Int, objects: Int, seed: UInt64, equalSizes: Bool = false, capacity: Int = 0) -> [Request] {
        var rng = SplitMix64(seed: seed)
        let sizes = (0..<objects).map { k -> Int in
            if equalSizes { return 1000 }
            if k % 97 == 13 { return capacity + 1 + Int(rng.next() % 1000) }   // larger than the cache
            return 1 + Int(rng.next() % 50_000)
        }
        let weights = (1...objects).map { 1.0 / Double($0) }
        let total = weights.reduce(0, +)
        var cumulative: [Double] = []
        var acc = 0.0
        for w in weights { acc += w / total; cumulative.append(acc) }
        return (0..<count).map { _ in
            let u = Double(rng.next() >> 11) / Double(1 << 53)
            var lo = 0, hi = objects - 1
            while lo < hi { let mid = (lo + hi) / 2; if cumulative[mid] < u { lo = mid + 1 } else { hi = mid } }
            return Request(object: lo, size: sizes[lo])
        }
    }

    /// Reference: evict by `victim` until the object fits; objects larger than the capacity are misses never inserted.
    static func referenceMisses(_ reqs: [Request], capacity: Int, victim: ([Int: (lastUse: Int, inserted: Int)], Int) -> Int) -> Int {
        referenceMisses(reqs, capacity: capacity, victim: victim, observe: { _, _ in })
    }

    static func nextUses(_ reqs: [Request]) -> [Int] {
        var next: [Int: Int] = [:]
        var out = [Int](repeating: .max, count: reqs.count)
        for t in stride(from: reqs.count - 1, through: 0, by: -1) {
            out[t] = next[reqs[t].object] ?? .max
            next[reqs[t].object] = t
        }
        return out
    }

    static func jetsimColdLaunches<P: EvictionPolicy>(_ reqs: [Request], capacity: Int, policy: P) throws -> Int {
        let objects = (reqs.map(\.object).max() ?? 0) + 1
        var sizeOf = [Int](repeating: 1, count: objects)
        for r in reqs.reversed() { sizeOf[r.object] = r.size }   // the first request's size
        let catalog = try AppCatalog((0..<objects).map { k in
            var p = AppProfile(name: String(k), dirtyBytes: sizeOf[k])
            p.maxDirtyBytes = sizeOf[k]
            return p
        })
        let events = reqs.enumerated().map { t, r in TraceEvent(time: t / 10 * 1_000_000, app: Int32(r.object), kind: .open) }
        let future = policy.descriptor.capabilities.contains(.needsFuture) ? NextUseTable(events: events, appCount: objects) : nil
        var sim = Simulator(device: .cache(capacityBytes: capacity), catalog: catalog, policy: policy, observer: NullObserver(), future: future)
        for e in events { sim.process(e) }
        return sim.finish().coldLaunches
    }

    @Test(arguments: [20_000, 150_000, 1_000_000])
    func lruAndFifoEqualTheirReferences(capacity: Int) throws {
        let reqs = Self.requests(count: 3000, objects: 250, seed: UInt64(capacity), capacity: capacity)
        let lru = Self.referenceMisses(reqs, capacity: capacity) { cached, _ in cached.min { $0.value.lastUse < $1.value.lastUse }!.key }
        let fifo = Self.referenceMisses(reqs, capacity: capacity) { cached, _ in cached.min { $0.value.inserted < $1.value.inserted }!.key }
        #expect(try Self.jetsimColdLaunches(reqs, capacity: capacity, policy: LRUPolicy()) == lru)
        #expect(try Self.jetsimColdLaunches(reqs, capacity: capacity, policy: FIFOPolicy()) == fifo)
    }

    @Test(arguments: [20_000, 150_000, 1_000_000])
    func oracleEqualsFarthestNextUseUntilItFits(capacity: Int) throws {
        let reqs = Self.requests(count: 3000, objects: 250, seed: UInt64(capacity) + 1, capacity: capacity)
        let next = Self.nextUses(reqs)
        var nextOf: [Int: Int] = [:]
        // Reference Belady: farthest next use, ties (never used again) to the least recently used.
        let reference = Self.referenceMisses(reqs, capacity: capacity) { cached, _ in
            cached.max { a, b in
                let na = nextOf[a.key] ?? .max, nb = nextOf[b.key] ?? .max
                return na != nb ? na < nb : a.value.lastUse > b.value.lastUse
            }!.key
        } observe: { t, object in
            nextOf[object] = next[t]
        }
        #expect(try Self.jetsimColdLaunches(reqs, capacity: capacity, policy: OraclePolicy()) == reference)
    }

    /// With equal footprints footprint × distance orders as distance: `belady-size` is Belady, exactly.
    @Test(arguments: [5_000, 20_000])
    func beladySizeEqualsOracleOnEqualSizes(capacity: Int) throws {
        let reqs = Self.requests(count: 1500, objects: 100, seed: UInt64(capacity), equalSizes: true)
        #expect(try Self.jetsimColdLaunches(reqs, capacity: capacity, policy: BeladySizePolicy())
                == Self.jetsimColdLaunches(reqs, capacity: capacity, policy: OraclePolicy()))
    }

    @Test func oracleIsNeverWorseThanAnyPolicyOnEqualSizes() throws {
        for seed in 1...2 {
            let reqs = Self.requests(count: 1500, objects: 100, seed: UInt64(seed), equalSizes: true)
            let capacity = 20_000   // 20 apps of 1000 bytes
            let oracle = try Self.jetsimColdLaunches(reqs, capacity: capacity, policy: OraclePolicy())
            let env = PolicyEnvironment(seed: UInt64(seed), device: .cache(capacityBytes: capacity))
            for entry in PolicyRegistry.builtIns where entry.name != "oracle" {
                let other = try Self.jetsimColdLaunches(reqs, capacity: capacity, policy: AnyPolicy(try entry.make([:], env)))
                #expect(oracle <= other, "\(entry.name): oracle \(oracle) > \(other)")
            }
        }
    }
}

extension CacheEquivalenceTests {
    /// The reference loop, with a hook that sees every request (the reference Belady tracks next uses with it).
    static func referenceMisses(_ reqs: [Request], capacity: Int, victim: ([Int: (lastUse: Int, inserted: Int)], Int) -> Int,
                                observe: (Int, Int) -> Void) -> Int {
        var cached: [Int: (lastUse: Int, inserted: Int)] = [:]
        var sizes: [Int: Int] = [:]
        var used = 0, misses = 0
        for (t, r) in reqs.enumerated() {
            observe(t, r.object)
            if cached[r.object] != nil {
                cached[r.object]?.lastUse = t
                continue
            }
            misses += 1
            guard r.size <= capacity else { continue }
            while used + r.size > capacity {
                let v = victim(cached, t)
                used -= sizes[v] ?? 0
                cached[v] = nil
            }
            cached[r.object] = (t, t)
            sizes[r.object] = r.size
            used += r.size
        }
        return misses
    }
}

/// Type-erases a policy so a list of built-ins can drive the generic engine.
struct AnyPolicy: EvictionPolicy {
    var base: any EvictionPolicy
    init(_ base: any EvictionPolicy) { self.base = base }
    var descriptor: PolicyDescriptor { base.descriptor }
    func band(for priorityClass: PriorityClass) -> Int { base.band(for: priorityClass) }
    mutating func selectVictim(among candidates: [KillCandidate], context: KillContext) -> Int? {
        base.selectVictim(among: candidates, context: context)
    }
    mutating func didOpen(_ app: Int32, at time: Int) { base.didOpen(app, at: time) }
}
