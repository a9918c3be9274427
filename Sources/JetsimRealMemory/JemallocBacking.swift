import JetsimCore

/// Real-memory mode: each simulated app's memory is a set of real, touched allocations in its own jemalloc
/// arena, scaled down by `scale`, and the footprints are read back from jemalloc's statistics.
///
/// - Every mirrored component (dirty, caches, purgeable, backing stores, image caches) is a stack of one-page
///   allocations. A page-sized allocation is exactly one page of its own in jemalloc 5.3 (a one-region slab),
///   so an arena's active pages equal the pages asked for, and whatever it holds beyond them (freed-but-dirty
///   pages) is the allocator's doing, not an artefact of size classes.
/// - What the system takes back (discards, purges, compression, freezing, kills, a memory warning's relief) is
///   freed and the arena purged at once; what the app frees itself (`alloc` with a negative size, its own cache
///   drops) stays dirty in its allocator until then, as it would.
/// - A process that ends has its arena reset and purged (all pages back to the system) and parked for the next
///   launch: destroying and re-creating arenas leaks about 4 KiB of metadata per cycle (measured: 40 MiB over
///   10 000 kills), which a long trace would feel.
///
/// Invariant: `heldPages` = Σ chunks over all apps ≤ budget pages; an app holds an arena iff it holds memory or
/// has been given some since it last ended.
public final class JemallocBacking: MemoryBacking {
    public let spec: BackingSpec
    public let scale: BackingScale
    public let pageSize: Int
    /// Most real bytes the backing will hold; beyond it the run stops with `failure`.
    public let budgetBytes: Int
    /// Why real memory could not follow the model (allocation failure, budget exceeded); nil while all is well.
    public private(set) var failure: RealMemoryError?
    /// Divergence so far (summary.csv columns).
    public var summary: BackingSummary {
        var s = BackingSummary(backing: spec.description, pressureSource: pressureSource)
        s.liveRows = liveRows
        s.meanRelativeErrorPPM = errorRows > 0 ? Int(errorSumPPM / Int128(errorRows)) : 0
        s.maxRelativeErrorPPM = maxErrorPPM
        s.retainedBytesMax = retainedBytesMax
        return s
    }
    /// Largest gap seen between the process's resident-set growth (`/proc/self/statm`) and the arenas' resident
    /// growth, real bytes; nil when `/proc` is unreadable. The process's own heap growth is part of the gap.
    public private(set) var largestResidentGap: Int?
    /// The arenas' total resident bytes at the last sample, real bytes.
    public private(set) var arenasResidentBytes = 0

    private struct AppMemory {
        var arena: Arena?
        var chunks: [[UnsafeMutableRawPointer]] = Array(repeating: [], count: BackedMemory.componentCount)
        var modelled = BackedMemory()
        var requestedPages = 0
        /// Pages were freed since the arena's last purge (only frees make dirty pages, so otherwise a purge is a no-op).
        var mayHoldDirtyPages = false
        var activePages = 0
        var dirtyPages = 0
        var muzzyPages = 0
        var residentBytes = 0
        var mappedBytes = 0
        var retainedPages: Int { max(0, activePages + dirtyPages - requestedPages) }
    }

    private var apps: [AppMemory]
    private var parked: [Arena] = []
    private var created: [Arena] = []
    private var heldPages = 0
    private let budgetPages: Int
    private var changed = false
    private var retainedPagesTotal = 0
    private var activeStatistic: ArenaStatistic
    private var dirtyStatistic: ArenaStatistic
    private var muzzyStatistic: ArenaStatistic
    private var residentStatistic: ArenaStatistic
    private var mappedStatistic: ArenaStatistic
    private let sink: (LiveSample) -> Void
    private let pressureSource: PressureSource
    private var liveRows = 0
    private var errorSumPPM: Int128 = 0
    private var errorRows = 0
    private var maxErrorPPM = 0
    private var retainedBytesMax = 0
    private let baselineResident: Int?
    private var baselineArenasResident = 0

