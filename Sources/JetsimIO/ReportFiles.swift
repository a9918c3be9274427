import JetsimCore

/// What identifies a run in its reports.
public struct RunLabels: Sendable {
    /// The trace's file name (`trace` column).
    public var trace: String
    /// The trace as the user gave it (`trace_path` column): two workloads' `trace.csv` stay apart.
    public var tracePath: String
    public var appNames: [String]
    public init(trace: String, tracePath: String? = nil, appNames: [String]) {
        self.trace = trace
        self.tracePath = tracePath ?? trace
        self.appNames = appNames
    }
}

/// Renders a `SimulationResult` as the report files of `Reports/README.md`. Columns are stable: new columns
/// are only ever appended.
public enum ReportFiles {
    // MARK: summary.csv

    /// The metric columns shared by `summary.csv` (one measured window per run) and `intervals.csv`.
    public static var metricHeader: [String] {
        ["events", "sim_seconds", "launches", "cold_launches", "resumes", "hot_launch_ratio", "kills"]
            + KillReason.allCases.map { "kills_" + $0.reportName.replacingOccurrences(of: "-", with: "_") }
            + ["user_visible_kills", "purged_mb", "memory_warnings", "oom_events", "mean_launch_ms", "p95_launch_ms",
               "time_warning_s", "time_critical_s", "mean_resident_apps", "jetsam_kills", "relaunches_after_kill",
               "background_launches", "kills_avoided_by_purge", "terminations", "ignored_events", "compressed_mb",
               "peak_compressor_mb", "freezes", "thaws", "frozen_written_mb"]
    }

    /// The metrics of window `w`, which lasted `span` µs, in `metricHeader` order.
    public static func metricValues(_ w: MetricsSnapshot, span: Int) -> [String] {
        let jetsam = KillReason.allCases.filter(\.isJetsam).map { w.killsByReason[Int($0.rawValue)] }.reduce(0, +)
        return [String(w.events), FixedPoint.seconds(span), String(w.launches), String(w.coldLaunches), String(w.resumes),
                FixedPoint.format(w.resumes, over: w.launches, decimals: 4), String(w.totalKills)]
            + KillReason.allCases.map { String(w.killsByReason[Int($0.rawValue)]) }
            + [String(w.userVisibleKills), FixedPoint.mebibytes(w.purgedBytes), String(w.memoryWarnings), String(w.oomEvents),
               FixedPoint.format(w.totalLaunchMillis, over: w.launches, decimals: 3), String(w.p95LaunchMillis),
               FixedPoint.seconds(w.microsAtLevel[1]), FixedPoint.seconds(w.microsAtLevel[2]),
               meanResidentApps(w.residentAppMicros, span: span), String(jetsam), String(w.relaunchesAfterKill),
               String(w.backgroundLaunches), String(w.killsAvoidedByPurge), String(w.terminations), String(w.ignoredEvents),
               FixedPoint.mebibytes(w.compressedBytes), FixedPoint.mebibytes(w.peakCompressorBytes),
               String(w.freezes), String(w.thaws), FixedPoint.mebibytes(w.frozenWrittenBytes)]
    }

    public static var summaryHeader: [String] { ["policy", "device", "trace", "seed"] + metricHeader + ["kernel"] + backingHeader + ["trace_path"] }

    public static func summaryRow(_ r: SimulationResult, labels: RunLabels) -> [String] {
        [r.policy.displayName, r.device.name, labels.trace, String(r.seed)] + metricValues(r.measured, span: r.simulatedMicros)
            + [r.device.kernel.rawValue] + backingValues(r.backing) + [labels.tracePath]
    }

    /// Real-memory mode's columns: which backing, what decisions used, and how far real memory diverged.
    public static let backingHeader = ["backing", "pressure_source", "live_rows", "footprint_error_mean",
                                       "footprint_error_max", "allocator_retained_mb_max"]

    static func backingValues(_ b: BackingSummary?) -> [String] {
        guard let b else { return ["model", "model", "", "", "", ""] }
        return [b.backing, b.pressureSource.rawValue, String(b.liveRows),
                FixedPoint.format(b.meanRelativeErrorPPM, over: 1_000_000, decimals: 6),
                FixedPoint.format(b.maxRelativeErrorPPM, over: 1_000_000, decimals: 6),
                FixedPoint.mebibytes(b.retainedBytesMax)]
    }

    static func meanResidentApps(_ appMicros: Int128, span: Int) -> String {
        guard span > 0 else { return "0.000" }
        // Σ(apps × µs) can exceed Int; scale to milli-apps in 128 bits first.
        return FixedPoint.format(Int(appMicros * 1000 / Int128(span)), over: 1000, decimals: 3)
    }

    public static let intervalsHeader = ["policy", "device", "trace", "seed", "interval_start_s", "interval_end_s"] + metricHeader

