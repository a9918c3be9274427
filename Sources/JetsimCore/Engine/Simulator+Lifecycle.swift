// Lifecycle rules: what each trace event and lifecycle timer does to an app's state, with the delegate
// callbacks in Apple's order (ios-app-lifecycle.md). Memory effects are delegated to Simulator+Memory.

extension Simulator {
    /// Moves app `i` to `state`, checking the transition is legal, and records it with its callback.
    mutating func transition(_ i: Int, to state: AppState, _ callback: LifecycleCallback, deadline: Int = 0, cause: TransitionCause) {
        let from = apps[i].state
        assert(LifecycleTransitions.isLegal(from: from, to: state, cause: cause), "illegal transition \(from) → \(state) (\(cause))")
        // Footprint integrals change only with the footprint or residency: between two resident states, no accrual.
        if !from.isResident {
            accrue(i)
            integrateResidentTime()
            residentCount += 1
            resident.insert(i)
        }
        if state == .notRunning {
            accrue(i)
            integrateResidentTime()
            residentCount -= 1
            resident.remove(i)
        }
        if from == .suspended { suspendedCount -= 1 }
        if state == .suspended { suspendedCount += 1 }
        apps[i].state = state
        refreshCompressionKey(i)
        emit(i, from: from, to: state, callback, deadline: deadline, cause: cause)
    }

    /// Records a callback that does not change the state.
    mutating func callback(_ i: Int, _ callback: LifecycleCallback, deadline: Int = 0, cause: TransitionCause = .system) {
        emit(i, from: apps[i].state, to: apps[i].state, callback, deadline: deadline, cause: cause)
    }

    // MARK: Trace events

    /// `open`: the user brings the app to the foreground; the previous foreground app leaves.
    mutating func open(_ app: Int32) -> Bool {
        guard app != foreground else { return false }
        if foreground >= 0 { leaveForeground(Int(foreground)) }
        let i = Int(app)
        if apps[i].terminating { finishTermination(i) }   // reopened while its willTerminate runs: a new process
        foreground = app
        apps[i].launches += 1
        if apps[i].firstUseTime == Int.max { apps[i].firstUseTime = now }
        apps[i].lastUseSequence = useSequence
        useSequence &+= 1
        policy.didOpen(app, at: now)
        if apps[i].state == .notRunning {
            coldLaunch(i)
        } else {
            resume(i)
        }
        return true
    }

    /// A new process: the launch's place in FIFO order.
    private mutating func markLaunch(_ i: Int) {
        apps[i].launchTime = now
        apps[i].launchSequence = launchSequenceCounter
        launchSequenceCounter &+= 1
    }

    /// Not running → Inactive → Active, unless the launch outlasts the watchdog.
    private mutating func coldLaunch(_ i: Int) {
        makeRoomForLaunch(i, withInterface: true)
        let watchdog = device.timers.launchWatchdogMicros
        if apps[i].killedSinceLastUse { metrics.counters.relaunchesAfterKill += 1 }
        apps[i].killedSinceLastUse = false
        apps[i].coldLaunches += 1
        markLaunch(i)
        transition(i, to: .inactive, .willFinishLaunching, deadline: watchdog, cause: .user)
        allocateLaunchMemory(i, withInterface: true)
        callback(i, .didFinishLaunching, deadline: watchdog, cause: .user)
        refreshPriorityClass(i)
        if profiles[i].coldLaunchMillis * Units.microsPerMilli > watchdog {
            // The launch never finishes: the watchdog kills the app, still Inactive.
            apps[i].launchPending = true
            apps[i].watchdogFailures += 1
            timers.schedule(.launchWatchdog, at: now + watchdog, app: appID(i), generation: apps[i].generation)
        } else {
            transition(i, to: .active, .didBecomeActive, cause: .user)
        }
        startGrowth(i)
        enforceLimits(i)
    }

