// Memory operations: every byte an app gains or loses passes through here, keeping the ledger exact.
// Footprint follows xnu-jetsam.md §5; discards follow ios-app-lifecycle.md "Memory on the way to the background".

extension Simulator {
    /// Integrates the app's footprint and resident time up to now (for `apps.csv`).
    ///
    /// In wrapping arithmetic (before every change of an app's memory, 3–4 times an event): times are within 2^60 µs
    /// of the start (`DecimalParser.maxMicros`) and a footprint below 2^58, so the integral stays below 2^119 and the
    /// resident time below 2^61 (it sums disjoint stretches of the run).
    mutating func accrue(_ i: Int) {
        let dt = now &- apps[i].accruedAt
        if dt > 0 && apps[i].state.isResident {
            apps[i].residentMicros &+= dt
            apps[i].footprintIntegral &+= Int128(apps[i].footprint) &* Int128(dt)
        }
        apps[i].accruedAt = now
    }

    @inline(__always)
    private mutating func notePeak(_ i: Int) {
        let f = apps[i].footprint
        if f > apps[i].peakFootprint { apps[i].peakFootprint = f }
    }

    /// Room for the pages a fresh process takes at launch (see `allocateLaunchMemory`). A launch whose footprint is
    /// over a fatal limit dies at once (`per-process-limit`, `enforceLimits`) and takes nothing from anyone, as a
    /// cache does not admit an object larger than itself.
    mutating func makeRoomForLaunch(_ i: Int, withInterface: Bool) {
        let p = profiles[i]
        let footprint = p.dirtyBytes + p.cacheBytes + p.purgeableBytes + (withInterface ? p.backingStoreBytes + p.imageCacheBytes : 0)
        if device.appLimitFatal && footprint > device.appLimitActiveBytes { return }   // a launch holds an assertion
        makeRoom(for: footprint + p.fileBackedBytes)
    }

    /// A page fault waits for free pages while the VM reclaims, compresses and jetsam kills (issue 18, rule 10): when
    /// more than the free pages are about to be granted, the pressure response runs first with them reserved, so it
    /// acts before the grant and available memory never goes negative while anything can still be done. The app
    /// asking is a candidate only if it already runs (an app being launched is not). Not inside a response (a kill
    /// that stops an app's growth grants nothing new), and not on a cache-equivalent device, which inserts and then
    /// evicts, in the order the cache replay and libCacheSim's cross-check follow.
    /// `app`: the running app asking (it may be killed meanwhile: then nothing more is done for it), or -1 for a
    /// launch.
    @inline(__always)
    mutating func makeRoom(for bytes: Int, app: Int = -1) {
        if bytes > memory.free && !responding && !device.cacheEquivalent { respondWithReserved(bytes, app: app) }
    }

    /// The fault takes the free pages; with none left, the VM takes clean pages and purges volatile memory; with
    /// none of those left, the pressure response acts (it sees no free pages, never fewer), and the fault takes what
    /// it freed. When nothing can be freed the rest is granted all the same: an out-of-memory episode.
    @inline(never)
    private mutating func respondWithReserved(_ bytes: Int, app: Int) {
        var remaining = bytes, held = 0
        while true {
            let take = min(remaining, max(0, memory.free))
            memory.free -= take
            held += take
            remaining -= take
            if remaining == 0 { break }
            memory.free -= remaining   // a shortfall: what `reclaimCleanPages` works on
            reclaimCleanPages()
            memory.free += remaining
            if memory.free > 0 { continue }
            respondToPressure()
            if memory.free <= 0 || (app >= 0 && !apps[app].state.isResident) { break }
        }
        memory.free += held   // the caller allocates all `bytes` itself (or nothing, if the asking app died)
    }

