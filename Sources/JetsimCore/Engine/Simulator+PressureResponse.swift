// The kernel's response to low memory, in its order (xnu-jetsam.md §2, §3, §6, §7, §8):
//   –  below the freezer threshold (50 %), the freezer writes idle suspended apps to NAND (when enabled);
//   0. the VM reclaims clean pages, purges ripe volatile memory (all of it below the critical threshold) and
//      compresses suspended apps' dirty pages;
//   1. pressure levels change (with hysteresis) and running apps get memory warnings;
//   2. kills until healthy: highwater, idle-exit (band 0 only), vm-pageshortage / vm-compressor-space-shortage,
//      and, after 10 minutes at warning or worse, sustained-memory-pressure.
// Before each kill the victim's own volatile memory is purged, and the kill skipped if that suffices.
// The policy only picks victims among the candidates offered here; the foreground app is offered last.

/// Which apps a kill reason may take.
enum KillScope {
    /// Suspended apps in the idle band (band 0).
    case idleBand
    /// Apps over their (soft) memory limit.
    case overLimit
    /// Anyone; the foreground app only when nothing else can go.
    case any
}

extension Simulator {
    mutating func respondToPressure() {
        refreshMeasured()
        compressorExhausted = false
        if memory.free >= 0 && available >= limits.quiet {
            // Most responses: free pages left and available memory above every threshold, so nothing below can purge,
            // compress, freeze or kill. Only the pressure level may move (and its warnings only add memory); a second
            // look, as the full response takes, can differ only when the first one changed the level.
            let level = pressure
            updatePressureLevel()
            if pressure != level { updatePressureLevel() }
            inOutOfMemory = false
            return
        }
        reclaimCleanPages()
        relieveWithoutKilling()
        updatePressureLevel()
        let residentBefore = residentCount
        if available < limits.soft && !device.appLimitFatal { killWhile(below: limits.soft, scope: .overLimit, reason: .highwater) }
        killWhile(below: limits.idle, scope: .idleBand, reason: .idleExit)
        killWhile(below: limits.critical, scope: .any,
                  reason: compressorExhausted ? .vmCompressorSpaceShortage : .vmPageShortage)
        // A kill can free compressor space or a freezer slot, or remove the app compression stopped at: the VM
        // goes on at once. Without this a second response to the same state could still find work, and results
        // would depend on when one runs.
        if residentCount < residentBefore { relieveWithoutKilling() }
        reclaimCleanPages()
        updatePressureLevel()
        if available >= limits.critical { inOutOfMemory = false }
        recheckWhenVolatileMemoryRipens()
    }

