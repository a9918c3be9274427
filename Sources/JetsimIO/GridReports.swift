import Foundation
import JetsimCore

/// The report set of a grid (`jetsim compare`, and `jetsim merge` of its shards): summary.csv, compare.csv,
/// latency.csv, intervals.csv, the chart tables, report.html with its charts, and manifest.json. Both commands write
/// through `write(into:)`, so a merge of shards is byte-identical to the unsharded grid (manifest.json's `invocation`
/// aside, which says how this very process was run).
public struct GridReports {
    /// What the grid was: the same for the unsharded run and for every shard (`GridConfiguration.sha256`).
    public var configuration: GridConfiguration
    /// Every cell's run, in cell order (`GridConfiguration.cellOrder`).
    public var results: [SimulationResult]
    /// Each workload's labels, in grid order.
    public var workloads: [RunLabels]
    /// SHA-256 of every file the grid read, by the name the user gave it.
    public var inputHashes: [String: String]
    public var invocation: GridManifest.Invocation
    /// The charted cell's (`GridConfiguration.chartCell`) memory series and kills.
    public var chart: ChartFiles
    /// intervals.csv's rows, every cell's in cell order (`intervalRows`; a merge joins its shards').
    public var intervalRows: String
    /// Whether the cells probed residency (`--residency`): residency.csv is then written from their records.
    public var writesResidency = false

    public init(configuration: GridConfiguration, results: [SimulationResult], workloads: [RunLabels], inputHashes: [String: String],
                invocation: GridManifest.Invocation, chart: ChartFiles, intervalRows: String) {
        self.chart = chart
        self.intervalRows = intervalRows
        self.configuration = configuration
        self.results = results
        self.workloads = workloads
        self.inputHashes = inputHashes
        self.invocation = invocation
    }

    var perWorkload: Int { configuration.cellsPerWorkload }
    var policyNames: [String] { configuration.policies.indices.map { p in results[p * configuration.seeds.count].policy.displayName } }

    /// compare.csv's grid: every device's and policy's runs.
    var grid: CompareReports.Grid {
        var runs: [String: [String: [SimulationResult]]] = [:]
        for r in results { runs[r.device.name, default: [:]][r.policy.displayName, default: []].append(r) }
        var grid = CompareReports.Grid(devices: configuration.devices.map(\.name), policies: policyNames, runs: runs,
                                       seeds: configuration.seeds.count, workloads: configuration.workloadCount)
        grid.workloadsAreUsers = configuration.users != nil
        return grid
    }

    /// Writes every report file into `directory` (a staging directory: the caller publishes the set) and returns the
    /// console table of compare.csv.
    public func write(into directory: String) throws -> String {
        let names = policyNames
        let grid = self.grid
        let baselineName = names[configuration.baselinePolicy]
        let oracleName = results.first { $0.policy.name == "oracle" }?.policy.displayName
        let header = CompareReports.compareHeader(hasOracle: oracleName != nil)
        let rows = CompareReports.compareRows(grid, baseline: baselineName, oracle: oracleName)
        var contents = [("summary.csv", summaryCSV), ("compare.csv", CSVLine.of(header) + rows.map(CSVLine.of).joined()),
                        ("manifest.json", try manifest), ("latency.csv", latencyCSV), ("chart-devices.csv", chartDevicesCSV),
                        ("chart-apps.csv", chartAppsCSV), ("chart-timeseries.csv", chart.timeseries), ("chart-kills.csv", chart.kills)]
        if configuration.intervalMicros > 0 { contents.append(("intervals.csv", CSVLine.of(ReportFiles.intervalsHeader) + intervalRows)) }
        if configuration.users != nil { contents.append(("population.csv", PopulationReport.csv(results, perWorkload: perWorkload))) }
        var files: [AtomicFile] = []
        for (name, text) in contents {
            let f = try AtomicFile(path: directory + "/" + name)
            try f.write(text)
            files.append(f)
        }
        if writesResidency {
            let f = try AtomicFile(path: directory + "/residency.csv")
            try f.write(bytes: ResidencyReport.csv(results.enumerated().map { ($1, workloads[$0 / perWorkload]) }))
            files.append(f)
        }
        for f in files { try f.commit() }
        try Self.writeCharts(into: directory, memoryChart: chart.memoryChart)
        let population = configuration.users == nil ? "" : "\npopulation (population.csv: per user-day, means over users, ci95 across users):\n"
            + PopulationReport.table(results, perWorkload: perWorkload)
        return CompareReports.table(rows, header: header, grid: grid) + population
    }

    /// summary.csv: one row per cell, in cell order.
    var summaryCSV: String {
        var text = CSVLine.of(ReportFiles.summaryHeader)
        for (k, r) in results.enumerated() { text += CSVLine.of(ReportFiles.summaryRow(r, labels: workloads[k / perWorkload])) }
        return text
    }

