#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import JetsimCore

/// `lfu` and `cost` in the cache replay run on indexes (`lfu` on a `DecayingCountHeap`, `cost` on a `CrossingScoreIndex`); before issue 19 they scanned every cached
/// object at each eviction. These replay random traces both ways — the indexed policies against verbatim copies of
/// the policies as they were (dictionary counts, the scan) — and require the same victims at every request.
@Suite struct DecayingReplayTests {
    /// Request times: ties, none at all, and jumps of thousands of half-lives (through exp2's underflow).
    enum Clock: CaseIterable { case tenPerSecond, frozen, jumps }

    static func times(_ clock: Clock, count: Int, halfLifeMicros: Double, seed: UInt64) -> [Int] {
        var random = SplitMix64(seed: seed)
        var t = 0
        return (0..<count).map { k in
            switch clock {
            case .tenPerSecond: return k / 10 * 1_000_000
            case .frozen: return 0
            case .jumps:
                switch random.below(10) {
                case 0..<6: break
                case 6..<8: t += Int(random.below(UInt64(halfLifeMicros / 4) + 1))
                case 8: t += Int(halfLifeMicros) * Int(random.below(8))
                default: t += Int(halfLifeMicros) * Int(random.below(1500))
                }
                return t
            }
        }
    }

    /// Replays `reqs` through both and compares counters and the cached set after every request.
    func sameVictims<P: EvictionPolicy, R: EvictionPolicy>(_ indexed: P, _ reference: R, _ reqs: [CacheEquivalenceTests.Request], times: [Int],
                                                           capacity: Int, _ label: String) {
        var fast = CacheReplay(capacityBytes: capacity, policy: indexed)
        var slow = CacheReplay(capacityBytes: capacity, policy: reference)
        #expect(fast.decaying && !slow.decaying && slow.scans, "\(label)")
        for (k, r) in reqs.enumerated() {
            fast.request(Int32(r.object), size: r.size, time: times[k])
            slow.request(Int32(r.object), size: r.size, time: times[k])
            let same = fast.counters == slow.counters && fast.objects.map(\.resident) == slow.objects.map(\.resident)
            #expect(same, "\(label): request \(k)")
            if !same { return }
        }
        #expect(fast.counters.evictions > 100, "\(label): too few evictions to tell")
    }

    @Test(arguments: Clock.allCases)
    func lfuEvictsAsTheScanDid(clock: Clock) {
        for (hours, seed) in [(24.0, 1), (0.001, 2), (1, 3)] {
            for capacity in [20_000, 150_000] {
                let reqs = CacheEquivalenceTests.requests(count: 3000, objects: 250, seed: UInt64(seed * 100 + capacity), capacity: capacity)
                let times = Self.times(clock, count: reqs.count, halfLifeMicros: hours * 3600e6, seed: UInt64(seed))
                sameVictims(LFUPolicy(halfLifeHours: hours), LegacyLFUPolicy(halfLifeHours: hours), reqs, times: times, capacity: capacity,
                            "lfu \(hours) h, \(clock), \(capacity) B")
            }
        }
    }

    @Test(arguments: Clock.allCases)
    func costEvictsAsTheScanDid(clock: Clock) {
        for (alpha, hours, seed) in [(1.0, 24.0, 1), (0, 0.001, 2), (0.5, 1, 3), (1, 0.001, 4)] {
            for (capacity, equalSizes) in [(40_000, false), (40_000, true)] {
                let reqs = CacheEquivalenceTests.requests(count: 3000, objects: 250, seed: UInt64(seed * 100 + capacity), equalSizes: equalSizes,
                                                          capacity: capacity)
                let times = Self.times(clock, count: reqs.count, halfLifeMicros: hours * 3600e6, seed: UInt64(seed))
                sameVictims(CostPolicy(alpha: alpha, halfLifeHours: hours), LegacyCostPolicy(alpha: alpha, halfLifeHours: hours), reqs,
                            times: times, capacity: capacity, "cost α \(alpha) \(hours) h, \(clock), \(capacity) B\(equalSizes ? " equal sizes" : "")")
            }
        }
    }

