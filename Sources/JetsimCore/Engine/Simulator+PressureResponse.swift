// The kernel's response to low memory, in its order (xnu-11417; xnu-jetsam.md §2, §3, §6, §7, §8):
//   –  below the freezer threshold (50 %), the freezer writes idle suspended apps to NAND (when enabled);
//   0. the VM reclaims clean pages, purges ripe volatile memory (all of it below the critical threshold) and
//      compresses suspended apps' dirty pages;
//   1. pressure levels change (`updatePressureLevel`) and running apps get memory warnings;
//   2. the memorystatus thread acts until it has nothing to do (`actUntilHealthy`, the order of
//      `memorystatus_pick_action`): compressor-space and highwater kills, idle-exit, the long-idle reaper's sweep,
//      then kills of the top process across all bands while the system is unhealthy;
//   3. after 10 minutes away from normal, sustained-memory-pressure kills in band 0 (`sustainedPressureTick`).
// Before each kill the victim's own volatile memory is purged, and the kill skipped if that suffices (`killOrPurge`).
// The policy only picks victims among the candidates a kill reason allows (`KillScope`).

/// Which apps a kill reason may take (the walk's maximum band and filter, `memorystatus_do_action`,
/// kern_memorystatus.c:4650–4691).
enum KillScope {
    /// Apps in the idle band (band 0): idle-exit and sustained pressure (max priority IDLE).
    case idleBand
    /// Apps in the idle band for at least the reaper's minimum age (the reaper's `only_long_idle` walk,
    /// kern_memorystatus.c:6483–6487, 6678–6721).
    case longIdle
    /// Apps over their (soft) memory limit, in any band (`memorystatus_kill_hiwat_proc`, kern_memorystatus.c:6975–7016).
    case overLimit
    /// Anyone, the foreground app included: one walk over every band up to `JETSAM_PRIORITY_MAX`
    /// (kern_memorystatus.c:4665–4666, 6452). On a cache-equivalent device the app being opened is offered only when
    /// nothing else can go (a cache inserts after it evicts).
    case any
}

extension Simulator {
    mutating func respondToPressure() {
        if limits.android {   // Android 4.x: none of XNU's rules below apply (Simulator+Android.swift)
            respondAsAndroid()
            return
        }
        responding = true
        defer { responding = false }
        refreshMeasured()
        if memory.free >= 0 && available >= limits.quiet && !reaperSweeping && !compressorLowOnSpace {
            // Free pages left, available memory at or above every kill threshold and the compressor healthy (most
            // responses on a loaded device: 87 % over W2, mostly below the freezer's threshold): of the full response
            // below, only the freezer, the pressure level and the start of a reaper sweep can act. The freezer and
            // memory warnings only add free memory, so the kill thresholds stay behind; unless a sweep starts, every
            // other step finds nothing to do, and this does the rest in the full response's order. (A second look at the
            // level, as the full response takes, can differ only when the first one changed it.)
            if device.freezer.enabled && (available <= limits.freezer || freezerWokenByInactivity) { runFreezer() }
            let level = pressure
            updatePressureLevel()
            if !(limits.reaperOn && available < limits.reaper && reaperWouldStartSweep()) {
                assert(memory.free >= 0 && available >= limits.quiet && !compressorLowOnSpace, "the freezer or a warning took memory")
                if pressure != level { updatePressureLevel() }
                inOutOfMemory = false
                scheduleReaperRecheck()
                return
            }
        } else {
            reclaimCleanPages()
            relieveWithoutKilling()
            updatePressureLevel()
        }
        var residentBefore = residentCount
        actUntilHealthy()
        // A kill can free compressor space or a freezer slot, or remove the app compression stopped at: the VM
        // goes on at once. Without this a second response to the same state could still find work, and results
        // would depend on when one runs. The compressor may then fill past its "low on space" mark again (it
        // compresses to its limit): the memorystatus thread acts on that at once too. Each round takes a kill.
        while residentCount < residentBefore {
            relieveWithoutKilling()
            guard compressorLowOnSpace else { break }
            residentBefore = residentCount
            actUntilHealthy()
        }
        reclaimCleanPages()
        updatePressureLevel()
        if available >= limits.critical { inOutOfMemory = false }
        recheckWhenVolatileMemoryRipens()
        scheduleReaperRecheck()
    }