    /// intervals.csv's rows of the cells `firstCell ..< firstCell + results.count`, in cell order: each run's windows
    /// (the only use of its `intervals` and `samples`, which a shard need not keep once these are written).
    public static func intervalRows(_ results: [SimulationResult], firstCell: Int, configuration: GridConfiguration,
                                    workloads: [Int: RunLabels]) -> String {
        var text = ""
        for (k, r) in results.enumerated() {
            let labels = workloads[(firstCell + k) / configuration.cellsPerWorkload] ?? RunLabels(trace: "", appNames: [])
            for row in ReportFiles.intervalRows(r, labels: labels) { text += CSVLine.of(row) }
        }
        return text
    }

    /// latency.csv: every cell's launch latency distribution, summed over workloads.
    var latencyCSV: String {
        var text = CSVLine.of(["device", "policy", "seed", "latency_ms", "launches"])
        for (k, r) in results.prefix(perWorkload).enumerated() {
            var launches: [Int: Int] = [:]
            for w in workloads.indices { launches.merge(results[w * perWorkload + k].measured.launchLatencies, uniquingKeysWith: +) }
            for (ms, n) in launches.sorted(by: { $0.key < $1.key }) {
                text += CSVLine.of([r.device.name, r.policy.displayName, String(r.seed), String(ms), String(n)])
            }
        }
        return text
    }

    /// chart-devices.csv: each device's physical RAM in bytes, for the chart of cold launches against RAM.
    var chartDevicesCSV: String {
        CSVLine.of(["device", "physical_bytes"]) + configuration.devices.map { CSVLine.of([$0.name, String($0.physicalBytes)]) }.joined()
    }

    /// How many apps chart-apps.csv keeps: the chart's groups, not the catalog.
    public static let chartedApps = 10

    /// chart-apps.csv: the cold launches of the `chartedApps` apps that cold-launch most over all runs (ties by name), per
    /// device and policy: the mean over the cell's runs (seeds × workloads), exact to one decimal.
    var chartAppsCSV: String {
        let cells = Array(results.prefix(perWorkload))
        var totals: [String: Int] = [:]
        for r in results { for a in r.apps { totals[a.name, default: 0] += a.coldLaunches } }
        let top = totals.filter { $0.value > 0 }.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.prefix(Self.chartedApps).map(\.key)
        var sums: [String: (cold: Int, runs: Int)] = [:]
        for r in results {
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

    var manifest: String {
        get throws {
            let policies = configuration.policies.indices.map { GridManifest.Policy(results[$0 * configuration.seeds.count].policy) }
            return try GridManifest(configuration: configuration, inputHashes: inputHashes, policies: policies, invocation: invocation).json()
        }
    }

    /// Writes report.html and every chart's chart-NAME.svg into `directory`, drawn from its tables (compare, merge, and
    /// plot to redraw).
    public static func writeCharts(into directory: String, memoryChart: String) throws {
        let written = try ChartReport.files(directory: directory, memoryChart: memoryChart).map { file in
            let f = try AtomicFile(path: directory + "/" + file.name)
            try f.write(file.text)
            return f
        }
        for f in written { try f.commit() }
    }
}

/// The charted cell's `chart-timeseries.csv` and `chart-kills.csv`, and the memory chart of `report.html` drawn from
/// them exactly as `jetsim plot` draws it from the files.
public struct ChartFiles: Sendable {
    public var timeseries: String
    public var kills: String
    public var memoryChart: String

    /// The files as written (a shard's), the chart drawn from them.
    public init(timeseries: String, kills: String) throws(InputError) {
        (self.timeseries, self.kills) = (timeseries, kills)
        memoryChart = ChartReport.memoryChart(timeseries: try ChartReport.table(text: timeseries, name: "chart-timeseries.csv"),
                                              kills: try ChartReport.table(text: kills, name: "chart-kills.csv"))
    }

    public init(_ cell: SimulationResult, catalogNames: [String]) throws(InputError) {
        let prefix = [cell.device.name, cell.policy.displayName, String(cell.seed)].map(CSVLine.field).joined(separator: ",") + ","
        var timeseries = CSVLine.of(["device", "policy", "seed"] + ReportFiles.timeseriesHeader)
        for sample in cell.samples { timeseries += prefix + ReportFiles.sampleLine(sample) }
        var kills = CSVLine.of(["device", "policy", "seed", "time", "app", "reason"])
        let apps = catalogNames.map(CSVLine.field)   // quoted once per app, not per kill
        for k in cell.kills {
            kills += prefix + FixedPoint.seconds(k.time) + "," + apps[Int(k.app)] + "," + k.reason.reportName + "\n"
        }
        try self.init(timeseries: timeseries, kills: kills)
    }
}
