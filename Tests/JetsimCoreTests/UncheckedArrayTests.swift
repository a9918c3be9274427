@testable import JetsimCore
import Testing

/// `UncheckedArray` writes in place without a copy-on-write check per access; value semantics hold because the engine
/// makes its arrays unique at each public mutating entry (the per-app state, the compression keys, the candidate and
/// timer heaps).
@Suite struct UncheckedArrayTests {
    @Test func aCopyMadeUniqueLeavesTheOriginalAlone() {
        var original = UncheckedArray(repeating: AppRuntime(), count: 3)
        original[1].launches = 2
        var copy = original
        copy.makeUnique()
        copy[1].launches = 7
        copy[2].dirtyResident = 4096
        #expect(original[1].launches == 2 && original[2].dirtyResident == 0)
        #expect(copy[1].launches == 7 && copy[2].dirtyResident == 4096)
        #expect(copy.count == 3 && Array(copy.indices) == [0, 1, 2])
    }

    @Test func appendsPastItsCapacityAndRemovesFromTheEnd() {
        var a = UncheckedArray<Int32>(capacity: 2)
        for v in 0..<5 as Range<Int32> { a.append(v * 10) }
        #expect(Array(a) == [0, 10, 20, 30, 40])
        let view = a.view
        #expect(view.count == 5 && (0..<5).map { view[$0] } == [0, 10, 20, 30, 40])
        var copy = a
        copy.makeUnique()
        #expect(copy.removeLast() == 40)
        copy[0] = 7
        #expect(Array(copy) == [7, 10, 20, 30] && Array(a) == [0, 10, 20, 30, 40])
        copy.removeAll()
        #expect(copy.isEmpty)
    }

    /// A simulator copied mid-run is a snapshot: the original running on (kills, launches, growth) leaves it as it was,
    /// and the copy run on the same events reaches the same result.
    @Test func aCopiedSimulatorIsIndependentOfTheOriginal() throws {
        let events = TimingIndependenceTests.events(seed: 4)
        var h = try Harness(device: TimingIndependenceTests.device(), apps: StressTests.apps(), policy: XNUPolicy())
        for e in events.prefix(700) { h.sim.process(e) }
        var copy = h.sim
        let apps = h.catalog.profiles.indices.map { Int32($0) }
        let before = apps.map { (copy.state(of: $0), copy.footprint(of: $0)) }
        for e in events.dropFirst(700) { h.sim.process(e) }
        let original = h.sim.finish()
        #expect(original.totalKills > 0)
        #expect(apps.map { (copy.state(of: $0), copy.footprint(of: $0)) }.elementsEqual(before, by: ==))
        for e in events.dropFirst(700) { copy.process(e) }
        let replayed = copy.finish()
        #expect(replayed.kills == original.kills && replayed.apps == original.apps)
    }
}
