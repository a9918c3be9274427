// Android 4.x's memory management (README, "Android 4.x"), in place of XNU's pressure response on a device whose
// platform is `android`: after every event and timer that changed something,
//   1. ActivityManager assigns every process its oom_adj and kills cached and empty processes beyond its caps
//      (`assignOomAdjustments`, `updateOomAdjLocked`);
//   2. the kernel's lowmemorykiller kills while free memory and file cache are both below a minfree level
//      (`lowMemoryKillerLevel`, `lowMemoryKillerVictim`), one process at a time, ActivityManager re-ranking after each.
// No pressure levels, memory warnings, purge-before-kill, compressor, freezer, reaper or per-app limits.
//
// Sources (read through the index; the commits are those stored there):
// - ActivityManagerService.java, aosp-mirror/platform_frameworks_base commit 001ebe0e (KitKat, services/java/com/android/
//   server/am/): `computeOomAdjLocked` and `updateOomAdjLocked`. The stored file (681 113 characters) was read in pages
//   by character offset: its line numbers could not be derived, so rules cite the method and the statement.
// - lowmemorykiller.c, torvalds/linux commit 06a1074e (drivers/staging/android/, the driver as Android's 3.x kernels
//   carry it): line numbers below. aosp-mirror/kernel_msm commit 05df0a9e (a later msm kernel, `lowmem_scan`) keeps
//   the same level walk and victim choice and waits for the victim's death with a one-second timeout.

/// ActivityManager's state of the apps (Android only; empty arrays on iOS).
struct AndroidState {
    /// Every app's oom_adj as last assigned (-1: not running).
    var oomAdj: [Int]
    /// The process generation in which the app last had an activity (it was opened), -1 if none: a process started
    /// for a background wake has no activity until the user opens it, so it is *empty* when cached.
    var activityGeneration: [Int64]
    /// `mPreviousProcess`: the app whose activity was on top before the current one (-1: the launcher, or none).
    var previous: Int32 = -1
    /// The foreground app as the last response saw it.
    var lastForeground: Int32 = -1
    /// Scratch: resident apps in LRU order.
    var order: [Int32] = []
    /// When the last oom_adj pass's next empty process beyond `emptyProcessTrimCount` passes its idle limit (`Int.max`:
    /// none): the response rechecks then.
    var nextEmptyExpiry = Int.max

    init(count: Int) {
        oomAdj = [Int](repeating: -1, count: count)
        activityGeneration = [Int64](repeating: -1, count: count)
        order.reserveCapacity(count)
    }
}

extension Simulator {
    /// Android's response: ActivityManager's oom_adj pass, then the lowmemorykiller while a level is reached.
    /// - The lowmemorykiller picks one victim per call and returns until it has died (`lowmem_deathpending`,
    ///   lowmemorykiller.c:96–106, 178–182; the task-exit notifier clears it, :72–80): the next kill sees the memory
    ///   the last one freed. ActivityManager learns of the death and re-ranks before it (`appDiedLocked` →
    ///   `updateOomAdjLocked`).
    /// - Growth of the foreground app reaching the next level has a recheck of its own (`scheduleLowMemoryRecheck`).
    mutating func respondAsAndroid() {
        responding = true
        defer { responding = false }
        refreshMeasured()
        reclaimCleanPages()
        notePreviousApp()
        killOverCap()
        while let level = lowMemoryKillerLevel() {
            guard let victim = lowMemoryKillerVictim(minAdj: device.android.levels[level].oomAdj),
                  let reason = KillReason.lowMemoryKiller(level: level) else {
                if memory.free < 0 { noteOutOfMemory() }   // the kernel's OOM killer would act: not modelled
                break
            }
            kill(victim, reason: reason, band: androidState.oomAdj[victim])
            refreshMeasured()
            reclaimCleanPages()
            killOverCap()
        }
        if memory.free >= 0 { inOutOfMemory = false }
        scheduleLowMemoryRecheck()
        // +1: the rule kills those idle *more* than the limit (`lastActivityTime < oldTime`).
        if androidState.nextEmptyExpiry < Int.max - 1 { scheduleRecheck(at: androidState.nextEmptyExpiry + 1) }
    }

    /// Assigns oom_adj, kills the processes beyond the caps, and assigns again if it killed any.
    private mutating func killOverCap() {
        let over = assignOomAdjustments()
        guard !over.isEmpty else { return }
        for (app, reason) in over { kill(Int(app), reason: reason, band: androidState.oomAdj[Int(app)]) }
        refreshMeasured()
        _ = assignOomAdjustments()   // fewer cached and empty processes: none is beyond a cap now
    }

    /// `mPreviousProcess` follows the top activity: when it moves to another process, the one it left is the previous
    /// one (the launcher, -1, after the home screen: then no catalog app is previous).
    private mutating func notePreviousApp() {
        if foreground != androidState.lastForeground {
            androidState.previous = androidState.lastForeground
            androidState.lastForeground = foreground
        }
        if foreground >= 0 { androidState.activityGeneration[Int(foreground)] = Int64(apps[Int(foreground)].generation) }
    }