    /// Background or Suspended → Inactive → Active: the system rebuilds what it discarded.
    private mutating func resume(_ i: Int) {
        apps[i].resumes += 1
        apps[i].handlerUntil = 0           // back in front before its handler returned: nothing more to wait for
        apps[i].handlerEpoch &+= 1
        apps[i].taskEpoch &+= 1            // the background-task budget stops in the foreground
        apps[i].taskDeadline = 0
        apps[i].taskGrantRevoked = false
        // In front first (band 100), then its pages come back, after the VM has made room for them (`makeRoom`).
        transition(i, to: .inactive, .willEnterForeground, cause: .user)
        refreshPriorityClass(i)
        makeRoom(for: resumeBytes(i), app: i)
        guard apps[i].state.isResident else { return }   // killed while its pages waited
        if apps[i].dirtyCompressed > 0 { decompress(i) }
        if apps[i].dirtyFrozen > 0 {
            let latency = profiles[i].resumeMillis + thaw(i)
            apps[i].thawedResumes += 1
            metrics.thawedResumeLatencies[latency, default: 0] += 1
        }
        restoreForegroundMemory(i)
        transition(i, to: .active, .didBecomeActive, cause: .user)
        refreshPriorityClass(i)
        startGrowth(i)
        enforceLimits(i)
    }

    /// Active → Inactive → Background, then Suspended unless something keeps the app running.
    /// `UIApplicationExitsOnSuspend` apps terminate instead.
    mutating func leaveForeground(_ i: Int) {
        let deadline = device.timers.callbackDeadlineMicros
        stopGrowth(i)
        apps[i].lastForegroundTime = now
        foreground = -1
        if apps[i].state == .active { transition(i, to: .inactive, .willResignActive, cause: .user) }
        if profiles[i].exitsOnSuspend {
            terminate(i, callback: .willTerminate, cause: .exitsOnSuspend)
            return
        }
        transition(i, to: .background, .didEnterBackground, deadline: deadline, cause: .user)
        apps[i].backgroundEntryTime = now
        if device.cacheEquivalent {       // a cache entry: nothing discarded, nothing runs on
            settle(i)
            return
        }
        discardOnBackground(i)
        startEnterBackgroundHandler(i)
        if profiles[i].backgroundTaskMicros > 0 {
            _ = beginBackgroundTask(appID(i), workMicros: profiles[i].backgroundTaskMicros)
        }
        if apps[i].taskWorkEnd > now { startTaskBudget(i) }
        settle(i)
        // The limit that now applies is only set: enforced when the footprint next grows (`memoryLimit`).
    }

    /// `applicationDidEnterBackground` runs for the catalog's `enter_background_ms`; the app stays in the Background
    /// meanwhile (band 40) and is suspended when it returns. One that runs past the deadline (about 5 s,
    /// ios-app-lifecycle.md) is terminated then instead.
    private mutating func startEnterBackgroundHandler(_ i: Int) {
        let runs = profiles[i].enterBackgroundMicros
        guard runs > 0 else { return }
        startHandler(i, runs: runs)
    }

    /// A delegate handler that runs for `runs` µs starts: it ends when it returns or at the callback deadline, whichever
    /// comes first (`handlerEnded`).
    private mutating func startHandler(_ i: Int, runs: Int) {
        apps[i].handlerUntil = now + min(runs, device.timers.callbackDeadlineMicros)
        apps[i].handlerEpoch &+= 1
        timers.schedule(.handlerEnd, at: apps[i].handlerUntil, app: appID(i), generation: apps[i].generation, token: apps[i].handlerEpoch)
    }

    /// The `applicationDidEnterBackground` or `applicationWillTerminate` handler returned, or its deadline came.
    mutating func handlerEnded(_ i: Int, token: UInt32) -> Bool {
        guard token == apps[i].handlerEpoch, apps[i].handlerUntil != 0 else { return false }
        apps[i].handlerUntil = 0
        if apps[i].terminating {
            if profiles[i].willTerminateMicros > device.timers.callbackDeadlineMicros {
                kill(i, reason: .willTerminateWatchdog)
            } else {
                finishTermination(i)
            }
        } else if profiles[i].enterBackgroundMicros > device.timers.callbackDeadlineMicros {
            kill(i, reason: .enterBackgroundWatchdog)
        } else {
            settle(i)
        }
        return true
    }