    /// `largest` ranks by a constant score, −footprint, in the replay's heap of constant scores: the same victims as its scan,
    /// with equal sizes (ties to the least recently used), small ones, and sizes near the input limit of 2^50 bytes.
    @Test func largestEvictsAsTheScanDid() {
        for (seed, equalSizes) in [(1, false), (2, true), (3, false)] {
            for capacity in [20_000, 150_000] {
                let reqs = CacheEquivalenceTests.requests(count: 3000, objects: 250, seed: UInt64(seed * 100 + capacity), equalSizes: equalSizes,
                                                          capacity: capacity)
                let times = Self.times(.tenPerSecond, count: reqs.count, halfLifeMicros: 3600e6, seed: UInt64(seed))
                sameVictims(LargestPolicy(), ScanningLargestPolicy(), reqs, times: times, capacity: capacity,
                            "largest, seed \(seed), \(capacity) B\(equalSizes ? " equal sizes" : "")")
            }
        }
        // Sizes one apart just below 2^50 (where 1 / (size + 1) differ least), in a cache of three.
        let big = 1 << 50
        let huge = (0..<3000).map { k in CacheEquivalenceTests.Request(object: (k * 7919) % 40, size: big - (k * 7919) % 40 % 6) }
        sameVictims(LargestPolicy(), ScanningLargestPolicy(), huge, times: Array(0..<huge.count), capacity: 3 * big - 10, "largest near 2^50")
    }

    /// A policy whose candidates' scores are some constant, some decaying: the replay keeps them in two indexes
    /// (`FixedScoreHeap`, `CrossingScoreIndex`), objects move between the two as their scores change kind, and
    /// each victim is the better of the two firsts — the scan's over all of them.
    @Test(arguments: Clock.allCases)
    func constantAndDecayingScoresTogetherEvictAsTheScanDoes(clock: Clock) {
        for (seed, equalSizes) in [(1, false), (2, true)] {
            for capacity in [20_000, 150_000] {
                let reqs = CacheEquivalenceTests.requests(count: 3000, objects: 250, seed: UInt64(seed * 100 + capacity), equalSizes: equalSizes,
                                                          capacity: capacity)
                let times = Self.times(clock, count: reqs.count, halfLifeMicros: MixedScorePolicy.halfLifeMicros, seed: UInt64(seed))
                sameVictims(MixedScorePolicy(), ScanOnly(MixedScorePolicy()), reqs, times: times, capacity: capacity,
                            "mixed, \(clock), seed \(seed), \(capacity) B\(equalSizes ? " equal sizes" : "")")
            }
        }
    }

    /// `lfu`'s scores are plain decaying counts, whose order never changes: they live in the heap of such counts
    /// (`DecayingCountHeap`), `cost`'s (offset 1: their lines cross) in the index of crossing scores.
    @Test func lfuRanksInTheHeapOfDecayingCountsAndCostInTheIndexOfCrossingScores() {
        let reqs = CacheEquivalenceTests.requests(count: 2000, objects: 250, seed: 11, capacity: 150_000)
        var lfu = CacheReplay(capacityBytes: 150_000, policy: LFUPolicy())
        var cost = CacheReplay(capacityBytes: 150_000, policy: CostPolicy())
        var most = 0
        for (k, r) in reqs.enumerated() {
            lfu.request(Int32(r.object), size: r.size, time: k * 100_000)
            cost.request(Int32(r.object), size: r.size, time: k * 100_000)
            most = max(most, lfu.counts?.nodes.count ?? 0)
        }
        #expect(lfu.counters.evictions > 100 && cost.counters.evictions > 100)
        #expect(most > 1 && !lfu.scoring && lfu.fixed == nil)
        #expect(cost.counts == nil && cost.scoring)
    }