    /// A fresh process: dirty memory, caches, non-volatile purgeable data, file-backed pages and, for a
    /// foreground launch, its user interface (backing stores, image caches).
    mutating func allocateLaunchMemory(_ i: Int, withInterface: Bool) {
        accrue(i)
        let p = profiles[i]
        apps[i].dirtyResident = p.dirtyBytes
        apps[i].cache = p.cacheBytes
        apps[i].purgeable = p.purgeableBytes
        apps[i].purgeableVolatile = false
        apps[i].backingStore = withInterface ? p.backingStoreBytes : 0
        apps[i].imageCache = withInterface ? p.imageCacheBytes : 0
        apps[i].fileBacked = p.fileBackedBytes
        memory.free -= apps[i].residentBytes
        memory.fileBacked += p.fileBackedBytes
        notePeak(i)
        mirror(i, reclaim: false)
    }

    /// The pages a resume takes: decompressed and thawed dirty memory, and what `restoreForegroundMemory` rebuilds.
    /// Inlined: out of line, this reader would take a copy of the whole simulator from `resume` (see `measuredSample`).
    @inline(__always)
    func resumeBytes(_ i: Int) -> Int {
        let a = apps[i], p = profiles[i]
        let restored = max(a.cache, p.cacheBytes) + p.purgeableBytes + p.backingStoreBytes + p.imageCacheBytes + p.fileBackedBytes
        return a.dirtyCompressed - a.compressedPhysical + a.dirtyFrozen
            + restored - (a.cache + a.purgeable + a.backingStore + a.imageCache + a.fileBacked)
    }

    /// Back in the foreground: the system rebuilds backing stores and image caches, purgeable data is made
    /// non-volatile again (regenerated if it was purged), caches refill and file-backed pages fault back in.
    mutating func restoreForegroundMemory(_ i: Int) {
        accrue(i)
        let p = profiles[i]
        if apps[i].purgeableVolatile {
            memory.volatilePurgeable -= apps[i].purgeable
            apps[i].purgeableVolatile = false
        }
        let before = apps[i].residentBytes
        let fileBackedBefore = apps[i].fileBacked
        apps[i].backingStore = p.backingStoreBytes
        apps[i].imageCache = p.imageCacheBytes
        apps[i].purgeable = p.purgeableBytes
        apps[i].cache = max(apps[i].cache, p.cacheBytes)
        apps[i].fileBacked = p.fileBackedBytes
        memory.free -= apps[i].residentBytes - before
        memory.fileBacked += p.fileBackedBytes - fileBackedBefore
        notePeak(i)
        mirror(i, reclaim: false)
    }

    /// Entering the background: the system discards Core Animation backing stores and image caches, the app
    /// drops its `cache_drop_on_background` share of caches, and its purgeable data becomes volatile.
    mutating func discardOnBackground(_ i: Int) {
        accrue(i)
        let discarded = apps[i].backingStore + apps[i].imageCache
        memory.free += discarded
        apps[i].backingStore = 0
        apps[i].imageCache = 0
        dropCaches(i, share: profiles[i].cacheDropOnBackground)
        makePurgeableVolatile(i)
        // The system's discard returns pages at once; the app's own cache drop alone would leave them with its allocator.
        mirror(i, reclaim: discarded > 0)
    }

    /// The app releases `share` of its caches; returns the bytes freed. Callers mirror the change.
    @discardableResult
    mutating func dropCaches(_ i: Int, share: Share) -> Int {
        accrue(i)
        let drop = share.of(apps[i].cache, granule: device.pageSize)
        apps[i].cache -= drop
        memory.free += drop
        return drop
    }

    /// Purgeable data not in use: no longer footprint, still resident until purged. (Only the test is inlined: half
    /// the calls, on suspension, find it volatile since the app entered the background.)
    @inline(__always)
    mutating func makePurgeableVolatile(_ i: Int) {
        if !apps[i].purgeableVolatile { markPurgeableVolatile(i) }
    }

    @inline(never)
    private mutating func markPurgeableVolatile(_ i: Int) {
        accrue(i)
        apps[i].purgeableVolatile = true
        apps[i].volatileSequence = volatileSequence
        apps[i].volatileSince = now
        let apps = self.apps.view
        volatileOrder.append(.init(sequence: volatileSequence, since: now, app: appID(i))) { Self.isLive($0, in: apps) }
        volatileSequence &+= 1
        memory.volatilePurgeable += apps[i].purgeable
    }

