import Dispatch
import Foundation
import JetsimCore
import JetsimIO
import JetsimWorkloads

/// A grid experiment as data: its configuration (workloads, devices, policies, seeds, shared options; the cells and
/// their ids: `GridConfiguration`) and what is needed to make its generated workloads again.
public struct ExperimentPlan: Sendable {
    public var configuration: GridConfiguration
    /// The generated workloads' model (its seed is replaced by each workload's); nil for trace files.
    public var generator: WorkloadOptions?

    public init(configuration: GridConfiguration, generator: WorkloadOptions?) {
        self.configuration = configuration
        self.generator = generator
    }
}

/// The one driver of grids: runs any subset of a plan's cells on `jobs` threads — all of them for `compare`, one shard's
/// for `compare --shard`. Each workload is loaded once (and only when one of the cells needs it), shared by its cells,
/// and dropped before the next is loaded; a cell's result never depends on its thread or on the other cells run.
public struct ExperimentRunner {
    public var plan: ExperimentPlan
    /// Where each named input is read from (a pipe's private copy: `ReadOnceInput`); a name not here is read where it is.
    public var readFrom: [String: String]
    public var jobs: Int
    /// Called as cells finish, with the number done and the number to do.
    public var progress: (@Sendable (Int, Int) -> Void)?
    /// Called once with a note for the user (the charted cell's sampling was made coarser).
    public var note: ((String) -> Void)?
    /// When the cells of a workload probe their apps' residency (`--residency`), by the workload's user; nil: never.
    public var residency: ((_ user: String?) -> ResidencyProbes.Schedule?)?

    public init(plan: ExperimentPlan, readFrom: [String: String] = [:], jobs: Int) {
        self.plan = plan
        self.readFrom = readFrom
        self.jobs = jobs
    }

    /// What running some cells produced.
    public struct Output {
        /// One run per cell, in id order.
        public var results: [SimulationResult]
        /// The labels of every workload a cell belonged to, by workload index.
        public var workloads: [Int: RunLabels]
        /// SHA-256 of the trace and catalog files read, by the name the user gave.
        public var inputHashes: [String: String]
        /// The charted cell's chart files, when it was among the cells (its result then keeps no kills: they are here).
        public var chart: ChartFiles?
    }