    /// `cost` with thousands of candidates and a half-life of minutes, where the heap of floors stops paying (each short
    /// window's rebuild visits them all): its index moves to the kinetic tournament mid-replay, and the misses and the
    /// cached objects stay the scan's before and after the move.
    @Test func costsIndexMovesToTheTournamentMidReplayAndTheVictimsStayTheScans() {
        let capacity = 45_000_000
        let reqs = CacheEquivalenceTests.requests(count: 20_000, objects: 12_000, seed: 29, capacity: capacity)
        let times = Self.times(.tenPerSecond, count: reqs.count, halfLifeMicros: 0, seed: 0)
        var fast = CacheReplay(capacityBytes: capacity, policy: CostPolicy(halfLifeHours: 0.1))
        var slow = CacheReplay(capacityBytes: capacity, policy: LegacyCostPolicy(alpha: 1, halfLifeHours: 0.1))
        var movedAt = -1
        for (k, r) in reqs.enumerated() {
            fast.request(Int32(r.object), size: r.size, time: times[k])
            slow.request(Int32(r.object), size: r.size, time: times[k])
            let same = fast.counters == slow.counters && (k % 64 != 0 || fast.objects.map(\.resident) == slow.objects.map(\.resident))
            #expect(same, "request \(k)")
            if !same { return }
            if movedAt < 0 && fast.scored.inTournament { movedAt = k }
        }
        #expect(movedAt > 0 && fast.counters.evictions > 1000, "moved at request \(movedAt), \(fast.counters.evictions) evictions")
        #expect(fast.objects.map(\.resident) == slow.objects.map(\.resident))
    }

    /// Scores of all three kinds at once (constant, plain decaying counts, counts with an offset), objects moving
    /// between the three indexes as they are opened: each victim is the best of the three firsts, the scan's.
    @Test(arguments: Clock.allCases)
    func threeKindsOfScoresTogetherEvictAsTheScanDoes(clock: Clock) {
        for (seed, equalSizes) in [(1, false), (2, true)] {
            for capacity in [20_000, 150_000] {
                let reqs = CacheEquivalenceTests.requests(count: 3000, objects: 250, seed: UInt64(seed * 100 + capacity), equalSizes: equalSizes,
                                                          capacity: capacity)
                let times = Self.times(clock, count: reqs.count, halfLifeMicros: ThreeKindsPolicy.halfLifeMicros, seed: UInt64(seed))
                var fast = CacheReplay(capacityBytes: capacity, policy: ThreeKindsPolicy())
                for (k, r) in reqs.enumerated() { fast.request(Int32(r.object), size: r.size, time: times[k]) }
                #expect(fast.counts != nil && fast.scoring && fast.fixed != nil, "every index in use")
                sameVictims(ThreeKindsPolicy(), ScanOnly(ThreeKindsPolicy()), reqs, times: times, capacity: capacity,
                            "three kinds, \(clock), seed \(seed), \(capacity) B\(equalSizes ? " equal sizes" : "")")
            }
        }
    }

    /// Replays `reqs` through `indexed` and `reference` (which scans), requiring the same cached set after every
    /// request; returns the most entries the indexed replay kept stale at once (`CachedObject.staleScore`).
    func mostStale<P: EvictionPolicy, R: EvictionPolicy>(_ indexed: P, _ reference: R, _ reqs: [CacheEquivalenceTests.Request], times: [Int],
                                                         capacity: Int, _ label: String) -> Int {
        var fast = CacheReplay(capacityBytes: capacity, policy: indexed)
        var slow = CacheReplay(capacityBytes: capacity, policy: reference)
        var most = 0
        for (k, r) in reqs.enumerated() {
            fast.request(Int32(r.object), size: r.size, time: times[k])
            slow.request(Int32(r.object), size: r.size, time: times[k])
            most = max(most, fast.objects.map(\.staleScore).count { $0 })
            guard fast.counters == slow.counters && fast.objects.map(\.resident) == slow.objects.map(\.resident) else {
                Issue.record("\(label): request \(k)")
                return most
            }
        }
        #expect(fast.counters.evictions > 100, "\(label): too few evictions to tell")
        return most
    }

