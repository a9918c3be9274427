import JetsimCore
import JetsimRealMemory
import Testing

/// The backing on its own: allocations follow the model's numbers, measurements come back from jemalloc.
@Suite(.serialized) struct JemallocBackingTests {
    let mib = 1 << 20

    func backing(_ scale: BackingScale, apps: Int = 4, budget: Int = 1 << 30) throws -> (JemallocBacking, Box) {
        let box = Box()
        return (try JemallocBacking(scale: scale, appCount: apps, budgetBytes: budget, pressureSource: .measured,
                                    sink: { box.rows.append($0) }), box)
    }

    final class Box { var rows: [LiveSample] = [] }

    /// With whole pages at the scale (16 KiB model pages at 1/4 are 4 KiB real pages), measured and modelled
    /// footprints are equal to the byte: each page-sized allocation is exactly one page.
    @Test(.enabled(if: Jemalloc.unavailableReason == nil, "jemalloc cannot be loaded in this process: install libjemalloc2 and run with GLIBC_TUNABLES=glibc.rtld.optional_static_tls=16384 (README: Real-memory mode)")) func measuredEqualsModelledForWholePages() throws {
        let (b, box) = try backing(BackingScale(numerator: 1, denominator: 4))
        let memory = BackedMemory(dirty: 40 * mib, cache: 8 * mib, purgeable: 4 * mib, backingStore: 12 * mib, imageCache: 16 * 1024 * 9)
        b.update(app: 1, to: memory, reclaim: false)
        b.sample(at: 5)
        let row = try #require(box.rows.first)
        #expect(row.app == 1)
        #expect(row.modelledBytes == memory.total)
        #expect(row.measuredBytes == memory.total)
        #expect(row.dirtyFreedBytes == 0)
        #expect(row.arenaResidentBytes >= memory.total / 4)
        #expect(b.summary.maxRelativeErrorPPM == 0)
    }

    /// At 1/256 each component is rounded up to a whole real page: measured exceeds modelled by less than one
    /// page per component, scaled back (5 × 4 KiB × 256 = 5 MiB), and never falls short.
    @Test(.enabled(if: Jemalloc.unavailableReason == nil, "jemalloc cannot be loaded in this process: install libjemalloc2 and run with GLIBC_TUNABLES=glibc.rtld.optional_static_tls=16384 (README: Real-memory mode)")) func atADeepScaleTheErrorIsBoundedByOnePagePerComponent() throws {
        let (b, box) = try backing(.default)
        let page = try Jemalloc.pageSize()
        for (app, dirty) in [(0, 123 * mib + 16 * 1024), (1, 7 * mib), (2, 301 * mib + 48 * 1024)] {
            b.update(app: app, to: BackedMemory(dirty: dirty, cache: 3 * mib + 16 * 1024, purgeable: mib, backingStore: 5 * mib,
                                                imageCache: 16 * 1024), reclaim: false)
        }
        b.sample(at: 1)
        #expect(box.rows.count == 3)
        for row in box.rows {
            #expect(row.measuredBytes >= row.modelledBytes)
            #expect(row.measuredBytes - row.modelledBytes < BackedMemory.componentCount * page * 256)
        }
    }

    @Test(.enabled(if: Jemalloc.unavailableReason == nil, "jemalloc cannot be loaded in this process: install libjemalloc2 and run with GLIBC_TUNABLES=glibc.rtld.optional_static_tls=16384 (README: Real-memory mode)")) func whatTheAppFreesStaysDirtyUntilTheSystemReclaims() throws {
        let (b, box) = try backing(BackingScale(numerator: 1, denominator: 4))
        let page = try Jemalloc.pageSize()
        b.update(app: 0, to: BackedMemory(dirty: 64 * mib), reclaim: false)
        b.update(app: 0, to: BackedMemory(dirty: 16 * mib), reclaim: false)   // the app frees 48 MiB itself
        b.refresh()
        #expect(b.dirtyPages(app: 0) == 48 * mib / 4 / page)
        #expect(b.retainedBytes(app: 0) == 48 * mib)
        #expect(b.totalRetainedBytes == 48 * mib)
        #expect(b.measuredBytes(app: 0) == 64 * mib)
        b.sample(at: 1)
        #expect(box.rows.last?.dirtyFreedBytes == 48 * mib)
        #expect(b.summary.retainedBytesMax == 48 * mib)
        b.update(app: 0, to: BackedMemory(dirty: 16 * mib), reclaim: true)    // e.g. a memory warning's relief
        b.refresh()
        #expect(b.dirtyPages(app: 0) == 0)
        #expect(b.retainedBytes(app: 0) == 0)
        #expect(b.measuredBytes(app: 0) == 16 * mib)
    }