    /// `home`: the foreground app (if it is the one named, when one is named) leaves to the home screen.
    mutating func home(named app: Int32) -> Bool {
        guard foreground >= 0, app == TraceEvent.noApp || app == foreground else { return false }
        leaveForeground(Int(foreground))
        return true
    }

    /// `interrupt`: the foreground app is Inactive for a while (a call, an alert), then Active again.
    mutating func interrupt(_ app: Int32, forMicros duration: Int) -> Bool {
        let i = Int(app)
        guard app == foreground, apps[i].state == .active, !apps[i].launchPending else { return false }
        transition(i, to: .inactive, .willResignActive, cause: .user)
        apps[i].interruptEpoch &+= 1
        timers.schedule(.interruptEnd, at: now + duration, app: app, generation: apps[i].generation, token: apps[i].interruptEpoch)
        return true
    }

    mutating func endInterruption(_ i: Int, token: UInt32) -> Bool {
        guard token == apps[i].interruptEpoch, appID(i) == foreground, apps[i].state == .inactive else { return false }
        transition(i, to: .active, .didBecomeActive, cause: .user)
        return true
    }

    // MARK: Background execution

    /// `bg_task` (and the catalog's `bg_task_s` on leaving): `beginBackgroundTask` for `workMicros` of work.
    /// Granted only to a running app that has not had a task expire since it was last in the foreground.
    mutating func beginBackgroundTask(_ app: Int32, workMicros: Int) -> Bool {
        let i = Int(app)
        guard apps[i].state.isRunning, !apps[i].terminating, !apps[i].taskGrantRevoked, !device.cacheEquivalent else { return false }
        let end = now + workMicros
        if end > apps[i].taskWorkEnd { apps[i].taskWorkEnd = end }
        timers.schedule(.taskWorkEnd, at: end, app: app, generation: apps[i].generation)
        if apps[i].state == .background {
            if apps[i].taskDeadline == 0 { startTaskBudget(i) } else { scheduleTaskExpiryIfReached(i) }
            refreshPriorityClass(i)
        }
        return true
    }

    /// The OS grants background time counted from the moment the app entered the background.
    mutating func startTaskBudget(_ i: Int) {
        apps[i].taskDeadline = apps[i].backgroundEntryTime + device.backgroundTaskBudgetMicros
        apps[i].taskEpoch &+= 1
        apps[i].taskExpirySequence = timers.reserveSequence()
        apps[i].taskExpiryScheduled = false
        scheduleTaskExpiryIfReached(i)
    }

    /// The expiry timer, once the work reaches the deadline (before that it could only find the work done), at
    /// the place in the timer order the budget's start reserved, so the order is as if scheduled then.
    private mutating func scheduleTaskExpiryIfReached(_ i: Int) {
        guard !apps[i].taskExpiryScheduled, apps[i].taskWorkEnd >= apps[i].taskDeadline else { return }
        apps[i].taskExpiryScheduled = true
        timers.schedule(.taskExpiry, at: max(apps[i].taskDeadline, now), app: appID(i), generation: apps[i].generation,
                        token: apps[i].taskEpoch, sequence: apps[i].taskExpirySequence)
    }

    mutating func backgroundTaskWorkEnded(_ i: Int) -> Bool {
        guard apps[i].taskWorkEnd != 0, now >= apps[i].taskWorkEnd else { return false }
        apps[i].taskWorkEnd = 0
        apps[i].taskDeadline = 0
        apps[i].taskEpoch &+= 1
        settle(i)
        return true
    }