    /// Whether the compressor is "low on space": the uncompressed data it holds, or its segments, above 98 % of
    /// their limits (`vm_compressor_low_on_space`, vm_compressor.c:565–568; limits at 899, 914). Unhealthy.
    /// (The pool, in whole segments, is above the segments' mark exactly when its bytes are above the mark's bytes.)
    var compressorLowOnSpace: Bool {
        limits.compressorOn && (memory.compressedLogical > limits.compressedNearLimit || memory.compressorPool > limits.poolNearLimit)
    }

    /// The memorystatus thread's loop: pick an action as `memorystatus_pick_action` does
    /// (kern_memorystatus_policy.c:149–252), do it, and pick again, until the system is healthy and nothing is due.
    /// - Below the soft threshold or unhealthy (policy.c:162): a compressor low on space kills the top process
    ///   (`vm-compressor-space-shortage`, policy.c:198–200), else apps over a soft limit go (`highwater`, policy.c:203–205).
    /// - Below the idle threshold, healthy, with an app in band 0: `idle-exit` (policy.c:209–216).
    /// - A reaper sweep under way and healthy: `long-idle-exit` (policy.c:219–224).
    /// - Healthy: nothing (policy.c:227). Unhealthy (below critical, compressor low on space; policy.c:116–125): the top
    ///   process of the walk over every band (`vm-pageshortage`, policy.c:251–252).
    /// When nobody at all can be killed the run records an out-of-memory episode and carries on.
    private mutating func actUntilHealthy() {
        while true {
            let exhausted = compressorLowOnSpace
            let healthy = available >= limits.critical && !exhausted
            if available < limits.soft || !healthy {
                if exhausted {
                    if attemptKill(scope: .any, reason: .vmCompressorSpaceShortage) { continue }
                    noteOutOfMemory()
                    return
                }
                // Any app over its current limit, fatal or not (kern_memorystatus.c:7010–7016): a fatal one gets here
                // when its limit was lowered without a growth since (a suspended app's inactive limit), so with fatal
                // limits only a lower inactive limit can leave one (the scan is skipped otherwise).
                if limits.overLimitPossible, attemptKill(scope: .overLimit, reason: .highwater) { continue }
            }
            if available < limits.idle && healthy, attemptKill(scope: .idleBand, reason: .idleExit) { continue }
            if healthy && (reaperSweeping || reaperWouldStartSweep()) {
                reaperSweeping = true
                // The sweep ends at the first walk that kills nothing: none reapable left, or a purge sufficed
                // (kern_memorystatus.c:6594–6603); the next may start a rescan interval later (4121–4146).
                if attemptKill(scope: .longIdle, reason: .longIdleExit, endsOnPurge: true) { continue }
                reaperSweeping = false
                let (after, overflow) = now.addingReportingOverflow(device.reaper.rescanMicros)
                reaperCanRunAfter = overflow ? Int.max : after
                continue
            }
            if healthy { return }
            if attemptKill(scope: .any, reason: .vmPageShortage) { continue }
            noteOutOfMemory()
            return
        }
    }

    /// Asks the policy for a victim of `scope` and kills or purges it; false when there was none (or, with
    /// `endsOnPurge`, when a purge spared it).
    private mutating func attemptKill(scope: KillScope, reason: KillReason, endsOnPurge: Bool = false) -> Bool {
        guard let victim = chooseVictim(scope: scope, reason: reason) else { return false }
        return killOrPurge(victim, reason: reason) || !endsOnPurge
    }

    mutating func noteOutOfMemory() {
        if !inOutOfMemory {
            inOutOfMemory = true
            metrics.counters.oomEvents += 1
        }
    }

    // MARK: The long-idle reaper

