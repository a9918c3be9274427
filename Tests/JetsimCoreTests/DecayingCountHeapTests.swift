@testable import JetsimCore
import Testing

/// The index of plain decaying counts (`lfu`'s in the cache replay): always the scan's victim, near ties and
/// underflow included.
@Suite struct DecayingCountHeapTests {
    /// Not a round number, so that the exponents of equal true scores round differently.
    static let halfLife = 1_000_003.0

    /// The scan's victim over `members` at `time`: the smallest double, then the smallest sequence.
    static func scan(_ members: [Int32: (score: DecayingScore, sequence: UInt64)], at time: Int) -> Int32? {
        members.min { a, b in
            let va = a.value.score.value(at: time), vb = b.value.score.value(at: time)
            return va != vb ? va < vb : a.value.sequence < b.value.sequence
        }?.key
    }

    /// Random insertions, re-scorings, removals and queries against a scan after every step. The scores are built to
    /// tie: the same count at the same time (equal keys and doubles), twice a count at `since` against that count a
    /// half-life later (equal true scores whose keys and doubles round either way), counts a few units in the last place apart, and queries up to
    /// thousands of half-lives on (the doubles underflow to 0, where only the sequence decides).
    @Test(arguments: [1, 2, 3] as [UInt64])
    func agreesWithAScan(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let ids = seed == 1 ? 40 : 400   // 40: the debug invariant check runs at every step
        var heap = DecayingCountHeap()
        heap.grow(to: ids)
        var members: [Int32: (score: DecayingScore, sequence: UInt64)] = [:]
        var sequence: UInt64 = 0, now = 0, weighed = 0, mostVanished = 0
        let h = Int(Self.halfLife), bases = [1.0, 1.5, 3.3]
        for step in 0..<20_000 {
            let id = Int32(random.below(UInt64(ids)))
            if random.below(5) == 0, members[id] != nil {
                heap.remove(id)
                members[id] = nil
            } else {
                let count: Double, since: Int
                switch random.below(5) {
                case 0: (count, since) = (bases[Int(random.below(3))], now - now % h)
                case 1: (count, since) = (2 * bases[Int(random.below(3))], now - now % h - h)   // case 0's true score
                case 2: (count, since) = (1 + Double(random.below(4)) * 0x1p-52, now)
                case 3: (count, since) = (Double(random.below(1000)) / 7 + 1, now - Int(random.below(UInt64(h))))
                default: (count, since) = (Double(1 << random.below(40)), now - Int(random.below(UInt64(45 * h))))
                }
                let score = DecayingScore(count: count, since: max(0, since), halfLifeMicros: Self.halfLife)
                sequence += 1
                heap.set(id, score: score, sequence: sequence)
                members[id] = (score, sequence)
            }
            // Time moves on by nothing, part of a half-life, or up to 2 000 half-lives (through exp2's underflow).
            switch random.below(10) {
            case 0..<5: break
            case 5..<9: now += Int(random.below(UInt64(h)))
            default: now += h * Int(random.below(2000))
            }
            let first = heap.first(at: now)
            if let root = heap.nodes.first, first != root.id { weighed += 1 }
            mostVanished = max(mostVanished, heap.zeros.count)
            #expect(first == Self.scan(members, at: now), "step \(step)")
            #expect(heap.nodes.count + heap.zeros.count == members.count && members.keys.allSatisfy { heap.contains($0) }, "step \(step)")
            if first != Self.scan(members, at: now) { return }
            if random.below(4) == 0, let victim = first {   // an eviction, as the cache replay takes it (the root inline)
                heap.removeFirst(victim)
                members[victim] = nil
                // Then, as a miss that evicts several in a row (`lfu`'s replay): the query and its removal in one.
                while random.below(2) == 0 {
                    let expected = Self.scan(members, at: now)
                    let popped = heap.popFirst(at: now)
                    #expect(popped == (expected ?? -1), "step \(step)")
                    guard let expected, popped == expected else { break }
                    members[expected] = nil
                }
            }
        }
        #expect(weighed > 0, "no query needed more than the root: the ties did not reach the heap's weighing")
        #expect(mostVanished > 1, "no score reached 0: the heap of vanished scores went untried")
    }