    /// The budget ran out with work still open: the expiration handler runs; an app that ends its task there
    /// is suspended, any other is terminated by the system.
    mutating func backgroundTaskBudgetExpired(_ i: Int, token: UInt32) -> Bool {
        guard token == apps[i].taskEpoch, apps[i].state == .background, apps[i].taskWorkEnd > now else { return false }
        callback(i, .backgroundTaskExpiration)
        apps[i].taskDeadline = 0
        apps[i].taskGrantRevoked = true
        if profiles[i].endsTaskOnExpiry {
            apps[i].taskWorkEnd = 0
            settle(i)
        } else {
            kill(i, reason: .backgroundTaskExpired)
        }
        return true
    }

    /// `bg_launch`: a fetch, push or transfer wake. A Not running app launches straight into the Background
    /// (no Inactive, no user interface); a Suspended one is woken.
    mutating func backgroundWake(_ app: Int32, forMicros duration: Int) -> Bool {
        let i = Int(app)
        guard app != foreground, !apps[i].terminating, !device.cacheEquivalent else { return false }
        let launched = apps[i].state == .notRunning
        switch apps[i].state {
        case .notRunning:
            makeRoomForLaunch(i, withInterface: false)
            markLaunch(i)
            apps[i].lastUseSequence = useSequence
            useSequence &+= 1
            apps[i].backgroundLaunches += 1
            metrics.counters.backgroundLaunches += 1
            transition(i, to: .background, .willFinishLaunching, deadline: device.timers.launchWatchdogMicros, cause: .system)
            allocateLaunchMemory(i, withInterface: false)
            callback(i, .didFinishLaunching, deadline: device.timers.launchWatchdogMicros)
            apps[i].lastForegroundTime = now
            apps[i].backgroundEntryTime = now
        case .suspended:
            if apps[i].dirtyCompressed > 0 { decompress(i) }
            if apps[i].dirtyFrozen > 0 { _ = thaw(i) }
            transition(i, to: .background, .performBackgroundWake, cause: .system)
            apps[i].backgroundEntryTime = now
        case .background:
            break
        case .inactive, .active:
            return false
        }
        let end = now + duration
        if end > apps[i].wakeUntil { apps[i].wakeUntil = end }
        timers.schedule(.wakeEnd, at: end, app: app, generation: apps[i].generation)
        settle(i)
        if launched { enforceLimits(i) }   // a woken app's footprint did not grow: its new limit is only set
        return true
    }

    mutating func backgroundWakeEnded(_ i: Int) -> Bool {
        guard apps[i].wakeUntil != 0, now >= apps[i].wakeUntil else { return false }
        apps[i].wakeUntil = 0
        settle(i)
        return true
    }

    /// `mode_start`: a running app starts a declared background activity (audio, location, …).
    mutating func startMode(_ app: Int32, _ mode: BackgroundModes) -> Bool {
        let i = Int(app)
        guard apps[i].state.isRunning, !apps[i].terminating, !mode.isEmpty, profiles[i].backgroundModes.isSuperset(of: mode),
              !device.cacheEquivalent else { return false }
        apps[i].modes.formUnion(mode)
        settle(i)
        return true
    }

    /// `mode_stop`: the activity ends; a background app with nothing else to do is suspended.
    mutating func stopMode(_ app: Int32, _ mode: BackgroundModes) -> Bool {
        let i = Int(app)
        guard !apps[i].modes.intersection(mode).isEmpty else { return false }
        apps[i].modes.subtract(mode)
        settle(i)
        return true
    }

    /// `quit`: the user force-quits the app from the app switcher. A running app gets `willTerminate`;
    /// a suspended one is removed without notice. Pending transfers and modes end with it.
    mutating func forceQuit(_ app: Int32) -> Bool {
        let i = Int(app)
        guard !apps[i].terminating else { return false }   // already ending
        switch apps[i].state {
        case .notRunning:
            return false
        case .active, .inactive:
            stopGrowth(i)
            apps[i].lastForegroundTime = now
            foreground = -1
            if apps[i].state == .active { transition(i, to: .inactive, .willResignActive, cause: .forceQuit) }
            terminate(i, callback: .willTerminate, cause: .forceQuit)
        case .background:
            terminate(i, callback: .willTerminate, cause: .forceQuit)
        case .suspended:
            terminate(i, callback: .none, cause: .forceQuit)
        }
        return true
    }