    /// Whether a reaper sweep starts now (`memstat_evaluate_page_shortage`, kern_memorystatus.c:4214–4246): the reaper
    /// on, no sweep under way, the rescan interval since the last one over, available memory below the reaper
    /// threshold, and an app reapable. (The kernel looks the oldest band-0 app up at most once per rescan interval, at
    /// the start of its kill walks, kern_memorystatus.c:6622–6674; the model looks it up exactly, since when the
    /// kernel's walks run is not modelled and results must not depend on when a response runs.)
    private mutating func reaperWouldStartSweep() -> Bool {
        guard limits.reaperOn, !reaperSweeping, now > reaperCanRunAfter, available < limits.reaper,
              now >= reaperEarliestBound else { return false }
        return now >= earliestReapable()
    }

    /// When the first app in band 0 reaches the reaper's minimum age (`Int.max`: none is in band 0); also tightens
    /// `reaperEarliestBound` to it.
    private mutating func earliestReapable() -> Int {
        let oldest = oldestIdleEntry
        let (due, overflow) = oldest.addingReportingOverflow(device.reaper.minIdleAgeMicros)
        reaperEarliestBound = oldest == Int.max || overflow ? Int.max : due
        return reaperEarliestBound
    }

    /// When the earliest entrant of the idle band entered it (`Int.max`: the band is empty).
    var oldestIdleEntry: Int {
        let oldest = idleOrder.first.map { apps[Int($0)].bandEntryTime } ?? .max
        assert(oldest == resident.members.lazy.filter { apps[Int($0)].priorityClass == .idle }.map { apps[Int($0)].bandEntryTime }.min() ?? .max,
               "the idle order's first is not the earliest entrant")
        return oldest
    }

    /// Time alone starts a sweep (an app ages, the rescan interval ends): below the reaper threshold, a recheck is
    /// kept pending for the earliest time one could start. (An app entering band 0 there gets a response of its own:
    /// see the aging end in `Simulator.fire`.)
    @inline(__always)   // every response ends here, and most are above the reaper's threshold: only the test inline
    private mutating func scheduleReaperRecheck() {
        if limits.reaperOn && !reaperSweeping && available < limits.reaper { scheduleReaperRecheckBelowThreshold() }
    }

    @inline(never)
    private mutating func scheduleReaperRecheckBelowThreshold() {
        var next = reaperEarliestBound   // early at worst: the recheck then looks again
        if next <= reaperCanRunAfter { next = reaperCanRunAfter &+ 1 }
        if next > now && next < Int.max { scheduleRecheck(at: next) }
    }

    /// The freezer, then purges of volatile memory, then compression, each only as far as memory is short.
    private mutating func relieveWithoutKilling() {
        if device.freezer.enabled && (available <= limits.freezer || freezerWokenByInactivity) { runFreezer() }
        let soft = limits.soft
        if available < soft && device.compressor.enabled {
            // With the compressor off, volatile memory already counts as available and is purged on demand.
            while available < soft, let i = oldestVolatile(ripeOnly: available >= limits.critical) { purgeVolatile(of: i) }
            while available < soft, let i = leastRecentlyUsedCompressible() {
                if !compress(i) { break }
            }
        }
    }

    /// Below the soft threshold the VM purges volatile memory as it ripens, with or without an event then.
    /// (Below the critical threshold it purges all of it, ripe or not; with the compressor off it counts as
    /// available and is purged on demand.)
    private mutating func recheckWhenVolatileMemoryRipens() {
        guard limits.compressorOn, available < limits.soft, available >= limits.critical else { return }
        let apps = self.apps.view
        guard let oldest = volatileOrder.oldest(isLive: { Self.isLive($0, in: apps) }) else { return }
        let (ripe, overflow) = oldest.since.addingReportingOverflow(device.timers.purgeableRipenMicros)
        if !overflow && ripe > now { scheduleRecheck(at: ripe) }
    }

    @inline(__always)   // called from mutating code: an outlined call copied the whole simulator to pass `self`
    func recheckPending(atOrBefore time: Int) -> Bool {
        if let pending = timers.pendingTime(of: .pressureRecheck), pending <= time { return true }
        return false
    }

    /// Keeps one pressure recheck pending, at the earliest time asked for.
    mutating func scheduleRecheck(at time: Int) {
        if recheckPending(atOrBefore: time) { return }
        timers.schedule(.pressureRecheck, at: time)   // replaces a later one
    }