    /// A hit whose score rises by a margin keeps its stored score (a lower bound) until it wins its index, and is
    /// rescored then: `lfu`'s and `cost`'s hits mostly, and a policy of another arithmetic (counts ×1.25 an open). The
    /// victims stay the scan's, through ties (a frozen clock) and jumps past the 500 half-lives a stale score may last.
    @Test(arguments: Clock.allCases)
    func aRisingScoreStaysStoredUntilItWinsAndTheVictimsStayTheScans(clock: Clock) {
        let reqs = CacheEquivalenceTests.requests(count: 3000, objects: 250, seed: 7, capacity: 40_000)
        let hours = 0.01
        let times = Self.times(clock, count: reqs.count, halfLifeMicros: hours * 3600e6, seed: 7)
        #expect(mostStale(LFUPolicy(halfLifeHours: hours), LegacyLFUPolicy(halfLifeHours: hours), reqs, times: times, capacity: 40_000,
                          "lfu, \(clock)") > 0)
        #expect(mostStale(CostPolicy(halfLifeHours: hours), LegacyCostPolicy(alpha: 1, halfLifeHours: hours), reqs, times: times, capacity: 40_000,
                          "cost, \(clock)") > 0)
        let rising = LaunchScoredPolicy { _, launches in 1.25 * Double(launches) }
        #expect(mostStale(rising, ScanOnly(rising), reqs, times: times, capacity: 40_000, "×1.25 an open, \(clock)") > 0)
    }

    /// A hit of `largest` (whose score, −footprint, never changes) keeps its stored key, with the earlier
    /// sequence, until it wins its heap; it is refreshed then, so among equal sizes the victim is still the
    /// least recently used, the scan's.
    @Test func aLargestHitKeepsItsKeyUntilItWinsAndTheVictimsStayTheScans() {
        for (seed, equalSizes) in [(5, true), (6, false)] {
            let reqs = CacheEquivalenceTests.requests(count: 3000, objects: 250, seed: UInt64(seed), equalSizes: equalSizes, capacity: 40_000)
            #expect(mostStale(LargestPolicy(), ScanningLargestPolicy(), reqs, times: Array(0..<reqs.count), capacity: 40_000,
                              "largest, seed \(seed)\(equalSizes ? " equal sizes" : "")") > 0)
        }
    }

    /// A stale score stands in for its object's only while the doubles provably keep their order: until 500 half-lives
    /// after the stored score's start (`staleHorizon`). The first eviction at or after that rescores every stale entry,
    /// also those that do not win (here object 0, stored 50 and now 60, while object 1, at 10, is the victim).
    @Test func staleScoresAreAllRescoredAtTheirHorizon() {
        let counts: [Int32: [Double]] = [0: [50, 60], 1: [10], 2: [20], 3: [30]]
        let policy = LaunchScoredPolicy(decaysFromZero: true) { app, launches in   // (asked for app 0 with no launch, too)
            let list = counts[app] ?? [1]
            return list[min(max(launches - 1, 0), list.count - 1)]
        }
        let halfLife = LaunchScoredPolicy.halfLifeMicros
        var replay = CacheReplay(capacityBytes: 30, policy: policy)
        for (object, time) in [(0, 0), (1, 1), (0, 2), (2, 3)] { replay.request(Int32(object), size: 10, time: time) }
        #expect(replay.objects[0].staleScore, "a hit's higher score waits")
        #expect(replay.staleHorizon == Int(500 * halfLife), "500 half-lives from the stored score's start")
        replay.request(3, size: 10, time: Int(500 * halfLife))
        #expect(replay.counters.evictions == 1 && !replay.objects[1].resident, "the lowest score goes")
        #expect(!replay.objects.contains { $0.staleScore }, "at the horizon every stale entry is rescored")
        #expect(replay.staleHorizon == Int.max)
    }

    /// A score that falls at an open, or rises by less than the margin the doubles need (a count of 2^30 gaining 1), is
    /// rescored at once: no entry is ever stale, and the victims are the scan's. (Both decay from time 0: a count decaying
    /// from a later time may well rise even as the count falls, and would rightly stay stored.)
    @Test(arguments: Clock.allCases)
    func aFallingOrBarelyRisingScoreIsRescoredAtOnce(clock: Clock) {
        let reqs = CacheEquivalenceTests.requests(count: 3000, objects: 250, seed: 8, capacity: 40_000)
        let times = Self.times(clock, count: reqs.count, halfLifeMicros: LaunchScoredPolicy.halfLifeMicros, seed: 8)
        let falling = LaunchScoredPolicy(decaysFromZero: true) { _, launches in 1000 / Double(launches) }
        #expect(mostStale(falling, ScanOnly(falling), reqs, times: times, capacity: 40_000, "falling, \(clock)") == 0)
        let barely = LaunchScoredPolicy(decaysFromZero: true) { _, launches in 0x1p30 + Double(launches) }
        #expect(mostStale(barely, ScanOnly(barely), reqs, times: times, capacity: 40_000, "2^30 + launches, \(clock)") == 0)
    }

    /// The score (−footprint) is strictly decreasing in the size over the whole input range (0…2^50) and beyond it to 2^53,
    /// adjacent sizes included.
    @Test func largestsScoreOrdersAsTheFootprint() {
        var random = SplitMix64(seed: 9)
        let score = { (f: Int) in LargestPolicy().decayingScore(KillCandidate(app: 0, footprintBytes: f))!.value(at: 0) }
        for _ in 0..<20_000 {
            let a = Int(random.below((1 << 53) - 1))
            let b = random.below(2) == 0 ? a + 1 : Int(random.below((1 << 53) - 1))
            #expect((score(a) > score(b)) == (a < b) && (score(a) == score(b)) == (a == b), "\(a) against \(b)")
        }
        #expect(score((1 << 53) - 2) > score((1 << 53) - 1) && score(0) > score(1))
    }

    /// The score the indexes evaluate is the policy's own double, bit for bit, for any candidate at any time.
    @Test func aDecayingScoreIsThePolicysArithmetic() {
        var random = SplitMix64(seed: 4)
        var lfu = LFUPolicy(halfLifeHours: 0.5), legacyLFU = LegacyLFUPolicy(halfLifeHours: 0.5)
        var cost = CostPolicy(alpha: 0.7, halfLifeHours: 0.5), legacyCost = LegacyCostPolicy(alpha: 0.7, halfLifeHours: 0.5)
        var t = 0
        for _ in 0..<2000 {
            t += Int(random.below(1_000_000_000))
            let app = Int32(random.below(20))
            if random.below(2) == 0 {
                lfu.didOpen(app, at: t); legacyLFU.didOpen(app, at: t); cost.didOpen(app, at: t); legacyCost.didOpen(app, at: t)
            }
            let c = KillCandidate(app: Int32(random.below(25)), footprintBytes: Int(random.below(1 << 30)), relaunchCostMillis: Int(random.below(3000)))
            let later = t + Int(random.below(10_000_000_000))
            #expect(lfu.decayingScore(c)!.value(at: later).bitPattern == legacyLFU.frequency.value(c.app, at: later).bitPattern)
            #expect(cost.decayingScore(c)!.value(at: later).bitPattern == legacyCost.value(c, at: later).bitPattern)
        }
        #expect(LFUPolicy().hasDecayingScore && CostPolicy().hasDecayingScore && LargestPolicy().hasDecayingScore)
        #expect(!LRUPolicy().hasDecayingScore && !LegacyLFUPolicy(halfLifeHours: 1).hasDecayingScore)
    }
}