    /// Whether the app still holds the volatile memory this entry recorded.
    static func isLive(_ e: VolatileQueue.Entry, in apps: UncheckedArray<AppRuntime>.View) -> Bool {
        let i = Int(e.app)
        return apps[i].purgeableVolatile && apps[i].purgeable > 0 && apps[i].volatileSequence == e.sequence
    }

    /// Discards the app's volatile purgeable memory; returns the bytes purged.
    @discardableResult
    mutating func purgeVolatile(of i: Int) -> Int {
        guard apps[i].purgeableVolatile, apps[i].purgeable > 0 else { return 0 }
        let bytes = apps[i].purgeable
        apps[i].purgeable = 0
        memory.volatilePurgeable -= bytes
        memory.free += bytes
        metrics.counters.purgedBytes += bytes
        mirror(i, reclaim: true)
        return bytes
    }

    /// Moves a suspended app's resident dirty memory into the compressor. Fails when the compressor is out of space:
    /// it would hold more uncompressed data than `c_segment_pages_compressed_limit`, or more segments than
    /// `c_segments_limit` (`vm_compressor_out_of_space`, vm_compressor.c:573).
    mutating func compress(_ i: Int) -> Bool {
        let logical = apps[i].dirtyResident
        guard logical > 0 else { return false }
        let physical = compressedSize(logical, ratioMilli: compressRatios[i])
        let segment = device.compressor.segmentBytes
        let segmentsAfter = segment > 0 ? (memory.compressorPool + physical + segment - 1) / segment : 0
        guard memory.compressedLogical + logical <= limits.compressedLimit && segmentsAfter <= limits.segmentsLimit else {
            return false
        }
        apps[i].dirtyResident = 0
        refreshCompressionKey(i)
        apps[i].dirtyCompressed += logical
        apps[i].compressedPhysical += physical
        memory.compressorPool += physical
        memory.compressedLogical += logical
        memory.free += logical - physical
        metrics.counters.compressedBytes += logical
        if memory.compressorPool > metrics.peakCompressorBytes { metrics.peakCompressorBytes = memory.compressorPool }
        if memory.compressorPool > peakCompressorSinceSnapshot { peakCompressorSinceSnapshot = memory.compressorPool }
        mirror(i, reclaim: true)
        return true
    }

    /// Re-keys app `i` in the compression order. Called wherever a suspended app's resident dirty memory or its
    /// state changes (its last foreground time only changes outside the Suspended state).
    @inline(__always)
    mutating func refreshCompressionKey(_ i: Int) {
        compressionKey[i] = apps[i].state == .suspended && apps[i].dirtyResident > 0 ? apps[i].lastForegroundTime : .max
    }

    /// `bytes / ratio`, rounded up to whole pages (full-width arithmetic: no overflow for any size).
    @inline(__always)
    func compressedSize(_ bytes: Int, ratioMilli: Int) -> Int {
        // A ratio of at least 1 : 1 makes the quotient at most `bytes`: it always fits.
        let (q, r) = Units.multiplyDivide(bytes, 1000, by: ratioMilli) ?? (bytes, 0)
        return roundUpToPage(r > 0 ? q + 1 : q)
    }

    /// The app runs again: its compressed pages are decompressed into RAM.
    mutating func decompress(_ i: Int) {
        let logical = apps[i].dirtyCompressed, physical = apps[i].compressedPhysical
        apps[i].dirtyResident += logical
        refreshCompressionKey(i)
        apps[i].dirtyCompressed = 0
        apps[i].compressedPhysical = 0
        memory.compressorPool -= physical
        memory.compressedLogical -= logical
        memory.free -= logical - physical
        mirror(i, reclaim: false)
    }