    /// One wake-up of the freezer thread (xnu-11417 `bsd/kern/kern_memorystatus_freeze.c`,
    /// `kern_memorystatus_policy.c`):
    /// - it runs while available memory is at or below the freezer threshold (freeze.c:2252–2254) and fewer than
    ///   `maxFrozen` apps are frozen; page-driven wake-ups are held off for `wakeIntervalMicros` (10 s) after each run
    ///   (`memorystatus_freezer_thread_next_run_ts`, freeze.c:2903–2960; policy.c:741–780), a wake at an app's
    ///   suspension (`memorystatus_on_inactivity`, kern_memorystatus.c:3833–3840) is not;
    /// - each run freezes at most one app (policy.c:784–801), and only while more than `suspendedThreshold` (4)
    ///   suspended apps are unfrozen (freeze.c:2222–2242; frozen apps count as frozen after a thaw too);
    /// - the candidate is the first of band 0 in list order, the oldest entrant (policy.c:652–729), suspended, not
    ///   frozen, with a footprint of at least `minResidentBytes` (policy.c:446–590), within the day's write budget.
    ///
    /// Inline up to the scan for a candidate, where most wake-ups end (364 k wake-ups over `W`, most held off or with
    /// too few suspended apps: their calls cost 2 % of an event's instructions); the scan, the freeze
    /// and the wake-up it schedules out of line.
    @inline(__always)
    private mutating func runFreezer() {
        let woken = freezerWokenByInactivity
        freezerWokenByInactivity = false
        let wanted = available <= limits.freezer && frozenCount < device.freezer.maxFrozen
        let enoughSuspended = suspendedCount - frozenCount > device.freezer.suspendedThreshold
        if woken || (wanted && now >= freezerNextRun) {
            let (next, late) = now.addingReportingOverflow(device.freezer.wakeIntervalMicros)
            freezerNextRun = late ? Int.max : next   // after every run of the thread, whatever it found
            if wanted && enoughSuspended { freezeOldestCandidate() }
        } else if wanted && enoughSuspended && freezerNextRun < Int.max && !recheckPending(atOrBefore: freezerNextRun) {
            // Held off: the next page-driven wake-up comes when the hold-off ends, if it could freeze then.
            scheduleFreezerWakeIfACandidate()
        }
    }

    @inline(never)
    private mutating func scheduleFreezerWakeIfACandidate() {
        if freezerCandidate() != nil { scheduleRecheck(at: freezerNextRun) }
    }

    /// A run of the thread that may freeze (`runFreezer`): the candidate, if any, and its freeze.
    @inline(never)
    private mutating func freezeOldestCandidate() {
        guard let i = freezerCandidate() else { return }
        // The day's budget starts afresh on a new day. Only `freeze` reads it, so the day is worked out here, where it
        // runs, not at every wake-up (a division, in most pressure responses).
        let dayMicros = 86_400 * Units.microsPerSecond
        let day = (now - startTime) / dayMicros
        if day != freezerDay {
            freezerDay = day
            freezerDayWritten = 0
        }
        guard freeze(i) else {
            // The day's write budget is spent: the freezer goes on when the next day's budget starts.
            let offset = (day + 1).multipliedReportingOverflow(by: dayMicros)
            let next = startTime.addingReportingOverflow(offset.partialValue)
            if !offset.overflow && !next.overflow { scheduleRecheck(at: next.partialValue) }
            return
        }
        refreshPriorityClass(i)
        // Time alone brings the next page-driven wake-up: due then only if it could freeze (otherwise a change of
        // state that makes it possible, an app reaching band 0 among them, has a response of its own).
        if frozenCount < device.freezer.maxFrozen && freezerCouldFreeze() && freezerNextRun < Int.max {
            scheduleRecheck(at: freezerNextRun)
        }
    }

    /// Whether a run of the freezer would find an app to freeze now (memory and the frozen count aside).
    @inline(__always)   // as `recheckPending`
    private func freezerCouldFreeze() -> Bool {
        suspendedCount - frozenCount > device.freezer.suspendedThreshold && freezerCandidate() != nil
    }

