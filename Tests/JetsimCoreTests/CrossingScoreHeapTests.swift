@testable import JetsimCore
import Testing

/// The heap of floors `cost`'s replay keeps its candidates in while its windows pay (`CrossingScoreHeap`), and the index
/// that moves them to a kinetic tournament when they stop (`CrossingScoreIndex`): always the scan's victim.
@Suite struct CrossingScoreHeapTests {
    typealias Members = [Int32: (DecayingScore, UInt64)]

    /// Random inserts, in-place updates, removals and queries, time moving by steps from 0 to thousands of half-lives, against
    /// a scan (`KineticTournamentTests`' scores: near ties, equal weights, crossings, exp2's underflow). Every floor is checked
    /// against its double at each query, whatever the heap's size (its debug check stops at 64 nodes).
    func agreesWithAScan(seed: UInt64, offset: Double, halfLife: Double, ids: Int = 48, steps: Int = 6000) {
        var random = SplitMix64(seed: seed)
        var heap = CrossingScoreHeap()
        heap.grow(to: ids)
        var members: Members = [:]
        var time = 0, sequence: UInt64 = 0
        let h = Int(halfLife)
        for _ in 0..<steps {
            switch random.below(20) {
            case 0..<8: break
            case 8..<14: time += Int(random.below(UInt64(max(1, h / 8))))
            case 14..<17: time += h / 4 * Int(random.below(4))
            case 17..<19: time += h * Int(random.below(40))
            default: time += h * Int(random.below(1200))
            }
            let id = Int32(random.below(UInt64(ids)))
            switch random.below(3) {
            case 0:
                sequence += 1 + random.below(3)
                let s = random.below(4) == 0 ? random.below(1_000_000) : sequence * 1_000_000
                let score = KineticTournamentTests.randomScore(&random, halfLife: halfLife, now: time, offset: offset)
                if members[id] == nil {
                    heap.insert(id, score: score, sequence: s, at: time)
                } else {
                    heap.update(id, score: score, sequence: s, at: time)
                }
                members[id] = (score, s)
            case 1:
                if members[id] != nil {
                    heap.remove(id)
                    members[id] = nil
                }
            default: break
            }
            #expect(heap.count == members.count)
            #expect(heap.contains(id) == (members[id] != nil))
            let stored = heap.storedScore(of: id)
            #expect(stored?.score == members[id]?.0 && stored?.sequence == members[id]?.1)
            if random.below(16) == 0 { #expect(Set(heap.memberIDs()) == Set(members.keys)) }
            guard random.below(2) == 0 else { continue }   // removals also followed by other changes before a query
            let got = heap.first(at: time), expected = KineticTournamentTests.scan(members, at: time)
            #expect(got == expected, "at \(time): \(String(describing: got)) against the scan's \(String(describing: expected))")
            for k in heap.nodes.indices where !(heap.rootVacated && k == 0) {
                let e = heap.members[Int(heap.nodes[k].id)].entry
                #expect(!(heap.nodes[k].key > e.score.value(at: time)), "a floor above its double at \(time)")
            }
            if got != expected { return }
            if random.below(3) == 0, let victim = got {   // an eviction, as the cache replay takes it (the root inline)
                if random.below(2) == 0 {
                    heap.removeFirst(victim)
                } else {
                    #expect(heap.popFirst(at: time) == victim, "popFirst at \(time) is not first")   // (query and removal at once)
                }
                members[victim] = nil
                #expect(heap.count == members.count && !heap.contains(victim))
            }
        }
    }

    @Test(arguments: [(0.0, 3_600_000_000.0), (0.0, 1000), (1.0, 3_600_000_000.0), (1.0, 1000), (0.0, 86_400_000_000), (1.0, 86_400_000_000)])
    func agreesWithAScanThroughInsertsRemovalsAndTime(offset: Double, halfLife: Double) {
        for seed in 1...3 {
            agreesWithAScan(seed: UInt64(seed) * 37 + UInt64(halfLife) % 11, offset: offset, halfLife: halfLife, ids: [48, 400, 1500][seed - 1])
        }
    }

    /// `cost`: a frequent object's score falls below a rarer one's as its count decays, within one window and across
    /// windows: the victim changes without any insert or removal.
    @Test func crossingScoresChangeTheVictimAsTimePasses() {
        let h = 1_000_000.0
        var heap = CrossingScoreHeap()
        heap.grow(to: 2)
        // (10 + 1) · 1/2 = 5.5 now, → 0.5 as the count decays; (0 + 1) · 1 = 1 at every time. Equal at count 1: 3.32 h.
        heap.insert(0, score: DecayingScore(count: 10, since: 0, halfLifeMicros: h, offset: 1, numerator: 1, divisor: 2), sequence: 1, at: 0)
        heap.insert(1, score: DecayingScore(count: 0, since: 0, halfLifeMicros: h, offset: 1), sequence: 2, at: 0)
        #expect(heap.first(at: 0) == 1)
        #expect(heap.first(at: 3_300_000) == 1)
        #expect(heap.first(at: 3_330_000) == 0)
        #expect(heap.first(at: 100_000_000) == 0)
    }

    /// `lfu`'s scores long after: exp2 underflows, every double is 0, and the tie goes to the smaller sequence — the other
    /// way from the counts' order (the floors are 0 then: both are weighed).
    @Test func underflowedCountsTieAndTheSequenceDecides() {
        let h = 1000.0
        var heap = CrossingScoreHeap()
        heap.grow(to: 2)
        heap.insert(0, score: DecayingScore(count: 5, since: 0, halfLifeMicros: h), sequence: 1, at: 0)
        heap.insert(1, score: DecayingScore(count: 1, since: 0, halfLifeMicros: h), sequence: 2, at: 0)
        #expect(heap.first(at: 500_000) == 1)
        #expect(heap.first(at: 1_073_000) == 1)
        #expect(heap.first(at: 1_100_000) == 0)
    }

    /// Mathematically equal scores whose doubles differ in the last place, one way or the other depending on the time:
    /// the heap follows the doubles, not the models (their floors lie within 2^-32 of each other: both are weighed).
    @Test func followsTheDoublesThroughARealTie() {
        let h = 3_600_000_000.0
        let a = DecayingScore(count: 2, since: 0, halfLifeMicros: h), b = DecayingScore(count: 1, since: Int(h), halfLifeMicros: h)
        var less = 0, more = 0
        for offset in [1_234_567, 7_654_321, 99_999, 31_415_926, 2_718_281_828] {
            var heap = CrossingScoreHeap()
            heap.grow(to: 2)
            var time = Int(h) + offset
            heap.insert(0, score: a, sequence: 2, at: time)
            heap.insert(1, score: b, sequence: 1, at: time)
            for step in 0..<400 {
                time += 1 + step * 7919 % 1_000_003
                let (x, y) = (a.value(at: time), b.value(at: time))
                if x < y { less += 1 } else if x > y { more += 1 }
                #expect(heap.first(at: time) == (x < y ? 0 : 1))
            }
        }
        #expect(less > 0 && more > 0)   // the case is real: rounding orders the equal scores both ways
    }

    /// The window shortens when its queries weigh more nodes than the heap holds (scores in a dense band: one weight,
    /// counts of 1 a moment apart), and lengthens when they weigh few (weights far apart); answers stay the scan's.
    @Test func theWindowAdaptsToItsWork() {
        func run(denseBand: Bool) -> (first: Double, last: Double) {
            let h = 3_600_000_000.0
            var heap = CrossingScoreHeap()
            heap.grow(to: 4000)
            var members: Members = [:]
            var random = SplitMix64(seed: denseBand ? 5 : 6)
            var first = 0.0
            for k in 0..<4000 {
                // The first window is 1/128 of an hour, 28 s: 281 requests of the dense band (ten a second), 28 of the others.
                let time = k * (denseBand ? 100_000 : 1_000_000)
                let divisor = denseBand ? 4096 : Double(1 + random.below(1 << 20))
                let score = DecayingScore(count: 1, since: time, halfLifeMicros: h, offset: 1, numerator: 2000, divisor: divisor)
                heap.insert(Int32(k), score: score, sequence: UInt64(k), at: time)
                members[Int32(k)] = (score, UInt64(k))
                if first == 0 { first = heap.span }
                if k >= 1000, let victim = heap.first(at: time) {   // a cache of 1 000
                    #expect(victim == KineticTournamentTests.scan(members, at: time))
                    heap.remove(victim)
                    members[victim] = nil
                }
            }
            return (first, heap.span)
        }
        let dense = run(denseBand: true), sparse = run(denseBand: false)
        #expect(dense.last < dense.first, "a dense band's window: \(dense.first) → \(dense.last) µs")
        #expect(sparse.last > sparse.first, "far-apart scores' window: \(sparse.first) → \(sparse.last) µs")
    }

    @Test func aCopyIsASnapshot() {
        var heap = CrossingScoreHeap()
        heap.grow(to: 3)
        heap.insert(0, score: DecayingScore(count: 2, since: 0, halfLifeMicros: 1000, offset: 1), sequence: 0, at: 0)
        var copy = heap
        copy.makeUnique()
        copy.insert(1, score: DecayingScore(count: 1, since: 0, halfLifeMicros: 1000, offset: 1), sequence: 1, at: 0)
        #expect(heap.first(at: 0) == 0 && !heap.contains(1))
        #expect(copy.first(at: 0) == 1)
    }

    /// A heap whose windows stop paying — many candidates and a half-life of minutes, so each window is short and its
    /// rebuild visits them all — hands its members to a kinetic tournament, which answers as the scan does from then on;
    /// a small cache of the same scores stays in the heap.
    @Test(arguments: [(3000, true), (200, false)])
    func theIndexMovesToTheTournamentWhenTheHeapStopsPaying(cached: Int, moves: Bool) {
        let h = 360_000_000.0   // 6 minutes
        var index = CrossingScoreIndex()
        index.grow(to: 20_000)
        var members: Members = [:]
        var random = SplitMix64(seed: 3)
        var movedAt = -1
        for k in 0..<20_000 {
            let time = k * 100_000
            let id = Int32(random.below(20_000))
            let count = 1 + Double(random.below(4))
            let score = DecayingScore(count: count, since: time, halfLifeMicros: h, offset: 1, numerator: 2000,
                                      divisor: Double(1 + random.below(1 << 20)))
            index.set(id, score: score, sequence: UInt64(k), at: time)
            members[id] = (score, UInt64(k))
            while index.count > cached, let victim = index.first(at: time) {
                if k % 16 == 0 { #expect(victim == KineticTournamentTests.scan(members, at: time), "at \(time)") }
                index.remove(victim, at: time)
                members[victim] = nil
            }
            if index.inTournament && movedAt < 0 {
                movedAt = k
                #expect(Set(index.memberIDs()) == Set(members.keys))
            }
        }
        #expect((movedAt >= 0) == moves, "moved at request \(movedAt)")
        #expect(index.first(at: 20_000 * 100_000) == KineticTournamentTests.scan(members, at: 20_000 * 100_000))
    }
}
