/// Run-wide settings that are not part of the device or the catalog.
public struct SimulationOptions: Sendable, Equatable {
    /// Seed for randomised policies; echoed in every report.
    public var seed: UInt64 = 1
    /// Spacing of `timeseries.csv` samples, in simulated µs (default 60 s).
    public var sampleIntervalMicros = 60 * Units.microsPerSecond
    /// Most `timeseries.csv` rows kept; sampling stops there and the result says so (default 1 000 000).
    public var maxSamples = 1_000_000
    /// Metrics start this long after the first event; the simulation itself runs from the start (default 0).
    public var warmupMicros = 0
    /// Length of the windows of `SimulationResult.intervals` (0: none).
    public var intervalMicros = 0
    /// With a memory backing: whether kill decisions count what its allocator retains (default: model only).
    public var pressureSource = PressureSource.model
    public init() {}
}

/// The simulation driver: it owns the clock, the event loop, the timers and **all** memory accounting.
/// A policy only ranks kill candidates, so policies cannot diverge in accounting (libCacheSim's rule).
///
/// Use: `process(_:)` every trace event in time order, then `finish()`. The engine never touches files;
/// lifecycle records stream to `Observer`.
///
/// When the kernel acts: the pressure response runs after every event and timer that changed something, and
/// only then. What time alone changes has a timer of its own (growth crossing a threshold, aging, volatile memory
/// ripening, the freezer's new day), and a response finds nothing left to do when run again at once, so results
/// do not depend on observers (samples, metric windows, warm-up) or on stale timers.
///
/// Where the rules live: lifecycle in `Simulator+Lifecycle.swift`, memory operations and per-app limits in
/// `Simulator+Memory.swift`, the kernel's pressure response and kills in `Simulator+PressureResponse.swift`.
public struct Simulator<Policy: EvictionPolicy, Observer: SimulationObserver> {
    public let device: Device
    /// Catalog profiles with every size rounded up to whole pages.
    let profiles: [AppProfile]
    /// Effective compression ratio per app, thousandths.
    let compressRatios: [Int]
    var apps: UncheckedArray<AppRuntime>
    var memory: SystemMemory
    let options: SimulationOptions
    var timers = TimerQueue()

