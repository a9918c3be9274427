@testable import JetsimCore
import Testing

/// The indexed heap kill decisions use when a policy ranks by a key.
@Suite struct CandidateIndexTests {
    /// The answer a scan of every candidate gives.
    func scan(_ keys: [RankingKey?], accepting accepts: (Int32) -> Bool) -> Int32? {
        var best: (RankingKey, Int32)?
        for (app, key) in keys.enumerated() {
            guard let key, accepts(Int32(app)) else { continue }
            if best.map({ key < $0.0 || (key == $0.0 && Int32(app) < $0.1) }) ?? true { best = (key, Int32(app)) }
        }
        return best?.1
    }

    @Test func agreesWithAScanThroughInsertsReKeysAndRemovals() {
        var random = SplitMix64(seed: 11)
        let apps = 40
        var index = CandidateIndex(count: apps)
        var keys = [RankingKey?](repeating: nil, count: apps)
        for step in 0..<5_000 {
            let app = Int(random.below(UInt64(apps)))
            // Few distinct majors and minors, so equal keys (broken by app id) are common.
            let key: RankingKey? = random.below(4) == 0
                ? nil : RankingKey(major: Int(random.below(3)), minor: random.below(8))
            index.update(app, key: key)
            keys[app] = key
            #expect(index.count == keys.count { $0 != nil })
            // Some decisions refuse part of the candidates (a kill scope), forcing the walk past refused ones.
            let modulus = Int32(step % 3 + 1)
            let accepts: (Int32) -> Bool = { $0 % modulus == 0 }
            #expect(index.first(where: accepts) == scan(keys, accepting: accepts))
            #expect(index.first { _ in true } == scan(keys) { _ in true })
        }
        for app in 0..<apps { #expect(index.key(of: app) == keys[app]) }
    }

    @Test func aCandidateNobodyAcceptsIsNotChosen() {
        var index = CandidateIndex(count: 3)
        index.update(0, key: RankingKey(major: 0, minor: 5))
        index.update(1, key: RankingKey(major: 0, minor: 1))
        #expect(index.first { $0 == 2 } == nil)
        #expect(index.first { $0 != 1 } == 0)
    }
}