    /// The oldest entrant of band 0 the freezer may take, or nil.
    @inline(__always)   // as `recheckPending`
    private func freezerCandidate() -> Int? {
        let apps = self.apps.view   // reads fields in place (a subscript of the array copied each app whole)
        let smallest = device.freezer.minResidentBytes
        let qualifies = { (i: Int) in
            !apps[i].frozen && apps[i].footprint >= smallest && apps[i].dirtyResident + apps[i].dirtyCompressed > 0
        }
        // Band 0 in entry order: the first that qualifies is the oldest entrant that does.
        let candidate = idleOrder.first { qualifies(Int($0)) }.map { Int($0) }
        assert(candidate == resident.members.map { Int($0) }.filter { apps[$0].priorityClass == .idle && qualifies($0) }
            .min { apps[$0].bandEntrySequence < apps[$1].bandEntrySequence }, "the idle order's freezer candidate is not a scan's")
        return candidate
    }

    /// The suspended app with resident dirty memory that was in the foreground longest ago (ties: the first in
    /// resident order).
    private func leastRecentlyUsedCompressible() -> Int? {
        var best: Int?
        var bestTime = Int.max
        for app in resident.members {
            let key = compressionKey[Int(app)]
            if key < bestTime {
                best = Int(app)
                bestTime = key
            }
        }
        return best
    }

    // MARK: Pressure levels

    /// The pressure level as `vm_pressure_response` moves it (osfmk/vm/vm_pageout.c:4671–4744): from normal, critical
    /// is tested first, then warning; from warning, normal first, then critical; from critical, normal, then warning.
    /// - Compressor on (vm_pageout.c:10000–10064): the non-compressed pages (`AVAILABLE_NON_COMPRESSED_MEMORY`:
    ///   active, inactive, free, speculative; vm_page.h:1270) against `AVAILABLE_MEMORY`, those plus the pages the
    ///   compressor *occupies* (`VM_PAGE_COMPRESSOR_COUNT`, vm_page.h:165, 1271). Warning below 10/20 = 50 %
    ///   (`VM_PAGE_COMPRESSOR_COMPACT_THRESHOLD`, divisor 20 on iOS: vm_compressor.c:1059), normal again above
    ///   12/10 of it = 60 %; critical below 12/10 × 10/40 = 30 % (`..._SWAP_UNTHROTTLE_THRESHOLD`, divisor 40:
    ///   vm_compressor.c:1061) or when the compressor is low on space, warning again above 14/10 × 10/40 = 35 %.
    ///   Available memory and the kill thresholds play no part.
    /// - Compressor off: warning below the soft threshold while no app is frozen and fewer than
    ///   `MEMORYSTATUS_SUSPENDED_THRESHOLD` (4) are suspended (vm_pageout.c:148, 10001–10018), critical below the
    ///   critical threshold, each left again above 115 % of its threshold (vm_pageout.c:10041–10060).
    /// The four percentages are the device's `pressure_*_pct` keys. The shares are compared in exact arithmetic on
    /// bytes, all whole pages (the kernel truncates its thresholds to whole pages first: at most a page apart).
    ///
    /// Inlined where it runs, two or three times per event, and mostly finds the level unchanged: only a change goes out
    /// of line (`changePressureLevel`).
    @inline(__always)
    mutating func updatePressureLevel() {
        guard !device.cacheEquivalent else { return }   // a cache has no pressure levels
        let pool = memory.compressorPool, logical = memory.compressedLogical
        if limits.compressorOn && pool == levelKeptAt.pool && logical == levelKeptAt.logical && pressure == levelKeptAt.level {
            assert(nextPressureLevel() == pressure, "the pressure level kept for an unchanged compressor would change")
            return
        }
        let level = nextPressureLevel()
        if level != pressure {
            changePressureLevel(to: level)
        } else if limits.compressorOn {
            levelKeptAt = (pool, logical, level)
        }
    }