    /// The freezer writes the app's dirty memory (resident and compressed) to NAND, compressed; it leaves RAM
    /// and the compressor but stays in the footprint. Fails when the day's write budget would be exceeded.
    mutating func freeze(_ i: Int) -> Bool {
        let logical = apps[i].dirtyResident + apps[i].dirtyCompressed
        let written = compressedSize(logical, ratioMilli: compressRatios[i])
        guard freezerDayWritten + written <= device.freezer.dailyWriteBudgetBytes else { return false }
        accrue(i)
        memory.free += apps[i].dirtyResident + apps[i].compressedPhysical
        memory.compressorPool -= apps[i].compressedPhysical
        memory.compressedLogical -= apps[i].dirtyCompressed
        memory.frozen += logical - apps[i].dirtyFrozen
        apps[i].dirtyFrozen = logical
        apps[i].dirtyResident = 0
        refreshCompressionKey(i)
        apps[i].dirtyCompressed = 0
        apps[i].compressedPhysical = 0
        apps[i].frozen = true
        frozenCount += 1
        freezerDayWritten += written
        metrics.counters.freezes += 1
        metrics.counters.frozenWrittenBytes += written
        mirror(i, reclaim: true)
        return true
    }

    /// Frozen pages are read back into RAM; returns the extra latency (ms) the thaw costs. The app stays frozen
    /// (`P_MEMSTAT_FROZEN` is kept on resume, kern_memorystatus.c:3771–3830): it counts against the freezer's limits
    /// and returns to the frozen band (75) when it is suspended again (kern_memorystatus.c:2868–2881).
    mutating func thaw(_ i: Int) -> Int {
        let bytes = apps[i].dirtyFrozen
        apps[i].dirtyResident += bytes
        refreshCompressionKey(i)
        apps[i].dirtyFrozen = 0
        memory.frozen -= bytes
        memory.free -= bytes
        metrics.counters.thaws += 1
        mirror(i, reclaim: false)
        let micros = Units.multiplyDivide(bytes, device.freezer.thawMicrosPerMebibyte, by: Units.mebibyte)?.quotient ?? Int.max
        return micros / Units.microsPerMilli + (micros % Units.microsPerMilli > 0 ? 1 : 0)
    }

    /// The process is gone: all its memory returns to the free pool.
    mutating func releaseAllMemory(_ i: Int) {
        accrue(i)
        memory.free += apps[i].residentBytes + apps[i].compressedPhysical
        memory.fileBacked -= apps[i].fileBacked
        memory.volatilePurgeable -= apps[i].volatileBytes
        memory.compressorPool -= apps[i].compressedPhysical
        memory.compressedLogical -= apps[i].dirtyCompressed
        apps[i].dirtyResident = 0
        apps[i].dirtyCompressed = 0
        apps[i].compressedPhysical = 0
        if apps[i].frozen { frozenCount -= 1 }
        memory.frozen -= apps[i].dirtyFrozen
        apps[i].dirtyFrozen = 0
        apps[i].frozen = false
        apps[i].cache = 0
        apps[i].purgeable = 0
        apps[i].purgeableVolatile = false
        apps[i].backingStore = 0
        apps[i].imageCache = 0
        apps[i].fileBacked = 0
        mirrorRelease(i)
    }

    /// When free memory runs out, the VM takes clean file-backed pages (background apps' first), then purges
    /// volatile memory oldest first. Neither changes anyone's footprint. (Only the test is inlined: nine calls in ten
    /// find free pages left.)
    @inline(__always)
    mutating func reclaimCleanPages() {
        if memory.free < 0 { reclaimCleanPagesWhileShort() }
    }

    @inline(never)
    private mutating func reclaimCleanPagesWhileShort() {
        for pass in 0..<2 where memory.fileBacked > 0 && memory.free < 0 {
            for app in resident.members {
                guard memory.free < 0 else { break }
                let i = Int(app)
                guard apps[i].fileBacked > 0, pass == 1 || app != foreground else { continue }
                let take = min(apps[i].fileBacked, -memory.free)
                apps[i].fileBacked -= take
                memory.fileBacked -= take
                memory.free += take
            }
        }
        while memory.free < 0, let i = oldestVolatile(ripeOnly: false) { purgeVolatile(of: i) }
    }

    /// The app whose purgeable memory became volatile first, among those that still hold some (and, with
    /// `ripeOnly`, have held it volatile for at least the ripening time).
    mutating func oldestVolatile(ripeOnly: Bool) -> Int? {
        let apps = self.apps.view
        let oldest = volatileOrder.oldest { Self.isLive($0, in: apps) }
        // The queue is in volatile order, which is also the order of `volatileSince`: if the oldest is not ripe, none is.
        let found = oldest.flatMap { !ripeOnly || $0.since <= now - device.timers.purgeableRipenMicros ? Int($0.app) : nil }
        assert(found == oldestVolatileByScan(ripeOnly: ripeOnly), "the volatile queue disagrees with a scan")
        return found
    }

