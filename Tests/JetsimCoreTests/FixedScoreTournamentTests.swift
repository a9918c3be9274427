@testable import JetsimCore
import Testing

/// The index of constant scores (`largest`'s in the cache replay): always the scan's victim.
@Suite struct FixedScoreTournamentTests {
    /// Random additions, re-scorings, removals and queries over few distinct scores (many ties, broken by sequence) and
    /// enough ids to grow the tree twice, against a scan after every step.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func agreesWithAScan(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let ids = 300
        var tournament = FixedScoreTournament()
        tournament.grow(to: ids)
        var members: [Int32: (score: Double, sequence: UInt64)] = [:]
        var sequence: UInt64 = 0
        let scores = [0.5, 1, 1.0 / 3, 2, 1 + 0x1p-52, 1 - 0x1p-53]
        for step in 0..<20_000 {
            let id = Int32(random.below(UInt64(ids)))
            if random.below(4) == 0, members[id] != nil {
                tournament.remove(id)
                members[id] = nil
            } else {
                let score = scores[Int(random.below(UInt64(scores.count)))]
                sequence += 1
                tournament.set(id, score: score, sequence: sequence)
                members[id] = (score, sequence)
            }
            let scan = members.min { a, b in a.value.score != b.value.score ? a.value.score < b.value.score : a.value.sequence < b.value.sequence }
            #expect(tournament.first() == scan?.key, "step \(step)")
            #expect(tournament.count == members.count && members.keys.allSatisfy(tournament.contains), "step \(step)")
            if tournament.first() != scan?.key { return }
            // Take the victim out now and then, as an eviction does.
            if random.below(8) == 0, let victim = tournament.first() {
                tournament.remove(victim)
                members[victim] = nil
            }
        }
        #expect(tournament.leaves >= 256)   // grew past its first 64 slots
    }

    /// A cache's miss: the first member is removed and, a request later, the missed object takes the slot it left (the
    /// free slots are a stack), in one walk up their shared path: the removal leaves its walk waiting (`vacated`) and
    /// the insertion's walk does both. Sometimes a member is re-scored, or a second victim removed, in between (each
    /// replays the waiting path first). Small trees (the debug invariant check runs) and one that grows.
    @Test(arguments: [40, 3000])
    func anEvictionAndTheNextInsertionShareOneWalk(ids: Int) {
        var random = SplitMix64(seed: UInt64(ids))
        var tournament = FixedScoreTournament()
        tournament.grow(to: ids)
        var members: [Int32: (score: Double, sequence: UInt64)] = [:]
        var next: Int32 = 0, sequence: UInt64 = 0, shared = 0
        let scores = [0.5, 1, 1.0 / 3, 2, 1 + 0x1p-52, 1 - 0x1p-53]
        func scan() -> Int32? {
            members.min { a, b in a.value.score != b.value.score ? a.value.score < b.value.score : a.value.sequence < b.value.sequence }?.key
        }
        func insertNew() {
            let score = random.below(3) == 0 ? scores[Int(random.below(UInt64(scores.count)))] : Double(random.below(1000))
            sequence += 1
            tournament.set(next, score: score, sequence: sequence)
            members[next] = (score, sequence)
            next += 1
        }
        for _ in 0..<min(ids / 2, 150) { insertNew() }
        while Int(next) < ids {
            guard let victim = tournament.first() else { break }
            #expect(victim == scan())
            let slot = Int(tournament.slotOf[Int(victim)])
            tournament.remove(victim)
            members[victim] = nil
            #expect(tournament.vacated == slot, "the removal's walk waits")
            switch random.below(6) {
            case 0 where !members.isEmpty:   // a hit between: re-scored in place
                let keys = members.keys.sorted()
                let member = keys[Int(random.below(UInt64(keys.count)))]
                sequence += 1
                tournament.set(member, score: members[member]!.score, sequence: sequence)
                members[member]!.sequence = sequence
            case 1:   // a second victim
                if let second = tournament.first() {
                    #expect(second == scan())
                    tournament.remove(second)
                    members[second] = nil
                }
            default: break
            }
            let waiting = tournament.vacated
            insertNew()
            if waiting >= 0 && Int(tournament.slotOf[Int(next - 1)]) == waiting { shared += 1 }
            #expect(tournament.vacated == -1)
            #expect(tournament.first() == scan())
        }
        #expect(shared > ids / 4, "the missed object took the evicted one's slot, its walk waiting, \(shared) times")
    }

    @Test func aCopyGoesOnIndependently() {
        var a = FixedScoreTournament()
        a.grow(to: 4)
        a.set(0, score: 2, sequence: 1)
        a.set(1, score: 1, sequence: 2)
        var b = a
        b.makeUnique()
        b.remove(1)
        #expect(a.first() == 1 && b.first() == 0)
    }
}