    /// `finish`: the user leaves the app with Back from its root activity (or the app finishes its last activity): the
    /// task leaves the recent-task list, the process is not ended. The foreground app leaves as with `home`. On Android
    /// its running process holds no activity any more (`ActivityStack` destroys the finished activity; the process is
    /// then `PROCESS_STATE_CACHED_EMPTY`): ActivityManager keeps it under the empty-process cap and kills it after 30
    /// idle minutes (`assignOomAdjustments`). iOS has no Back: a background app is unchanged (the event is ignored).
    mutating func finishActivities(_ app: Int32) -> Bool {
        let i = Int(app)
        var changed = false
        if app == foreground {
            leaveForeground(i)
            changed = true
        }
        if device.platform == .android && apps[i].state.isResident && !apps[i].terminating { changed = dropActivities(i) || changed }
        return changed
    }

    /// A termination that is not a kill (force-quit, exits-on-suspend). With `willTerminate`, the app's handler runs
    /// first, for the catalog's `will_terminate_ms`: the process stays in the Background (band 40), its memory held,
    /// until it returns, and one that overruns the deadline (about 5 s, as `didEnterBackground`'s: seed articles,
    /// ios-app-lifecycle.md) is killed at it (`will-terminate-watchdog`).
    private mutating func terminate(_ i: Int, callback: LifecycleCallback, cause: TransitionCause) {
        let deadline = callback == .willTerminate ? device.timers.callbackDeadlineMicros : 0
        // An app still launching (past the watchdog) has no handler to run: it ends at once, as before its launch ends.
        let runs = callback == .willTerminate && !device.cacheEquivalent && !apps[i].launchPending ? profiles[i].willTerminateMicros : 0
        guard runs > 0 else {
            endTermination(i, callback, deadline: deadline, cause: cause)
            return
        }
        if apps[i].state == .background {
            self.callback(i, callback, deadline: deadline, cause: cause)
        } else {
            transition(i, to: .background, callback, deadline: deadline, cause: cause)
            apps[i].backgroundEntryTime = now
        }
        // Nothing else runs on: its modes, task and wake end with the decision to terminate.
        apps[i].modes = []
        apps[i].taskWorkEnd = 0
        apps[i].taskDeadline = 0
        apps[i].taskEpoch &+= 1
        apps[i].wakeUntil = 0
        apps[i].terminating = true
        apps[i].terminatingByForceQuit = cause == .forceQuit
        startHandler(i, runs: runs)
        refreshPriorityClass(i)
    }

    /// The `applicationWillTerminate` handler returned (or the user reopened the app meanwhile): the process ends.
    private mutating func finishTermination(_ i: Int) {
        endTermination(i, .none, cause: apps[i].terminatingByForceQuit ? .forceQuit : .exitsOnSuspend)
    }

    /// The process of a termination (not a kill) ends, recorded with `callback` when one is made at that moment.
    private mutating func endTermination(_ i: Int, _ callback: LifecycleCallback, deadline: Int = 0, cause: TransitionCause) {
        metrics.counters.terminations += 1
        transition(i, to: .notRunning, callback, deadline: deadline, cause: cause)
        endProcess(i)
        refreshPriorityClass(i)
    }