    /// One row per interval window of one run.
    public static func intervalRows(_ r: SimulationResult, labels: RunLabels) -> [[String]] {
        var start = r.measured.time - r.simulatedMicros   // the first event
        if let first = r.samples.first { start = min(start, first.time) }
        return r.intervals.map { w in
            defer { start = w.time }
            return [r.policy.displayName, r.device.name, labels.trace, String(r.seed), FixedPoint.seconds(start), FixedPoint.seconds(w.time)]
                + metricValues(w, span: w.time - start)
        }
    }

    public static func summaryCSV(_ r: SimulationResult, labels: RunLabels) -> String {
        CSVLine.of(summaryHeader) + CSVLine.of(summaryRow(r, labels: labels))
    }

    // MARK: kills.csv

    public static let killsHeader = ["time", "app", "reason", "state", "band", "footprint_mb", "idle_s",
                                     "available_mb_before", "available_mb_after", "policy", "priority_class", "user_visible"]

    /// One `kills.csv` row at the end of `out`; `policy` and `appNames` are fields already quoted where needed
    /// (`field(_:)`), so a row is built from integers without a `String`.
    public static func appendKillLine(_ k: KillRecord, policy: [UInt8], appNames: [[UInt8]], to out: inout [UInt8]) {
        FixedPoint.append(k.time, over: Units.microsPerSecond, decimals: 3, to: &out)
        out.append(44)
        out.append(contentsOf: appNames[Int(k.app)])
        out.append(44)
        out.append(contentsOf: k.reason.reportName.utf8)
        out.append(44)
        out.append(contentsOf: k.state.reportName.utf8)
        out.append(44)
        appendInteger(k.band, to: &out)
        out.append(44)
        appendMebibytes(k.footprintBytes, to: &out)
        out.append(44)
        FixedPoint.append(k.idleMicros, over: Units.microsPerSecond, decimals: 3, to: &out)
        out.append(44)
        appendMebibytes(k.availableBefore, to: &out)
        out.append(44)
        appendMebibytes(k.availableAfter, to: &out)
        out.append(44)
        out.append(contentsOf: policy)
        out.append(44)
        out.append(contentsOf: k.priorityClass.reportName.utf8)
        out.append(contentsOf: k.userVisible ? ",true\n".utf8 : ",false\n".utf8)
    }

    /// `text` as one CSV field (quoted when it holds a comma, quote or line break), as bytes.
    public static func field(_ text: String) -> [UInt8] { Array(CSVLine.field(text).utf8) }

    static func appendInteger(_ v: Int, to out: inout [UInt8]) {
        if v < 0 { out.append(45) }
        FixedPoint.appendDigits(v.magnitude, to: &out)
    }

    static func appendMebibytes(_ bytes: Int, to out: inout [UInt8]) {
        FixedPoint.append(bytes, over: Units.mebibyte, decimals: 3, to: &out)
    }

    // MARK: apps.csv

    public static let appsHeader = ["app", "launches", "cold_launches", "resumes", "kills", "mean_footprint_mb",
                                    "peak_footprint_mb", "background_launches", "resident_s"]

    public static func appsCSV(_ r: SimulationResult) -> String {
        var out = CSVLine.of(appsHeader)
        for a in r.apps {
            out += CSVLine.of([
                a.name, String(a.launches), String(a.coldLaunches), String(a.resumes), String(a.kills),
                FixedPoint.mebibytes(a.meanFootprintBytes), FixedPoint.mebibytes(a.peakFootprintBytes),
                String(a.backgroundLaunches), FixedPoint.seconds(a.residentMicros),
            ])
        }
        return out
    }

    // MARK: timeseries.csv

    public static let timeseriesHeader = ["time", "available_mb", "pressure", "resident_apps", "suspended_apps",
                                          "compressor_mb", "free_mb", "footprint_mb"]