    /// Runs `cells` (ids of `plan.configuration`).
    public func run(cells: Range<Int>) throws -> Output {
        let config = plan.configuration
        let policiesDirectory = config.policiesDirectory
        let prototypes = try config.policies.map {
            try PolicySource.make($0, environment: PolicyEnvironment(seed: 1, device: config.devices[0]), policiesDirectory: policiesDirectory)
        }
        let needsFuture = prototypes.contains { $0.descriptor.capabilities.contains(.needsFuture) }
        // Cells whose policy scans every resident app at each kill (no ranking key: the slow ones) start first, so that no
        // long cell starts last and leaves a thread idle; the charted cell before them, since its result is the largest.
        let scans = prototypes.map { !$0.hasRankingKey }
        var output = Output(results: [], workloads: [:], inputHashes: [:], chart: nil)
        let slots = Slots(count: cells.count)
        let failure = FailureBox()
        let total = cells.count
        let progress = self.progress
        let perWorkload = config.cellsPerWorkload
        let chart = ChartBox()
        var split: UserSplit?
        for w in (cells.isEmpty ? 0..<0 : cells.lowerBound / perWorkload ..< (cells.upperBound - 1) / perWorkload + 1) {
            let ids = Array(cells.clamped(to: w * perWorkload ..< (w + 1) * perWorkload))
            let workload = try load(w, needsFuture: needsFuture, hashInto: &output.inputHashes, split: &split)
            output.workloads[w] = workload.labels
            let span = (workload.events.last?.time ?? 0) - (workload.events.first?.time ?? 0)
            if config.intervalMicros > 0 {
                try TimeWindows.check(trace: workload.labels.tracePath, spanMicros: span, intervalMicros: config.intervalMicros,
                                      runs: config.cellCount, windows: "--interval \(TimeWindows.seconds(config.intervalMicros)) s",
                                      advice: "choose a longer --interval", exitCode: InputError.usage)
            }
            // The charted cell's memory series is chart data: as many points as a chart can use (ChartReport.maxSeriesPoints),
            // spread over the whole run, rather than --sample-interval's until a cap cut it short. Sample spacing changes
            // no decision (TimingIndependenceTests).
            let chartSampleInterval = max(config.sampleIntervalMicros, span / ChartReport.maxSeriesPoints + 1)
            if ids.contains(config.chartCell) && chartSampleInterval > config.sampleIntervalMicros {
                note?("note: chart-timeseries.csv samples every \(TimeWindows.seconds(chartSampleInterval)) s, not --sample-interval's "
                      + "\(TimeWindows.seconds(config.sampleIntervalMicros)) s, to stay within \(ChartReport.maxSeriesPoints) points over the run")
            }
            var base = SimulationOptions()
            base.sampleIntervalMicros = config.sampleIntervalMicros
            base.warmupMicros = config.warmupMicros
            base.intervalMicros = config.intervalMicros
            let options = base
            let residency = self.residency?(workload.labels.user)
            let order = ids.filter { $0 == config.chartCell } + ids.filter { $0 != config.chartCell && scans[config.cell($0).policy] }
                + ids.filter { $0 != config.chartCell && !scans[config.cell($0).policy] }
            let queue = WorkQueue(order: order)
            DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, ids.count))) { _ in
                while let id = queue.next() {
                    let cell = config.cell(id)
                    let charted = id == config.chartCell
                    do {
                        let device = config.devices[cell.device]
                        let policy = try PolicySource.make(config.policies[cell.policy], environment: PolicyEnvironment(seed: cell.seed, device: device),
                                                           policiesDirectory: policiesDirectory)
                        var cellOptions = options
                        cellOptions.seed = cell.seed
                        if charted { cellOptions.sampleIntervalMicros = chartSampleInterval }
                        var result = runCell(policy, device: device, catalog: workload.catalog, events: workload.events, options: cellOptions,
                                             future: policy.descriptor.capabilities.contains(.needsFuture) ? workload.future : nil,
                                             keepKillsAndSamples: charted, residency: residency)
                        if charted {
                            // The kills are drawn now, by name; the result keeps its samples (intervals.csv starts at the first).
                            chart.files = try ChartFiles(result, catalogNames: workload.catalog.profiles.map(\.name))
                            result.kills = []
                        }
                        let done = slots.set(id - cells.lowerBound, result)
                        progress?(done, total)
                    } catch {
                        failure.record(error)
                    }
                }
            }
            if let error = failure.first { throw error }
        }
        output.results = slots.all
        output.chart = chart.files
        return output
    }

    /// One workload: parsed once, shared by all of its cells (with next uses, if any policy needs them).
    struct Workload: Sendable {
        var catalog: AppCatalog
        var events: [TraceEvent]
        var future: NextUseTable?
        var labels: RunLabels
    }

    /// Workload `w` as it is read: its catalog, a source of its events and its labels. `run` streams the source (its
    /// memory stays flat however long the trace); a grid loads it whole.
    public func open(_ w: Int) throws -> (catalog: AppCatalog, source: EventSource, labels: RunLabels) {
        let config = plan.configuration
        if let seeds = config.workloadSeeds, var options = plan.generator {
            options.seed = seeds[w]
            let name = "workload-seed-\(seeds[w])"
            let (catalog, events) = try WorkloadFiles.load(WorkloadGenerator(options: options), name: name)
            return (catalog, .loaded(events, position: 0),
                    RunLabels(trace: name, tracePath: "generate:seed=\(seeds[w]),\(config.generate ?? "")", appNames: []))
        }
        let trace = config.tracePath(ofWorkload: w)
        let labels = RunLabels(trace: baseName(trace), tracePath: trace, appNames: [], user: config.workload(w).user)
        if labels.user != nil {
            let catalog = try self.catalog()
            var split: UserSplit?
            return (catalog, .loaded(try userEvents(w, catalog: catalog, split: &split), position: 0), labels)
        }
        if config.format == "libcachesim" {
            let fields = try config.csvFields.map { try LibCacheSimTrace.Fields(parsing: $0) } ?? .init()
            let lcs = try LibCacheSimTrace(path: readFrom[trace] ?? trace, fields: fields, name: trace)
            return (lcs.catalog, .libCacheSim(lcs), labels)
        }
        let catalog = try self.catalog()
        return (catalog, .jetsim(try TraceReader(path: readFrom[trace] ?? trace, catalog: catalog, name: trace)), labels)
    }

    /// The catalog of Jetsim-format traces.
    private func catalog() throws(InputError) -> AppCatalog {
        let apps = plan.configuration.apps ?? ""
        return try CatalogFile.read(path: readFrom[apps] ?? apps, name: apps)
    }

    /// A trace split by user (`--per-user`), kept while its users' workloads run: the file is read once.
    struct UserSplit {
        var trace: Int
        var users: [(user: String, events: [TraceEvent])]
    }

    /// The events of per-user workload `w`, from `split`, which is first made to hold `w`'s trace split by user (read
    /// now if it held another trace).
    private func userEvents(_ w: Int, catalog: AppCatalog, split: inout UserSplit?) throws(InputError) -> [TraceEvent] {
        let config = plan.configuration
        let (t, user) = config.workload(w)
        if split?.trace != t {
            split = nil   // the previous trace's events go before the next trace is read
            let trace = config.tracePath(ofWorkload: w)
            split = UserSplit(trace: t, users: try TraceReader.readAllByUser(path: readFrom[trace] ?? trace, catalog: catalog, name: trace))
        }
        return split?.users.first { $0.user == user }?.events ?? []
    }

    /// Workload `w` loaded whole, with next uses if a policy needs them; the files' SHA-256 go into `hashes`. A user's
    /// workload comes from `split` (`userEvents`).
    private func load(_ w: Int, needsFuture: Bool, hashInto hashes: inout [String: String], split: inout UserSplit?) throws -> Workload {
        let config = plan.configuration
        // The trace's and catalog's digests are computed on another thread while the trace is read (a large trace's
        // SHA-256 takes as long as its read: `SHA256`), each file once.
        var unhashed: [(name: String, path: String)] = []
        if config.workloadSeeds == nil {
            let trace = config.tracePath(ofWorkload: w)
            for name in [trace] + (config.apps.map { [$0] } ?? []) where hashes[name] == nil && !unhashed.contains(where: { $0.name == name }) {
                unhashed.append((name, readFrom[name] ?? name))
            }
        }
        let digests = BackgroundDigests(unhashed)
        let catalog: AppCatalog
        let events: [TraceEvent]
        let labels: RunLabels
        if let user = config.workload(w).user {
            let trace = config.tracePath(ofWorkload: w)
            catalog = try self.catalog()
            events = try userEvents(w, catalog: catalog, split: &split)
            labels = RunLabels(trace: baseName(trace), tracePath: trace, appNames: [], user: user)
        } else if config.workloadSeeds == nil && config.format == "jetsim" {
            // Two threads when --jobs allows: with the cells faster, the read was a tenth of a two-job grid's time.
            let trace = config.tracePath(ofWorkload: w)
            catalog = try self.catalog()
            events = try TraceReader.readAll(path: readFrom[trace] ?? trace, catalog: catalog, threads: min(jobs, 2), name: trace)
            labels = RunLabels(trace: baseName(trace), tracePath: trace, appNames: [])
        } else {
            var source: EventSource
            (catalog, source, labels) = try open(w)
            events = try source.readAll()
        }
        for (name, digest) in try digests.wait() { hashes[name] = digest }
        var named = labels
        if residency != nil { named.appNames = catalog.profiles.map(\.name) }   // residency.csv names the apps
        return Workload(catalog: catalog, events: events, future: needsFuture ? NextUseTable(events: events, appCount: catalog.count) : nil,
                        labels: named)
    }
}