    /// - Parameters:
    ///   - appCount: apps in the catalog (dense ids `0..<appCount`).
    ///   - budgetBytes: the most real memory the run may take (see `RealMemoryBudget`).
    ///   - sink: receives every `live.csv` row, in order.
    public init(scale: BackingScale, appCount: Int, budgetBytes: Int, pressureSource: PressureSource,
                sink: @escaping (LiveSample) -> Void) throws {
        try Jemalloc.checkCapabilities()
        self.scale = scale
        spec = .jemalloc(scale)
        pageSize = try Jemalloc.pageSize()
        self.budgetBytes = budgetBytes
        budgetPages = budgetBytes / pageSize
        apps = Array(repeating: AppMemory(), count: appCount)
        activeStatistic = try ArenaStatistic("pactive")
        dirtyStatistic = try ArenaStatistic("pdirty")
        muzzyStatistic = try ArenaStatistic("pmuzzy")
        residentStatistic = try ArenaStatistic("resident")
        mappedStatistic = try ArenaStatistic("mapped")
        self.sink = sink
        self.pressureSource = pressureSource
        baselineResident = ProcessMemory.residentBytes()
    }

    deinit {
        for arena in created { try? arena.destroy() }
    }

    // MARK: MemoryBacking

    public func update(app: Int, to memory: BackedMemory, reclaim: Bool) {
        guard failure == nil, apps.indices.contains(app), memory != apps[app].modelled || (reclaim && apps[app].mayHoldDirtyPages) else {
            return
        }
        let arena: Arena
        if let existing = apps[app].arena {
            arena = existing
        } else {
            guard let fresh = takeArena() else { return }
            apps[app].arena = fresh
            arena = fresh
        }
        for component in 0..<BackedMemory.componentCount {
            let target = pages(for: memory[component])
            var count = apps[app].chunks[component].count
            if target > count {
                guard target - count <= budgetPages - heldPages else {
                    fail("real memory would exceed its budget of \(Self.mebibytes(budgetBytes)) (app \(app) asks for "
                         + "\(Self.mebibytes((target - count) * pageSize)) more): the model holds more than the device; use a smaller scale")
                    return
                }
                while count < target {
                    guard let chunk = arena.allocateTouched(pageSize) else {
                        fail("jemalloc could not allocate a page in arena \(arena.index) after \(Self.mebibytes(heldPages * pageSize))")
                        return
                    }
                    apps[app].chunks[component].append(chunk)
                    count += 1
                    heldPages += 1
                    apps[app].requestedPages += 1
                }
            }
            while count > target {
                arena.free(apps[app].chunks[component].removeLast())
                count -= 1
                heldPages -= 1
                apps[app].requestedPages -= 1
                apps[app].mayHoldDirtyPages = true
            }
        }
        apps[app].modelled = memory
        if reclaim && apps[app].mayHoldDirtyPages {
            attempt { try arena.purge() }
            apps[app].mayHoldDirtyPages = false
        }
        changed = true
    }

    public func release(app: Int) {
        guard failure == nil, apps.indices.contains(app), let arena = apps[app].arena else { return }
        attempt {
            try arena.reset()
            try arena.purge()
        }
        heldPages -= apps[app].requestedPages
        for component in 0..<BackedMemory.componentCount { apps[app].chunks[component].removeAll(keepingCapacity: true) }
        let chunks = apps[app].chunks
        apps[app] = AppMemory()
        apps[app].chunks = chunks
        parked.append(arena)
        changed = true
    }

    public func refresh() {
        guard changed else { return }
        changed = false
        Jemalloc.refreshStatistics()
        retainedPagesTotal = 0
        for i in apps.indices {
            guard let arena = apps[i].arena else { continue }
            apps[i].activePages = activeStatistic.read(arena)
            apps[i].dirtyPages = dirtyStatistic.read(arena)
            apps[i].muzzyPages = muzzyStatistic.read(arena)
            apps[i].residentBytes = residentStatistic.read(arena)
            apps[i].mappedBytes = mappedStatistic.read(arena)
            retainedPagesTotal += apps[i].retainedPages
        }
    }