    /// The level `vm_pressure_response` moves to from the current one (see `updatePressureLevel`).
    @inline(__always)   // as `recheckPending`
    private func nextPressureLevel() -> PressureLevel {
        // Wrapping arithmetic (this runs two or three times an event): memory is at most 1 PiB and the percentages at
        // most 100 (`Device.validate`), so every product is exact.
        let t = limits.pressure
        let nonCompressed = memory.physical &- memory.reserve &- memory.compressorPool
        let total = nonCompressed &+ memory.compressorPool
        let avail = available
        let compressorOn = limits.compressorOn
        // Each test only where the current level needs it.
        func toCritical() -> Bool {
            compressorOn ? compressorLowOnSpace || nonCompressed &* 100 < t.criticalEnter &* total : avail < limits.critical
        }
        func toWarning() -> Bool {
            compressorOn ? nonCompressed &* 100 < t.warningEnter &* total
                : avail < limits.soft && frozenCount == 0 && suspendedCount < 4
        }
        func toNormal() -> Bool { compressorOn ? nonCompressed &* 100 > t.warningExit &* total : avail > limits.leaveWarning }
        func criticalToWarning() -> Bool { compressorOn ? nonCompressed &* 100 > t.criticalExit &* total : avail > limits.leaveCritical }
        var level = pressure
        switch pressure {
        case .normal:
            if toCritical() { level = .critical } else if toWarning() { level = .warning }
        case .warning:
            if toNormal() { level = .normal } else if toCritical() { level = .critical }
        case .critical:
            if toNormal() { level = .normal } else if criticalToWarning() { level = .warning }
        }
        return level
    }

    /// Moves the pressure level to `level` (a change): the time spent at the old one, the sustained-pressure chain, and
    /// memory warnings when it rises.
    private mutating func changePressureLevel(to level: PressureLevel) {
        let old = pressure
        integratePressureTime()
        pressure = level
        if old == .normal {
            pressureEpoch &+= 1
            let (due, overflow) = now.addingReportingOverflow(device.timers.sustainedPressureMicros)
            if !overflow { timers.schedule(.sustainedPressure, at: due, token: pressureEpoch) }
        }
        if level == .normal {
            pressureEpoch &+= 1
            sustainedKillsLeft = 0
            timers.cancel(.sustainedPressure)
        }
        if level > old { broadcastMemoryWarning() }
    }

    /// Memory warnings go to running apps with a footprint of at least 6 MB, lowest band first, largest first.
    private mutating func broadcastMemoryWarning() {
        order.removeAll(keepingCapacity: true)
        for i in resident.members where apps[Int(i)].state.isRunning && apps[Int(i)].footprint >= 6 * Units.mebibyte {
            order.append(i)
        }
        let apps = self.apps.view   // the comparator cannot read `self` while `order`, part of it, sorts
        order.sort { a, b in
            let x = apps[Int(a)], y = apps[Int(b)]
            if x.band != y.band { return x.band < y.band }
            if x.footprint != y.footprint { return x.footprint > y.footprint }
            return a < b
        }
        for i in order { sendMemoryWarning(Int(i)) }
    }

    /// The sustained-pressure chain (xnu-11417 `bsd/kern/kern_memorystatus_notify.c`):
    /// - armed only when the level leaves normal, `window_s` = 600 s later (notify.c:426, 1487-1495); cancelled when
    ///   it returns to normal (notify.c:1478-1486), so a chain never restarts while pressure stays up;
    /// - when it fires, it may kill `2 ×` the processes in bands up to `memorystatus_sustained_pressure_maximum_band`
    ///   (IDLE, notify.c:1288), counted once at its start (notify.c:1309), one kill every `delay_ms` = 500 ms
    ///   (notify.c:427, 1313), while the level is not normal;
    /// - it ends for good at the first attempt that kills nothing (notify.c:1318-1321): band 0 empty, or the victim's
    ///   purge lifted available memory above the soft threshold (`memorystatus_kill_proc`, kern_memorystatus.c:6302-6313).
    /// The victim is the first of band 0 in kill order (max priority clamped to IDLE, kern_memorystatus.c:6419-6423).
    mutating func sustainedPressureTick(token: UInt32) -> Bool {
        guard token == pressureEpoch, pressure >= .warning else { return false }
        if sustainedKillsLeft == 0 { sustainedKillsLeft = 2 * idleOrder.count }   // the chain starts
        guard sustainedKillsLeft > 0, let victim = chooseVictim(scope: .idleBand, reason: .sustainedMemoryPressure),
              killOrPurge(victim, reason: .sustainedMemoryPressure) else {
            sustainedKillsLeft = -1   // "nothing left to kill": ended until pressure is normal again
            return true
        }
        sustainedKillsLeft -= 1
        if sustainedKillsLeft > 0 {
            timers.schedule(.sustainedPressure, at: now + device.timers.sustainedKillSpacingMicros, token: token)
        } else {
            sustainedKillsLeft = -1
        }
        return true
    }