/// `largest` as it ranked before issue 23: its scan alone (no score, so the replay scans every cached object).
struct ScanningLargestPolicy: EvictionPolicy {
    var descriptor: PolicyDescriptor { LargestPolicy().descriptor }
    func band(for priorityClass: PriorityClass) -> Int { LargestPolicy().band(for: priorityClass) }
    mutating func selectVictim(among candidates: [KillCandidate], context: KillContext) -> Int? {
        var largest = LargestPolicy()
        return largest.selectVictim(among: candidates, context: context)
    }
}

/// Scores of both kinds: constant for an object opened a multiple of three times (a weight of its id, of the size of the
/// decaying ones), otherwise its launches decaying from when it last left the foreground; an object's kind changes as it
/// is opened. Victims by the scan's rule: the smallest double now, then the smallest sequence.
struct MixedScorePolicy: EvictionPolicy {
    static let halfLifeMicros = 20e6
    var descriptor: PolicyDescriptor { PolicyDescriptor(name: "mixed") }
    func band(for priorityClass: PriorityClass) -> Int { BandTable().band(for: priorityClass) }
    func decayingScore(_ c: KillCandidate) -> DecayingScore? {
        c.launchCount % 3 == 0
            ? DecayingScore(count: 0, since: 0, halfLifeMicros: Self.halfLifeMicros, offset: 1, numerator: Double(c.app % 5 + 1), divisor: 2)
            : DecayingScore(count: Double(c.launchCount), since: c.lastForegroundTime, halfLifeMicros: Self.halfLifeMicros)
    }
    mutating func selectVictim(among candidates: [KillCandidate], context: KillContext) -> Int? {
        candidates.indices.min { a, b in
            let va = decayingScore(candidates[a])!.value(at: context.now), vb = decayingScore(candidates[b])!.value(at: context.now)
            return va != vb ? va < vb : candidates[a].lastUseSequence < candidates[b].lastUseSequence
        }
    }
}

