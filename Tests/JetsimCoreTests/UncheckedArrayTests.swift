@testable import JetsimCore
import Testing

/// `UncheckedArray` writes in place without a copy-on-write check per access; value semantics hold because the engine
/// makes its arrays unique at each public mutating entry (the per-app state, the compression keys, the resident set, the
/// volatile queue, the ranked candidates and the timer heap), one `CopyToken` standing for all of them.
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

    @Test func anEmptyArrayGrowsAndShrinksByMany() {
        var a = UncheckedArray<Int32>(repeating: -1, count: 0)   // no room at all to start with
        for v in 0..<20 as Range<Int32> { a.append(v) }
        #expect(Array(a) == Array(0..<20))
        a.removeLast(15)
        #expect(Array(a) == [0, 1, 2, 3, 4])
    }

    /// A growth keeps the block of storage held alone (`realloc`), and copies storage that another array shares: the
    /// other keeps its elements, and writes to either stay its own.
    @Test func aGrowthOfSharedStorageCopiesIt() {
        var a = UncheckedArray<Int32>(capacity: 2)
        a.append(1)
        a.append(2)
        var b = a
        b.append(3)   // past the shared capacity: b takes a new block
        b[0] = 9
        #expect(Array(a) == [1, 2] && Array(b) == [9, 2, 3])
        a.reserve(4_096)   // held alone now: grown in place
        a[1] = 8
        a.append(4)
        #expect(Array(a) == [1, 8, 4] && Array(b) == [9, 2, 3])
        var c = b
        c.extend(to: 2_000, with: 7)   // past b's room (a write within it would need `makeUnique()` first)
        #expect(c.count == 2_000 && Array(c.prefix(4)) == [9, 2, 3, 7] && c[1_999] == 7 && Array(b) == [9, 2, 3])
    }

    @Test func reservingRoomKeepsTheElements() {
        var a = UncheckedArray<Int32>(capacity: 2)
        a.append(7)
        a.append(8)
        a.reserve(5_000)
        for v in 0..<5_000 as Range<Int32> { a.append(v) }
        #expect(a.count == 5_002 && a[0] == 7 && a[1] == 8 && a[5_001] == 4_999)
    }

    /// Elements start on a cache line whatever block the C allocator gives (16-byte aligned, large blocks 16 bytes into a
    /// page), and stay there, in order, through every growth, where `realloc` may move the block to a start that leaves
    /// them off the line (then they move within it): a 64-byte element spans one line, not two.
    @Test func elementsStartOnACacheLineThroughEveryGrowth() {
        typealias Wide = (Int, Int, Int, Int, Int, Int, Int, Int)   // 64 bytes, as the cache replay's objects
        var small = UncheckedArray<Int32>(capacity: 1), wide = UncheckedArray<Wide>(capacity: 1)
        var offsets = Set<Int>()
        for n in 0..<40_000 {
            small.append(Int32(truncatingIfNeeded: n))
            if n < 5_000 { wide.append((n, n &+ 1, n, n, n, n, n, -n)) }
            #expect(Int(bitPattern: UnsafeRawPointer(small.base)) % 64 == 0)
            #expect(Int(bitPattern: UnsafeRawPointer(wide.base)) % 64 == 0)
            offsets.insert(UnsafeRawPointer(small.base) - UnsafeRawPointer(small.storage.block))
        }
        #expect(small.count == 40_000 && small.indices.allSatisfy { small[$0] == Int32($0) })
        #expect(wide.count == 5_000 && wide.indices.allSatisfy { wide[$0].0 == $0 && wide[$0].1 == $0 + 1 && wide[$0].7 == -$0 })
        #expect(offsets.count >= 1 && offsets.allSatisfy { $0 >= 0 && $0 < 64 })
    }

    /// A simulator copied mid-run is a snapshot: the original running on (kills, launches, growth) leaves it as it was,
    /// and the copy run on the same events reaches the same result.
    /// With a policy whose counts are written in place behind a copy token (`lfu`, `cost`: `DecayedFrequency`) too.
    @Test func aCopiedSimulatorIsIndependentOfTheOriginal() throws {
        try copiedSimulatorIsIndependent(policy: XNUPolicy())
        try copiedSimulatorIsIndependent(policy: LFUPolicy(halfLifeHours: 1))
        try copiedSimulatorIsIndependent(policy: CostPolicy(alpha: 0.5, halfLifeHours: 2))
    }

    func copiedSimulatorIsIndependent<P: EvictionPolicy>(policy: P) throws {
        let events = TimingIndependenceTests.events(seed: 4)
        var h = try Harness(device: TimingIndependenceTests.device(), apps: StressTests.apps(), policy: policy)
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

    /// Three simulators share one state (two copies): whichever writes first, each goes on alone.
    @Test func copiesOfCopiesStayIndependent() throws {
        let events = TimingIndependenceTests.events(seed: 5)
        var h = try Harness(device: TimingIndependenceTests.device(), apps: StressTests.apps(), policy: XNUPolicy())
        for e in events.prefix(500) { h.sim.process(e) }
        var first = h.sim
        var second = first
        for e in events.dropFirst(500) { second.process(e) }   // a copy writes first
        for e in events.dropFirst(500) { h.sim.process(e) }
        for e in events.dropFirst(500).prefix(300) { first.process(e) }
        var third = first                                        // a copy of a copy, mid-run
        for e in events.dropFirst(800) { first.process(e) }
        for e in events.dropFirst(800) { third.process(e) }
        let results = [h.sim.finish(), first.finish(), second.finish(), third.finish()]
        #expect(results[0].totalKills > 0)
        for r in results.dropFirst() { #expect(r.kills == results[0].kills && r.apps == results[0].apps) }
    }
}
