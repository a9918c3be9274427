import ArgumentParser
import Dispatch
import Foundation
import JetsimCore
import JetsimIO
import JetsimWorkloads

/// `jetsim compare` — a policy × device × seed grid on one workload (or on several generated ones), in parallel, with
/// comparison reports.
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
        kills), chart-devices.csv (each device's RAM), chart-apps.csv (the top apps' cold launches), report.html (the
        charts; redraw with `jetsim plot`), each chart also as chart-NAME.svg (cold-launches, user-visible-kills,
        kills-by-reason, cold-launches-vs-ram, intervals-DEVICE, apps-DEVICE, memory, latency-DEVICE) and
        manifest.json (inputs, hashes, versions); prints compare.csv as a table.

        --seeds moves only randomized policies (random): a deterministic policy runs identically for every seed, so its
        confidence interval over seeds is 0 by construction (compare.csv says so in ci95_over). --workload-seeds instead
        generates one workload per seed in memory (jetsim generate's model, with --generate's settings; no files), runs
        the grid on each, and takes means and intervals across them.

        Examples:
          jetsim compare --apps Examples/day/apps.csv --trace Examples/day/trace.csv --policies xnu,lru,largest,cost,oracle --devices iphone-x,iphone-11 --out /tmp/cmp
          jetsim compare --config Examples/experiment.yaml --seeds 1,2,3 --jobs 2
          jetsim compare --apps Examples/day/apps.csv --trace Examples/day/trace.csv --policies xnu,lru --devices iphone-x --kernel xnu-10063 --no-freezer
          jetsim compare --workload-seeds 1-10 --generate days=2,apps=40 --policies xnu,lru,largest --devices iphone-x --out /tmp/ws
        """)
    )

    @Option(help: "Experiment file (YAML or JSON) with any of the options below; options given here override it.") var config: String?
    @Option(help: "App catalog CSV (not with --format libcachesim).") var apps: String?
    @Option(help: "Usage trace.") var trace: String?
    @Option(help: "Trace format: 'jetsim' or 'libcachesim'.") var format: String?
    @Option(name: [.customLong("policies"), .customLong("policy")],
            help: "Comma-separated policies (built-ins with parameters, policy files); parameters separated by ';' or ',': 'cost:alpha=0.5;half_life_h=12,lru'.") var policies: String?
    @Option(help: "Comma-separated devices (presets, cache:CAPACITY, device files).") var devices: String?
    @Option(help: "Comma-separated seeds (default 1). Only randomized policies draw from them.") var seeds: String?
    @Option(help: "Generate one workload per seed instead of reading --apps and --trace: a comma list, ranges allowed (1-10).")
    var workloadSeeds: String?
    @Option(help: "The generated workloads' model, as generate's options without dashes: users=1,days=2,apps=40,zipf=0.8 (with --workload-seeds).")
    var generate: String?
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
        /// With --workload-seeds: the model and one seed per workload (then `trace` is empty and `apps` nil).
        var generated: (model: WorkloadModelOptions, seeds: [UInt64])?
        var workloadCount: Int { generated?.seeds.count ?? 1 }
    }

    /// At most this many generated workloads: each is generated and simulated in turn, one in memory at a time.
    static let maxWorkloadSeeds = 10_000

    /// `--workload-seeds`: whole numbers and ranges `a-b`, none twice.
    static func workloadSeedList(_ text: String) throws -> [UInt64] {
        var seeds: [UInt64] = []
        for item in commaSeparated(text) {
            let bounds = item.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map { UInt64($0) }
            guard let low = bounds.first ?? nil, let high = bounds.last ?? nil, low <= high else {
                throw ValidationError("--workload-seeds takes whole numbers and ranges such as 1-10, found '\(item)'")
            }
            guard high - low < UInt64(maxWorkloadSeeds) - UInt64(seeds.count) else {
                throw ValidationError("--workload-seeds lists at most \(maxWorkloadSeeds) seeds")
            }
            seeds += Array(low...high)
        }
        guard !seeds.isEmpty else { throw ValidationError("--workload-seeds needs at least one seed") }
        guard Set(seeds).count == seeds.count else { throw ValidationError("--workload-seeds must not repeat a seed") }
        return seeds
    }

    func plan() throws -> Plan {
        let file = try config.map { try ExperimentConfig.read(path: $0) } ?? ExperimentConfig()
        try file.checkReferences(policiesDirectory: try policyDirectory.path())   // an unknown name in the file is the file's error
        func list(_ text: String?) -> [String]? { text.map(commaSeparated) }
        var generated: (model: WorkloadModelOptions, seeds: [UInt64])?
        if let workloadSeeds {
            guard self.trace == nil, self.apps == nil, self.format == nil else {
                throw ValidationError("--workload-seeds generates the workloads: give no --trace, --apps or --format")
            }
            generated = (try generate.map(WorkloadModelOptions.parse(keyValues:)) ?? WorkloadModelOptions(), try Self.workloadSeedList(workloadSeeds))
        } else if generate != nil {
            throw ValidationError("--generate sets the model of --workload-seeds' workloads; give --workload-seeds too")
        }
        guard let trace = generated != nil ? "" : trace ?? file.trace else { throw ValidationError("a trace is required (--trace or 'trace' in --config)") }
        let format = generated != nil ? "jetsim" : format ?? file.format ?? "jetsim"
        guard format == "jetsim" || format == "libcachesim" else { throw ValidationError("--format must be 'jetsim' or 'libcachesim'") }
        let apps = generated != nil ? nil : apps ?? file.apps
        if format == "jetsim" && apps == nil && generated == nil { throw ValidationError("an app catalog is required (--apps or 'apps' in --config)") }
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
        if let generated, generated.seeds.count > 1, interval ?? file.interval != nil {
            throw ValidationError("--interval takes one workload: intervals.csv has no column telling --workload-seeds' workloads apart")
        }
        return Plan(apps: apps, trace: trace, format: format, policies: policies, devices: devices, seeds: seedValues, jobs: jobs,
                    warmup: try duration(warmup ?? file.warmup, "warmup"), interval: try duration(interval ?? file.interval, "interval"),
                    baseline: baseline, out: out, sampleInterval: try sampleIntervalMicros(sampleInterval), generated: generated)
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

    /// One workload of the grid: parsed once, shared by all of its cells (with next uses, if any policy needs them).
    struct Workload: Sendable {
        var catalog: AppCatalog
        var events: [TraceEvent]
        var future: NextUseTable?
        var labels: RunLabels
    }

    /// The files the user named, read once (`ReadOnceInput`: pipes are copied, since the inputs are read again to hash
    /// them into manifest.json).
    struct WorkloadInputs {
        var trace: ReadOnceInput?
        var apps: ReadOnceInput?
        var readFrom: [String: String] {
            var paths: [String: String] = [:]
            for input in [trace, apps].compactMap({ $0 }) { paths[input.name] = input.path }
            return paths
        }
    }

    /// Workload `w`: the trace (and catalog) files, or the `w`-th generated one.
    private func workload(_ w: Int, _ plan: Plan, _ inputs: WorkloadInputs, needsFuture: Bool) throws -> Workload {
        let catalog: AppCatalog
        let events: [TraceEvent]
        let labels: RunLabels
        if let generated = plan.generated {
            let seed = generated.seeds[w]
            let name = "workload-seed-\(seed)"
            (catalog, events) = try WorkloadFiles.load(WorkloadGenerator(options: generated.model.options(seed: seed)), name: name)
            labels = RunLabels(trace: name, tracePath: "generate:seed=\(seed),\(generated.model.keyValues)", appNames: [])
        } else if plan.format == "libcachesim" {
            let lcs = try LibCacheSimTrace(path: inputs.trace?.path ?? plan.trace, name: plan.trace)
            catalog = lcs.catalog
            var source = EventSource.libCacheSim(lcs)
            events = try source.readAll()
            labels = RunLabels(trace: baseName(plan.trace), tracePath: plan.trace, appNames: [])
        } else {
            // Two threads when --jobs allows: with the cells faster, the read was a tenth of a two-job grid's time.
            catalog = try CatalogFile.read(path: inputs.apps?.path ?? "", name: plan.apps)
            events = try TraceReader.readAll(path: inputs.trace?.path ?? plan.trace, catalog: catalog, threads: min(plan.jobs, 2), name: plan.trace)
            labels = RunLabels(trace: baseName(plan.trace), tracePath: plan.trace, appNames: [])
        }
        return Workload(catalog: catalog, events: events, future: needsFuture ? NextUseTable(events: events, appCount: catalog.count) : nil,
                        labels: labels)
    }

    private func execute(_ plan: Plan) throws {
        let started = Date()
        if !quiet { noteDecimalUnits(option: "--devices", sizes: cacheCapacities(plan.devices)) }
        let devices = try plan.devices.map { try deviceAdjustments.apply(to: try DeviceSource.resolve($0)) }
        let inputs = plan.generated != nil ? WorkloadInputs()
            : WorkloadInputs(trace: try ReadOnceInput(plan.trace), apps: try plan.apps.map { path throws(InputError) in try ReadOnceInput(path) })
        let prototypes = try plan.policies.map { try PolicySource.make($0, environment: PolicyEnvironment(seed: 1, device: devices[0]),
                                                                        policiesDirectory: try policyDirectory.path()) }
        let needsFuture = prototypes.contains { $0.descriptor.capabilities.contains(.needsFuture) }
        // Workloads are loaded and simulated one at a time: only one is ever in memory.
        let first = try workload(0, plan, inputs, needsFuture: needsFuture)
        let events = first.events
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
        // The cells of one workload; workload w's results go to slots w × cells.count + k (workloads outermost).
        let cells = devices.indices.flatMap { d in plan.policies.indices.flatMap { p in plan.seeds.map { Cell(device: d, policy: p, seed: $0) } } }
        let total = cells.count * plan.workloadCount
        let slots = Slots(count: total)
        let failure = FailureBox()
        let progress = !quiet && isatty(2) == 1
        let jobs = min(plan.jobs, cells.count)
        var baseOptions = SimulationOptions()
        baseOptions.sampleIntervalMicros = plan.sampleInterval
        baseOptions.warmupMicros = plan.warmup
        baseOptions.intervalMicros = plan.interval
        let options = baseOptions
        let lookupDirectory = try policyDirectory.path()
        let policyNames = plan.policies
        let report: @Sendable (Int) -> Void = { done in if progress { CompareCommand.printProgress(done, of: total, started: started) } }
        // The charted cell (the first workload and device, the baseline policy, the first seed unless chosen) is the only
        // one that keeps its kills and samples; the others keep counters only.
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
        let order = cells.indices.filter { scans[cells[$0].policy] } + cells.indices.filter { !scans[cells[$0].policy] }
        // The staging directory is made before the cells, so the charted cell's thread can write the largest files while
        // the other cells run; a failed grid removes it, and the reports appear only when all are written.
        var labels: [RunLabels] = []
        try inReportDirectory(plan.out, replaceable: OutputNames.compare) { staging in
            let chart = ChartBox()
            for w in 0..<plan.workloadCount {
                let workload = w == 0 ? first : try self.workload(w, plan, inputs, needsFuture: needsFuture)
                labels.append(workload.labels)
                let catalogNames = workload.catalog.profiles.map(\.name)
                let queue = WorkQueue(order: w == 0 ? [chartIndex] + order.filter { $0 != chartIndex } : order)
                DispatchQueue.concurrentPerform(iterations: jobs) { _ in
                    // Cells are taken in turn by whichever thread is free; a cell's result never depends on its thread.
                    while let k = queue.next() {
                        let cell = cells[k]
                        let charted = w == 0 && k == chartIndex
                        do {
                            let device = devices[cell.device]
                            let policy = try PolicySource.make(policyNames[cell.policy], environment: PolicyEnvironment(seed: cell.seed, device: device),
                                                               policiesDirectory: lookupDirectory)
                            var cellOptions = options
                            cellOptions.seed = cell.seed
                            if charted { cellOptions.sampleIntervalMicros = chartSampleInterval }
                            let result = runCell(policy, device: device, catalog: workload.catalog, events: workload.events, options: cellOptions,
                                                 future: policy.descriptor.capabilities.contains(.needsFuture) ? workload.future : nil,
                                                 keepKillsAndSamples: charted)
                            if charted {
                                let files = try ChartFiles(result, catalogNames: catalogNames)
                                chart.set(files, written: try files.write(into: staging))
                            }
                            report(slots.set(w * cells.count + k, result))
                        } catch {
                            failure.record(error)
                        }
                    }
                }
                if let error = failure.first { throw error }
            }
            if progress { CompareCommand.printProgress(total, of: total, started: started, final: true) }
            guard let chartFiles = chart.files else { throw ValidationError("the charted cell did not run") }
            try writeReports(plan, into: staging, readFrom: inputs.readFrom, results: slots.all, labels: labels, chart: chartFiles,
                             chartWritten: chart.written, devices: devices, started: started)
        }
        withExtendedLifetime(inputs) {}   // their private copies are hashed into manifest.json above
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
    ///   - labels: each workload's, in order; `results` has one run per cell of each workload, workloads outermost.
    private func writeReports(_ plan: Plan, into directory: String, readFrom: [String: String], results: [SimulationResult], labels: [RunLabels],
                              chart: ChartFiles, chartWritten: [AtomicFile], devices: [Device], started: Date) throws {
        let perWorkload = results.count / max(1, labels.count)
        var summary = CSVLine.of(ReportFiles.summaryHeader)
        var intervals = CSVLine.of(ReportFiles.intervalsHeader)
        for (k, r) in results.enumerated() {
            summary += CSVLine.of(ReportFiles.summaryRow(r, labels: labels[k / perWorkload]))
            for row in ReportFiles.intervalRows(r) { intervals += CSVLine.of(row) }
        }
        let names = plan.policies.indices.map { p in results[p * plan.seeds.count].policy.displayName }
        var runs: [String: [String: [SimulationResult]]] = [:]
        for r in results { runs[r.device.name, default: [:]][r.policy.displayName, default: []].append(r) }
        let grid = CompareReports.Grid(devices: devices.map(\.name), policies: names, runs: runs, seeds: plan.seeds.count, workloads: plan.workloadCount)
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
        if let generated = plan.generated {
            config["trace"] = nil
            config["workload_seeds"] = generated.seeds.map { NSNumber(value: $0) }
            config["generate"] = generated.model.keyValues
        }
        let policyDirectory = try self.policyDirectory.path()
        let read = (plan.generated == nil ? [plan.trace] : []) + (plan.apps.map { [$0] } ?? []) + (self.config.map { [$0] } ?? [])
            + plan.devices.compactMap(DeviceSource.file) + plan.policies.compactMap { PolicySource.file($0, policiesDirectory: policyDirectory) }
        let inputs = read.map { (name: $0, path: readFrom[$0] ?? $0) }
        let manifest = try CompareReports.manifest(command: CommandLine.arguments, config: config, inputs: inputs,
                                                   policies: plan.policies.indices.map { results[$0 * plan.seeds.count].policy },
                                                   seeds: plan.seeds, started: started, wallSeconds: Date().timeIntervalSince(started))
        var files: [AtomicFile] = []
        // Chart data: every cell's latency distribution (summed over workloads), and the time series and kills of the
        // charted cell.
        var latency = CSVLine.of(["device", "policy", "seed", "latency_ms", "launches"])
        for (k, r) in results.prefix(perWorkload).enumerated() {
            var launches: [Int: Int] = [:]
            for w in labels.indices { launches.merge(results[w * perWorkload + k].measured.launchLatencies, uniquingKeysWith: +) }
            for (ms, n) in launches.sorted(by: { $0.key < $1.key }) {
                latency += CSVLine.of([r.device.name, r.policy.displayName, String(r.seed), String(ms), String(n)])
            }
        }
        var contents = [("summary.csv", summary), ("compare.csv", compare), ("manifest.json", manifest), ("latency.csv", latency),
                        ("chart-devices.csv", Self.chartDevices(devices)), ("chart-apps.csv", Self.chartApps(Array(results.prefix(perWorkload)),
                                                                                                             all: results))]
        if plan.interval > 0 { contents.append(("intervals.csv", intervals)) }
        for (name, text) in contents {
            let f = try AtomicFile(path: directory + "/" + name)
            try f.write(text)
            files.append(f)
        }
        for f in files + chartWritten { try f.commit() }
        try Self.writeCharts(into: directory, memoryChart: chart.memoryChart)
        if !quiet { print(CompareReports.table(rows, header: header, grid: grid), terminator: "") }
    }
}

extension CompareCommand {
    /// chart-devices.csv: each device's physical RAM in bytes, for the chart of cold launches against RAM.
    static func chartDevices(_ devices: [Device]) -> String {
        CSVLine.of(["device", "physical_bytes"]) + devices.map { CSVLine.of([$0.name, String($0.physicalBytes)]) }.joined()
    }

    /// How many apps chart-apps.csv keeps: the chart's groups, not the catalog.
    static let chartedApps = 10

    /// chart-apps.csv: the cold launches of the `chartedApps` apps that cold-launch most over all runs (ties by name), per
    /// device and policy: the mean over the cell's runs (seeds × workloads), exact to one decimal.
    /// - Parameters:
    ///   - cells: one run per cell (the first workload's), in grid order; `all`: every run, workloads outermost.
    static func chartApps(_ cells: [SimulationResult], all: [SimulationResult]) -> String {
        var totals: [String: Int] = [:]
        for r in all { for a in r.apps { totals[a.name, default: 0] += a.coldLaunches } }
        let top = totals.filter { $0.value > 0 }.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.prefix(chartedApps).map(\.key)
        var sums: [String: (cold: Int, runs: Int)] = [:]
        for r in all {
            let key = r.device.name + "\u{1F}" + r.policy.displayName
            var entry = sums[key] ?? (0, 0)
            entry.runs += 1
            sums[key] = entry
            for a in r.apps where top.contains(a.name) { sums[key + "\u{1F}" + a.name, default: (0, 0)].cold += a.coldLaunches }
        }
        var text = CSVLine.of(["device", "policy", "app", "cold_launches"])
        var devices: [String] = []
        for r in cells where !devices.contains(r.device.name) { devices.append(r.device.name) }
        for d in devices {
            var policies: [String] = []
            for r in cells where r.device.name == d && !policies.contains(r.policy.displayName) { policies.append(r.policy.displayName) }
            for app in top {
                for p in policies {
                    let runs = sums[d + "\u{1F}" + p]?.runs ?? 0, cold = sums[d + "\u{1F}" + p + "\u{1F}" + app]?.cold ?? 0
                    text += CSVLine.of([d, p, app, FixedPoint.format(cold, over: max(runs, 1), decimals: 1)])
                }
            }
        }
        return text
    }

    /// Writes report.html and every chart's chart-NAME.svg into `directory`, drawn from its tables (compare, and plot to redraw).
    static func writeCharts(into directory: String, memoryChart: String) throws {
        let written = try ChartReport.files(directory: directory, memoryChart: memoryChart).map { file in
            let f = try AtomicFile(path: directory + "/" + file.name)
            try f.write(file.text)
            return f
        }
        for f in written { try f.commit() }
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