/// Scores of three kinds by the object's launches: constant (a multiple of three), a plain decaying count of them (one
/// more), and the same with an offset of 1 (two more), whose lines cross the plain ones. Victims by the scan's rule.
struct ThreeKindsPolicy: EvictionPolicy {
    static let halfLifeMicros = 20e6
    var descriptor: PolicyDescriptor { PolicyDescriptor(name: "three-kinds") }
    func band(for priorityClass: PriorityClass) -> Int { BandTable().band(for: priorityClass) }
    func decayingScore(_ c: KillCandidate) -> DecayingScore? {
        switch c.launchCount % 3 {
        case 0: DecayingScore(count: 0, since: 0, halfLifeMicros: Self.halfLifeMicros, offset: 1, numerator: Double(c.app % 5 + 1), divisor: 4)
        case 1: DecayingScore(count: Double(c.launchCount), since: c.lastForegroundTime, halfLifeMicros: Self.halfLifeMicros)
        default: DecayingScore(count: Double(c.launchCount) / 4, since: c.lastForegroundTime, halfLifeMicros: Self.halfLifeMicros, offset: 1)
        }
    }
    mutating func selectVictim(among candidates: [KillCandidate], context: KillContext) -> Int? {
        candidates.indices.min { a, b in
            let va = decayingScore(candidates[a])!.value(at: context.now), vb = decayingScore(candidates[b])!.value(at: context.now)
            return va != vb ? va < vb : candidates[a].lastUseSequence < candidates[b].lastUseSequence
        }
    }
}

/// A count of the candidate's launches (`count(app, launches)`), decaying from when it last left the foreground or from
/// time 0: a score that rises or falls at each open as `count` (and the later start of its decay) says. Victims by the
/// scan's rule: the smallest double now, then the smallest sequence.
struct LaunchScoredPolicy: EvictionPolicy {
    static let halfLifeMicros = 36e6
    var decaysFromZero = false
    let count: @Sendable (_ app: Int32, _ launches: Int) -> Double
    var descriptor: PolicyDescriptor { PolicyDescriptor(name: "launch-scored") }
    func band(for priorityClass: PriorityClass) -> Int { BandTable().band(for: priorityClass) }
    func decayingScore(_ c: KillCandidate) -> DecayingScore? {
        DecayingScore(count: count(c.app, c.launchCount), since: decaysFromZero ? 0 : c.lastForegroundTime, halfLifeMicros: Self.halfLifeMicros)
    }
    mutating func selectVictim(among candidates: [KillCandidate], context: KillContext) -> Int? {
        candidates.indices.min { a, b in
            let va = decayingScore(candidates[a])!.value(at: context.now), vb = decayingScore(candidates[b])!.value(at: context.now)
            return va != vb ? va < vb : candidates[a].lastUseSequence < candidates[b].lastUseSequence
        }
    }
}

