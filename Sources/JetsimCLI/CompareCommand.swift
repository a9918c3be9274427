import ArgumentParser
import Foundation
import JetsimCore
import JetsimExperiment
import JetsimIO
import JetsimWorkloads

/// `jetsim compare` — a trace × policy × device × seed grid, in parallel, with comparison reports; or one shard of it
/// (`--shard`), for `jetsim merge`. Translates its options into an `ExperimentPlan`; `ExperimentRunner` runs it.
public struct CompareCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Run every trace × policy × device × seed cell and write comparison reports (or one shard of them).",
        discussion: reflowed("""
        Each trace is parsed once and shared by its cells; cells run on --jobs threads (default: all cores) and the
        reports are byte-identical for any --jobs. Metrics start after --warmup (simulated time); the simulation
        itself does not. Writes into --out (formats: Reports/README.md): summary.csv (one row per cell), compare.csv
        (per device and policy, with deltas against the baseline), latency.csv (launch latency distributions),
        intervals.csv (with --interval), chart-timeseries.csv and chart-kills.csv (the charted cell's memory and
        kills), chart-devices.csv (each device's RAM), chart-apps.csv (the top apps' cold launches), report.html (the
        charts; redraw with `jetsim plot`), each chart also as chart-NAME.svg (cold-launches, user-visible-kills,
        kills-by-reason, cold-launches-vs-ram, intervals-DEVICE, apps-DEVICE, memory, latency-DEVICE) and
        manifest.json (configuration, hashes, versions); prints compare.csv as a table.

        Several traces (--trace repeated, or --traces DIR: every file in it, by name, sharing one --apps catalog) make
        one grid: compare.csv takes means and intervals across them as across generated workloads, summary.csv and
        intervals.csv name each row's trace. --per-user splits each trace by its user column: every user replays on
        a fresh device as a workload of its own (rows name the user, intervals are across users) and population.csv
        gives sums and means per user-day. --residency writes residency.csv: every started app's state at probe times.

        --seeds moves only randomized policies (random): a deterministic policy runs identically for every seed, so its
        confidence interval over seeds is 0 by construction (compare.csv says so in ci95_over). --workload-seeds instead
        generates one workload per seed in memory (jetsim generate's model, with --generate's settings; no files), runs
        the grid on each, and takes means and intervals across them.

        --shard K/N runs only shard K (0 ≤ K < N) of the grid: the K-th of N contiguous runs of cell ids, in the order
        of summary.csv's rows (trace, device, policy, seed), their sizes differing by at most one. It writes a shard
        directory (shard.json, results.json) into --out; `jetsim merge` of all N writes the grid's reports, byte for
        byte those of the grid run at once (manifest.json's "invocation" aside). Any launcher runs shards: Slurm array
        jobs (Examples/slurm/), GNU parallel, a shell loop.

        Examples:
          jetsim compare --apps Examples/day/apps.csv --trace Examples/day/trace.csv --policies xnu,lru,largest,cost,oracle --devices iphone-x,iphone-11 --out /tmp/cmp
          jetsim compare --config Examples/experiment.yaml --seeds 1,2,3 --jobs 2
          jetsim compare --apps apps.csv --traces users/ --policies xnu,lru --devices iphone-x --out /tmp/users
          jetsim compare --apps Examples/day/apps.csv --trace Examples/day/trace.csv --policies xnu,lru --devices iphone-x --kernel xnu-10063 --no-freezer
          jetsim compare --workload-seeds 1-10 --generate days=2,apps=40 --policies xnu,lru,largest --devices iphone-x --out /tmp/ws
          jetsim compare --apps apps.csv --trace multi-user.csv --per-user --policies xnu,lru --devices iphone-x --residency every:1h --out /tmp/pop
          jetsim compare --config Examples/experiment.yaml --shard 0/4 --out /tmp/sweep/0   (then 1/4 … 3/4, and jetsim merge /tmp/sweep/* --out /tmp/sweep-reports)
        """)
    )

    @Option(help: "Experiment file (YAML or JSON) with any of the options below; options given here override it.") var config: String?
    @Option(help: "Usage trace; repeat for several traces in one grid.") var trace: [String] = []
    @Option(help: "A directory of usage traces: every file in it not starting with '.', in name order (sharing --apps), but apps.csv, snapshots.csv and device.yaml.") var traces: String?
    @OptionGroup var input: TraceInputOptions
    var apps: String? { input.apps }
    var format: String? { input.format }
    var csvFields: String? { input.csvFields }
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
    @Option(help: "Output directory (with --shard: the shard's directory).") var out: String?
    @Option(help: "Simulated time between memory samples (the charted cell's time series): seconds, or 90s, 10m, 1h.") var sampleInterval: String = "60"
    @Option(help: "Device of the cell whose memory and kills report.html charts (default: the first).") var chartDevice: String?
    @Option(help: "Policy of the charted cell, as given in --policies (default: the baseline).") var chartPolicy: String?
    @Option(help: "Seed of the charted cell (default: the first).") var chartSeed: UInt64?
    @Option(help: "Run only shard K of N (0-based, 'K/N') and write a shard directory for `jetsim merge`.") var shard: String?
    @Flag(help: "Split each trace by its user column: every user replays on a fresh device, as a workload of its own; adds population.csv.")
    var perUser = false
    @OptionGroup var residency: ResidencyOption
    @OptionGroup var policyDirectory: PolicyDirectoryOption
    @OptionGroup var deviceAdjustments: DeviceAdjustmentOptions
    @Flag(help: "Print nothing but errors.") var quiet = false

    public init() {}

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

    /// `--shard K/N`: 0 ≤ K < N ≤ 100 000.
    static func shardSpec(_ text: String) throws -> (k: Int, n: Int) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 100_000, k >= 0, k < n else {
            throw ValidationError("--shard takes K/N with 0 ≤ K < N ≤ 100000 (shard K of N, counted from 0), found '\(text)'")
        }
        return (k, n)
    }

    /// What a workload directory holds beside its traces (`generate`, `import`): never a trace.
    static let notTraces: Set<String> = ["apps.csv", "snapshots.csv", "device.yaml"]

    /// The trace files of `--traces DIR`: every entry not starting with '.', by name (bytes), but the catalog and the
    /// other files `generate` and `import` write beside their traces (`notTraces`).
    static func traceFiles(in directory: String, apps: String?) throws -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw InputError(file: directory, message: "cannot list the directory of --traces", exitCode: InputError.noInput)
        }
        let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        let appsReal = apps.flatMap { URL(fileURLWithPath: $0).standardizedFileURL.resolvingSymlinksInPath().path }
        let files = names.filter { !$0.hasPrefix(".") && !notTraces.contains($0) }.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }.map { base + "/" + $0 }
            .filter { URL(fileURLWithPath: $0).standardizedFileURL.resolvingSymlinksInPath().path != appsReal }
        guard !files.isEmpty else {
            throw InputError(file: directory, message: "holds no trace file (--traces reads every file not starting with '.')",
                             exitCode: InputError.noInput)
        }
        return files
    }

    /// What the options (and the experiment file) ask for: the plan, and how and where to run it.
    struct Invocation {
        var plan: ExperimentPlan
        var jobs: Int
        var out: String
        var shard: (k: Int, n: Int)?
        var configFile: ExperimentConfig
        /// `--per-user`: the traces' users are read when the run starts (`withUsers`).
        var perUser: Bool
    }

    func invocation() throws -> Invocation {
        let file = try config.map { try ExperimentConfig.read(path: $0) } ?? ExperimentConfig()
        try file.checkReferences(policiesDirectory: try policyDirectory.path())   // an unknown name in the file is the file's error
        func list(_ text: String?) -> [String]? { text.map(commaSeparated) }
        var generated: (model: WorkloadModelOptions, seeds: [UInt64])?
        if let workloadSeeds {
            guard trace.isEmpty, traces == nil, apps == nil, format == nil else {
                throw ValidationError("--workload-seeds generates the workloads: give no --trace, --traces, --apps or --format")
            }
            generated = (try generate.map(WorkloadModelOptions.parse(keyValues:)) ?? WorkloadModelOptions(), try Self.workloadSeedList(workloadSeeds))
        } else if generate != nil {
            throw ValidationError("--generate sets the model of --workload-seeds' workloads; give --workload-seeds too")
        }
        let format = generated != nil ? "jetsim" : format ?? file.format ?? "jetsim"
        try TraceInputOptions.check(format: format, csvFields: csvFields)
        let apps = generated != nil ? nil : apps ?? file.apps
        var traceFiles: [String]?
        if generated == nil {
            if !trace.isEmpty && traces != nil { throw ValidationError("give the traces either as --trace (repeated) or as --traces DIR, not both") }
            // Options win over the file: its 'trace' or 'traces' counts only when neither option is given.
            let directory = traces ?? (trace.isEmpty ? file.traces : nil)
            if directory != nil && traces == nil && file.trace != nil { throw file.error(at: "traces", "give 'trace' or 'traces', not both") }
            let files = try directory.map { try Self.traceFiles(in: $0, apps: apps) } ?? (trace.isEmpty ? file.trace.map { [$0] } ?? [] : trace)
            guard !files.isEmpty else { throw ValidationError("a trace is required (--trace, --traces or 'trace' in --config)") }
            guard Set(files).count == files.count else { throw ValidationError("--trace names '\(files.first { t in files.filter { $0 == t }.count > 1 } ?? "")' twice") }
            traceFiles = files
        }
        if format == "jetsim" && apps == nil && generated == nil { throw ValidationError("an app catalog is required (--apps or 'apps' in --config)") }
        let policies = policies.map(PolicySpec.list) ?? file.policies ?? ["xnu"]
        let deviceNames = list(devices) ?? file.devices ?? []
        guard !deviceNames.isEmpty else { throw ValidationError("at least one device is required (--devices or 'devices' in --config)") }
        var seedValues = file.seeds ?? [1]
        if let seeds {
            seedValues = []
            for s in list(seeds) ?? [] {
                guard let n = UInt64(s) else { throw ValidationError("--seeds takes whole numbers, found '\(s)'") }
                seedValues.append(n)
            }
        }
        guard !policies.isEmpty, !seedValues.isEmpty else { throw ValidationError("at least one policy and one seed are required") }
        guard Set(policies).count == policies.count, Set(deviceNames).count == deviceNames.count, Set(seedValues).count == seedValues.count else {
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
        if let chartDevice, !deviceNames.contains(chartDevice) { throw ValidationError("--chart-device '\(chartDevice)' is not one of the devices") }
        if let chartSeed, !seedValues.contains(chartSeed) { throw ValidationError("--chart-seed \(chartSeed) is not one of the seeds") }
        let shard = try shard.map(Self.shardSpec)
        let perUser = self.perUser || file.perUser == true
        if perUser && (generated != nil || format != "jetsim") {
            throw ValidationError("--per-user splits Jetsim traces by their user column: give --trace or --traces, not --workload-seeds or --format libcachesim")
        }
        if residency.schedule != nil && shard != nil {
            throw ValidationError("--residency is not written by shards yet: run the grid without --shard, or `jetsim run --residency` per cell")
        }
        if let csvFields { _ = try LibCacheSimTrace.Fields(parsing: csvFields) }

        if !quiet && shard.map({ $0.k == 0 }) ?? true { noteDecimalUnits(option: "--devices", sizes: cacheCapacities(deviceNames)) }
        let devices = try deviceNames.map { try deviceAdjustments.apply(to: try DeviceSource.resolve($0)) }
        let baselineIndex = policies.firstIndex(of: baseline ?? policies[0]) ?? 0
        // The charted cell: in the first workload; the first device, the baseline policy and the first seed unless chosen.
        let chartDeviceIndex = chartDevice.flatMap { deviceNames.firstIndex(of: $0) } ?? 0
        let chartPolicyIndex = chartPolicy.flatMap { policies.firstIndex(of: $0) } ?? baselineIndex
        let chartSeedIndex = chartSeed.flatMap { seedValues.firstIndex(of: $0) } ?? 0
        let configuration = GridConfiguration(
            traces: traceFiles, apps: apps, format: format, csvFields: csvFields, workloadSeeds: generated?.seeds, generate: generated?.model.keyValues,
            policies: policies, deviceNames: deviceNames, devices: devices, deviceAdjustments: deviceAdjustments.arguments, seeds: seedValues,
            warmupMicros: try duration(warmup ?? file.warmup, "warmup"), intervalMicros: try duration(interval ?? file.interval, "interval"),
            sampleIntervalMicros: try sampleIntervalMicros(sampleInterval), baselinePolicy: baselineIndex,
            chartCell: (chartDeviceIndex * policies.count + chartPolicyIndex) * seedValues.count + chartSeedIndex,
            policiesDirectory: try policyDirectory.path())
        return Invocation(plan: ExperimentPlan(configuration: configuration, generator: generated.map { $0.model.options(seed: 1) }),
                          jobs: jobs, out: out, shard: shard, configFile: file, perUser: perUser)
    }

    public func run() throws {
        try reportingErrors { try execute(try invocation()) }
    }

    /// SHA-256 of the files the command itself read (the experiment file, device and policy files); the runner hashes
    /// the traces and the catalog.
    private func ownInputHashes(_ configuration: GridConfiguration) throws -> [String: String] {
        let read = (config.map { [$0] } ?? []) + configuration.deviceNames.compactMap(DeviceSource.file)
            + configuration.policies.compactMap { PolicySource.file($0, policiesDirectory: configuration.policiesDirectory) }
        var hashes: [String: String] = [:]
        for name in read { hashes[name] = try CompareReports.sha256(path: name) }
        return hashes
    }

    private func execute(_ invocation: Invocation) throws {
        let started = Date()
        var plan = invocation.plan
        // Pipes are read once into private copies: the inputs are read again to hash them.
        let inputs = try ([plan.configuration.apps].compactMap { $0 } + (plan.configuration.traces ?? [])).map { path throws(InputError) in try ReadOnceInput(path) }
        let readFrom = Dictionary(inputs.map { ($0.name, $0.path) }, uniquingKeysWith: { a, _ in a })
        if invocation.perUser {
            plan.configuration.users = try (plan.configuration.traces ?? []).map { try TraceReader.users(path: readFrom[$0] ?? $0, name: $0) }
        }
        let configuration = plan.configuration
        var runner = ExperimentRunner(plan: plan, readFrom: readFrom, jobs: invocation.jobs)
        runner.residency = try residency.probes()
        let progress = !quiet && isatty(2) == 1
        if progress { runner.progress = { done, total in CompareCommand.printProgress(done, of: total, started: started) } }
        if !quiet { runner.note = { printError($0) } }
        if let (k, n) = invocation.shard {
            let cells = configuration.shard(k, of: n)
            try inReportDirectory(invocation.out, replaceable: ShardFiles.names) { staging in
                let output = try runner.run(cells: cells)
                if progress && !cells.isEmpty { CompareCommand.printProgress(cells.count, of: cells.count, started: started, final: true) }
                let manifest = try ShardFiles.Manifest(
                    configuration: configuration, shard: k, of: n,
                    workloads: output.workloads.sorted { $0.key < $1.key }.map { ShardFiles.Manifest.Workload(index: $0.key, labels: $0.value) },
                    inputHashes: output.inputHashes.merging(try ownInputHashes(configuration)) { a, _ in a }, hasChart: output.chart != nil,
                    command: CommandLine.arguments, out: invocation.out)
                try ShardFiles.write(manifest, results: output.results, chart: output.chart, into: staging)
            }
            withExtendedLifetime(inputs) {}
            if !quiet { print("shard \(k)/\(n): cells \(cells.lowerBound)..<\(cells.upperBound) of \(configuration.cellCount) in \(invocation.out)/ (merge all \(n) with jetsim merge)") }
            return
        }
        let table = try inReportDirectory(invocation.out, replaceable: OutputNames.compare) { staging in
            let output = try runner.run(cells: 0..<configuration.cellCount)
            if progress { CompareCommand.printProgress(configuration.cellCount, of: configuration.cellCount, started: started, final: true) }
            guard let chart = output.chart else { throw ValidationError("the charted cell did not run") }
            var reports = GridReports(configuration: configuration, results: output.results,
                                      workloads: (0..<configuration.workloadCount).map { output.workloads[$0] ?? RunLabels(trace: "", appNames: []) },
                                      inputHashes: output.inputHashes.merging(try ownInputHashes(configuration)) { a, _ in a },
                                      invocation: GridManifest.Invocation(command: CommandLine.arguments, out: invocation.out, jobs: invocation.jobs, started: started),
                                      chart: chart,
                                      intervalRows: GridReports.intervalRows(output.results, firstCell: 0, configuration: configuration, workloads: output.workloads))
            reports.writesResidency = runner.residency != nil
            return try reports.write(into: staging)
        }
        withExtendedLifetime(inputs) {}   // their private copies were hashed into manifest.json above
        if !quiet { print(table, terminator: ""); print("reports: \(invocation.out)/ (charts: report.html)") }
    }

    static func printProgress(_ done: Int, of total: Int, started: Date, final: Bool = false) {
        let elapsed = Date().timeIntervalSince(started)
        let eta = done > 0 ? elapsed / Double(done) * Double(total - done) : 0
        var stderr = StandardError()
        print("\r\u{1B}[Kcells \(done)/\(total), \(String(format: "%.1f", elapsed)) s elapsed, ETA \(String(format: "%.1f", eta)) s", terminator: final ? "\n" : "", to: &stderr)
    }
}