/// A path's last component.
public func baseName(_ path: String) -> String {
    path.split(separator: "/").last.map(String.init) ?? path
}

/// SHA-256 of files (`CompareReports.sha256(path:)`), computed on a thread of their own from the moment this is made,
/// in order; `wait()` gives them by name, or the first file's error. Written by that thread alone until `wait()`'s
/// group has been left.
final class BackgroundDigests: @unchecked Sendable {
    private var digests: [String: String] = [:]
    private var error: InputError?
    private let done = DispatchGroup()

    init(_ files: [(name: String, path: String)]) {
        guard !files.isEmpty else { return }
        done.enter()
        DispatchQueue.global().async { [self] in
            defer { done.leave() }
            for file in files {
                do throws(InputError) { digests[file.name] = try CompareReports.sha256(path: file.path) } catch {
                    self.error = error
                    return
                }
            }
        }
    }

    func wait() throws(InputError) -> [String: String] {
        done.wait()
        if let error { throw error }
        return digests
    }
}

/// Results written by index from worker threads; each slot is written once.
final class Slots: @unchecked Sendable {
    private var results: [SimulationResult?]
    private let lock = NSLock()
    private var done = 0
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

/// Hands out cell ids, each once and in `order`, to worker threads.
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

/// Where the charted cell's thread leaves its chart files.
final class ChartBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: ChartFiles?
    var files: ChartFiles? {
        get { lock.lock(); defer { lock.unlock() }; return value }
        set { lock.lock(); defer { lock.unlock() }; value = newValue }
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