/// `policy` without its index: the replay scans and asks `selectVictim`.
struct ScanOnly<P: EvictionPolicy>: EvictionPolicy {
    var policy: P
    init(_ policy: P) { self.policy = policy }
    var descriptor: PolicyDescriptor { policy.descriptor }
    func band(for priorityClass: PriorityClass) -> Int { policy.band(for: priorityClass) }
    mutating func selectVictim(among candidates: [KillCandidate], context: KillContext) -> Int? {
        policy.selectVictim(among: candidates, context: context)
    }
}

// Verbatim (but for names) the decaying policies before issue 19: the reference their indexed replay must equal.

struct LegacyDecayedFrequency: Sendable {
    let halfLifeMicros: Double
    private var value: [Int32: Double] = [:]
    private var updated: [Int32: Int] = [:]

    init(halfLifeMicros: Double) { self.halfLifeMicros = halfLifeMicros }

    mutating func record(_ app: Int32, at time: Int) {
        value[app] = self.value(app, at: time) + 1
        updated[app] = time
    }

    func value(_ app: Int32, at time: Int) -> Double {
        guard let v = value[app], let t = updated[app] else { return 0 }
        return v * exp2(-Double(time - t) / halfLifeMicros)
    }
}

struct LegacyLFUPolicy: EvictionPolicy {
    var frequency: LegacyDecayedFrequency
    init(halfLifeHours: Double) { frequency = LegacyDecayedFrequency(halfLifeMicros: halfLifeHours * 3600e6) }
    var descriptor: PolicyDescriptor { PolicyDescriptor(name: "legacy-lfu") }
    func band(for priorityClass: PriorityClass) -> Int { BandTable().band(for: priorityClass) }
    mutating func didOpen(_ app: Int32, at time: Int) { frequency.record(app, at: time) }
    mutating func selectVictim(among candidates: [KillCandidate], context: KillContext) -> Int? {
        let f = candidates.map { frequency.value($0.app, at: context.now) }
        var best = 0
        for i in 1..<candidates.count where f[i] < f[best] || (f[i] == f[best] && candidates[i].lastUseSequence < candidates[best].lastUseSequence) {
            best = i
        }
        return best
    }
}

struct LegacyCostPolicy: EvictionPolicy {
    let alpha: Double
    var frequency: LegacyDecayedFrequency
    init(alpha: Double, halfLifeHours: Double) {
        self.alpha = alpha
        frequency = LegacyDecayedFrequency(halfLifeMicros: halfLifeHours * 3600e6)
    }
    var descriptor: PolicyDescriptor { PolicyDescriptor(name: "legacy-cost") }
    func band(for priorityClass: PriorityClass) -> Int { BandTable().band(for: priorityClass) }
    mutating func didOpen(_ app: Int32, at time: Int) { frequency.record(app, at: time) }
    func value(_ c: KillCandidate, at time: Int) -> Double {
        (frequency.value(c.app, at: time) + 1) * Double(c.relaunchCostMillis) / pow(Double(max(c.footprintBytes, 1)), alpha)
    }
    mutating func selectVictim(among candidates: [KillCandidate], context: KillContext) -> Int? {
        let v = candidates.map { value($0, at: context.now) }
        var best = 0
        for i in 1..<candidates.count where v[i] < v[best] || (v[i] == v[best] && candidates[i].lastUseSequence < candidates[best].lastUseSequence) {
            best = i
        }
        return best
    }
}