    // MARK: Kills

    /// The kernel purges the victim's volatile memory first and spares it if that reclaimed anything and, for a
    /// highwater kill, its footprint is now within its limit, for any other reason, available memory is now at or
    /// above the soft threshold (`memorystatus_kill_proc`, kern_memorystatus.c:6270–6311). Returns whether it killed.
    @discardableResult
    private mutating func killOrPurge(_ i: Int, reason: KillReason) -> Bool {
        let purged = purgeVolatile(of: i)
        refreshMeasured()
        let spared = reason == .highwater ? decisionFootprint(i) <= memoryLimit(i) : available >= limits.soft
        if purged > 0 && spared {
            metrics.counters.killsAvoidedByPurge += 1
            return false
        }
        kill(i, reason: reason)
        refreshMeasured()
        return true
    }

    /// Asks the policy for a victim among the apps `scope` allows.
    mutating func chooseVictim(scope: KillScope, reason: KillReason) -> Int? {
        if idleScopeIsEmpty(scope) {
            assert(scanForVictim(scope: scope, reason: reason) == nil, "the idle order says band 0 has no victim, a scan finds one")
            return nil
        }
        if idleVictimIsFirstEntrant && (scope == .idleBand || scope == .longIdle), let first = idleOrder.first {
            // The idle band's earliest entrant, idle long enough if any is (`idleScopeIsEmpty`): the policy ranks a band
            // by entry (`EvictionPolicy.ranksBandByEntry`), and every idle app is in the idle class's band.
            assert(Int(first) == scanForVictim(scope: scope, reason: reason), "the idle order's first is not the policy's victim")
            return Int(first)
        }
        guard rankedCandidates != nil, scope != .overLimit else { return scanForVictim(scope: scope, reason: reason) }
        if rankPending.count > 0 { updateRankedCandidates() }
        let apps = self.apps.view
        let minAge = device.reaper.minIdleAgeMicros, now = self.now
        let found = rankedCandidates?.first {
            switch scope {
            case .idleBand: apps[Int($0)].priorityClass == .idle
            case .longIdle: apps[Int($0)].priorityClass == .idle && now - apps[Int($0)].bandEntryTime >= minAge
            case .overLimit, .any: true
            }
        }
        let victim = found.map { Int($0) } ?? foregroundAsLastResort(scope: scope, reason: reason)
        assert(victim == scanForVictim(scope: scope, reason: reason), "the ranked candidates disagree with a full scan")
        return victim
    }

    /// Whether `scope` has no candidate for want of an idle app (one idle long enough, for the reaper), read off
    /// `idleOrder`: a reaper sweep ends with a walk that finds no victim, which would otherwise visit every candidate.
    @inline(__always)
    private func idleScopeIsEmpty(_ scope: KillScope) -> Bool {
        switch scope {
        case .idleBand: return idleOrder.isEmpty
        case .longIdle:
            let oldest = oldestIdleEntry
            return oldest == .max || now - oldest < device.reaper.minIdleAgeMicros
        case .overLimit, .any: return false
        }
    }

    /// Whether the foreground app is an ordinary kill candidate: everywhere but on a cache-equivalent device.
    var foregroundIsCandidate: Bool { !device.cacheEquivalent }