    public internal(set) var now = 0
    /// The times up to which the time spent at each pressure level, and the resident apps' time, are integrated: they
    /// are integrated when what they weigh changes (the level, the resident count) and when a snapshot reads them,
    /// so moving the clock costs nothing.
    var pressureTimeTo = 0, residentTimeTo = 0
    var startTime = 0
    var started = false
    /// The frontmost app, or -1 (home screen).
    var foreground: Int32 = -1
    var pressure: PressureLevel = .normal
    /// The compressor's pool and logical bytes when the pressure level last came out unchanged, with that level: with the
    /// compressor on the level is a function of these three alone (`nextPressureLevel`), so the same three keep it
    /// (most of the two or three evaluations an event find the compressor as the one before did).
    var levelKeptAt = (pool: -1, logical: -1, level: PressureLevel.normal)
    var pressureEpoch: UInt32 = 0
    var entrySequence: UInt64 = 0
    var useSequence: UInt64 = 0
    var launchSequenceCounter: UInt64 = 0
    /// Next-open positions of the whole trace, when a policy needs the future.
    let future: NextUseTable?
    var volatileSequence: UInt64 = 0
    /// Apps holding volatile purgeable memory, oldest first (the purge order).
    var volatileOrder: VolatileQueue
    var resident: ResidentSet
    /// Per app: its last time in the foreground while it is suspended with resident dirty memory (a compression
    /// candidate), `Int.max` otherwise. Dense, so the compression order's scan reads 8 bytes per app, not an
    /// `AppRuntime`. Kept by `refreshCompressionKey`.
    var compressionKey: UncheckedArray<Int>
    var residentCount = 0
    var suspendedCount = 0
    /// A pressure response is under way (`makeRoom` does not start another).
    var responding = false
    /// The long-idle reaper (`reaperWouldStartSweep`): a sweep is under way; the next may start after `reaperCanRunAfter`.
    var reaperSweeping = false
    var reaperCanRunAfter = Int.min
    /// No app in band 0 is reapable before this time (a lower bound, so most checks need no scan of band 0): lowered
    /// as apps enter band 0, made exact by each scan.
    var reaperEarliestBound = Int.max
    /// The apps in the idle class (band 0), the earliest band entrant first: the reaper's oldest app, the freezer's
    /// candidate and whether idle-exit or sustained pressure has anyone to take are read here, where each used to scan
    /// every resident app (several times a response on a loaded device with the freezer on), and so is the idle-exit and
    /// reaper victim of a policy that ranks a band by entry (`idleVictimIsFirstEntrant`). Band entries are numbered
    /// and timed together and the clock never goes back, so this is also the order of `bandEntryTime`. Kept by
    /// `refreshPriorityClass`, the one place a class changes; key `(0, bandEntrySequence)`.
    var idleOrder: RankedList
    var frozenCount = 0
    /// NAND bytes the freezer wrote in the current simulated day, and which day that is.
    var freezerDayWritten = 0
    var freezerDay = 0
    /// The freezer's next page-driven wake-up may not come before this; an app's suspension wakes it at once.
    var freezerNextRun = Int.min
    var freezerWokenByInactivity = false
    var inOutOfMemory = false
    var metrics = MetricsCollector()
    var kills: [KillRecord] = []
    var samples: [MemorySample] = []
    var sampleCount = 0
    /// When the next sample is due (`Int.max`: not started, or stopped at `maxSamples`), and its place among the
    /// timers due at the same time (`TimerQueue.reserveSequence`, taken when the sample was scheduled): samples keep
    /// their own clock beside the timer queue, merged with it in `runDueTimers`, in the order one timer per sample
    /// would come out.
    var nextSampleTime = Int.max
    var nextSampleSequence = UInt64.max
    /// Whether sampling stopped at `maxSamples` (timeseries.csv ends before the run).
    var samplesTruncated: Bool { started && nextSampleTime == .max }
    var warmupSnapshot: MetricsSnapshot?
    var intervalSnapshots: [MetricsSnapshot] = []
    var peakCompressorSinceSnapshot = 0
    /// Kills the running sustained-pressure chain may still make (2 × the idle band's count at its start); 0 before a
    /// chain starts, -1 once it has ended (until pressure is normal again). See `sustainedPressureTick`.
    var sustainedKillsLeft = 0
    /// Reused between kill decisions so ranking allocates nothing in steady state.
    var candidates: [KillCandidate] = []
    /// Kill candidates (resident apps, the foreground one too but on a cache-equivalent device) in the order of the
    /// policy's ranking key, when it has one (nil: kill decisions scan); not read for the idle-band kills that
    /// `idleOrder` answers (`idleVictimIsFirstEntrant`).
    var rankedCandidates: RankedList?
    /// Apps whose ranking key may have changed since `rankedCandidates` was last brought up to date, each once
    /// (`rankPendingMark`): the index is updated when a kill decision reads it (`updateRankedCandidates`), so an app
    /// re-keyed twice in between (100 → 40 → 20 as it leaves the foreground and suspends) moves once. The index's order
    /// is a function of the keys alone, so when it is brought up to date changes no decision.
    var rankPending: UncheckedArray<Int32>
    var rankPendingMark: UncheckedArray<Bool>
    /// The policy ranks a band by entry (`EvictionPolicy.ranksBandByEntry`), read once: idle-band and reaper victims
    /// are then `idleOrder`'s first, and `rankedCandidates` waits for the other kills (over W2, 99 % of the kills are
    /// the reaper's).
    let idleVictimIsFirstEntrant: Bool
    var order: [Int32] = []
    /// The device's thresholds in bytes, computed once (they are read several times per event).
    let limits: ThresholdBytes
    /// The policy's band for each priority class, by raw value (-1 for `.none`), read once: `refreshPriorityClass` runs
    /// about three times an event, and the policy's `band(for:)` was a second dispatch on the class there.
    let bandOfClass: UncheckedArray<Int>
    /// Real memory mirroring the model (real-memory mode), or nil.
    let backing: (any MemoryBacking)?
    /// Bytes the backing's allocator retains beyond the model, counted against available memory when kill
    /// decisions use measured numbers; always 0 otherwise.
    var retainedBytes = 0
    /// The observer's `recordsLifecycle`, read once: it is asked before every transition otherwise.
    let recordsLifecycle: Bool
    /// Shared with copies of this simulator only (`makeUnique()`).
    var copyToken = CopyToken()
    /// ActivityManager's view of the apps on an Android device (`Simulator+Android.swift`); empty on iOS.
    var androidState: AndroidState
    // The generic-typed fields come last: every field before them then sits at an offset known at compile time,
    // which matters where the engine runs unspecialised (every policy but `xnu`: see `process`).
    public internal(set) var policy: Policy
    public var observer: Observer

    /// - Parameter backing: real memory that mirrors every change (real-memory mode); nil for the pure model.
    public init(device: Device, catalog: AppCatalog, policy: Policy, observer: Observer, options: SimulationOptions = .init(),
                future: NextUseTable? = nil, backing: (any MemoryBacking)? = nil) {
        self.future = future
        self.backing = backing
        let device = device.normalized()
        self.device = device
        let page = device.pageSize
        profiles = catalog.profiles.map { p in
            var q = p
            q.dirtyBytes = Units.roundUp(p.dirtyBytes, to: page)
            q.maxDirtyBytes = Units.roundUp(max(p.maxDirtyBytes, p.dirtyBytes), to: page)
            q.cacheBytes = Units.roundUp(p.cacheBytes, to: page)
            q.purgeableBytes = Units.roundUp(p.purgeableBytes, to: page)
            q.backingStoreBytes = Units.roundUp(p.backingStoreBytes, to: page)
            q.imageCacheBytes = Units.roundUp(p.imageCacheBytes, to: page)
            q.fileBackedBytes = Units.roundUp(p.fileBackedBytes, to: page)
            return q
        }
        compressRatios = catalog.profiles.map { $0.compressRatioMilli ?? device.compressor.ratioMilli }
        apps = UncheckedArray(repeating: AppRuntime(), count: catalog.count)
        resident = ResidentSet(count: catalog.count)
        compressionKey = UncheckedArray(repeating: .max, count: catalog.count)
        volatileOrder = VolatileQueue(count: catalog.count)
        idleOrder = RankedList(count: catalog.count)
        memory = SystemMemory(physical: device.physicalBytes, reserve: device.reserveBytes)
        limits = ThresholdBytes(device)
        self.policy = policy
        self.observer = observer
        var bands = UncheckedArray(repeating: -1, count: PriorityClass.allCases.count)
        for c in PriorityClass.allCases where c != .none { bands[Int(c.rawValue)] = policy.band(for: c) }
        bandOfClass = bands
        recordsLifecycle = observer.recordsLifecycle
        self.options = options
        candidates.reserveCapacity(catalog.count + 1)
        // A few pending timers per app (growth, aging, task, wake, watchdog, interruption) plus run-wide ones.
        timers = TimerQueue(capacity: 8 * catalog.count + 64)
        idleVictimIsFirstEntrant = policy.ranksBandByEntry
        if policy.hasRankingKey { rankedCandidates = RankedList(count: catalog.count) }
        rankPending = UncheckedArray(capacity: policy.hasRankingKey ? catalog.count : 0)
        rankPendingMark = UncheckedArray(repeating: false, count: policy.hasRankingKey ? catalog.count : 0)
        androidState = AndroidState(count: device.platform == .android ? catalog.count : 0)
        order.reserveCapacity(catalog.count)
    }

