@testable import JetsimCore
import Testing

/// The ordered list both drivers keep their kill candidates in when a policy ranks by a key.
@Suite struct RankedListTests {
    /// The answer a scan of every member gives.
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
        var list = RankedList(count: apps)
        var keys = [RankingKey?](repeating: nil, count: apps)
        for step in 0..<5_000 {
            let app = Int(random.below(UInt64(apps)))
            // Few distinct majors and minors, in no order, so equal keys (broken by id) and walks are common.
            let key: RankingKey? = random.below(4) == 0
                ? nil : RankingKey(major: Int(random.below(3)), minor: random.below(8))
            list.update(Int32(app), key: key)
            keys[app] = key
            #expect(list.count == keys.count { $0 != nil })
            #expect(list.contains(Int32(app)) == (key != nil))
            // Some decisions refuse part of the candidates (a kill scope), so the walk passes refused ones.
            let modulus = Int32(step % 3 + 1)
            let accepts: (Int32) -> Bool = { $0 % modulus == 0 }
            #expect(list.first(where: accepts) == scan(keys, accepting: accepts))
            #expect(list.first { _ in true } == scan(keys) { _ in true })
        }
    }

    /// The walk back skips whole majors by `firstByMajor` (majors 0…255, bands); others, negative ones included, are
    /// walked member by member. The debug invariant check compares the index with the list after every change.
    @Test func agreesWithAScanWhenWalksSkipWholeMajors() {
        var random = SplitMix64(seed: 23)
        let apps = 48
        let majors = [-1, 0, 0, 20, 40, 75, 100, 255, 256, 1_000]
        var list = RankedList(count: apps)
        var keys = [RankingKey?](repeating: nil, count: apps)
        for _ in 0..<8_000 {
            let app = Int(random.below(UInt64(apps)))
            let key: RankingKey? = random.below(5) == 0
                ? nil : RankingKey(major: majors[Int(random.below(UInt64(majors.count)))], minor: random.below(6))
            list.update(Int32(app), key: key)
            keys[app] = key
            #expect(list.first { _ in true } == scan(keys) { _ in true })
            #expect(list.first { $0 % 3 == 1 } == scan(keys) { $0 % 3 == 1 })
        }
        let order = members(of: list)
        let expected = keys.enumerated().compactMap { app, key in key.map { ($0, Int32(app)) } }
            .sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }.map(\.1)
        #expect(order == expected)
    }

    @Test func aMemberNobodyAcceptsIsNotChosen() {
        var list = RankedList(count: 3)
        list.update(0, key: RankingKey(major: 0, minor: 5))
        list.update(1, key: RankingKey(major: 0, minor: 1))
        #expect(list.first { $0 == 2 } == nil)
        #expect(list.first { $0 != 1 } == 0)
    }

    @Test func keepsNonMonotoneKeysInOrder() {
        var list = RankedList()
        list.grow(to: 6)
        for (id, key) in [(0, 5), (1, 2), (2, 9), (3, 2), (4, 0), (5, 7)] { list.insert(Int32(id), key: RankingKey(major: key, minor: 0)) }
        list.remove(2)
        var order: [Int32] = []
        while list.head >= 0 { order.append(list.head); list.remove(list.head) }
        #expect(order == [4, 1, 3, 0, 5])
    }

    @Test func aCopyIsASnapshot() {
        var list = RankedList(count: 4)
        list.update(0, key: RankingKey(major: 0, minor: 1))
        var copy = list
        copy.makeUnique()
        copy.update(1, key: RankingKey(major: 0, minor: 0))
        #expect(list.first { _ in true } == 0 && !list.contains(1))
        #expect(copy.first { _ in true } == 1)
    }
}