    /// The freezer, then purges of volatile memory, then compression, each only as far as memory is short.
    private mutating func relieveWithoutKilling() {
        if device.freezer.enabled && available < limits.freezer { runFreezer() }
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

    /// Keeps one pressure recheck pending, at the earliest time asked for.
    private mutating func scheduleRecheck(at time: Int) {
        if let pending = timers.pendingTime(of: .pressureRecheck), pending <= time { return }
        timers.schedule(.pressureRecheck, at: time)   // replaces a later one
    }

    /// Freezes idle suspended apps, least recently used first, within the freezer's count and daily write budget.
    private mutating func runFreezer() {
        let dayMicros = 86_400 * Units.microsPerSecond
        let day = (now - startTime) / dayMicros
        if day != freezerDay {
            freezerDay = day
            freezerDayWritten = 0
        }
        while frozenCount < device.freezer.maxFrozen && available < limits.freezer {
            var best: Int?
            var bestTime = Int.max
            for app in resident.members {
                let i = Int(app)
                guard apps[i].priorityClass == .idle && !apps[i].frozen
                    && apps[i].footprint >= device.freezer.minResidentBytes && apps[i].dirtyResident + apps[i].dirtyCompressed > 0
                    && apps[i].lastForegroundTime < bestTime else { continue }
                best = i
                bestTime = apps[i].lastForegroundTime
            }
            guard let i = best else { return }
            guard freeze(i) else {
                // The day's write budget is spent: the freezer goes on when the next day's budget starts.
                let offset = (day + 1).multipliedReportingOverflow(by: dayMicros)
                let next = startTime.addingReportingOverflow(offset.partialValue)
                if !offset.overflow && !next.overflow { scheduleRecheck(at: next.partialValue) }
                return
            }
            refreshPriorityClass(i)
        }
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

    /// xnu-jetsam.md §6: warning when the non-compressed share of memory falls below 50 % (normal again above
    /// 60 %), critical below 30 % (warning again above 35 %). Available memory below the soft threshold also
    /// means warning, below the critical threshold critical; leaving them needs 20 % / 40 % headroom (as XNU's
    /// 12/10 and 14/10 factors).
    mutating func updatePressureLevel() {
        guard !device.cacheEquivalent else { return }   // a cache has no pressure levels
        let t = limits.pressure
        let nonCompressed = memory.physical - memory.reserve - memory.compressorPool
        let total = nonCompressed + memory.compressedLogical
        let avail = available
        // Each test only where the current level needs it (this runs two or three times per event).
        func enterCritical() -> Bool { nonCompressed * 100 < t.criticalEnter * total || avail < limits.critical }
        func enterWarning() -> Bool { nonCompressed * 100 < t.warningEnter * total || avail < limits.soft }
        func leaveWarning() -> Bool { nonCompressed * 100 > t.warningExit * total && avail >= limits.leaveWarning }
        func leaveCritical() -> Bool { nonCompressed * 100 > t.criticalExit * total && avail >= limits.leaveCritical }
        var level = pressure
        switch pressure {
        case .normal:
            if enterCritical() { level = .critical } else if enterWarning() { level = .warning }
        case .warning:
            if enterCritical() { level = .critical } else if leaveWarning() { level = .normal }
        case .critical:
            if leaveWarning() { level = .normal } else if leaveCritical() { level = .warning }
        }
        guard level != pressure else { return }
        let old = pressure
        integratePressureTime()
        pressure = level
        if old == .normal {
            pressureEpoch &+= 1
            timers.schedule(.sustainedPressure, at: now + device.timers.sustainedPressureMicros, token: pressureEpoch)
        }
        if level == .normal {
            pressureEpoch &+= 1
            sustainedWaiting = false
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

    /// One `sustained-memory-pressure` kill in band 0, then the next 500 ms later. With band 0 empty the chain
    /// pauses (no timer) until an app enters it: long quiet stretches under pressure cost nothing.
    mutating func sustainedPressureTick(token: UInt32) -> Bool {
        guard token == pressureEpoch, pressure >= .warning else { return false }
        guard let victim = chooseVictim(scope: .idleBand, reason: .sustainedMemoryPressure) else {
            sustainedWaiting = true
            return false
        }
        killOrPurge(victim, reason: .sustainedMemoryPressure)
        lastSustainedKill = now
        timers.schedule(.sustainedPressure, at: now + device.timers.sustainedKillSpacingMicros, token: token)
        return true
    }

    /// An app entered the idle band: resume a paused sustained-pressure chain.
    mutating func idleBandGained() {
        guard sustainedWaiting, pressure >= .warning else { return }
        sustainedWaiting = false
        let spacing = device.timers.sustainedKillSpacingMicros
        let next = lastSustainedKill > Int.min / 2 ? max(now, lastSustainedKill + spacing) : now
        timers.schedule(.sustainedPressure, at: next, token: pressureEpoch)
    }

    // MARK: Kills

    /// Kills (or purges) victims of `scope` while available memory is below `threshold`. When nobody at all can
    /// be killed the run records an out-of-memory episode and carries on. (Only the first test is inlined: most calls
    /// find enough memory.)
    @inline(__always)
    private mutating func killWhile(below threshold: Int, scope: KillScope, reason: KillReason) {
        if available < threshold { killUntil(threshold, scope: scope, reason: reason) }
    }

    @inline(never)
    private mutating func killUntil(_ threshold: Int, scope: KillScope, reason: KillReason) {
        while available < threshold {
            guard let victim = chooseVictim(scope: scope, reason: reason) else {
                if scope == .any && !inOutOfMemory {
                    inOutOfMemory = true
                    metrics.oomEvents += 1
                }
                return
            }
            killOrPurge(victim, reason: reason)
        }
    }

    /// The kernel purges the victim's volatile memory first and skips the kill if that lifts available memory
    /// back above the soft threshold.
    private mutating func killOrPurge(_ i: Int, reason: KillReason) {
        let purged = purgeVolatile(of: i)
        refreshMeasured()
        if purged > 0 && available >= limits.soft {
            metrics.killsAvoidedByPurge += 1
            return
        }
        kill(i, reason: reason)
        refreshMeasured()
    }

    /// Asks the policy for a victim among the apps `scope` allows; the foreground app is offered alone,
    /// and only when no other app can be killed.
    mutating func chooseVictim(scope: KillScope, reason: KillReason) -> Int? {
        guard rankedCandidates != nil, scope != .overLimit else { return scanForVictim(scope: scope, reason: reason) }
        let apps = self.apps.view
        let found = rankedCandidates?.first { scope != .idleBand || apps[Int($0)].priorityClass == .idle }
        let victim = found.map { Int($0) } ?? foregroundAsLastResort(scope: scope, reason: reason)
        assert(victim == scanForVictim(scope: scope, reason: reason), "the ranked candidates disagree with a full scan")
        return victim
    }

    /// The foreground app, when the scope allows it and nothing else could be chosen.
    private mutating func foregroundAsLastResort(scope: KillScope, reason: KillReason) -> Int? {
        guard scope != .idleBand, foreground >= 0 else { return nil }
        let f = Int(foreground)
        guard apps[f].state.isResident, scope == .any || decisionFootprint(f) > memoryLimit(f) else { return nil }
        let context = KillContext(now: now, reason: reason, availableBytes: available, eventIndex: max(0, metrics.events - 1))
        candidates.removeAll(keepingCapacity: true)
        candidates.append(candidate(f))
        guard let k = policy.selectVictim(among: candidates, context: context), k == 0 else { return nil }
        return f
    }

    /// Every resident app the scope allows, ranked by the policy.
    private mutating func scanForVictim(scope: KillScope, reason: KillReason) -> Int? {
        candidates.removeAll(keepingCapacity: true)
        for app in resident.members where app != foreground {
            let i = Int(app)
            switch scope {
            case .idleBand: guard apps[i].priorityClass == .idle else { continue }
            case .overLimit: guard decisionFootprint(i) > memoryLimit(i) else { continue }
            case .any: break
            }
            candidates.append(candidate(i))
        }
        let context = KillContext(now: now, reason: reason, availableBytes: available, eventIndex: max(0, metrics.events - 1))
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

    /// The read-only view of app `i` a policy ranks.
    func candidate(_ i: Int) -> KillCandidate {
        let a = apps[i]
        return KillCandidate(
            app: Int32(i), state: a.state, priorityClass: a.priorityClass, band: a.band,
            bandEntrySequence: a.bandEntrySequence, bandEntryTime: a.bandEntryTime, footprintBytes: decisionFootprint(i),
            lastForegroundTime: a.lastForegroundTime, launchTime: a.launchTime, launchCount: a.launches,
            firstUseTime: a.firstUseTime, lastUseSequence: a.lastUseSequence, launchSequence: a.launchSequence,
            compressedBytes: a.dirtyCompressed + a.dirtyFrozen, nextUse: a.nextUse,
            backgroundActivity: a.activity(declared: profiles[i].backgroundModes),
            relaunchCostMillis: profiles[i].coldLaunchMillis)
    }

    /// Kills app `i` (no callback: jetsam and watchdog kills are SIGKILL), frees its memory and records it.
    mutating func kill(_ i: Int, reason: KillReason) {
        let a = apps[i]
        let isForeground = Int32(i) == foreground
        let userVisible = isForeground || !a.activity(declared: profiles[i].backgroundModes).isEmpty
        var record = KillRecord(
            time: now, app: Int32(i), reason: reason, state: a.state, priorityClass: a.priorityClass, band: a.band,
            footprintBytes: a.footprint, idleMicros: isForeground ? 0 : now - a.lastForegroundTime,
            availableBefore: available, availableAfter: 0, userVisible: userVisible)
        metrics.killsByReason[Int(reason.rawValue)] += 1
        if userVisible { metrics.userVisibleKills += 1 }
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
