import ArgumentParser
import Dispatch
import Foundation
import JetsimCore
import JetsimIO

/// `jetsim compare` — a policy × device × seed grid on one workload, in parallel, with comparison reports.
public struct CompareCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Run every policy × device × seed cell on one workload and write comparison reports.",
        discussion: reflowed("""
        The trace is parsed once and shared by every cell; cells run on --jobs threads (default: all cores) and the
        reports are byte-identical for any --jobs. Metrics start after --warmup (simulated time); the simulation
        itself does not. Writes into --out (formats: Reports/README.md): summary.csv (one row per cell), compare.csv
        (per device and policy, with deltas against the baseline), latency.csv (launch latency distributions),
        intervals.csv (with --interval), chart-timeseries.csv and chart-kills.csv (the charted cell's memory and
        kills), report.html (the charts; redraw with `jetsim plot`) and manifest.json (inputs, hashes, versions);
        prints compare.csv as a table.

        Examples:
          jetsim compare --apps Examples/day/apps.csv --trace Examples/day/trace.csv --policies xnu,lru,largest,cost,oracle --devices iphone-x,iphone-11 --out /tmp/cmp
          jetsim compare --config Examples/experiment.yaml --seeds 1,2,3 --jobs 2
          jetsim compare --apps Examples/day/apps.csv --trace Examples/day/trace.csv --policies xnu,lru --devices iphone-x --kernel xnu-10063 --no-freezer
        """)
    )

    @Option(help: "Experiment file (YAML or JSON) with any of the options below; options given here override it.") var config: String?
    @Option(help: "App catalog CSV (not with --format libcachesim).") var apps: String?
    @Option(help: "Usage trace.") var trace: String?
    @Option(help: "Trace format: 'jetsim' or 'libcachesim'.") var format: String?
    @Option(name: [.customLong("policies"), .customLong("policy")],
            help: "Comma-separated policies (built-ins with parameters, policy files); parameters separated by ';' or ',': 'cost:alpha=0.5;half_life_h=12,lru'.") var policies: String?
    @Option(help: "Comma-separated devices (presets, cache:CAPACITY, device files).") var devices: String?
    @Option(help: "Comma-separated seeds (default 1).") var seeds: String?
    @Option(help: "Parallel jobs (default: the number of cores).") var jobs: Int?
    @Option(help: "Simulated time excluded from the metrics at the start, e.g. 1h, 30m, 90s.") var warmup: String?
    @Option(help: "Write intervals.csv with every metric per interval of simulated time, e.g. 1h.") var interval: String?
    @Option(help: "Policy the deltas of compare.csv are taken against (default: the first).") var baseline: String?
    @Option(help: "Output directory.") var out: String?
    @Option(help: "Simulated time between memory samples (the charted cell's time series): seconds, or 90s, 10m, 1h.") var sampleInterval: String = "60"
    @Option(help: "Device of the cell whose memory and kills report.html charts (default: the first).") var chartDevice: String?
    @Option(help: "Policy of the charted cell, as given in --policies (default: the baseline).") var chartPolicy: String?
    @Option(help: "Seed of the charted cell (default: the first).") var chartSeed: UInt64?
    @OptionGroup var policyDirectory: PolicyDirectoryOption
    @OptionGroup var deviceAdjustments: DeviceAdjustmentOptions
    @Flag(help: "Print nothing but errors.") var quiet = false

    public init() {}

    struct Plan {
        var apps: String?, trace: String, format: String, policies: [String], devices: [String], seeds: [UInt64]
        var jobs: Int, warmup: Int, interval: Int, baseline: String?, out: String, sampleInterval: Int
    }

    func plan() throws -> Plan {
        let file = try config.map { try ExperimentConfig.read(path: $0) } ?? ExperimentConfig()
        try file.checkReferences(policiesDirectory: try policyDirectory.path())   // an unknown name in the file is the file's error
        func list(_ text: String?) -> [String]? { text.map(commaSeparated) }
        guard let trace = trace ?? file.trace else { throw ValidationError("a trace is required (--trace or 'trace' in --config)") }
        let format = format ?? file.format ?? "jetsim"
        guard format == "jetsim" || format == "libcachesim" else { throw ValidationError("--format must be 'jetsim' or 'libcachesim'") }
        let apps = apps ?? file.apps
        if format == "jetsim" && apps == nil { throw ValidationError("an app catalog is required (--apps or 'apps' in --config)") }
        let policies = policies.map(PolicySpec.list) ?? file.policies ?? ["xnu"]
        let devices = list(devices) ?? file.devices ?? []
        guard !devices.isEmpty else { throw ValidationError("at least one device is required (--devices or 'devices' in --config)") }
        var seedValues = file.seeds ?? [1]
        if let seeds {
            seedValues = []
            for s in list(seeds) ?? [] {
                guard let n = UInt64(s) else { throw ValidationError("--seeds takes whole numbers, found '\(s)'") }
                seedValues.append(n)
            }
        }
        guard !policies.isEmpty, !seedValues.isEmpty else { throw ValidationError("at least one policy and one seed are required") }
        guard Set(policies).count == policies.count, Set(devices).count == devices.count, Set(seedValues).count == seedValues.count else {
            throw ValidationError("policies, devices and seeds must not repeat")
        }
        func duration(_ text: String?, _ name: String) throws -> Int {
            guard let text else { return 0 }
            guard let v = Durations.micros(text), v >= 0, v <= DecimalParser.maxMicros else {
                throw ValidationError("--\(name) takes a duration such as 1h, 30m or 90s (at most 2^60 µs), found '\(text)'")
            }
            return v
        }
        let jobs = jobs ?? file.jobs ?? ProcessInfo.processInfo.activeProcessorCount
        guard jobs >= 1, jobs <= ExperimentConfig.Limits.jobs else { throw ValidationError("--jobs must be between 1 and \(ExperimentConfig.Limits.jobs)") }
        guard let out = out ?? file.out else { throw ValidationError("an output directory is required (--out or 'out' in --config)") }
        let baseline = baseline ?? file.baseline
        if let baseline, !policies.contains(baseline) {
            if self.baseline == nil { throw file.error(at: "baseline", "'\(InputError.excerpt(baseline))' is not one of the policies") }
            throw ValidationError("--baseline '\(baseline)' is not one of the policies")
        }
        if let chartPolicy, !policies.contains(chartPolicy) { throw ValidationError("--chart-policy '\(chartPolicy)' is not one of the policies") }
        if let chartDevice, !devices.contains(chartDevice) { throw ValidationError("--chart-device '\(chartDevice)' is not one of the devices") }
        if let chartSeed, !seedValues.contains(chartSeed) { throw ValidationError("--chart-seed \(chartSeed) is not one of the seeds") }
        return Plan(apps: apps, trace: trace, format: format, policies: policies, devices: devices, seeds: seedValues, jobs: jobs,
                    warmup: try duration(warmup ?? file.warmup, "warmup"), interval: try duration(interval ?? file.interval, "interval"),
                    baseline: baseline, out: out, sampleInterval: try sampleIntervalMicros(sampleInterval))
    }

    public func run() throws {
        try reportingErrors { try execute(try plan()) }
    }

    /// One cell of the grid.
    struct Cell: Sendable { var device: Int, policy: Int, seed: UInt64 }

    /// Results written by index from worker threads; each slot is written once.
    final class Slots: @unchecked Sendable {
        private var results: [SimulationResult?]
        private let lock = NSLock()
        private(set) var done = 0
        init(count: Int) { results = Array(repeating: nil, count: count) }
        func set(_ index: Int, _ result: SimulationResult) -> Int {
            lock.lock()
            defer { lock.unlock() }
            results[index] = result
            done += 1
            return done
        }
        var all: [SimulationResult] { results.compactMap { $0 } }
    }

    private func execute(_ plan: Plan) throws {
        let started = Date()
        if !quiet { noteDecimalUnits(option: "--devices", sizes: cacheCapacities(plan.devices)) }
        let devices = try plan.devices.map { try deviceAdjustments.apply(to: try DeviceSource.resolve($0)) }
        // Parse the workload once; every cell shares the dense event array (and next uses, if any policy needs them).
        let catalog: AppCatalog
        let events: [TraceEvent]
        // Pipes are copied once (`ReadOnceInput`): the inputs are read again below, to hash them into manifest.json.
        let traceInput = try ReadOnceInput(plan.trace)
        let appsInput = try plan.apps.map { path throws(InputError) in try ReadOnceInput(path) }
        var readFrom = [traceInput.name: traceInput.path]
        if let appsInput { readFrom[appsInput.name] = appsInput.path }
        if plan.format == "libcachesim" {
            let lcs = try LibCacheSimTrace(path: traceInput.path, name: plan.trace)
            catalog = lcs.catalog
            var source = EventSource.libCacheSim(lcs)
            events = try source.readAll()
        } else {
            // Two threads when --jobs allows: with the cells faster, the read was a tenth of a two-job grid's time.
            catalog = try CatalogFile.read(path: appsInput?.path ?? "", name: plan.apps)
            events = try TraceReader.readAll(path: traceInput.path, catalog: catalog, threads: min(plan.jobs, 2), name: plan.trace)
        }
        if plan.interval > 0, let first = events.first, let last = events.last {
            try TimeWindows.check(trace: plan.trace, spanMicros: last.time - first.time, intervalMicros: plan.interval,
                                  runs: plan.devices.count * plan.policies.count * plan.seeds.count,
                                  windows: "--interval \(TimeWindows.seconds(plan.interval)) s", advice: "choose a longer --interval",
                                  exitCode: InputError.usage)
        }
        // The charted cell's memory series is chart data: as many points as a chart can use (ChartReport.maxSeriesPoints),
        // spread over the whole run, rather than --sample-interval's until a cap cut it short. Sample spacing changes
        // no decision (TimingIndependenceTests).
        let span = (events.last?.time ?? 0) - (events.first?.time ?? 0)
        let chartSampleInterval = max(plan.sampleInterval, span / ChartReport.maxSeriesPoints + 1)
        if chartSampleInterval > plan.sampleInterval && !quiet {
            printError("note: chart-timeseries.csv samples every \(TimeWindows.seconds(chartSampleInterval)) s, not --sample-interval's "
                       + "\(TimeWindows.seconds(plan.sampleInterval)) s, to stay within \(ChartReport.maxSeriesPoints) points over the run")
        }
        let prototypes = try plan.policies.map { try PolicySource.make($0, environment: PolicyEnvironment(seed: 1, device: devices[0]),
                                                                        policiesDirectory: try policyDirectory.path()) }
        let future = prototypes.contains { $0.descriptor.capabilities.contains(.needsFuture) }
            ? NextUseTable(events: events, appCount: catalog.count) : nil
        let cells = devices.indices.flatMap { d in plan.policies.indices.flatMap { p in plan.seeds.map { Cell(device: d, policy: p, seed: $0) } } }
        let slots = Slots(count: cells.count)
        let failure = FailureBox()
        let progress = !quiet && isatty(2) == 1
        let jobs = min(plan.jobs, cells.count)
        var baseOptions = SimulationOptions()
        baseOptions.sampleIntervalMicros = plan.sampleInterval
        baseOptions.warmupMicros = plan.warmup
        baseOptions.intervalMicros = plan.interval
        let options = baseOptions
        let lookupDirectory = try policyDirectory.path()
        let total = cells.count
        let report: @Sendable (Int) -> Void = { done in if progress { CompareCommand.printProgress(done, of: total, started: started) } }
        // The charted cell (the first device, the baseline policy, the first seed unless chosen) is the only one that
        // keeps its kills and samples; the others keep counters only.
        let baselineIndex = plan.policies.firstIndex(of: plan.baseline ?? plan.policies[0]) ?? 0
        let chartDeviceName = try chartDevice.map { try DeviceSource.resolve($0).name } ?? devices[0].name
        let chartPolicyIndex = chartPolicy.flatMap { plan.policies.firstIndex(of: $0) } ?? baselineIndex
        let chartSeedValue = chartSeed ?? plan.seeds[0]
        guard let chartIndex = cells.firstIndex(where: {
            devices[$0.device].name == chartDeviceName && $0.policy == chartPolicyIndex && $0.seed == chartSeedValue
        }) else {
            throw ValidationError("the charted cell (--chart-device, --chart-policy, --chart-seed) is not in the grid")
        }
        // The charted cell goes first (its thread then draws the chart files while the other cells run), then the
        // cells whose policy scans every resident app at each kill (no ranking key: the slow ones), so that no long
        // cell starts last and leaves a thread idle at the end. The order cannot change a result.
        let scans = prototypes.map { !$0.hasRankingKey }
        let rest = cells.indices.filter { $0 != chartIndex }
        let queue = WorkQueue(order: [chartIndex] + rest.filter { scans[cells[$0].policy] } + rest.filter { !scans[cells[$0].policy] })
        let catalogNames = catalog.profiles.map(\.name)
        // The staging directory is made before the cells, so the charted cell's thread can write the largest files while
        // the other cells run; a failed grid removes it, and the reports appear only when all are written.
        try inReportDirectory(plan.out, replaceable: OutputNames.compare) { staging in
            let chart = ChartBox()
            DispatchQueue.concurrentPerform(iterations: jobs) { _ in
                // Cells are taken in turn by whichever thread is free; a cell's result never depends on its thread.
                while let k = queue.next() {
                    let cell = cells[k]
                    do {
                        let device = devices[cell.device]
                        let policy = try PolicySource.make(plan.policies[cell.policy], environment: PolicyEnvironment(seed: cell.seed, device: device),
                                                           policiesDirectory: lookupDirectory)
                        var cellOptions = options
                        cellOptions.seed = cell.seed
                        if k == chartIndex { cellOptions.sampleIntervalMicros = chartSampleInterval }
                        let result = runCell(policy, device: device, catalog: catalog, events: events, options: cellOptions,
                                             future: policy.descriptor.capabilities.contains(.needsFuture) ? future : nil,
                                             keepKillsAndSamples: k == chartIndex)
                        if k == chartIndex {
                            let files = try ChartFiles(result, catalogNames: catalogNames)
                            chart.set(files, written: try files.write(into: staging))
                        }
                        report(slots.set(k, result))
                    } catch {
                        failure.record(error)
                    }
                }
            }
            if let error = failure.first { throw error }
            if progress { CompareCommand.printProgress(cells.count, of: cells.count, started: started, final: true) }
            guard let chartFiles = chart.files else { throw ValidationError("the charted cell did not run") }
            try writeReports(plan, into: staging, readFrom: readFrom, results: slots.all, chart: chartFiles, chartWritten: chart.written, devices: devices,
                             started: started)
        }
        withExtendedLifetime((traceInput, appsInput)) {}   // their private copies are hashed into manifest.json above
        if !quiet { print("reports: \(plan.out)/ (charts: report.html)") }
    }

    static func printProgress(_ done: Int, of total: Int, started: Date, final: Bool = false) {
        let elapsed = Date().timeIntervalSince(started)
        let eta = done > 0 ? elapsed / Double(done) * Double(total - done) : 0
        var stderr = StandardError()
        print("\r\u{1B}[Kcells \(done)/\(total), \(String(format: "%.1f", elapsed)) s elapsed, ETA \(String(format: "%.1f", eta)) s", terminator: final ? "\n" : "", to: &stderr)
    }

    /// Writes into `directory`, the staging directory of `plan.out` (made before the cells).
    /// - Parameters:
    ///   - chart: the charted cell's files, drawn when it finished.
    ///   - chartWritten: its CSV files, written under temporary names then and committed here with the others.
    private func writeReports(_ plan: Plan, into directory: String, readFrom: [String: String], results: [SimulationResult], chart: ChartFiles, chartWritten: [AtomicFile],
                              devices: [Device], started: Date) throws {
        let traceName = baseName(plan.trace)
        let labels = RunLabels(trace: traceName, tracePath: plan.trace, appNames: [])
        var summary = CSVLine.of(ReportFiles.summaryHeader)
        var intervals = CSVLine.of(ReportFiles.intervalsHeader)
        for r in results {
            summary += CSVLine.of(ReportFiles.summaryRow(r, labels: labels))
            for row in ReportFiles.intervalRows(r) { intervals += CSVLine.of(row) }
        }
        let names = plan.policies.indices.map { p in results[p * plan.seeds.count].policy.displayName }
        var runs: [String: [String: [SimulationResult]]] = [:]
        for r in results { runs[r.device.name, default: [:]][r.policy.displayName, default: []].append(r) }
        let grid = CompareReports.Grid(devices: devices.map(\.name), policies: names, runs: runs)
        let baselineName = names[plan.policies.firstIndex(of: plan.baseline ?? plan.policies[0]) ?? 0]
        let oracleName = results.first { $0.policy.name == "oracle" }?.policy.displayName
        let header = CompareReports.compareHeader(hasOracle: oracleName != nil)
        let rows = CompareReports.compareRows(grid, baseline: baselineName, oracle: oracleName)
        var compare = CSVLine.of(header)
        for row in rows { compare += CSVLine.of(row) }
        var config: [String: Any] = ["trace": plan.trace, "format": plan.format, "policies": plan.policies, "devices": plan.devices,
                                     "seeds": plan.seeds.map { NSNumber(value: $0) }, "warmup_s": Double(plan.warmup) / 1e6,
                                     "interval_s": Double(plan.interval) / 1e6, "baseline": plan.baseline ?? plan.policies[0],
                                     "jobs": plan.jobs, "out": plan.out]
        if let apps = plan.apps { config["apps"] = apps }
        let policyDirectory = try self.policyDirectory.path()
        let read = [plan.trace] + (plan.apps.map { [$0] } ?? []) + (self.config.map { [$0] } ?? [])
            + plan.devices.compactMap(DeviceSource.file) + plan.policies.compactMap { PolicySource.file($0, policiesDirectory: policyDirectory) }
        let inputs = read.map { (name: $0, path: readFrom[$0] ?? $0) }
        let manifest = try CompareReports.manifest(command: CommandLine.arguments, config: config, inputs: inputs,
                                                   policies: plan.policies.indices.map { results[$0 * plan.seeds.count].policy },
                                                   seeds: plan.seeds, started: started, wallSeconds: Date().timeIntervalSince(started))
        var files: [AtomicFile] = []
        // Chart data: every run's latency distribution, and the time series and kills of the charted cell.
        var latency = CSVLine.of(["device", "policy", "seed", "latency_ms", "launches"])
        for r in results {
            for (ms, n) in r.measured.launchLatencies.sorted(by: { $0.key < $1.key }) {
                latency += CSVLine.of([r.device.name, r.policy.displayName, String(r.seed), String(ms), String(n)])
            }
        }
        var contents = [("summary.csv", summary), ("compare.csv", compare), ("manifest.json", manifest), ("latency.csv", latency)]
        if plan.interval > 0 { contents.append(("intervals.csv", intervals)) }
        for (name, text) in contents {
            let f = try AtomicFile(path: directory + "/" + name)
            try f.write(text)
            files.append(f)
        }
        for f in files + chartWritten { try f.commit() }
        let page = try AtomicFile(path: directory + "/report.html")
        try page.write(try ChartReport.html(directory: directory, memoryChart: chart.memoryChart))
        try page.commit()
        if !quiet { print(CompareReports.table(rows, header: header, seeds: plan.seeds.count), terminator: "") }
    }
}