    /// The same by a scan of the resident apps: the debug builds' check of the queue.
    private func oldestVolatileByScan(ripeOnly: Bool) -> Int? {
        var best: Int?
        var bestSequence = UInt64.max
        guard memory.volatilePurgeable > 0 else { return nil }
        let ripeBefore = now - device.timers.purgeableRipenMicros
        for app in resident.members {
            let i = Int(app)
            guard apps[i].purgeableVolatile && apps[i].purgeable > 0 && apps[i].volatileSequence < bestSequence
                && (!ripeOnly || apps[i].volatileSince <= ripeBefore) else { continue }
            best = i
            bestSequence = apps[i].volatileSequence
        }
        return best
    }

    // MARK: Dirty memory: growth and allocations

    mutating func startGrowth(_ i: Int) {
        guard apps[i].state.isResident, profiles[i].growthBytesPerMinute > 0, apps[i].dirtyResident < profiles[i].maxDirtyBytes else { return }
        apps[i].growing = true
        apps[i].growthBase = apps[i].dirtyResident
        apps[i].growthStart = now
        apps[i].growthCheckAt = 0
    }

    mutating func stopGrowth(_ i: Int) {
        guard apps[i].growing else { return }
        applyGrowth(i)
        apps[i].growing = false
        apps[i].growthCheckAt = 0
        apps[i].growthEpoch &+= 1
        timers.cancel(.growthStep)   // only the foreground app grows: the pending check was its own
    }

    /// Applies the growth due now (`ForegroundGrowth`: base + rate × elapsed, in whole pages, capped at `max_dirty_mb`).
    mutating func applyGrowth(_ i: Int) {
        let target = grownDirty(i)
        if target > apps[i].dirtyResident {
            makeRoom(for: target - apps[i].dirtyResident, app: i)
            guard apps[i].growing else { return }   // killed meanwhile
            setDirtyResident(i, target)
        }
        if target >= profiles[i].maxDirtyBytes { apps[i].growing = false }
    }

    /// `bytes` rounded up to whole pages, as `Units.roundUp` gives. With a power-of-two page size (every preset) and
    /// `bytes` ≥ 0, by mask, as `Units.roundDown(_:toPage:mask:)` rounds down: the division it replaces is the slowest
    /// instruction on the growth and compression paths.
    @inline(__always)
    func roundUpToPage(_ bytes: Int) -> Int {
        limits.pageMask >= 0 && bytes >= 0 ? (bytes + limits.pageMask) & ~limits.pageMask : Units.roundUp(bytes, to: device.pageSize)
    }

    /// What the growth formula gives now (never less than the current dirty memory).
    @inline(__always)
    func grownDirty(_ i: Int) -> Int { foregroundGrowth(i).dirty(at: now) }

    /// App `i`'s growth formula, as of its session and its dirty memory now. (Fields are read one by one, here and in the
    /// growth check: copying a whole profile or `AppRuntime` per event cost more than the arithmetic.)
    @inline(__always)
    func foregroundGrowth(_ i: Int) -> ForegroundGrowth {
        ForegroundGrowth(bytesPerMinute: profiles[i].growthBytesPerMinute, start: apps[i].growthStart, base: apps[i].growthBase,
                         cap: profiles[i].maxDirtyBytes, dirtyResident: apps[i].dirtyResident,
                         pageSize: device.pageSize, pageMask: limits.pageMask)
    }

