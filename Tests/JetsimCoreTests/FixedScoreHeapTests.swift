@testable import JetsimCore
import Testing

/// The index of constant scores (`largest`'s in the cache replay): always the scan's victim.
@Suite struct FixedScoreHeapTests {
    /// Random additions, re-scorings, removals and queries over few distinct scores (many ties, broken by sequence) and
    /// enough ids to grow the storage, against a scan after every step.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func agreesWithAScan(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let ids = 300
        var heap = FixedScoreHeap()
        heap.grow(to: ids)
        var members: [Int32: (score: Double, sequence: UInt64)] = [:]
        var sequence: UInt64 = 0
        let scores = [0.5, 1, 1.0 / 3, 2, 1 + 0x1p-52, 1 - 0x1p-53]
        for step in 0..<20_000 {
            let id = Int32(random.below(UInt64(ids)))
            if random.below(4) == 0, members[id] != nil {
                heap.remove(id)
                members[id] = nil
            } else {
                let score = scores[Int(random.below(UInt64(scores.count)))]
                sequence += 1
                heap.set(id, score: score, sequence: sequence)
                members[id] = (score, sequence)
            }
            let scan = members.min { a, b in a.value.score != b.value.score ? a.value.score < b.value.score : a.value.sequence < b.value.sequence }
            #expect(heap.first() == scan?.key, "step \(step)")
            #expect(heap.count == members.count && members.keys.allSatisfy(heap.contains), "step \(step)")
            if heap.first() != scan?.key { return }
            // Take the victim out now and then, as an eviction does.
            if random.below(8) == 0, let victim = heap.first() {
                heap.remove(victim)
                members[victim] = nil
            }
        }
        #expect(heap.nodes.count > 64)   // past the size the debug invariant check covers
    }

    /// A cache's miss: the first member is removed and, a request later, the missed object fills the root's place it left
    /// (`rootVacated`) and sinks from there. Sometimes a member is re-scored, or a second victim removed, in between (each
    /// fills the waiting place first, with the last node). Small heaps (the debug invariant check runs) and a large one.
    @Test(arguments: [40, 3000])
    func theRootsPlaceWaitsForTheNextInsertion(ids: Int) {
        var random = SplitMix64(seed: UInt64(ids))
        var heap = FixedScoreHeap()
        heap.grow(to: ids)
        var members: [Int32: (score: Double, sequence: UInt64)] = [:]
        var next: Int32 = 0, sequence: UInt64 = 0, filled = 0
        let scores = [0.5, 1, 1.0 / 3, 2, 1 + 0x1p-52, 1 - 0x1p-53]
        func scan() -> Int32? {
            members.min { a, b in a.value.score != b.value.score ? a.value.score < b.value.score : a.value.sequence < b.value.sequence }?.key
        }
        func insertNew() {
            let score = random.below(3) == 0 ? scores[Int(random.below(UInt64(scores.count)))] : Double(random.below(1000))
            sequence += 1
            heap.set(next, score: score, sequence: sequence)
            members[next] = (score, sequence)
            next += 1
        }
        for _ in 0..<min(ids / 2, 150) { insertNew() }
        while Int(next) < ids {
            guard let victim = heap.first() else { break }
            #expect(victim == scan())
            heap.remove(victim)
            members[victim] = nil
            #expect(heap.rootVacated, "the root's place waits")
            switch random.below(6) {
            case 0 where !members.isEmpty:   // a hit between: re-scored in place
                let keys = members.keys.sorted()
                let member = keys[Int(random.below(UInt64(keys.count)))]
                sequence += 1
                heap.set(member, score: members[member]!.score, sequence: sequence)
                members[member]!.sequence = sequence
            case 1:   // a second victim
                if let second = heap.first() {
                    #expect(second == scan())
                    heap.remove(second)
                    members[second] = nil
                }
            default: break
            }
            if heap.rootVacated { filled += 1 }
            insertNew()
            #expect(!heap.rootVacated)
            #expect(heap.count == members.count)
            #expect(heap.first() == scan())
        }
        #expect(filled > ids / 4, "the missed object filled the evicted one's place \(filled) times")
    }

    /// `popFirst`, as `largest`'s replay evicts: runs of victims taken out one call each, every one the scan's, the root's
    /// place left to the next insertion; a popped key that was stale goes back in with a later sequence (as `leave` left
    /// it after a hit) and the next pop weighs it again. Small heaps (the debug invariant check runs) and a large one.
    @Test(arguments: [40, 3000])
    func poppedVictimsAreTheScans(ids: Int) {
        var random = SplitMix64(seed: UInt64(ids) &+ 7)
        var heap = FixedScoreHeap()
        heap.grow(to: ids)
        var members: [Int32: (score: Double, sequence: UInt64)] = [:]
        var sequence: UInt64 = 0, popped = 0, reinserted = 0
        let scores = [0.5, 1, 1.0 / 3, 2, 1 + 0x1p-52, 1 - 0x1p-53]
        func scan() -> Int32? {
            members.min { a, b in a.value.score != b.value.score ? a.value.score < b.value.score : a.value.sequence < b.value.sequence }?.key
        }
        func set(_ id: Int32, _ score: Double) {
            sequence += 1
            heap.set(id, score: score, sequence: sequence)
            members[id] = (score, sequence)
        }
        for step in 0..<4_000 {
            let id = Int32(random.below(UInt64(ids)))
            if members[id] == nil {
                set(id, random.below(2) == 0 ? scores[Int(random.below(UInt64(scores.count)))] : Double(random.below(1000)))
            }
            for _ in 0..<random.below(4) {   // a miss's run of evictions
                let expected = scan()
                let key = heap.popFirst()
                #expect(key?.id == expected, "step \(step)")
                guard let key, key.id == expected else { return }
                #expect(key.score == members[key.id]!.score && key.sequence == members[key.id]!.sequence)
                #expect(heap.rootVacated && !heap.contains(key.id))
                members[key.id] = nil
                popped += 1
                if random.below(3) == 0 {   // stale: back in with its score and a later sequence
                    set(key.id, key.score)
                    reinserted += 1
                }
            }
            #expect(heap.count == members.count, "step \(step)")
        }
        #expect((heap.popFirst() == nil) == members.isEmpty)   // empty exactly when the scan has none left
        #expect(popped > 1000 && reinserted > 300, "\(popped) popped, \(reinserted) back in")
    }

    @Test func aCopyGoesOnIndependently() {
        var a = FixedScoreHeap()
        a.grow(to: 4)
        a.set(0, score: 2, sequence: 1)
        a.set(1, score: 1, sequence: 2)
        var b = a
        b.makeUnique()
        b.remove(1)
        #expect(a.first() == 1 && b.first() == 0)
    }
}