    /// Frees everything the process held and invalidates its timers.
    mutating func endProcess(_ i: Int) {
        releaseAllMemory(i)
        apps[i].generation &+= 1
        apps[i].modes = []
        apps[i].taskWorkEnd = 0
        apps[i].taskDeadline = 0
        apps[i].taskGrantRevoked = false
        apps[i].wakeUntil = 0
        apps[i].handlerUntil = 0
        apps[i].terminating = false
        apps[i].launchPending = false
        apps[i].growing = false
        apps[i].nearLimitWarned = false
        if appID(i) == foreground { foreground = -1 }
    }

    mutating func launchWatchdogFired(_ i: Int) -> Bool {
        guard apps[i].launchPending else { return false }
        kill(i, reason: .launchWatchdog)
        return true
    }

    // MARK: Suspension and priority

    /// A Background app that nothing keeps running is suspended (without notice); its priority class follows.
    /// (Inlined: a frame of its own in 225 k places over `W` cost 0.6 % of an event's instructions.)
    @inline(__always)
    mutating func settle(_ i: Int) {
        if apps[i].state == .background && apps[i].handlerUntil == 0 && apps[i].activity(declared: profiles[i].backgroundModes).isEmpty {
            transition(i, to: .suspended, .none, cause: .system)
            if !device.cacheEquivalent { makePurgeableVolatile(i) }
            if device.freezer.enabled { freezerWokenByInactivity = true }
            if !apps[i].frozen {   // a frozen app goes back to band 75 at once, no aging (kern_memorystatus.c:2868–2881)
                apps[i].agingUntil = now + device.timers.agingMicros
                timers.schedule(.agingEnd, at: apps[i].agingUntil, app: appID(i), generation: apps[i].generation)
            }
        }
        refreshPriorityClass(i)
    }

    /// Derives the priority class from state and activity; the band's entry order changes only when the band does.
    /// Returns whether the class changed.
    @discardableResult
    mutating func refreshPriorityClass(_ i: Int) -> Bool {
        // Fields are read one by one: a copy of the whole `AppRuntime` costs more than this function's work.
        let cls: PriorityClass
        let old = apps[i].priorityClass
        switch apps[i].state {
        case .notRunning: cls = .none
        case .active, .inactive: cls = appID(i) == foreground ? .foreground : .backgroundWork
        case .background: cls = apps[i].activity(declared: profiles[i].backgroundModes).contains(.audio) ? .audio : .backgroundWork
        case .suspended: cls = apps[i].frozen ? .frozen : now < apps[i].agingUntil ? .aging : .idle
        }
        if cls != apps[i].priorityClass {
            let band = bandOfClass[Int(cls.rawValue)]
            apps[i].priorityClass = cls
            if band != apps[i].band {
                apps[i].band = band
                apps[i].bandEntrySequence = entrySequence
                apps[i].bandEntryTime = now
                entrySequence &+= 1
            }
            if old == .idle { idleOrder.remove(appID(i)) }
            if cls == .idle {
                idleOrder.insert(appID(i), key: RankingKey(major: 0, minor: apps[i].bandEntrySequence))
                if limits.reaperOn {   // the reaper may take it from `reaperMinAge` on
                    let (due, overflow) = apps[i].bandEntryTime.addingReportingOverflow(limits.reaperMinAge)
                    if !overflow && due < reaperEarliestBound { reaperEarliestBound = due }
                }
            }
        }
        // Every change a ranking key is built from (band, launch, last use, foreground) passes through here.
        if rankedCandidates != nil && !rankPendingMark[i] {
            rankPendingMark[i] = true
            rankPending.append(appID(i))
        }
        return cls != old
    }

    /// Brings `rankedCandidates` up to date with the keys of the apps changed since it last was (`rankPending`).
    mutating func updateRankedCandidates() {
        for k in 0..<rankPending.count {
            let app = rankPending[k], i = Int(app)
            rankPendingMark[i] = false
            let isCandidate = apps[i].state.isResident && (app != foreground || foregroundIsCandidate)
            let key = isCandidate ? policy.rankingKey(rankingInputs(i)) : nil
            rankedCandidates?.update(app, key: key)
        }
        rankPending.removeAll()
    }
}
