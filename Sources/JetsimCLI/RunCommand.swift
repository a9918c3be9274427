import ArgumentParser
import Dispatch
import JetsimCore
import JetsimExperiment
import JetsimIO
import JetsimRealMemory

#if canImport(Glibc)
import Glibc
#endif

/// `jetsim run` — one trace, one device, one policy → CSV reports.
public struct RunCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Replay a usage trace on a device under one eviction policy and write CSV reports.",
        discussion: reflowed("""
        Writes summary.csv, kills.csv, apps.csv and timeseries.csv (and events.csv with --events) into the output
        directory, each file atomically. Formats and columns: Reports/README.md.

        Examples:
          jetsim run --device iphone-xs --apps Examples/day/apps.csv --trace Examples/day/trace.csv
          jetsim run --device iphone-x --apps apps.csv --trace trace.csv --policy xnu:audio_band=100 --out /tmp/r --events
          jetsim run --device my-device.yaml --apps apps.csv --trace trace.csv --os-era ios7
          jetsim run --device iphone-x --apps apps.csv --trace trace.csv --kernel xnu-10063
          jetsim run --device iphone-xs --apps apps.csv --trace trace.csv --backing jemalloc:scale=1/256 --pressure-source measured
          jetsim run --device iphone-x --apps apps.csv --trace trace.csv --per-user --out /tmp/users   (each user on a fresh phone)
          jetsim run --device nexus-5 --apps /tmp/sl/apps.csv --trace /tmp/sl/trace-user-00.csv --residency /tmp/sl/snapshots.csv

        Real-memory mode (--backing jemalloc) backs every app's memory with real allocations in its own jemalloc
        arena, scaled down, and also writes live.csv: modelled against measured bytes per app at every sample.

        On a cache device (--device cache:CAPACITY --format libcachesim) a run writes a kills.csv row per eviction and an
        apps.csv row per object; for misses and evictions alone, `jetsim cachesim` applies the same rules, with equal
        counts, about ten times faster.
        """)
    )

    @Option(help: "Device: a preset (see `jetsim devices`) or a device file (.yaml/.json).")
    var device: String

    @Option(help: "Usage trace: a Jetsim CSV (time,app,event,value) or, with --format libcachesim, a libCacheSim CSV.")
    var trace: String

    @OptionGroup var input: TraceInputOptions
    var apps: String? { input.apps }
    var format: String { input.format ?? "jetsim" }
    var csvFields: String? { input.csvFields }

    @Option(name: [.customLong("policy"), .customLong("policies")],
            help: "Eviction policy, optionally with parameters ('cost:alpha=0.5'), a policy file's name in --policy-dir, or a file path. See `jetsim policies`; several at once: `jetsim compare`.")
    var policy: String = "xnu"

    @OptionGroup var policyDirectory: PolicyDirectoryOption

    @Option(help: "Seed for randomised policies; echoed in every report.")
    var seed: UInt64 = 1

    @Option(help: "Output directory (default: Reports/out/<trace's directory>-<trace>-<device>-<policy>-s<seed>).")
    var out: String?

    @Flag(help: "Also write events.csv: every lifecycle transition and callback, in order, with deadlines.")
    var events = false

    @Option(help: "Simulated time between timeseries.csv samples: seconds, or 90s, 10m, 1h.")
    var sampleInterval: String = "60"

    @Option(help: "Most timeseries.csv rows to keep (1 to 1 000 000); sampling stops there, with a warning.")
    var maxSamples: Int = 1_000_000

    @OptionGroup var deviceAdjustments: DeviceAdjustmentOptions

    @Option(help: "Memory behind the model: 'model' (default), or 'jemalloc[:scale=1/256]' for real allocations in one jemalloc arena per app, scaled down.")
    var backing: String = "model"

    @Option(help: "With --backing jemalloc, what kill decisions count: 'model' (default) or 'measured' (the model plus what the allocator retains).")
    var pressureSource: String = "model"

    @Flag(help: "Split the trace by its user column: every user replays on a fresh device, with its reports in user-USER/; summary.csv gets one row per user, and population.csv the aggregates.")
    var perUser = false

    @OptionGroup var residency: ResidencyOption

    @Flag(help: "Print nothing but errors (no summary, no progress).")
    var quiet = false

    public init() {}

    public func validate() throws {
        _ = try sampleIntervalMicros(sampleInterval)
        guard maxSamples > 0, maxSamples <= TimeWindows.limit else { throw ValidationError("--max-samples must be between 1 and 1 000 000") }
        try TraceInputOptions.check(format: format, csvFields: csvFields)
        if format == "jetsim" && apps == nil { throw ValidationError("--apps is required for a Jetsim trace") }
        let spec: BackingSpec
        do { spec = try BackingSpec(parsing: backing) } catch { throw ValidationError("\(error)") }
        guard let source = PressureSource(rawValue: pressureSource) else {
            throw ValidationError("--pressure-source must be 'model' or 'measured', found '\(pressureSource)'")
        }
        if source == .measured && spec == .model {
            throw ValidationError("--pressure-source measured needs real memory to measure: add --backing jemalloc")
        }
        if perUser && (format != "jetsim" || spec != .model) {
            throw ValidationError("--per-user splits a Jetsim trace by its user column, on the model's memory: not with --format libcachesim or --backing jemalloc")
        }
    }

    public func run() throws {
        try reportingErrors { try execute() }
    }

    /// The device name is safe in a directory name even for `cache:2GiB`.
    private func directorySafe(_ name: String) -> String {
        String(name.map { $0 == ":" || $0 == "/" ? "-" : $0 })
    }

    private func execute() throws {
        // First, before any output: real-memory mode may need to re-execute this process to load jemalloc.
        if backing != "model" { try Jemalloc.loadRelaunchingIfNeeded() }
        if !quiet { noteDecimalUnits(option: "--device", sizes: cacheCapacities([device])) }
        let deviceValue = try deviceAdjustments.apply(to: try DeviceSource.resolve(device))
        let policyValue = try PolicySource.make(policy, environment: PolicyEnvironment(seed: seed, device: deviceValue),
                                                policiesDirectory: try policyDirectory.path())
        // A plan of one cell, read by the grids' own loader: the trace streams as the run goes.
        // A libCacheSim trace is read twice (scanned for its objects, then replayed as the run goes): a pipe is copied
        // once, and the copy must outlive the run.
        let traceInput = try ReadOnceInput(format == "libcachesim" ? trace : "")
        defer { withExtendedLifetime(traceInput) {} }
        let cell = GridConfiguration(
            traces: [trace], apps: apps, format: format, csvFields: csvFields, workloadSeeds: nil, generate: nil, policies: [policy],
            deviceNames: [device], devices: [deviceValue], deviceAdjustments: deviceAdjustments.arguments, seeds: [seed], warmupMicros: 0,
            intervalMicros: 0, sampleIntervalMicros: try sampleIntervalMicros(sampleInterval), baselinePolicy: 0, chartCell: 0,
            policiesDirectory: try policyDirectory.path())
        let readFrom = format == "libcachesim" ? [trace: traceInput.path] : [:]
        let probes = try residency.probes()
        if perUser { return try executePerUser(policyValue, device: deviceValue, sampleIntervalMicros: cell.sampleIntervalMicros, probes: probes) }
        var (catalog, source, _) = try ExperimentRunner(plan: ExperimentPlan(configuration: cell, generator: nil), readFrom: readFrom, jobs: 1).open(0)
        var future: NextUseTable?
        if policyValue.descriptor.capabilities.contains(.needsFuture) {
            // The offline optimum needs the whole trace: load it once, compute next uses in one backward pass.
            let events = try source.readAll()
            future = NextUseTable(events: events, appCount: catalog.count)
            source = .loaded(events, position: 0)
        }
        source = source.readingAhead()   // parsed on a second thread while the simulation runs
        var options = simulationOptions(sampleIntervalMicros: cell.sampleIntervalMicros)
        options.pressureSource = PressureSource(rawValue: pressureSource) ?? .model
        let spec = try BackingSpec(parsing: backing)
        var budget = 0
        if case .jemalloc(let scale) = spec {
            guard let machine = ProcessMemory.machine() else {
                throw RealMemoryError("--backing jemalloc: cannot read this machine's memory from /proc/meminfo")
            }
            budget = try RealMemoryBudget.budget(deviceName: deviceValue.name, devicePhysicalBytes: deviceValue.physicalBytes,
                                                 scale: scale, machine: machine)
        }
        let traceName = baseName(trace)
        let directory = out ?? "Reports/out/\(workloadName(trace))-\(directorySafe(deviceValue.name))-\(directorySafe(policyValue.descriptor.name))-s\(seed)"
        let labels = RunLabels(trace: traceName, tracePath: trace, appNames: catalog.profiles.map(\.name))

        let showProgress = !quiet && isatty(2) == 1
        // kills.csv and timeseries.csv (and events.csv, live.csv) stream to disk as the run goes: memory stays flat.
        let result = try inReportDirectory(directory, replaceable: OutputNames.run) { staging in
            var live: LiveFileWriter?
            var realMemory: JemallocBacking?
            if case .jemalloc(let scale) = spec {
                let writer = try LiveFileWriter(path: staging + "/live.csv", appNames: labels.appNames)
                live = writer
                realMemory = try JemallocBacking(scale: scale, appCount: catalog.count, budgetBytes: budget,
                                                 pressureSource: options.pressureSource, sink: writer.record)
            }
            let stream = try ReportStream(directory: staging, appNames: labels.appNames,
                                          policy: policyValue.descriptor.displayName, events: events)
            // Rows rendered and written on a second thread while the simulation runs.
            var result = try WriteBehindSink.writing(to: stream) { writer in
                try simulate(policyValue, observer: SinkObserver(writer), device: deviceValue, catalog: catalog, options: options,
                             source: &source, future: future, backing: realMemory, residency: probes?(nil),
                             progress: showProgress ? printProgress : nil)
            }
            if showProgress && result.events >= 0x40000 { var stderr = StandardError(); print("", to: &stderr) }
            if let failure = stream.failure { throw failure }
            var streamed = stream.files
            if let realMemory, let live {
                if let failure = realMemory.failure { throw failure }
                if let failure = live.failure { throw failure }
                result.backing = realMemory.summary
                streamed.append(live.file)
                if !quiet { printError(realMemoryCrossCheck(realMemory)) }
            }
            try ReportFiles.write(result, labels: labels, to: staging, streamed: streamed)
            if probes != nil { try writeResidency([(result, labels)], into: staging) }
            return result
        }
        warnIfTruncated(result)
        if !quiet { printSummary(result, directory: directory) }
    }

    /// The options a run of this command simulates with (every user's, with --per-user).
    private func simulationOptions(sampleIntervalMicros: Int) -> SimulationOptions {
        var options = SimulationOptions()
        options.seed = seed
        options.maxSamples = maxSamples
        options.sampleIntervalMicros = sampleIntervalMicros
        return options
    }

    private func warnIfTruncated(_ result: SimulationResult, user: String? = nil) {
        let whose = user.map { " of user \($0)" } ?? ""
        if result.samplesTruncated {
            printError("warning: timeseries.csv\(whose) stops after \(result.sampleCount) samples; use a larger --sample-interval for this trace")
        }
        if result.residencyTruncated {
            printError("warning: residency.csv\(whose) stops after \(ResidencyProbes.limit) rows; probe less often")
        }
    }

    private func writeResidency(_ runs: [(result: SimulationResult, labels: RunLabels)], into staging: String) throws {
        let f = try AtomicFile(path: staging + "/residency.csv")
        try f.write(bytes: ResidencyReport.csv(runs))
        try f.commit()
    }

    /// `--per-user`: each user's events on a fresh device, each user's run reports in user-USER/ (as a run's), then
    /// summary.csv (a row per user), population.csv and, with --residency, residency.csv beside them.
    private func executePerUser(_ policyValue: any EvictionPolicy, device deviceValue: Device, sampleIntervalMicros: Int,
                                probes: ((String?) -> ResidencyProbes.Schedule?)?) throws {
        let catalog = try CatalogFile.read(path: apps ?? "")
        let users = try TraceReader.readAllByUser(path: trace, catalog: catalog)
        let directory = out ?? "Reports/out/\(workloadName(trace))-\(directorySafe(deviceValue.name))-\(directorySafe(policyValue.descriptor.name))-s\(seed)-per-user"
        let appNames = catalog.profiles.map(\.name)
        var seen = Set<String>()
        for (user, _) in users where !seen.insert("user-" + directorySafe(user)).inserted {
            throw InputError(file: trace, field: "user", message: "users '\(InputError.excerpt(user))' and another share the directory name user-\(directorySafe(user)); rename one")
        }
        let runs = try inReportDirectory(directory, replaceable: OutputNames.run) { staging in
            var runs: [(result: SimulationResult, labels: RunLabels)] = []
            for (user, events) in users {
                let labels = RunLabels(trace: baseName(trace), tracePath: trace, appNames: appNames, user: user)
                let userDirectory = staging + "/user-" + directorySafe(user)
                _ = try makeDirectories(userDirectory)
                let options = simulationOptions(sampleIntervalMicros: sampleIntervalMicros)
                let policy = try PolicySource.make(policy, environment: PolicyEnvironment(seed: seed, device: deviceValue),
                                                   policiesDirectory: try policyDirectory.path())
                let future = policy.descriptor.capabilities.contains(.needsFuture) ? NextUseTable(events: events, appCount: catalog.count) : nil
                let stream = try ReportStream(directory: userDirectory, appNames: appNames, policy: policy.descriptor.displayName, events: self.events)
                var source = EventSource.loaded(events, position: 0)
                let result = try WriteBehindSink.writing(to: stream) { writer in
                    try simulate(policy, observer: SinkObserver(writer), device: deviceValue, catalog: catalog, options: options,
                                 source: &source, future: future, residency: probes?(user))
                }
                if let failure = stream.failure { throw failure }
                try ReportFiles.write(result, labels: labels, to: userDirectory, streamed: stream.files)
                runs.append((result, labels))
            }
            let files = [("summary.csv", CSVLine.of(ReportFiles.summaryHeader) + runs.map { CSVLine.of(ReportFiles.summaryRow($0.result, labels: $0.labels)) }.joined()),
                         ("population.csv", PopulationReport.csv(runs.map(\.result), perWorkload: 1))]
            for (name, text) in files {
                let f = try AtomicFile(path: staging + "/" + name)
                try f.write(text)
                try f.commit()
            }
            if probes != nil { try writeResidency(runs, into: staging) }
            return runs
        }
        for run in runs { warnIfTruncated(run.result, user: run.labels.user) }
        if !quiet {
            for run in runs {
                let r = run.result
                print("user \(run.labels.user ?? ""): \(r.events) events over \(FixedPoint.seconds(r.simulatedMicros)) s, launches \(r.launches) "
                      + "(cold \(r.coldLaunches)), kills \(r.totalKills) (user-visible \(r.userVisibleKills))")
            }
            print(PopulationReport.table(runs.map(\.result), perWorkload: 1), terminator: "")
            print("reports: \(directory)/ (each user's in user-USER/)")
        }
    }

    /// One line on stderr: the allocator's statistics against the kernel's view of the process.
    private func realMemoryCrossCheck(_ b: JemallocBacking) -> String {
        let gap = b.largestResidentGap.map { "; the process's resident set tracked the arenas within \(FixedPoint.mebibytes($0)) MiB" }
            ?? "; /proc/self/statm unreadable, no cross-check"
        return "real memory (\(b.spec), jemalloc \(Jemalloc.version)): arenas resident \(FixedPoint.mebibytes(b.arenasResidentBytes)) MiB "
            + "at the last sample\(gap)"
    }

    /// Simulated time reached and speed, on stderr, over the previous line.
    private func printProgress(events: Int, time: Int, eventsPerSecond: Int) {
        var stderr = StandardError()
        print("\r\u{1B}[K\(events) events, simulated \(FixedPoint.format(time, over: 3_600_000_000, decimals: 1)) h, \(eventsPerSecond) events/s",
              terminator: "", to: &stderr)
    }

    private func printSummary(_ r: SimulationResult, directory: String) {
        print("""
        \(r.policy.displayName) on \(r.device.name): \(r.events) events over \(FixedPoint.seconds(r.simulatedMicros)) s
          launches \(r.launches) (cold \(r.coldLaunches), resumes \(r.resumes), hot ratio \(FixedPoint.format(r.resumes, over: r.launches, decimals: 3)))
          kills \(r.totalKills) (user-visible \(r.userVisibleKills)), memory warnings \(r.memoryWarnings), out-of-memory \(r.oomEvents)
          launch latency mean \(FixedPoint.format(r.totalLaunchMillis, over: r.launches, decimals: 1)) ms, p95 \(r.p95LaunchMillis) ms
        reports: \(directory)/
        """)
    }
}

/// A default output directory's first part, named after the workload so that two workloads' `trace.csv` do not share
/// one: the trace's directory and file name without extensions (`Examples/day/trace.csv.gz` → `day-trace`).
func workloadName(_ tracePath: String) -> String {
    var file = baseName(tracePath)
    for ext in [".gz", ".csv", ".txt"] where file.count > ext.count && file.lowercased().hasSuffix(ext) { file.removeLast(ext.count) }
    var absolute = tracePath
    if let resolved = realpath(tracePath, nil) {
        absolute = String(cString: resolved)
        free(resolved)
    }
    let parts = absolute.split(separator: "/")
    return parts.count >= 2 ? "\(parts[parts.count - 2])-\(file)" : file
}

func stem(_ name: String) -> String {
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
    return String(name[..<dot])
}
