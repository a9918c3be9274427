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
            #expect(tournament.first == scan?.key, "step \(step)")
            #expect(tournament.count == members.count && members.keys.allSatisfy(tournament.contains), "step \(step)")
            if tournament.first != scan?.key { return }
            // Take the victim out now and then, as an eviction does.
            if random.below(8) == 0, let victim = tournament.first {
                tournament.remove(victim)
                members[victim] = nil
            }
        }
        #expect(tournament.leaves >= 256)   // grew past its first 64 slots
    }

    @Test func aCopyGoesOnIndependently() {
        var a = FixedScoreTournament()
        a.grow(to: 4)
        a.set(0, score: 2, sequence: 1)
        a.set(1, score: 1, sequence: 2)
        var b = a
        b.makeUnique()
        b.remove(1)
        #expect(a.first == 1 && b.first == 0)
    }
}