    /// Whether app `i`'s current process has had an activity (`app.activities.size() > 0`).
    private func hasActivity(_ i: Int) -> Bool { androidState.activityGeneration[i] == Int64(apps[i].generation) }

    /// App `i`'s process holds no activity any more (a `finish` event): cached, it is an empty process. Returns whether
    /// it had one.
    mutating func dropActivities(_ i: Int) -> Bool {
        guard hasActivity(i) else { return false }
        androidState.activityGeneration[i] = -1
        return true
    }

    /// The oom_adj `computeOomAdjLocked` gives app `i` before the cached range is spread (nil: cached), the lowest that
    /// applies:
    /// - the top activity's process, `FOREGROUND_APP_ADJ` 0; while an interruption (a call screen, a system alert) covers
    ///   it, its activity is paused but visible, `VISIBLE_APP_ADJ` 1;
    /// - playing audio or running another long-running mode (a foreground service with its notification, as music and
    ///   navigation apps run), `PERCEPTIBLE_APP_ADJ` 2;
    /// - running in the background otherwise (a started service: a background task, a wake, a handler),
    ///   `SERVICE_ADJ` 5 (the B list, 8, is not modelled);
    /// - the previous app, if its process had an activity (`app == mPreviousProcess && app.activities.size() > 0`),
    ///   `PREVIOUS_APP_ADJ` 7.
    func baseOomAdj(_ i: Int) -> Int? {
        if appID(i) == foreground {
            let interrupted = apps[i].state == .inactive && !apps[i].launchPending
            return interrupted ? AndroidOomAdj.visible : AndroidOomAdj.foreground
        }
        let activity = apps[i].activity(declared: profiles[i].backgroundModes)
        if activity.contains(.audio) || activity.contains(.otherMode) { return AndroidOomAdj.perceptible }
        if apps[i].state.isRunning { return AndroidOomAdj.service }
        if appID(i) == androidState.previous && hasActivity(i) { return AndroidOomAdj.previous }
        return nil
    }

    /// ActivityManager's `updateOomAdjLocked` (KitKat): walks the processes from the most recently used, gives each its
    /// `computeOomAdjLocked` value, and spreads the cached ones over 9…15:
    /// - `numSlots = (CACHED_APP_MAX_ADJ − CACHED_APP_MIN_ADJ + 1) / 2` = 3; processes holding activities take 9, 10, 12,
    ///   14, 15 (`curCachedAdj`, `nextCachedAdj += 2`), `cachedFactor = max(1, cached / numSlots)` to a step; empty
    ///   processes take 9, 11, 13, 15, `emptyFactor = max(1, min(empty, cachedProcessLimit) / numSlots)` to a step;
    /// - counting in the same walk, a cached process beyond `cachedProcessLimit` is killed ("cached #N"); an empty one
    ///   idle for more than `MAX_EMPTY_TIME` (30 min) once more than `TRIM_EMPTY_APPS` (8) more recent empty ones have
    ///   been counted is killed uncounted ("empty for Ns": `numEmpty > ProcessList.TRIM_EMPTY_APPS && app.lastActivityTime
    ///   < oldTime`, `oldTime = now − MAX_EMPTY_TIME`); any other empty one beyond `emptyProcessLimit` ("empty #N").
    ///   Idle since: the app's last foreground exit or background launch (`lastActivityTime` is set when the process
    ///   is used, `updateLruProcessLocked`).
    /// Recency is the app's last open or background launch (`mLruProcesses`' order for activities). AMS computes the
    /// factors from the previous pass's counts; the model from the current ones (the same after any pass that killed
    /// nothing). AMS runs this pass at every process change, many a minute on a phone; the model at every event and,
    /// for the 30-minute rule, at the moment the next empty process it applies to turns 30 minutes idle
    /// (`nextEmptyExpiry`). Not modelled: processes bound by clients, the service B list. Returns the processes to
    /// kill, most recent first, with their reasons.
    mutating func assignOomAdjustments() -> [(Int32, KillReason)] {
        var order = androidState.order   // a local copy while `self` is read below; given back at the end
        order.removeAll(keepingCapacity: true)
        for app in resident.members {
            androidState.oomAdj[Int(app)] = baseOomAdj(Int(app)) ?? -1
            order.append(app)
        }
        let apps = self.apps.view
        order.sort { a, b in
            let x = apps[Int(a)].lastUseSequence, y = apps[Int(b)].lastUseSequence
            return x != y ? x > y : a < b
        }
        var cached = 0, empty = 0
        for app in order where androidState.oomAdj[Int(app)] < 0 {
            if hasActivity(Int(app)) { cached += 1 } else { empty += 1 }
        }
        let settings = device.android
        let slots = (AndroidOomAdj.cachedMax - AndroidOomAdj.cachedMin + 1) / 2
        let cachedFactor = max(1, max(cached, 1) / slots)
        let emptyFactor = max(1, min(empty, settings.cachedProcessLimit) / slots)
        var cachedAdj = (current: AndroidOomAdj.cachedMin, next: AndroidOomAdj.cachedMin + 1, step: 0)
        var emptyAdj = (current: AndroidOomAdj.cachedMin, next: AndroidOomAdj.cachedMin + 2, step: 0)
        func advance(_ s: inout (current: Int, next: Int, step: Int), factor: Int) {
            guard s.current != s.next else { return }
            s.step += 1
            if s.step >= factor {
                s = (s.next, min(s.next + 2, AndroidOomAdj.cachedMax), 0)
            }
        }
        var numCached = 0, numEmpty = 0
        var over: [(Int32, KillReason)] = []
        let oldTime = now - settings.emptyProcessMaxIdleMicros
        androidState.nextEmptyExpiry = Int.max
        for app in order where androidState.oomAdj[Int(app)] < 0 {
            let i = Int(app)
            if hasActivity(i) {
                androidState.oomAdj[i] = cachedAdj.current
                advance(&cachedAdj, factor: cachedFactor)
                numCached += 1
                if numCached > settings.cachedProcessLimit { over.append((app, .cachedProcessLimit)) }
            } else {
                androidState.oomAdj[i] = emptyAdj.current
                advance(&emptyAdj, factor: emptyFactor)
                if numEmpty > settings.emptyProcessTrimCount {
                    let idleSince = apps[i].lastForegroundTime
                    if idleSince < oldTime {
                        over.append((app, .emptyProcessIdle))
                        continue
                    }
                    androidState.nextEmptyExpiry = min(androidState.nextEmptyExpiry, idleSince + settings.emptyProcessMaxIdleMicros)
                }
                numEmpty += 1
                if numEmpty > settings.emptyProcessLimit { over.append((app, .emptyProcessLimit)) }
            }
        }
        androidState.order = order
        return over
    }

