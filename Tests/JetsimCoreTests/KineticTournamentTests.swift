@testable import JetsimCore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The index `lfu` and `cost` keep their cache-replay candidates in: always the scan's victim.
@Suite struct KineticTournamentTests {
    /// The scan's answer: the smallest double at `time`, then the smallest sequence.
    static func scan(_ members: [Int32: (DecayingScore, UInt64)], at time: Int) -> Int32? {
        var best: (Double, UInt64, Int32)?
        for (id, (score, sequence)) in members {
            let v = score.value(at: time)
            if best.map({ v < $0.0 || (v == $0.0 && sequence < $0.1) }) ?? true { best = (v, sequence, id) }
        }
        return best?.2
    }

    /// Scores built to meet every case: equal and nearly equal scores (counts that differ in the last place, a count
    /// of 2 against 1 one half-life later, equal weights), `cost`'s crossing lines, and time jumps through exp2's
    /// underflow (lfu) and the counts' vanishing into the offset (cost).
    static func randomScore(_ random: inout SplitMix64, halfLife: Double, now: Int, offset: Double) -> DecayingScore {
        let counts = [1.0, 2, 1.5, 3, 1 + 0x1p-52, 2 - 0x1p-52, 7.25, 1e6, 0]
        let numerators = [1.0, 250, 2000]
        let divisors = [1.0, 3, 1024.0.squareRoot(), 50_000]
        let h = Int(halfLife)
        let back = [0, 1, h / 4, h / 2, h, 2 * h, Int(random.below(UInt64(3 * h)))][Int(random.below(7))]
        return DecayingScore(count: counts[Int(random.below(UInt64(counts.count)))], since: max(0, now - back), halfLifeMicros: halfLife,
                             offset: offset, numerator: offset == 0 && random.below(2) == 0 ? 1 : numerators[Int(random.below(3))],
                             divisor: offset == 0 && random.below(2) == 0 ? 1 : divisors[Int(random.below(4))])
    }