    /// A process that ends returns every page; its arena is parked and the next launch reuses it, so a long trace
    /// of kills does not grow the arena count (create/destroy would leak metadata on every cycle).
    @Test(.enabled(if: Jemalloc.unavailableReason == nil, "jemalloc cannot be loaded in this process: install libjemalloc2 and run with GLIBC_TUNABLES=glibc.rtld.optional_static_tls=16384 (README: Real-memory mode)")) func endedProcessesReturnEveryPageAndArenasAreReused() throws {
        let (b, _) = try backing(BackingScale(numerator: 1, denominator: 4), apps: 3)
        for cycle in 0..<50 {
            let app = cycle % 3
            b.update(app: app, to: BackedMemory(dirty: 8 * mib, cache: 2 * mib), reclaim: false)
            b.update(app: app, to: BackedMemory(dirty: 4 * mib), reclaim: false)
            b.release(app: app)
        }
        b.refresh()
        #expect(b.heldBytes == 0)
        #expect(b.arenaCount == 1)
        for app in 0..<3 { #expect(b.measuredBytes(app: app) == 0) }
    }

    @Test(.enabled(if: Jemalloc.unavailableReason == nil, "jemalloc cannot be loaded in this process: install libjemalloc2 and run with GLIBC_TUNABLES=glibc.rtld.optional_static_tls=16384 (README: Real-memory mode)")) func theBudgetStopsRealMemoryWithAClearFailureAndNoCrash() throws {
        let (b, _) = try backing(BackingScale(numerator: 1, denominator: 1), budget: 8 * mib)
        b.update(app: 0, to: BackedMemory(dirty: 6 * mib), reclaim: false)
        #expect(b.failure == nil)
        b.update(app: 1, to: BackedMemory(dirty: 1 << 56), reclaim: false)   // a runaway `alloc`: refused, not attempted
        let failure = try #require(b.failure)
        #expect(failure.description.contains("budget of 8.0 MiB"))
        #expect(b.heldBytes == 6 * mib)
    }

    @Test func unsafeScalesAreRefusedWithAWayOut() throws {
        let machine = (total: 24 << 30, available: 20 << 30)
        let phone = 4 << 30
        #expect(try RealMemoryBudget.budget(deviceName: "iphone-xs", devicePhysicalBytes: phone, scale: .default, machine: machine) == 6 << 30)
        #expect(throws: RealMemoryError.self) {
            try RealMemoryBudget.budget(deviceName: "big", devicePhysicalBytes: 16 << 30, scale: BackingScale(numerator: 1, denominator: 1),
                                        machine: machine)
        }
        let error = #expect(throws: RealMemoryError.self) {
            try RealMemoryBudget.budget(deviceName: "big", devicePhysicalBytes: 16 << 30, scale: BackingScale(numerator: 1, denominator: 1),
                                        machine: (total: 24 << 30, available: 4 << 30))
        }
        #expect(error?.description.contains("safe share of 2.00 GiB") == true, "\(String(describing: error))")
        #expect(error?.description.contains("use scale=1/8 or smaller") == true)
        #expect(error?.exitCode == 64)
    }

    @Test func backingSpecsParseAndBadOnesAreNamed() throws {
        #expect(try BackingSpec(parsing: "model") == .model)
        #expect(try BackingSpec(parsing: "jemalloc") == .jemalloc(.default))
        #expect(try BackingSpec(parsing: "jemalloc:scale=1/16") == .jemalloc(BackingScale(numerator: 1, denominator: 16)))
        #expect(try BackingSpec(parsing: "jemalloc:scale=1").description == "jemalloc:scale=1/1")
        for bad in ["tcmalloc", "jemalloc:scale=2", "jemalloc:scale=0/4", "jemalloc:scale=-1/4", "jemalloc:arenas=3", "jemalloc:scale=1/x"] {
            #expect(throws: RealMemoryError.self, "\(bad)") { try BackingSpec(parsing: bad) }
        }
    }
}