    /// Applies one trace event at its time, after every timer due by then.
    ///
    /// Compiled ahead of time for the default policy with the CLI's observers, since callers in other modules get the
    /// generic engine otherwise (about a tenth more time per event). A caller gets these only when it passes the
    /// concrete types, as `jetsim run` and `compare` do for `xnu`.
    @_specialize(exported: true, where Policy == XNUPolicy, Observer == SinkObserver)
    @_specialize(exported: true, where Policy == XNUPolicy, Observer == CountersOnlyObserver)
    @_specialize(exported: true, where Policy == XNUPolicy, Observer == NullObserver)
    public mutating func process(_ event: TraceEvent) {
        makeUnique()
        if !started { start(at: event.time) }
        let t = max(event.time, now)
        runTimers(through: t)
        advance(to: t)
        applyForegroundGrowth()
        metrics.counters.events += 1
        let app = event.app
        let known = app >= 0 && Int(app) < apps.count
        if known, let future, metrics.counters.events <= future.nextOpen.count {
            apps[Int(app)].nextUse = future.nextOpen[metrics.counters.events - 1]
        }
        let handled: Bool
        switch event.kind {
        case .open: handled = known && open(app)
        case .home: handled = home(named: known ? app : TraceEvent.noApp)
        case .interrupt: handled = known && interrupt(app, forMicros: event.value)
        case .bgTask: handled = known && beginBackgroundTask(app, workMicros: event.value)
        case .bgLaunch: handled = known && backgroundWake(app, forMicros: event.value)
        case .modeStart: handled = known && startMode(app, BackgroundModes(rawValue: UInt16(truncatingIfNeeded: event.value)))
        case .modeStop: handled = known && stopMode(app, BackgroundModes(rawValue: UInt16(truncatingIfNeeded: event.value)))
        case .alloc: handled = known && allocate(app, bytes: event.value)
        case .quit: handled = known && forceQuit(app)
        case .finish: handled = known && finishActivities(app)
        }
        if handled {
            respondToPressure()
            scheduleGrowthCheck()
        } else {
            metrics.counters.ignoredEvents += 1   // it changed nothing, so there is nothing to respond to
        }
        _checkInvariants()
    }

    /// Fires every timer due by `time` (expiries, watchdogs, the reaper) and takes the samples due, as the next event
    /// would before it applies, so that `state(of:)` then reads the state at `time`: `jetsim validate` probes a run at
    /// measured snapshot times. Changes no result: the same timers fire in the same order either way (tested).
    public mutating func fireTimers(through time: Int) {
        makeUnique()
        guard started, time > now else { return }
        runTimers(through: time)
    }

    /// Ends the run at the last event's time and returns everything measured after the warm-up.
    public mutating func finish() -> SimulationResult {
        makeUnique()
        runTimers(through: now)
        let final = snapshot(includeApps: true)
        var base = MetricsSnapshot()
        base.time = startTime
        base.apps = final.apps.map { $0.map { _ in MetricsSnapshot.AppCounters() } }
        if let warmupSnapshot { base = warmupSnapshot }
        var measured = final.since(base)
        // Windows between interval boundaries (the last one ends with the run); the measured peak spans them.
        var windows: [MetricsSnapshot] = []
        var previous = MetricsSnapshot()
        previous.time = startTime
        for s in intervalSnapshots + [final] where s.time > previous.time || windows.isEmpty {
            var w = s.since(previous)
            w.apps = nil
            windows.append(w)
            previous = s
            if s.time > base.time { measured.peakCompressorBytes = max(measured.peakCompressorBytes, s.peakCompressorBytes) }
        }
        if options.intervalMicros == 0 { windows = [] }
        if warmupSnapshot == nil { measured.peakCompressorBytes = metrics.peakCompressorBytes }   // the whole run's
        let counters = measured.apps ?? []
        let summaries = counters.enumerated().map { i, c in
            AppSummary(
                name: profiles[i].name, launches: c.launches, coldLaunches: c.coldLaunches, resumes: c.resumes,
                backgroundLaunches: c.backgroundLaunches, kills: c.kills,
                meanFootprintBytes: c.residentMicros > 0 ? Int(c.footprintIntegral / Int128(c.residentMicros)) : 0,
                peakFootprintBytes: c.peakFootprint, residentMicros: c.residentMicros)
        }
        let measuredKills = warmupSnapshot == nil ? kills : kills.filter { $0.time >= base.time }
        return SimulationResult(
            policy: policy.descriptor, device: device, seed: options.seed, startTime: base.time, endTime: now, kills: measuredKills,
            samples: samples, sampleCount: sampleCount, samplesTruncated: samplesTruncated, apps: summaries, intervals: windows,
            measured: measured)
    }