    /// An eviction's removal of the root leaves its place empty for the next insertion (a cache's missed object, inserted
    /// as it leaves the foreground at the next request), which sinks from the top; an update fills the place with the
    /// last node first. Either way the heap's first stays the scan's.
    @Test func theRootsPlaceWaitsForTheNextInsertion() {
        var heap = DecayingCountHeap()
        heap.grow(to: 80)
        var members: [Int32: (score: DecayingScore, sequence: UInt64)] = [:]
        var sequence: UInt64 = 0
        func set(_ id: Int32, count: Double, since: Int) {
            sequence += 1
            let score = DecayingScore(count: count, since: since, halfLifeMicros: Self.halfLife)
            heap.set(id, score: score, sequence: sequence)
            members[id] = (score, sequence)
        }
        for id in 0..<40 { set(Int32(id), count: Double(1 + id % 7), since: id * 1000) }
        var vacated = 0
        for step in 0..<30 {
            let now = 40_000 + step * 1000
            guard let victim = heap.first(at: now) else {
                Issue.record("step \(step): the heap is empty")
                return
            }
            #expect(victim == Self.scan(members, at: now), "step \(step)")
            let wasRoot = heap.members[Int(victim)].position == 0
            heap.remove(victim)
            members[victim] = nil
            #expect(heap.rootVacated == wasRoot, "step \(step)")
            if heap.rootVacated { vacated += 1 }
            if step % 3 == 2 {
                set(members.keys.sorted()[step], count: 9, since: now)   // an update: the place is filled first
            } else {
                set(Int32(40 + step), count: 1, since: now)   // the missed object, into the root's place
            }
            #expect(!heap.rootVacated, "step \(step)")
            #expect(heap.nodes.count + heap.zeros.count == members.count, "step \(step)")
            #expect(heap.first(at: now) == Self.scan(members, at: now), "step \(step)")
        }
        #expect(vacated >= 20, "the victims were rarely the root: the vacated place went untried")
    }

    /// Two equal true scores (twice a count against that count a half-life later) whose keys order them one way while
    /// the doubles at some time, or their tie-break, order them the other: the heap must weigh the pair, not trust its
    /// keys. Searches such pairs out and checks each.
    @Test func keysThatDisagreeWithTheDoublesAreWeighed() {
        var found = 0
        var random = SplitMix64(seed: 9)
        let h = Int(Self.halfLife)
        for _ in 0..<20_000 where found < 50 {
            var heap = DecayingCountHeap()
            heap.grow(to: 2)
            let count = 1 + Double(random.below(1 << 20)) / Double(1 << 10)
            let since = h + Int(random.below(1 << 40))
            let a = DecayingScore(count: count, since: since, halfLifeMicros: Self.halfLife)
            let b = DecayingScore(count: 2 * count, since: since - h, halfLifeMicros: Self.halfLife)
            let time = since + Int(random.below(UInt64(50 * h)))
            heap.set(0, score: a, sequence: 1)
            heap.set(1, score: b, sequence: 2)
            let members: [Int32: (score: DecayingScore, sequence: UInt64)] = [0: (a, 1), 1: (b, 2)]
            guard let byKeys = heap.nodes.first?.id, let scan = Self.scan(members, at: time), byKeys != scan else { continue }
            found += 1
            #expect(heap.first(at: time) == scan)
        }
        #expect(found > 0, "no pair whose keys and doubles disagree")
    }