/// Runs one cell over the shared events; `keepKillsAndSamples` for the charted cell only.
func runCell(_ policy: any EvictionPolicy, device: Device, catalog: AppCatalog, events: [TraceEvent], options: SimulationOptions,
             future: NextUseTable?, keepKillsAndSamples: Bool) -> SimulationResult {
    func run<P: EvictionPolicy, O: SimulationObserver>(_ policy: P, _ observer: O) -> SimulationResult {
        var simulator = Simulator(device: device, catalog: catalog, policy: policy, observer: observer, options: options, future: future)
        for e in events { simulator.process(e) }
        return simulator.finish()
    }
    // The policies the engine is specialised for ahead of time (`Simulator.process`) are passed as their own types.
    if let xnu = policy as? XNUPolicy {
        return keepKillsAndSamples ? run(xnu, NullObserver()) : run(xnu, CountersOnlyObserver())
    }
    return keepKillsAndSamples ? run(policy, NullObserver()) : run(policy, CountersOnlyObserver())
}

/// Hands out cell indices, each once and in `order`, to worker threads.
final class WorkQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var position = 0
    private let order: [Int]
    init(order: [Int]) { self.order = order }
    func next() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard position < order.count else { return nil }
        position += 1
        return order[position - 1]
    }
}

/// The charted cell's `chart-timeseries.csv` and `chart-kills.csv`, and the memory chart of `report.html` drawn from
/// them exactly as `jetsim plot` draws it from the files.
struct ChartFiles: Sendable {
    var timeseries: String
    var kills: String
    var memoryChart: String