    /// Copies the engine's in-place arrays (`UncheckedArray`) if another simulator shares them, so a copy of a
    /// simulator is a snapshot. Every public mutating entry calls it first. One check stands for every array: see
    /// `CopyToken`.
    @inline(__always)
    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&copyToken) { copyInPlaceArrays() }
    }

    @inline(never)
    private mutating func copyInPlaceArrays() {
        copyToken = CopyToken()
        apps.makeUnique()
        compressionKey.makeUnique()
        resident.makeUnique()
        volatileOrder.makeUnique()
        rankedCandidates?.makeUnique()
        rankPending.makeUnique()
        rankPendingMark.makeUnique()
        idleOrder.makeUnique()
        timers.makeUnique()
    }

    // MARK: Clock and timers

    private mutating func start(at time: Int) {
        started = true
        startTime = time
        now = time
        pressureTimeTo = time
        residentTimeTo = time
        scheduleSample(at: time)
        if options.warmupMicros > 0 { timers.schedule(.warmupEnd, at: time + options.warmupMicros) }
        if options.intervalMicros > 0 { timers.schedule(.intervalEnd, at: time + options.intervalMicros) }
    }

    /// Every additive counter as of now (footprint integrals accrued to now).
    mutating func snapshot(includeApps: Bool) -> MetricsSnapshot {
        integratePressureTime()
        integrateResidentTime()
        var s = MetricsSnapshot()
        s.time = now
        s.counters = metrics.counters
        s.peakCompressorBytes = peakCompressorSinceSnapshot
        peakCompressorSinceSnapshot = memory.compressorPool
        let failedMillis = device.timers.launchWatchdogMicros / Units.microsPerMilli
        var latencies = metrics.thawedResumeLatencies
        var counters: [MetricsSnapshot.AppCounters] = []
        if includeApps { counters.reserveCapacity(apps.count) }
        for i in apps.indices {
            if includeApps { accrue(i) }
            let a = apps[i], p = profiles[i]
            s.launches += a.launches
            s.coldLaunches += a.coldLaunches
            s.resumes += a.resumes
            // Three adds, not a loop over an array literal: that array was allocated per app and per snapshot whenever
            // the optimiser did not keep it on the stack (the allocation gate caught it).
            func add(_ ms: Int, _ n: Int) { if n > 0 { latencies[ms, default: 0] += n } }
            add(p.coldLaunchMillis, a.coldLaunches - a.watchdogFailures)
            add(failedMillis, a.watchdogFailures)
            add(p.resumeMillis, a.resumes - a.thawedResumes)
            if includeApps {
                counters.append(.init(launches: a.launches, coldLaunches: a.coldLaunches, resumes: a.resumes, kills: a.kills,
                                      backgroundLaunches: a.backgroundLaunches, residentMicros: a.residentMicros,
                                      footprintIntegral: a.footprintIntegral, peakFootprint: a.peakFootprint))
            }
        }
        s.launchLatencies = latencies
        if includeApps { s.apps = counters }
        return s
    }

    /// Moves the clock forward. Changes no state.
    @inline(__always)
    mutating func advance(to time: Int) {
        if time > now { now = time }
    }

    /// Adds the time since the last integration at the current pressure level; before the level changes, and for snapshots.
    mutating func integratePressureTime() {
        metrics.counters.microsAtLevel[Int(pressure.rawValue)] += now - pressureTimeTo
        pressureTimeTo = now
    }

    /// Adds the resident apps' time since the last integration; before the resident count changes, and for snapshots.
    /// (Wrapping, as `accrue`: at most the apps' count times the run's length, below 2^92.)
    mutating func integrateResidentTime() {
        metrics.counters.residentAppMicros &+= Int128(residentCount) &* Int128(now &- residentTimeTo)
        residentTimeTo = now
    }

    /// Brings the foreground app's growth up to now; done before every event and every timer still current (never
    /// for stale timers or observers, so their number changes nothing, not even the footprint integrals).
    /// Growth takes free pages first, then clean ones at once (as the VM does on a page fault), so which app's
    /// clean pages go does not depend on when the next pressure response runs.
    mutating func applyForegroundGrowth() {
        guard foregroundGrows else { return }
        applyGrowth(Int(foreground))
        reclaimCleanPages()
    }

    /// Fires every timer due by `time`, in order, and takes the samples due by then (`runDueTimers`). Inlined: most
    /// calls, one an event, find none due, and then this is two comparisons rather than a call.
    @inline(__always)
    mutating func runTimers(through time: Int) {
        if min(timers.earliestTime, nextSampleTime) <= time { runDueTimers(through: time) }
    }

    /// Pops the timers due by `time` in (time, sequence) order, taking the samples due before each of them
    /// (`takeSamples`): the order one queue of timers and samples would give.
    private mutating func runDueTimers(through time: Int) {
        while true {
            guard let timer = timers.popDue(atOrBefore: time, unlessAfter: nextSampleTime, nextSampleSequence) else {
                // No timer due before the next sample: the sample, if it is due.
                guard nextSampleTime <= time else { return }
                advance(to: nextSampleTime)
                // No later sample of the stretch reaches the next timer: each would be scheduled after it.
                takeSamples(through: min(time, timers.earliestTime &- 1))
                continue
            }
            advance(to: timer.time)
            if timer.kind.observesOnly {   // so the sampling rate and metric windows cannot change any result
                observe(timer)
                continue
            }
            // A stale timer (its app relaunched, its work already done) changes nothing: no growth, no response.
            if fire(timer) {
                respondToPressure()
                scheduleGrowthCheck()
            }
            _checkInvariants()
        }
    }

    /// Runs an observing timer's rule (`TimerKind.observesOnly`), which changes no state.
    private mutating func observe(_ timer: PendingTimer) {
        switch timer.kind {
        case .warmupEnd: warmupSnapshot = snapshot(includeApps: true)
        case .intervalEnd:
            intervalSnapshots.append(snapshot(includeApps: false))
            timers.schedule(.intervalEnd, at: now + options.intervalMicros)
        default: assertionFailure("observe: \(timer.kind) changes the state")
        }
    }

    /// Runs a state timer's rule (every kind but the observers, `observe`'s); returns whether it may have changed the
    /// state (false: certainly not).
    private mutating func fire(_ timer: PendingTimer) -> Bool {
        switch timer.kind {
        case .warmupEnd, .intervalEnd:
            assertionFailure("fire: \(timer.kind) only observes")
            return false
        case .sustainedPressure:
            guard timer.token == pressureEpoch else { return false }
            applyForegroundGrowth()
            return sustainedPressureTick(token: timer.token)
        case .pressureRecheck:   // its slot holds the latest only: never stale
            applyForegroundGrowth()
        default:
            let i = Int(timer.app)
            guard apps[i].generation == timer.generation, apps[i].state.isResident, isCurrent(timer, app: i) else { return false }
            applyForegroundGrowth()
            switch timer.kind {
            case .agingEnd:
                // The app only moves to the idle band. Since the last response, only growth changed memory, and growth
                // crosses no threshold without a check of its own; so the response can act only if it may now kill or
                // freeze an idle app, or must time the reaper's sweep for it (half of all timers are aging ends: most
                // skip it).
                return refreshPriorityClass(i)
                    && (available < limits.idle || (device.freezer.enabled && available < limits.freezer)
                        || (limits.reaperOn && available < limits.reaper))
            case .interruptEnd: return endInterruption(i, token: timer.token)
            case .taskWorkEnd: return backgroundTaskWorkEnded(i)
            case .taskExpiry: return backgroundTaskBudgetExpired(i, token: timer.token)
            case .wakeEnd: return backgroundWakeEnded(i)
            case .launchWatchdog: return launchWatchdogFired(i)
            case .growthStep: return growthStep(i, token: timer.token)
            case .handlerEnd: return handlerEnded(i, token: timer.token)
            case .sustainedPressure, .warmupEnd, .intervalEnd, .pressureRecheck: break
            }
        }
        return true
    }

    /// Whether a per-app timer still belongs to the work that scheduled it (its epoch unchanged since).
    @inline(__always)
    private func isCurrent(_ timer: PendingTimer, app i: Int) -> Bool {
        switch timer.kind {
        case .interruptEnd: timer.token == apps[i].interruptEpoch
        case .taskExpiry: timer.token == apps[i].taskEpoch
        case .growthStep: timer.token == apps[i].growthEpoch
        default: true
        }
    }

    /// The sample due now, then the later ones due at or before `horizon` (before the next timer, and at or before the
    /// next event), all at once: nothing but the foreground app's growth changes the state before them. A stretch goes
    /// to the observer in one call, the sample due now included: an unchanged state's (an idle device sampled every
    /// minute) as one sample and its count, a growing foreground app's as the state and the growth that gives each
    /// sample (`GrowingSamples`), projected where the samples are rendered. Then schedules the next sample, or stops at
    /// `maxSamples`.
    ///
    /// The samples and their order are those of one timer per sample: nothing runs between them (a timer due at the
    /// same time as one of them was scheduled before it, so it goes first and ends the stretch), and the next sample's
    /// place in the timers' order is taken when a timer for it would have been scheduled. In real-memory mode each
    /// sample is taken on its own, as the backing measures live memory.
    private mutating func takeSamples(through horizon: Int) {
        let interval = options.sampleIntervalMicros
        var later = 0   // the samples after this one in the stretch
        // (Most stretches end within the interval: no division for them.)
        if interval > 0, backing == nil, horizon - now >= interval {
            later = min((horizon - now) / interval, options.maxSamples - sampleCount - 1)
        }
        if later == 0 {
            takeSample()
        } else if foregroundGrows {
            let growing = growingSamples()
            sampleCount += 1 + later
            if observer.retainsKillsAndSamples { growing.samples(1 + later, every: interval) { samples.append($0) } }
            observer.record(growing: growing, count: 1 + later, every: interval)
            advance(to: now + later * interval)
        } else {
            let sample = currentSample()
            sampleCount += 1 + later
            if observer.retainsKillsAndSamples { sample.repeated(1 + later, every: interval) { samples.append($0) } }
            observer.record(sample: sample, repeated: 1 + later, every: interval)
            advance(to: now + later * interval)
        }
        if sampleCount < options.maxSamples {
            scheduleSample(at: now + interval)
        } else {
            nextSampleTime = .max
        }
    }

    /// The next sample is due at `time`, after the timers scheduled so far that are due then too.
    @inline(__always)
    private mutating func scheduleSample(at time: Int) {
        (nextSampleTime, nextSampleSequence) = (time, timers.reserveSequence())
    }

    /// Records the state as of now, with the foreground app's growth projected rather than applied. (Inlined in
    /// `takeSamples`: most of a densely sampled run's samples come one at a time, or one an interval while the
    /// foreground app grows.)
    @inline(__always)
    private mutating func takeSample() {
        let sample = currentSample()
        sampleCount += 1
        if observer.retainsKillsAndSamples { samples.append(sample) }
        observer.record(sample: sample)
    }

    /// The state as of now, growth projected; in real-memory mode after the backing has measured live memory. (Each is
    /// a fresh measure: a stretch of an unchanged state is one sample and its count, so a sample kept for reuse until
    /// the next event or timer was reused by none of W's million samples.)
    @inline(__always)
    private mutating func currentSample() -> MemorySample {
        backing?.sample(at: now)
        return measuredSample()
    }

    /// The state as of now, the foreground app's growth projected (`GrowingSamples.project`). Inlined, as every
    /// non-mutating reader the engine's mutating rules call per event: called out of line, it would take a copy of the
    /// whole simulator (1.8 KB) from its caller.
    @inline(__always)
    private func measuredSample() -> MemorySample {
        if foregroundGrows { return growingSamples().sample(at: now) }
        return GrowingSamples.project(unprojectedSample(), grown: 0, fileBackedBytes: memory.fileBacked, at: now)
    }

    /// The state as of now and the foreground app's growth; only while it grows (`foregroundGrows`).
    @inline(__always)
    private func growingSamples() -> GrowingSamples {
        GrowingSamples(state: unprojectedSample(), fileBackedBytes: memory.fileBacked, growth: foregroundGrowth(Int(foreground)))
    }

    /// The state as of now, the growth applied so far and no more: `freeBytes` is the memory's count.
    @inline(__always)
    private func unprojectedSample() -> MemorySample {
        MemorySample(
            time: now, availableBytes: available, freeBytes: memory.free, pressure: pressure,
            residentApps: residentCount, suspendedApps: suspendedCount,
            compressorBytes: memory.compressorPool, footprintBytes: memory.appFootprints)
    }

    // MARK: Shared helpers

    /// App `i`'s id, unchecked: an index of `apps` is below the catalog's count, whose ids `AppCatalog` makes `Int32`s
    /// (a checked conversion was two comparisons, three times an event in `refreshPriorityClass` alone).
    @inline(__always)
    func appID(_ i: Int) -> Int32 { Int32(truncatingIfNeeded: i) }

    /// Whether there is a foreground app and it is growing (only the foreground app grows). Inlined, as `available`.
    @inline(__always)
    var foregroundGrows: Bool { foreground >= 0 && apps[Int(foreground)].growing }

    /// (Wrapping, as `SystemMemory.available`: what a memory backing retains is below physical memory.)
    @inline(__always)
    var available: Int { memory.available(compressorEnabled: limits.compressorOn) &- retainedBytes }

    /// Records a lifecycle step for the observer (inlined: most runs record none, and then this is one test).
    @inline(__always)
    mutating func emit(_ i: Int, from: AppState, to: AppState, _ callback: LifecycleCallback, deadline: Int = 0, cause: TransitionCause) {
        if recordsLifecycle { record(i, from: from, to: to, callback, deadline: deadline, cause: cause) }
    }

    private mutating func record(_ i: Int, from: AppState, to: AppState, _ callback: LifecycleCallback, deadline: Int, cause: TransitionCause) {
        observer.record(LifecycleRecord(
            time: now, app: appID(i), from: from, to: to, callback: callback,
            footprintBytes: apps[i].footprint, deadlineMicros: deadline, cause: cause))
    }

    // MARK: Inspection (read-only)

    public func state(of app: Int32) -> AppState { apps[Int(app)].state }
    public func footprint(of app: Int32) -> Int { apps[Int(app)].footprint }
    public func priorityClass(of app: Int32) -> PriorityClass { apps[Int(app)].priorityClass }
    public func band(of app: Int32) -> Int { apps[Int(app)].band }
    /// Whether the app has been opened, or launched into the background, at least once in this run.
    public func hasStarted(_ app: Int32) -> Bool { apps[Int(app)].launches > 0 || apps[Int(app)].backgroundLaunches > 0 }

    /// Looks at the apps at `time` (not before the last event processed): fires the timers due by then, then appends
    /// the state of every app the run has started (`hasStarted`), in app order. A probe decides nothing: the timers it
    /// fires would fire, in the same order, before the next event anyway.
    public mutating func probeResidency(at time: Int, into records: inout [ResidencyRecord]) {
        fireTimers(through: time)
        for i in 0..<apps.count where hasStarted(appID(i)) {
            records.append(ResidencyRecord(time: time, app: appID(i), state: apps[i].state, band: apps[i].band,
                                           footprintBytes: apps[i].footprint))
        }
    }
    public var availableBytes: Int { available }
    public var freeBytes: Int { memory.free }
    public var compressorBytes: Int { memory.compressorPool }
    public var pressureLevel: PressureLevel { pressure }
    public var foregroundApp: Int32? { foreground >= 0 ? foreground : nil }

    // MARK: Invariants

    /// Debug-build check after every event and timer: memory conservation and per-app consistency.
    @inline(__always)
    func _checkInvariants() {
        #if DEBUG
        if let problem = invariantViolations().first { preconditionFailure("Jetsim invariant violated at t=\(now) µs: \(problem)") }
        #endif
    }

    /// Every broken invariant, in words; empty when the state is consistent. Conservation:
    /// `Σ app resident bytes + reserve + compressor pool + free = physical`, the ledger's aggregates equal the
    /// per-app sums, byte counts are page-aligned and non-negative, and states agree with activity.
    public func invariantViolations() -> [String] {
        var problems: [String] = []
        var residentBytes = 0, fileBacked = 0, volatile = 0, pool = 0, logical = 0, residentApps = 0, suspended = 0, frozen = 0
        var footprints = 0, frozenBytes = 0
        let page = device.pageSize
        // The apps by index through views, and `aligned` outside the generic type: in a debug build a local function
        // retained its context at each call, `enumerated()` looked up its tuple's metadata at every app and each subscript
        // retained the storage (most of a debug test's time, since this runs after every event).
        let aligned = isPageAlignedByteCount
        let apps = self.apps.view, compressionKey = self.compressionKey.view, residentPosition = resident.position.view
        for i in 0..<self.apps.count {
            let a = apps[i]
            residentBytes += a.residentBytes
            fileBacked += a.fileBacked
            volatile += a.volatileBytes
            pool += a.compressedPhysical
            logical += a.dirtyCompressed
            footprints += a.state == .notRunning ? 0 : a.footprint
            frozenBytes += a.dirtyFrozen
            // Checked one by one: this runs after every event in debug builds, so it must not allocate.
            if !aligned(a.dirtyResident, page) || !aligned(a.dirtyCompressed, page) || !aligned(a.dirtyFrozen, page)
                || !aligned(a.compressedPhysical, page) || !aligned(a.cache, page) || !aligned(a.purgeable, page)
                || !aligned(a.backingStore, page) || !aligned(a.imageCache, page) || !aligned(a.fileBacked, page) {
                problems.append("app \(i): a byte count is negative or not page-aligned")
            }
            if a.state == .notRunning {
                if a.residentBytes != 0 || a.dirtyCompressed != 0 || a.compressedPhysical != 0 || a.dirtyFrozen != 0 || a.frozen {
                    problems.append("app \(i) is not running but holds memory")
                }
                if a.taskWorkEnd != 0 || a.wakeUntil != 0 || a.handlerUntil != 0 || !a.modes.isEmpty || a.terminating {
                    problems.append("app \(i) is not running but active")
                }
            } else {
                residentApps += 1
            }
            if a.state.isResident != (residentPosition[i] >= 0) { problems.append("app \(i) is missing from the resident set, or stale in it") }
            if a.state == .suspended { suspended += 1 }
            if a.terminating && (a.state != .background || a.handlerUntil == 0) {
                problems.append("app \(i) runs its willTerminate handler but is not in the Background with a deadline")
            }
            if a.dirtyCompressed > 0 && a.state != .suspended { problems.append("app \(i) runs with compressed memory") }
            if compressionKey[i] != (a.state == .suspended && a.dirtyResident > 0 ? a.lastForegroundTime : .max) {
                problems.append("app \(i)'s compression key is stale")
            }
            if a.frozen && a.state == .suspended && a.priorityClass != .frozen { problems.append("app \(i) is frozen but not in the frozen band") }
            if idleOrder.contains(appID(i)) != (a.priorityClass == .idle)
                || (a.priorityClass == .idle && (a.state != .suspended || idleOrder.key(of: appID(i)).minor != a.bandEntrySequence)) {
                problems.append("app \(i) is misplaced in the idle order")
            }
            if let ranked = rankedCandidates, !rankPendingMark[i] {   // an app not marked is ranked by its key of now
                let key = a.state.isResident && (appID(i) != foreground || foregroundIsCandidate) ? policy.rankingKey(rankingInputs(i)) : nil
                if ranked.contains(appID(i)) != (key != nil) || (key.map { ranked.key(of: appID(i)) != $0 } ?? false) {
                    problems.append("app \(i)'s ranking key changed unmarked")
                }
            }
            if a.band != (a.priorityClass == .none ? -1 : policy.band(for: a.priorityClass)) {
                problems.append("app \(i)'s band is not its class's")
            }
            if a.dirtyFrozen > 0 && a.state != .suspended { problems.append("app \(i) runs with frozen memory") }
            if a.frozen { frozen += 1 }
            if appID(i) == foreground {
                if a.state != .active && a.state != .inactive { problems.append("foreground app \(i) is \(a.state)") }
                if a.purgeableVolatile { problems.append("foreground app \(i) has volatile purgeable memory") }
            } else if a.state == .active {
                problems.append("app \(i) is active outside the foreground")
            }
        }
        if residentBytes + memory.reserve + memory.compressorPool + memory.free != memory.physical {
            problems.append("memory not conserved: apps \(residentBytes) + reserve \(memory.reserve) + compressor \(memory.compressorPool) + free \(memory.free) ≠ physical \(memory.physical)")
        }
        if fileBacked != memory.fileBacked || volatile != memory.volatilePurgeable { problems.append("ledger aggregates drifted") }
        if pool != memory.compressorPool || logical != memory.compressedLogical { problems.append("compressor ledger drifted") }
        if frozenBytes != memory.frozen { problems.append("frozen ledger drifted") }
        if footprints != memory.appFootprints {
            problems.append("the ledger's footprint \(memory.appFootprints) differs from the running apps' \(footprints)")
        }
        if residentApps != residentCount || suspended != suspendedCount || frozen != frozenCount || resident.members.count != residentCount {
            problems.append("resident counts drifted")
        }
        if frozenCount > device.freezer.maxFrozen { problems.append("\(frozenCount) frozen apps exceed the freezer's limit") }
        if nextSampleTime < now { problems.append("a sample due at \(nextSampleTime) µs was not taken") }
        return problems
    }
}