    /// The next growth check is due at the first moment foreground growth alone changes something: the app reaches
    /// its warning level, its limit or its cap, or available memory falls below a kill, pressure or freezer threshold.
    /// Growth is checked exactly then, so limit kills happen at the right microsecond and idle stretches cost no
    /// timers. This is the growth from the session's base, in whole pages, that it takes (nil: no check is due).
    @inline(__always)
    func growthNeededForNextCheck(_ i: Int) -> Int? {
        guard apps[i].growing, profiles[i].growthBytesPerMinute > 0 else { return nil }
        let dirty = apps[i].dirtyResident
        var delta = profiles[i].maxDirtyBytes - dirty
        guard delta > 0 else { return nil }
        func consider(_ d: Int) { if d > 0 && d < delta { delta = d } }
        // Wrapping arithmetic (twice an event): sizes, limits and thresholds are far below 2^62. A level of `Int.max`
        // (none) gives a distance beyond every other, or a negative one that is skipped: never chosen, as never reached.
        let footprint = apps[i].footprint, limit = memoryLimit(i)
        if !apps[i].nearLimitWarned { consider(limitWarningLevel(i) &- footprint &+ 1) }
        consider(limit &- footprint &+ 1)
        let avail = available
        consider(avail &- limits.soft &+ 1)
        consider(avail &- limits.idle &+ 1)
        consider(avail &- limits.critical &+ 1)
        if device.freezer.enabled { consider(avail &- limits.freezer &+ 1) }
        if limits.reaperOn { consider(avail &- limits.reaper &+ 1) }
        return roundUpToPage(dirty - apps[i].growthBase + delta)
    }

    /// When the growth formula reaches `needed` bytes from the session's base (never before the next microsecond).
    @inline(__always)
    func growthCheckTime(_ i: Int, needed: Int) -> Int? {
        guard let (q, r) = Units.multiplyDivide(needed, ForegroundGrowth.microsPerMinute, by: profiles[i].growthBytesPerMinute) else {
            return nil   // beyond any representable time
        }
        let (at, overflow) = apps[i].growthStart.addingReportingOverflow(r > 0 ? q + 1 : q)
        return overflow ? nil : max(at, now + 1)
    }

    /// Whether growth certainly reaches `needed` no earlier than `time`, so a check pending then stays first. A
    /// multiplication instead of `growthCheckTime`'s division, which most calls of `scheduleGrowthCheck` then skip:
    /// `ceil(needed × µs per minute / rate) ≥ time − start` exactly when `needed × µs per minute > (time − start − 1) × rate`.
    @inline(__always)
    func growthReachesNoEarlier(_ i: Int, needed: Int, than time: Int) -> Bool {
        if time <= now + 1 { return true }   // every check is due after now
        let span = time &- apps[i].growthStart   // the pending check is later than now, so later than the session's start
        guard needed >= 0, span >= 1 else { return false }
        let grown = needed.multipliedFullWidth(by: ForegroundGrowth.microsPerMinute)
        let reached = (span - 1).multipliedFullWidth(by: profiles[i].growthBytesPerMinute)
        return grown.high != reached.high ? grown.high > reached.high : grown.low > reached.low
    }

    /// Keeps one growth check scheduled for the foreground app, at its next crossing; moves it earlier when an
    /// event brought the crossing forward (the later timer is then ignored). Inlined as the test for a foreground app:
    /// after more than half the events and timers (W2) there is none, and then this is one comparison, not a call.
    @inline(__always)
    mutating func scheduleGrowthCheck() {
        if foreground >= 0 { scheduleForegroundGrowthCheck() }
    }

    private mutating func scheduleForegroundGrowthCheck() {
        let i = Int(foreground)
        guard apps[i].growing, let needed = growthNeededForNextCheck(i) else { return }
        let pending = apps[i].growthCheckAt
        if pending != 0 && growthReachesNoEarlier(i, needed: needed, than: pending) { return }
        guard let at = growthCheckTime(i, needed: needed) else { return }
        if pending == 0 || at < pending {
            apps[i].growthEpoch &+= 1
            apps[i].growthCheckAt = at
            timers.schedule(.growthStep, at: at, app: appID(i), generation: apps[i].generation, token: apps[i].growthEpoch)
        }
    }

    mutating func growthStep(_ i: Int, token: UInt32) -> Bool {
        guard token == apps[i].growthEpoch else { return false }
        apps[i].growthCheckAt = 0
        enforceLimits(i)
        return true
    }