    init(_ cell: SimulationResult, catalogNames: [String]) throws {
        let prefix = [cell.device.name, cell.policy.displayName, String(cell.seed)].map(CSVLine.field).joined(separator: ",") + ","
        timeseries = CSVLine.of(["device", "policy", "seed"] + ReportFiles.timeseriesHeader)
        for sample in cell.samples { timeseries += prefix + ReportFiles.sampleLine(sample) }
        kills = CSVLine.of(["device", "policy", "seed", "time", "app", "reason"])
        let apps = catalogNames.map(CSVLine.field)   // quoted once per app, not per kill
        for k in cell.kills {
            kills += prefix + FixedPoint.seconds(k.time) + "," + apps[Int(k.app)] + "," + k.reason.reportName + "\n"
        }
        memoryChart = ChartReport.memoryChart(timeseries: try ChartReport.table(text: timeseries, name: "chart-timeseries.csv"),
                                              kills: try ChartReport.table(text: kills, name: "chart-kills.csv"))
    }

    /// Writes chart-timeseries.csv and chart-kills.csv into `directory` under temporary names; the caller commits them
    /// with the other reports (uncommitted, they vanish with the writers).
    func write(into directory: String) throws -> [AtomicFile] {
        var written: [AtomicFile] = []
        for (name, text) in [("chart-timeseries.csv", timeseries), ("chart-kills.csv", kills)] {
            let f = try AtomicFile(path: directory + "/" + name)
            try f.write(text)
            written.append(f)
        }
        return written
    }
}

/// Where the charted cell's thread leaves its chart files, and their CSV files written but not yet committed.
final class ChartBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: ChartFiles?
    private var writers: [AtomicFile] = []
    var files: ChartFiles? { lock.lock(); defer { lock.unlock() }; return value }
    var written: [AtomicFile] { lock.lock(); defer { lock.unlock() }; return writers }
    func set(_ files: ChartFiles, written: [AtomicFile]) {
        lock.lock()
        defer { lock.unlock() }
        value = files
        writers = written
    }
}

/// The first error any worker met.
final class FailureBox: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var first: Error?
    func record(_ error: Error) {
        lock.lock()
        defer { lock.unlock() }
        if first == nil { first = error }
    }
}