    /// Objects first requested at one timestamp have one count and one since: twins of the root, with its double at every
    /// time and later sequences, lose to it without a weighing, however deep they lie; an entry that is not a twin, with
    /// the root's key (a count twice as large one half-life earlier), is weighed.
    @Test func theRootsTwinsLoseWithoutAWeighing() {
        var heap = DecayingCountHeap()
        heap.grow(to: 40)
        var members: [Int32: (score: DecayingScore, sequence: UInt64)] = [:]
        let h = Int(Self.halfLife), now = 10 * h
        func set(_ id: Int32, _ score: DecayingScore) {
            heap.set(id, score: score, sequence: UInt64(id))
            members[id] = (score, UInt64(id))
        }
        for id in 0..<30 { set(Int32(id), DecayingScore(count: 1, since: now, halfLifeMicros: Self.halfLife)) }   // twins: 3 levels
        for id in 30..<36 { set(Int32(id), DecayingScore(count: 5, since: now, halfLifeMicros: Self.halfLife)) }
        for time in [now, now + h, now + 40 * h] {
            #expect(heap.first(at: time) == 0 && Self.scan(members, at: time) == 0)
        }
        #expect(heap.weighings == 0)
        set(36, DecayingScore(count: 2, since: now - h, halfLifeMicros: Self.halfLife))   // the root's key, not its twin
        #expect(heap.first(at: now + 40 * h) == Self.scan(members, at: now + 40 * h))
        #expect(heap.weighings == 1)
    }

    /// A pause of thousands of half-lives takes every score to 0: the victims then go by sequence alone, and each entry
    /// moves to the heap of vanished scores once, not a weighing of all of them at every query.
    @Test func scoresThatVanishDieBySequenceAndMoveOnce() {
        var heap = DecayingCountHeap()
        let n = 500
        heap.grow(to: n)
        var members: [Int32: (score: DecayingScore, sequence: UInt64)] = [:]
        var random = SplitMix64(seed: 4)
        for k in 0..<n {   // sequences in another order than the keys
            let score = DecayingScore(count: 1 + Double(random.below(100)), since: k * 1000, halfLifeMicros: Self.halfLife)
            let sequence = random.below(1 << 40)
            heap.set(Int32(k), score: score, sequence: sequence)
            members[Int32(k)] = (score, sequence)
        }
        var now = n * 1000 + 2000 * Int(Self.halfLife)
        for step in 0..<n {
            let first = heap.first(at: now)
            #expect(first == Self.scan(members, at: now), "step \(step)")
            #expect(heap.nodes.isEmpty && heap.zeros.count == members.count, "step \(step): every score has vanished")
            guard let victim = first else { break }
            heap.remove(victim)
            members[victim] = nil
            now += 1
        }
        #expect(members.isEmpty)
    }

    /// What may live in the heap: plain decaying counts of one half-life, below 2^50 (the bound its exactness uses).
    @Test func acceptsOnlyPlainDecayingCountsOfItsHalfLife() {
        var heap = DecayingCountHeap()
        heap.grow(to: 2)
        let plain = DecayingScore(count: 3, since: 10, halfLifeMicros: Self.halfLife)
        #expect(DecayingCountHeap.accepts(plain, halfLife: heap.halfLife))
        #expect(!DecayingCountHeap.accepts(DecayingScore(count: 3, since: 10, halfLifeMicros: Self.halfLife, offset: 1), halfLife: heap.halfLife))
        #expect(!DecayingCountHeap.accepts(DecayingScore(count: 3, since: 10, halfLifeMicros: Self.halfLife, numerator: 2), halfLife: heap.halfLife))
        #expect(!DecayingCountHeap.accepts(DecayingScore(count: 3, since: 10, halfLifeMicros: Self.halfLife, divisor: 2), halfLife: heap.halfLife))
        #expect(!DecayingCountHeap.accepts(DecayingScore(count: 0, since: 10, halfLifeMicros: Self.halfLife), halfLife: heap.halfLife))
        #expect(!DecayingCountHeap.accepts(DecayingScore(count: 0x1p50, since: 10, halfLifeMicros: Self.halfLife), halfLife: heap.halfLife))
        heap.set(0, score: plain, sequence: 1)
        #expect(!DecayingCountHeap.accepts(DecayingScore(count: 3, since: 10, halfLifeMicros: 2 * Self.halfLife), halfLife: heap.halfLife))
        let stored = heap.storedScore(of: 0), other = heap.storedScore(of: 1)
        #expect(stored?.score == plain && other == nil)
    }
}