    /// On a cache-equivalent device, the app being opened, when nothing else can go.
    private mutating func foregroundAsLastResort(scope: KillScope, reason: KillReason) -> Int? {
        guard !foregroundIsCandidate, scope == .any, foreground >= 0, apps[Int(foreground)].state.isResident else { return nil }
        let context = KillContext(now: now, reason: reason, availableBytes: available, eventIndex: max(0, metrics.counters.events - 1))
        candidates.removeAll(keepingCapacity: true)
        candidates.append(candidate(Int(foreground)))
        guard let k = policy.selectVictim(among: candidates, context: context), k == 0 else { return nil }
        return Int(foreground)
    }

    /// Every resident app the scope allows, ranked by the policy.
    private mutating func scanForVictim(scope: KillScope, reason: KillReason) -> Int? {
        candidates.removeAll(keepingCapacity: true)
        let minAge = device.reaper.minIdleAgeMicros
        for app in resident.members where app != foreground || foregroundIsCandidate {
            let i = Int(app)
            switch scope {
            case .idleBand: guard apps[i].priorityClass == .idle else { continue }
            case .longIdle: guard apps[i].priorityClass == .idle && now - apps[i].bandEntryTime >= minAge else { continue }
            case .overLimit: guard decisionFootprint(i) > memoryLimit(i) else { continue }
            case .any: break
            }
            candidates.append(candidate(i))
        }
        let context = KillContext(now: now, reason: reason, availableBytes: available, eventIndex: max(0, metrics.counters.events - 1))
        if !candidates.isEmpty, let k = policy.selectVictim(among: candidates, context: context), candidates.indices.contains(k) {
            return Int(candidates[k].app)
        }
        return foregroundAsLastResort(scope: scope, reason: reason)
    }

    /// What app `i`'s ranking key is built from.
    func rankingInputs(_ i: Int) -> RankingInputs {
        RankingInputs(band: apps[i].band, bandEntrySequence: apps[i].bandEntrySequence, launchSequence: apps[i].launchSequence,
                      lastUseSequence: apps[i].lastUseSequence)
    }

    /// The read-only view of app `i` a policy ranks. Inlined: out of line, this reader would take a copy of the whole
    /// simulator from each caller (see `measuredSample`).
    @inline(__always)
    func candidate(_ i: Int) -> KillCandidate {
        let a = apps[i]
        return KillCandidate(
            app: appID(i), state: a.state, priorityClass: a.priorityClass, band: a.band,
            bandEntrySequence: a.bandEntrySequence, bandEntryTime: a.bandEntryTime, footprintBytes: decisionFootprint(i),
            lastForegroundTime: a.lastForegroundTime, launchTime: a.launchTime, launchCount: a.launches,
            firstUseTime: a.firstUseTime, lastUseSequence: a.lastUseSequence, launchSequence: a.launchSequence,
            compressedBytes: a.dirtyCompressed + a.dirtyFrozen, nextUse: a.nextUse,
            backgroundActivity: a.activity(declared: profiles[i].backgroundModes),
            relaunchCostMillis: profiles[i].coldLaunchMillis)
    }

    /// Kills app `i` (no callback: jetsam and watchdog kills are SIGKILL), frees its memory and records it; `band`, when
    /// given, is what kills.csv shows as its band (an Android app's oom_adj).
    mutating func kill(_ i: Int, reason: KillReason, band: Int? = nil) {
        let a = apps[i]
        let isForeground = appID(i) == foreground
        let userVisible = isForeground || !a.activity(declared: profiles[i].backgroundModes).isEmpty
        var record = KillRecord(
            time: now, app: appID(i), reason: reason, state: a.state, priorityClass: a.priorityClass, band: band ?? a.band,
            footprintBytes: a.footprint, idleMicros: isForeground ? 0 : now - a.lastForegroundTime,
            availableBefore: available, availableAfter: 0, userVisible: userVisible)
        metrics.counters.killsByReason[Int(reason.rawValue)] += 1
        if userVisible { metrics.counters.userVisibleKills += 1 }
        apps[i].kills += 1
        apps[i].killedSinceLastUse = true
        if isForeground { apps[i].lastForegroundTime = now }
        transition(i, to: .notRunning, .none, cause: .kill(reason))
        endProcess(i)
        refreshPriorityClass(i)
        record.availableAfter = available
        if observer.retainsKillsAndSamples { kills.append(record) }
        observer.record(kill: record)
    }
}