/// Whether `bytes` is a non-negative whole number of `page`s (`Simulator.invariantViolations`).
private func isPageAlignedByteCount(_ bytes: Int, _ page: Int) -> Bool { bytes >= 0 && bytes % page == 0 }

/// A device's kill, freezer and compressor settings (and its page size) as the engine reads them per event.
struct ThresholdBytes {
    let soft: Int, idle: Int, critical: Int, freezer: Int, reaper: Int
    let reaperOn: Bool
    /// With the compressor off, available memory above which the warning (critical) level is left: 115 % of the soft
    /// (critical) threshold (vm_pageout.c:10046, 10058).
    let leaveWarning: Int, leaveCritical: Int
    /// The compressor's limits (`Device.Compressor`) and their "low on space" marks, 98 % of each.
    let compressedLimit: Int, segmentsLimit: Int, compressedNearLimit: Int, segmentsNearLimit: Int
    /// The pool's bytes above which its segments are above `segmentsNearLimit`.
    let poolNearLimit: Int
    /// The reaper's minimum age in band 0.
    let reaperMinAge: Int
    /// Whether an app can be over its limit without having been killed: soft limits, or an inactive limit below the
    /// active one (set on suspension, checked only at the next growth).
    let overLimitPossible: Bool
    /// The pressure levels' thresholds on the non-compressed share of memory.
    let pressure: Device.PressureThresholds
    /// The footprints at which an app is warned that it nears its active and its inactive limit.
    let activeWarning: Int, inactiveWarning: Int
    /// At or above this much available memory the pressure response neither purges, compresses nor kills, the reaper's
    /// sweep aside: the highest of the kill thresholds (the soft one, below which purges and compression start, among them).
    let quiet: Int
    let compressorOn: Bool
    /// An Android device: ActivityManager and the lowmemorykiller respond instead of XNU (`respondAsAndroid`).
    let android: Bool
    /// Page size − 1 when the page size is a power of two (rounding by mask), −1 otherwise.
    let pageMask: Int
    init(_ device: Device) {
        soft = device.softBytes
        idle = device.idleBytes
        critical = device.criticalBytes
        freezer = device.freezerBytes
        reaperOn = device.reaper.enabled && !device.cacheEquivalent
        reaper = device.reaperBytes
        leaveWarning = soft / 100 * 115
        leaveCritical = critical / 100 * 115
        compressedLimit = device.compressedLimitBytes
        segmentsLimit = device.compressorSegmentsLimit
        compressedNearLimit = compressedLimit / 100 * 98
        segmentsNearLimit = segmentsLimit * 98 / 100
        let pool = segmentsNearLimit.multipliedReportingOverflow(by: device.compressor.segmentBytes)
        poolNearLimit = pool.overflow ? Int.max : pool.partialValue
        reaperMinAge = device.reaper.minIdleAgeMicros
        overLimitPossible = !device.appLimitFatal || device.appLimitInactiveBytes < device.appLimitActiveBytes
        pressure = device.pressureThresholds
        // Android 4.x warns no app of a limit (it has none; its onTrimMemory callbacks are not modelled).
        let warns = device.platform != .android
        activeWarning = warns ? device.warningLevel(forLimit: device.appLimitActiveBytes) : Int.max
        inactiveWarning = warns ? device.warningLevel(forLimit: device.appLimitInactiveBytes) : Int.max
        quiet = max(soft, idle, critical)
        compressorOn = device.compressor.enabled
        android = device.platform == .android
        pageMask = device.pageSize > 0 && device.pageSize & (device.pageSize - 1) == 0 ? device.pageSize - 1 : -1
    }
}