    public static func sampleLine(_ s: MemorySample) -> String {
        var out: [UInt8] = []
        appendSampleLine(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// One `timeseries.csv` row at the end of `out`.
    public static func appendSampleLine(_ s: MemorySample, to out: inout [UInt8]) {
        FixedPoint.append(s.time, over: Units.microsPerSecond, decimals: 3, to: &out)
        out.append(44)
        appendMebibytes(s.availableBytes, to: &out)
        out.append(44)
        out.append(contentsOf: s.pressure.reportName.utf8)
        out.append(44)
        appendInteger(s.residentApps, to: &out)
        out.append(44)
        appendInteger(s.suspendedApps, to: &out)
        out.append(44)
        appendMebibytes(s.compressorBytes, to: &out)
        out.append(44)
        appendMebibytes(s.freeBytes, to: &out)
        out.append(44)
        appendMebibytes(s.footprintBytes, to: &out)
        out.append(10)
    }

    // MARK: events.csv

    public static let eventsHeader = ["time", "app", "from_state", "to_state", "callback", "footprint_mb", "deadline_s", "cause"]

    public static func eventLine(_ e: LifecycleRecord, appNames: [String]) -> String {
        CSVLine.of([
            FixedPoint.seconds(e.time), appNames[Int(e.app)], e.from.reportName, e.to.reportName, e.callback.reportName,
            FixedPoint.mebibytes(e.footprintBytes), e.deadlineMicros > 0 ? FixedPoint.seconds(e.deadlineMicros) : "",
            e.cause.reportName,
        ])
    }

    /// Writes summary.csv and apps.csv into `directory` and commits the files streamed during the run (kills.csv,
    /// timeseries.csv, events.csv, live.csv: `ReportStream`, `LiveFileWriter`) with them. Files are prepared
    /// first and renamed only when all were written, so an error leaves no new report behind.
    public static func write(_ r: SimulationResult, labels: RunLabels, to directory: String, streamed: [AtomicFile]) throws(InputError) {
        try makeDirectories(directory)
        let contents = [("summary.csv", summaryCSV(r, labels: labels)), ("apps.csv", appsCSV(r))]
        var files: [AtomicFile] = []
        for (name, text) in contents {
            let f = try AtomicFile(path: directory + "/" + name)
            try f.write(text)
            files.append(f)
        }
        for f in files + streamed { try f.commit() }
    }
}

/// Streams real-memory samples into `live.csv` (a temporary file until the run's reports are committed).
public final class LiveFileWriter {
    public static let header = ["time", "app", "modelled_bytes", "measured_bytes", "dirty_freed_bytes", "dirty_freed_pages",
                                "muzzy_bytes", "arena_resident_bytes", "arena_mapped_bytes"]
    public let file: AtomicFile
    private let appNames: [String]
    public private(set) var failure: InputError?

    public init(path: String, appNames: [String]) throws(InputError) {
        file = try AtomicFile(path: path)
        self.appNames = appNames
        try file.write(CSVLine.of(Self.header))
    }

    public func record(_ s: LiveSample) {
        guard failure == nil else { return }
        let name = appNames.indices.contains(Int(s.app)) ? appNames[Int(s.app)] : String(s.app)
        let row = [FixedPoint.seconds(s.time), name, String(s.modelledBytes), String(s.measuredBytes), String(s.dirtyFreedBytes),
                   String(s.dirtyFreedPages), String(s.muzzyBytes), String(s.arenaResidentBytes), String(s.arenaMappedBytes)]
        do { try file.write(CSVLine.of(row)) } catch { failure = error }
    }
}

/// Streams `kills.csv`, `timeseries.csv` and, when asked, `events.csv` as the run goes (temporary files until the
/// run's reports are committed), so a run's memory does not grow with its trace.
public final class ReportStream: SimulationRecordSink {
    public let kills: AtomicFile
    public let timeseries: AtomicFile
    public let events: AtomicFile?
    private let appNames: [String]
    /// App names and the policy as ready CSV fields, and one line's bytes reused row after row.
    private let appFields: [[UInt8]]
    private let policyField: [UInt8]
    private var line: [UInt8] = []
    public private(set) var failure: InputError?

    public init(directory: String, appNames: [String], policy: String, events withEvents: Bool) throws(InputError) {
        kills = try AtomicFile(path: directory + "/kills.csv")
        timeseries = try AtomicFile(path: directory + "/timeseries.csv")
        events = withEvents ? try AtomicFile(path: directory + "/events.csv") : nil
        self.appNames = appNames
        appFields = appNames.map(ReportFiles.field)
        policyField = ReportFiles.field(policy)
        line.reserveCapacity(256)
        try kills.write(CSVLine.of(ReportFiles.killsHeader))
        try timeseries.write(CSVLine.of(ReportFiles.timeseriesHeader))
        try events?.write(CSVLine.of(ReportFiles.eventsHeader))
    }

    /// Every streamed file, for `ReportFiles.write(streamed:)`.
    public var files: [AtomicFile] { [kills, timeseries] + (events.map { [$0] } ?? []) }

    public var recordsLifecycle: Bool { events != nil }

    public func record(_ record: LifecycleRecord) {
        guard failure == nil, let events else { return }
        do { try events.write(ReportFiles.eventLine(record, appNames: appNames)) } catch { failure = error }
    }

    public func record(kill: KillRecord) {
        guard failure == nil else { return }
        line.removeAll(keepingCapacity: true)
        ReportFiles.appendKillLine(kill, policy: policyField, appNames: appFields, to: &line)
        do { try kills.write(bytes: line) } catch { failure = error }
    }

    public func record(sample: MemorySample) {
        guard failure == nil else { return }
        line.removeAll(keepingCapacity: true)
        ReportFiles.appendSampleLine(sample, to: &line)
        do { try timeseries.write(bytes: line) } catch { failure = error }
    }
}