    /// The lowmemorykiller's level (`lowmem_shrink`, lowmemorykiller.c:108–118): the first level, in ascending minfree
    /// order, whose minfree both free memory and file cache are below; nil when none is. Free memory is the free pages
    /// (the OS reserve is never free); file cache is the apps' clean file-backed pages (`NR_FILE_PAGES`, :93–94; the
    /// model's volatile purgeable memory is ashmem, shared memory, which later kernels leave out of it).
    /// The kernel runs this when reclaim calls its shrinker; the model asks after every change, as if reclaim always
    /// ran below the highest minfree (on a phone the page cache fills free memory, so free memory that low means reclaim).
    func lowMemoryKillerLevel() -> Int? {
        let free = memory.free - retainedBytes, file = memory.fileBacked
        return device.android.levels.firstIndex { free < $0.minfreeBytes && file < $0.minfreeBytes }
    }

    /// The victim (lowmemorykiller.c:135–168): among processes with an oom_adj of at least `minAdj` and resident pages,
    /// the highest oom_adj, and within it the largest RSS (`get_mm_rss`: the app's resident bytes, file-backed pages
    /// included); on a tie the first in the task list, the oldest process. The foreground app is a candidate too
    /// (level 0 takes adj 0).
    func lowMemoryKillerVictim(minAdj: Int) -> Int? {
        var best = -1, bestAdj = 0, bestSize = 0
        for app in resident.members {
            let i = Int(app), adj = androidState.oomAdj[i], size = apps[i].residentBytes
            guard adj >= minAdj, size > 0 else { continue }
            if best >= 0 {
                if adj < bestAdj { continue }
                if adj == bestAdj && (size < bestSize || (size == bestSize && apps[i].launchSequence > apps[best].launchSequence)) { continue }
            }
            (best, bestAdj, bestSize) = (i, adj, size)
        }
        return best >= 0 ? best : nil
    }

    /// The foreground app's growth alone reaches a level the kernel has not reached yet: a recheck is kept pending for
    /// the first moment it does. A level of minfree `m` is reached after `free − m + 1` more bytes when the file cache is
    /// already below `m`; otherwise free memory must run out and the VM take file pages until fewer than `m` are left,
    /// `free + (file − m) + 1`.
    private mutating func scheduleLowMemoryRecheck() {
        guard foreground >= 0 else { return }
        let i = Int(foreground)
        guard apps[i].growing else { return }
        let free = memory.free - retainedBytes, file = memory.fileBacked
        let room = profiles[i].maxDirtyBytes - apps[i].dirtyResident
        var nearest = Int.max
        for level in device.android.levels where !(free < level.minfreeBytes && file < level.minfreeBytes) {
            let m = level.minfreeBytes
            let growth = file < m ? free - m + 1 : free + (file - m) + 1
            if growth > 0 { nearest = min(nearest, growth) }
        }
        guard nearest < room else { return }
        if let at = growthCheckTime(i, needed: roundUpToPage(apps[i].dirtyResident - apps[i].growthBase + nearest)) { scheduleRecheck(at: at) }
    }

    /// App `app`'s oom_adj as ActivityManager last assigned it (-1: not running, or not an Android device).
    public func oomAdj(of app: Int32) -> Int {
        Int(app) < androidState.oomAdj.count && apps[Int(app)].state.isResident ? androidState.oomAdj[Int(app)] : -1
    }
}