    /// Random inserts, in-place updates, removals and queries, time moving by steps from 0 to thousands of half-lives, against a scan.
    /// With `built`, the tournament starts as that many members built at once (`init(building:)`, as the index of crossing
    /// scores moves its heap's members), their models from a time origin before the first query's and after some of their
    /// scores' times, among four times as many ids: the members soon outgrow the slots built.
    func agreesWithAScan(seed: UInt64, offset: Double, halfLife: Double, youngCapacity: Int, steps: Int = 6000, built: Int? = nil) {
        var random = SplitMix64(seed: seed)
        let ids = max(48, 4 * (built ?? 0))
        var tournament = KineticTournament(youngCapacity: youngCapacity)
        tournament.grow(to: ids)
        var members: [Int32: (DecayingScore, UInt64)] = [:]
        var time = 0, sequence: UInt64 = 0
        let h = Int(halfLife)
        var builtLeaves = 0
        if let built {
            time = 5 * h
            let base = 3 * h
            var entries: [KineticTournament.Entry] = []
            for id in stride(from: Int32(ids - 1), through: 0, by: -2).prefix(built) {
                sequence += 1 + random.below(3)
                let score = Self.randomScore(&random, halfLife: halfLife, now: time, offset: offset)
                let s = random.below(4) == 0 ? random.below(1_000_000) : sequence * 1_000_000
                entries.append(KineticTournament.entry(id, score: score, sequence: s, growth: exp2(Double(score.since - base) / halfLife),
                                                       spans: KineticTournament.HalfLifeSpans(halfLife: halfLife)))
                members[id] = (score, s)
            }
            tournament = KineticTournament(building: entries, idCount: ids, now: time, base: base, halfLife: halfLife,
                                           youngCapacity: youngCapacity)
            builtLeaves = tournament.leaves
            #expect(tournament.count == built && Set(tournament.members()) == Set(members.keys))
            #expect(tournament.first(at: time) == Self.scan(members, at: time), "built of \(built)")
        }
        for _ in 0..<steps {
            switch random.below(20) {
            case 0..<8: break   // the same time: several operations at one instant
            case 8..<14: time += Int(random.below(UInt64(max(1, h / 8))))
            case 14..<17: time += h / 4 * Int(random.below(4))   // exact quarter half-lives: exact ties in real numbers
            case 17..<19: time += h * Int(random.below(40))
            default: time += h * Int(random.below(1200))        // through exp2's underflow
            }
            let id = Int32(random.below(UInt64(ids)))
            switch random.below(3) {
            case 0:
                sequence += 1 + random.below(3)
                // Sequences mostly follow time (as last uses do), sometimes not.
                let s = random.below(4) == 0 ? random.below(1_000_000) : sequence * 1_000_000
                let score = Self.randomScore(&random, halfLife: halfLife, now: time, offset: offset)
                if members[id] == nil {
                    tournament.insert(id, score: score, sequence: s, at: time)
                } else {   // a member re-scored in place (the cache replay's hit, once the object leaves the foreground)
                    tournament.update(id, score: score, sequence: s, at: time)
                }
                members[id] = (score, s)
            case 1:
                if members[id] != nil {
                    tournament.remove(id, at: time)
                    members[id] = nil
                }
            default: break
            }
            #expect(tournament.count == members.count)
            #expect(tournament.contains(id) == (members[id] != nil))
            let stored = tournament.storedScore(of: id)
            #expect(stored?.score == members[id]?.0 && stored?.sequence == members[id]?.1)
            if random.below(16) == 0 { #expect(Set(tournament.members()) == Set(members.keys)) }
            // Not after every step: a removal's walk waits for the next entry (an insertion into its slot shares it), so
            // removals are also followed by insertions, updates, removals and time steps with no query between.
            guard random.below(2) == 0 else { continue }
            let got = tournament.first(at: time), expected = Self.scan(members, at: time)
            #expect(got == expected, "at \(time): \(String(describing: got)) against the scan's \(String(describing: expected))")
            if got != expected { return }
        }
        if let built, built >= 63 { #expect(tournament.leaves > builtLeaves, "built of \(built): the members never outgrew \(builtLeaves) slots") }
    }

    @Test(arguments: [(0.0, 3_600_000_000.0), (0.0, 1000), (1.0, 3_600_000_000.0), (1.0, 1000), (0.0, 86_400_000_000), (1.0, 86_400_000_000)])
    func agreesWithAScanThroughInsertsRemovalsAndTime(offset: Double, halfLife: Double) {
        // One seed with every member in the tree, three with young members beside it (at most the default, 3, and 1).
        for (seed, young) in zip(1...4, [0, KineticTournament.defaultYoungCapacity, 3, 1]) {
            agreesWithAScan(seed: UInt64(seed) * 31 + UInt64(halfLife) % 7, offset: offset, halfLife: halfLife, youngCapacity: young)
        }
    }

    /// A tournament built at once from members (the index of crossing scores' move from its heap) answers as the scan does,
    /// empty, within its first 64 slots, at their edge and past it, and goes on doing so through the operations that follow,
    /// the tree growing past the slots built.
    @Test(arguments: [(0.0, 1000.0), (1.0, 1000.0), (1.0, 3_600_000_000.0)])
    func aTournamentBuiltAtOnceAgreesWithAScan(offset: Double, halfLife: Double) {
        for (seed, built) in zip(40..., [0, 1, 63, 64, 65, 300]) {
            agreesWithAScan(seed: UInt64(seed), offset: offset, halfLife: halfLife, youngCapacity: seed % 2 == 0 ? 0 : KineticTournament.defaultYoungCapacity,
                            steps: 3000, built: built)
        }
    }

    /// A cache's miss: the first candidate is removed and, a request later, the missed object is inserted into the slot
    /// it left, in one walk up their shared path (`vacated`); sometimes a member is re-scored or time moves in between.
    @Test(arguments: [0.0, 1.0])
    func anEvictionAndTheNextInsertionShareOneWalk(offset: Double) {
        var random = SplitMix64(seed: 23 + UInt64(offset))
        let halfLife = 50_000.0
        var tournament = KineticTournament(youngCapacity: 0)   // (young members would take the insertions)
        tournament.grow(to: 3000)
        var members: [Int32: (DecayingScore, UInt64)] = [:]
        var time = 0, next: Int32 = 0, shared = 0
        func insertNew() {
            let score = Self.randomScore(&random, halfLife: halfLife, now: time, offset: offset)
            tournament.insert(next, score: score, sequence: UInt64(next), at: time)
            members[next] = (score, UInt64(next))
            next += 1
        }
        for _ in 0..<150 { insertNew() }
        for _ in 0..<2500 {
            guard let victim = tournament.first(at: time) else { break }
            #expect(victim == Self.scan(members, at: time))
            let slot = tournament.slotOf[Int(victim)]
            tournament.remove(victim, at: time)
            members[victim] = nil
            if random.below(4) == 0 {   // a hit between
                let keys = members.keys.sorted()
                let member = keys[Int(random.below(UInt64(keys.count)))]
                let score = Self.randomScore(&random, halfLife: halfLife, now: time, offset: offset)
                tournament.update(member, score: score, sequence: UInt64(next) + 100_000, at: time)
                members[member] = (score, UInt64(next) + 100_000)
            }
            time += Int(random.below(UInt64(halfLife) * (random.below(8) == 0 ? 200 : 1)))
            insertNew()
            if tournament.slotOf[Int(next - 1)] == slot { shared += 1 }
        }
        #expect(shared > 1000, "the missed object took the evicted one's slot \(shared) times")
        #expect(tournament.first(at: time) == Self.scan(members, at: time))
    }

    /// Past 64 slots the tree grows; past 64 half-lives the model's time origin moves.
    @Test(arguments: [0, KineticTournament.defaultYoungCapacity])
    func agreesWithAScanWhileGrowingAndRebasing(youngCapacity: Int) {
        var random = SplitMix64(seed: 9)
        let halfLife = 1000.0
        var tournament = KineticTournament(youngCapacity: youngCapacity)
        tournament.grow(to: 300)
        var members: [Int32: (DecayingScore, UInt64)] = [:]
        var time = 0
        for k in 0..<300 {
            time += Int(random.below(400))
            let score = Self.randomScore(&random, halfLife: halfLife, now: time, offset: 1)
            tournament.insert(Int32(k), score: score, sequence: UInt64(k), at: time)
            members[Int32(k)] = (score, UInt64(k))
            #expect(tournament.first(at: time) == Self.scan(members, at: time))
        }
        while let first = tournament.first(at: time) {
            #expect(first == Self.scan(members, at: time))
            tournament.remove(first, at: time)
            members[first] = nil
            time += Int(random.below(2000))
        }
        #expect(members.isEmpty)
    }

    /// A growth moves the old tree under the new root's left child, winners, models and melts as they were, and decides
    /// the new root alone: the tree answers as the scan does right after it, before any insertion walks up, and later as
    /// time passes (certificates that expire below the moved nodes are found from the root).
    @Test func aGrowthKeepsEveryDuelDecided() {
        var random = SplitMix64(seed: 17)
        let halfLife = 1000.0
        var tournament = KineticTournament(youngCapacity: 0)
        tournament.grow(to: 128)
        var members: [Int32: (DecayingScore, UInt64)] = [:]
        var time = 0
        for k in 0..<64 {
            let score = Self.randomScore(&random, halfLife: halfLife, now: time, offset: 1)
            tournament.insert(Int32(k), score: score, sequence: UInt64(k), at: time)
            members[Int32(k)] = (score, UInt64(k))
        }
        #expect(tournament.leaves == 64 && tournament.freeSlots.count == 0)
        tournament.growSlots()
        #expect(tournament.leaves == 128)
        for _ in 0..<64 {
            #expect(tournament.first(at: time) == Self.scan(members, at: time), "at \(time)")
            time += Int(random.below(UInt64(halfLife) * 4))
        }
    }

    /// `cost`: a frequent object's score falls below a rarer one's as its count decays — the duel's certificate
    /// expires and the victim changes without any insert or removal.
    /// (In the tree's certificates, or among young members, or one in each.)
    @Test(arguments: [0, 1, KineticTournament.defaultYoungCapacity])
    func crossingScoresChangeTheVictimAsTimePasses(youngCapacity: Int) {
        let h = 1_000_000.0
        var tournament = KineticTournament(youngCapacity: youngCapacity)
        tournament.grow(to: 2)
        // (10 + 1) · 1/2 = 5.5 now, → 0.5 as the count decays; (0 + 1) · 1 = 1 at every time. Equal at count 1: 3.32 h.
        tournament.insert(0, score: DecayingScore(count: 10, since: 0, halfLifeMicros: h, offset: 1, numerator: 1, divisor: 2), sequence: 1, at: 0)
        tournament.insert(1, score: DecayingScore(count: 0, since: 0, halfLifeMicros: h, offset: 1), sequence: 2, at: 0)
        #expect(tournament.first(at: 0) == 1)
        #expect(tournament.first(at: 3_300_000) == 1)
        #expect(tournament.first(at: 3_330_000) == 0)
        #expect(tournament.first(at: 100_000_000) == 0)
    }

    /// `lfu` long after: exp2 underflows, every count is 0, and the tie goes to the smaller sequence — the other way
    /// from the counts' order.
    @Test(arguments: [0, 1, KineticTournament.defaultYoungCapacity])
    func underflowedCountsTieAndTheSequenceDecides(youngCapacity: Int) {
        let h = 1000.0
        var tournament = KineticTournament(youngCapacity: youngCapacity)
        tournament.grow(to: 2)
        tournament.insert(0, score: DecayingScore(count: 5, since: 0, halfLifeMicros: h), sequence: 1, at: 0)
        tournament.insert(1, score: DecayingScore(count: 1, since: 0, halfLifeMicros: h), sequence: 2, at: 0)
        #expect(tournament.first(at: 500_000) == 1)     // 5 · 2^-500 > 2^-500
        #expect(tournament.first(at: 1_073_000) == 1)   // subnormal, still apart
        #expect(tournament.first(at: 1_100_000) == 0)   // both 0: the smaller sequence
    }

    /// Mathematically equal scores (a count of 2 against a count of 1 one half-life later) whose doubles differ in the
    /// last place, one way or the other depending on the time: the tournament follows the doubles, not its model
    /// (whose two scores, rounded once, differ at some insertion times).
    /// (The duel in the tree, the scan of the young, and the weighing of the tree's winner against the young's.)
    @Test(arguments: [0, 1, KineticTournament.defaultYoungCapacity])
    func followsTheDoublesThroughARealTie(youngCapacity: Int) {
        let h = 3_600_000_000.0
        let a = DecayingScore(count: 2, since: 0, halfLifeMicros: h), b = DecayingScore(count: 1, since: Int(h), halfLifeMicros: h)
        var less = 0, more = 0
        for offset in [1_234_567, 7_654_321, 99_999, 31_415_926, 2_718_281_828] {
            var tournament = KineticTournament(youngCapacity: youngCapacity)
            tournament.grow(to: 2)
            var time = Int(h) + offset
            tournament.insert(0, score: a, sequence: 2, at: time)
            tournament.insert(1, score: b, sequence: 1, at: time)
            for step in 0..<400 {
                time += 1 + step * 7919 % 1_000_003
                let (x, y) = (a.value(at: time), b.value(at: time))
                if x < y { less += 1 } else if x > y { more += 1 }
                #expect(tournament.first(at: time) == (x < y ? 0 : 1))
            }
        }
        #expect(less > 0 && more > 0)   // the case is real: rounding orders the equal scores both ways
    }

    /// The scan of the young members decides from their models only when the smallest is more than 2ε below every other,
    /// and from the doubles otherwise: on `cost` scores in their precise range, far apart and nearly or really tied
    /// (counts 1 + 2^-52 against 1, 2 against 1 one half-life later), it picks what the doubles pick, both ways.
    @Test func theYoungScanFollowsTheDoubles() {
        var random = SplitMix64(seed: 41)
        let h = 3_600_000_000.0
        var farByDoubles = 0, closeByModels = 0
        for trial in 0..<400 {
            var tournament = KineticTournament()
            tournament.grow(to: 16)
            var members: [Int32: (DecayingScore, UInt64)] = [:]
            let time = Int(h) * 2 + Int(random.below(1_000_000))
            let close = trial % 2 == 0   // half the trials near-tied
            for k in 0..<KineticTournament.defaultYoungCapacity {
                let count = close ? [1.0, 1 + 0x1p-52, 2, 1][k % 4] : 1 + Double(random.below(1000))
                let shared = time - Int(h) / 2   // (2 one half-life before it is 1 at it: equal in real numbers)
                let since = close ? (k % 4 == 2 ? shared - Int(h) : shared) : time - Int(random.below(UInt64(h)))
                let score = DecayingScore(count: count, since: since, halfLifeMicros: h, offset: 1, numerator: 2000,
                                          divisor: close ? 4096 : Double(1 + random.below(1 << 20)))
                tournament.insert(Int32(k), score: score, sequence: UInt64(100 - k), at: time)
                members[Int32(k)] = (score, UInt64(100 - k))
            }
            let scans = tournament.youngScansByDoubles
            #expect(tournament.first(at: time) == Self.scan(members, at: time))
            let byDoubles = tournament.youngScansByDoubles > scans
            if close && !byDoubles { closeByModels += 1 }
            if !close && byDoubles { farByDoubles += 1 }
            #expect(tournament.youngest() == tournament.youngestFromDoubles())
        }
        #expect(closeByModels == 0, "a near tie decided by the models")
        #expect(farByDoubles < 20, "\(farByDoubles) of 200 scans of far-apart scores went to the doubles")
    }

    /// The bounds of log2 1 that entries of weight 1 / 1 (`lfu`'s) take as a constant are the ones computed from the bits.
    @Test func theBoundsOfLog2OfOneAreAConstant() {
        #expect(KineticTournament.log2BoundsOfOne == KineticTournament.log2Bounds(1))
    }

    /// An entry of a `cost` score whose count and weight lie within 2^±200 takes its ranges by a shortcut
    /// (`HalfLifeSpans`): the general precision, and a constant no earlier than the general one and, for a count of at least 1,
    /// at most 1.21 half-lives and 201 µs later; at the edges of that band and beyond them (where the general ranges apply).
    /// A score whose half-life is not the spans' takes the general ranges.
    @Test func moderateScoresTakeRangesWithinTheGeneralOnes() {
        var random = SplitMix64(seed: 23)
        let edges = [0x1p-201, 0x1p-200, 0x1.fffffffffffffp-200, 1, 1 + 0x1p-52, 2000, 0x1.fffffffffffffp199, 0x1p200, 0x1.fffffffffffffp200, 0x1p201, 0x1p500]
        var shortcuts = 0
        for _ in 0..<20_000 {
            func pick() -> Double {
                random.below(3) == 0 ? edges[Int(random.below(UInt64(edges.count)))]
                    : Double(bitPattern: (0x3ff0_0000_0000_0000 | random.next() >> 12)) * Double(sign: .plus, exponent: Int(random.below(461)) - 230, significand: 1)
            }
            let halfLife = [1000.0, 3.6e9, 8.64e10, 3.6e15][Int(random.below(4))]
            let score = DecayingScore(count: pick(), since: Int(random.below(1 << 40)) - (1 << 39), halfLifeMicros: halfLife,
                                      offset: 1, numerator: pick(), divisor: pick())
            let spans = KineticTournament.HalfLifeSpans(halfLife: random.below(8) == 0 ? halfLife * 2 : halfLife)
            let e = KineticTournament.entry(0, score: score, sequence: 0, growth: 1, spans: spans)
            let general = KineticTournament.ranges(of: score)
            #expect(e.preciseUntil == general.preciseUntil, "\(score)")
            if spans.halfLife == halfLife && KineticTournament.isModerate(score.count) && KineticTournament.isModerate(score.numerator)
                && KineticTournament.isModerate(score.divisor) {
                shortcuts += 1
                let slack = score.count >= 1 ? Int((1.2101 * halfLife).rounded(.up)) + 202 : Int.max   // (the products' rounding: 10^-4 h)
                #expect(e.constantFrom >= general.constantFrom && (e.constantFrom == Int.max || e.constantFrom - general.constantFrom <= slack),
                        "\(score): constant from \(e.constantFrom), generally \(general.constantFrom)")
            } else {
                #expect(e.constantFrom == general.constantFrom, "\(score)")
            }
        }
        #expect(shortcuts > 1000 && shortcuts < 19_000)   // both ways are taken
    }

    @Test func aCopyIsASnapshot() {
        var tournament = KineticTournament()
        tournament.grow(to: 3)
        tournament.insert(0, score: DecayingScore(count: 2, since: 0, halfLifeMicros: 1000), sequence: 0, at: 0)
        var copy = tournament
        copy.makeUnique()
        copy.insert(1, score: DecayingScore(count: 1, since: 0, halfLifeMicros: 1000), sequence: 1, at: 0)
        #expect(tournament.first(at: 0) == 0 && !tournament.contains(1))
        #expect(copy.first(at: 0) == 1)
    }
}