    mutating func setDirtyResident(_ i: Int, _ bytes: Int) {
        accrue(i)
        memory.free -= bytes - apps[i].dirtyResident
        apps[i].dirtyResident = bytes
        notePeak(i)
        mirror(i, reclaim: false)
    }

    /// `alloc`: a running app allocates (positive) or frees (negative) dirty memory, in whole pages.
    mutating func allocate(_ app: Int32, bytes: Int) -> Bool {
        let i = Int(app)
        guard apps[i].state.isRunning else { return false }
        if apps[i].growing { applyGrowth(i) }
        guard apps[i].state.isRunning else { return true }   // killed while its growth waited for pages
        // Saturate far below overflow (2^56 bytes): a runaway allocator meets its memory limit long before.
        let cap = Units.roundDown(1 << 56, to: device.pageSize)
        let pages = Units.roundUp(min(Int(clamping: bytes.magnitude), cap), to: device.pageSize)
        let old = apps[i].dirtyResident
        let new = bytes >= 0 ? min(old + pages, cap) : max(0, old - pages)
        if new > old {
            makeRoom(for: new - old, app: i)
            guard apps[i].state.isRunning else { return true }   // killed meanwhile
        }
        setDirtyResident(i, new)
        if apps[i].growing { apps[i].growthBase += new - old }
        enforceLimits(i)
        return true
    }

    // MARK: Per-app limits

    /// Whether the app's active limit applies: while it holds a priority assertion — in the foreground, or running
    /// in the background on a task, a mode or a wake — whatever its band (`memstat_proc_is_active_locked`,
    /// kern_memorystatus.c:5078–5083); suspended, the inactive one.
    @inline(__always)
    func usesActiveLimit(_ i: Int) -> Bool { apps[i].state.isRunning }

    /// The app's memory limit (see `usesActiveLimit`). A change of limit only sets the ledger's limit
    /// (`ledger_set_limit` does not look at the balance, ledger.c:1328–1369; kern_memorystatus.c:2967–2971): it is
    /// enforced when the app's footprint next grows (`enforceLimits`).
    @inline(__always)
    func memoryLimit(_ i: Int) -> Int {
        usesActiveLimit(i) ? device.appLimitActiveBytes : device.appLimitInactiveBytes
    }

    /// Called when an app's footprint has grown (a ledger credit, ledger.c:1134–1163): above its warning level a
    /// running app gets a memory warning (and drops caches); over a fatal limit it is killed at once
    /// (`per-process-limit`, kern_memorystatus.c:4957–4970). Over a soft limit it becomes a `highwater` candidate.
    mutating func enforceLimits(_ i: Int) {
        guard apps[i].state.isResident else { return }
        refreshMeasured()
        let limit = memoryLimit(i)
        let footprint = decisionFootprint(i)
        if footprint > limitWarningLevel(i) {
            if !apps[i].nearLimitWarned && apps[i].state.isRunning {
                apps[i].nearLimitWarned = true
                sendMemoryWarning(i)
            }
        } else {
            apps[i].nearLimitWarned = false
        }
        if device.appLimitFatal && decisionFootprint(i) > limit { kill(i, reason: .perProcessLimit) }
    }

    /// The footprint at which a running app is warned that it nears its limit.
    @inline(__always)
    func limitWarningLevel(_ i: Int) -> Int {
        device.cacheEquivalent ? Int.max : usesActiveLimit(i) ? limits.activeWarning : limits.inactiveWarning
    }

    /// `didReceiveMemoryWarning`: the app drops its `cache_drop_on_warning` share of caches.
    mutating func sendMemoryWarning(_ i: Int) {
        metrics.counters.memoryWarnings += 1
        callback(i, .didReceiveMemoryWarning)
        dropCaches(i, share: profiles[i].cacheDropOnWarning)
        mirror(i, reclaim: true)   // a warning also relieves the app's allocator (malloc pressure relief)
        // Back below its warning level, the app is warned again at the next crossing: re-armed now, when the
        // footprint falls, rather than whenever its limits are next checked, which would make it depend on when.
        if apps[i].nearLimitWarned && decisionFootprint(i) <= limitWarningLevel(i) { apps[i].nearLimitWarned = false }
    }
}