    public func retainedBytes(app: Int) -> Int {
        guard apps.indices.contains(app) else { return 0 }
        return modelBytes(pages: apps[app].retainedPages)
    }

    public var totalRetainedBytes: Int { modelBytes(pages: retainedPagesTotal) }

    public func sample(at time: Int) {
        guard failure == nil else { return }
        refresh()
        var retained = 0
        var arenasResident = 0
        for i in apps.indices {
            let a = apps[i]
            guard a.arena != nil else { continue }
            let row = LiveSample(
                time: time, app: Int32(i), modelledBytes: a.modelled.total,
                measuredBytes: modelBytes(pages: a.activePages + a.dirtyPages), dirtyFreedBytes: modelBytes(pages: a.dirtyPages),
                dirtyFreedPages: a.dirtyPages,                 muzzyBytes: modelBytes(pages: a.muzzyPages), arenaResidentBytes: a.residentBytes, arenaMappedBytes: a.mappedBytes)
            sink(row)
            liveRows += 1
            retained += row.dirtyFreedBytes
            arenasResident += a.residentBytes
            if row.modelledBytes > 0 {
                let difference = Int128(abs(row.measuredBytes - row.modelledBytes))
                let ppm = Int(min(difference * 1_000_000 / Int128(row.modelledBytes), Int128(Int.max)))
                errorSumPPM += Int128(ppm)
                errorRows += 1
                maxErrorPPM = max(maxErrorPPM, ppm)
            }
        }
        for arena in parked { arenasResident += residentStatistic.read(arena) }
        retainedBytesMax = max(retainedBytesMax, retained)
        arenasResidentBytes = arenasResident
        if let baselineResident, let now = ProcessMemory.residentBytes() {
            let gap = abs((now - baselineResident) - arenasResident)
            largestResidentGap = max(largestResidentGap ?? 0, gap)
        }
    }

    // MARK: Inspection

    /// Pages app `app` asked for (Σ its components, rounded up to pages at the scale).
    public func requestedPages(app: Int) -> Int { apps.indices.contains(app) ? apps[app].requestedPages : 0 }

    /// The app's measured bytes (active + dirty pages of its arena) in model bytes, as of the last refresh.
    public func measuredBytes(app: Int) -> Int {
        guard apps.indices.contains(app) else { return 0 }
        return modelBytes(pages: apps[app].activePages + apps[app].dirtyPages)
    }

    /// The app's arena's resident bytes (real), as of the last refresh.
    public func arenaResidentBytes(app: Int) -> Int { apps.indices.contains(app) ? apps[app].residentBytes : 0 }

    /// Dirty-but-freed pages of the app's arena, as of the last refresh.
    public func dirtyPages(app: Int) -> Int { apps.indices.contains(app) ? apps[app].dirtyPages : 0 }

    /// Real bytes held in allocations right now.
    public var heldBytes: Int { heldPages * pageSize }

    /// Arenas this backing created (live and parked).
    public var arenaCount: Int { created.count }

    // MARK: Helpers

    /// Pages that hold `modelBytes` at the scale, rounded up.
    func pages(for modelBytes: Int) -> Int {
        let real = scale.realBytes(modelBytes)
        return real / pageSize + (real % pageSize > 0 ? 1 : 0)
    }

    private func modelBytes(pages: Int) -> Int { scale.modelBytes(pages * pageSize) }

    private func takeArena() -> Arena? {
        if let arena = parked.popLast() { return arena }
        do {
            let arena = try Arena.create()
            created.append(arena)
            return arena
        } catch {
            fail("jemalloc could not create an arena after \(created.count): \(error)")
            return nil
        }
    }

    private func attempt(_ body: () throws -> Void) {
        do { try body() } catch { fail("\(error)") }
    }

    private func fail(_ message: String) {
        if failure == nil { failure = RealMemoryError(message) }
    }

    static func mebibytes(_ bytes: Int) -> String { FixedPoint.format(bytes, over: Units.mebibyte, decimals: 1) + " MiB" }
}
