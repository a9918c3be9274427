import JetsimCore

/// What identifies a run in its reports.
public struct RunLabels: Sendable {
    /// The trace's file name (`trace` column).
    public var trace: String
    /// The trace as the user gave it (`trace_path` column): two workloads' `trace.csv` stay apart.
    public var tracePath: String
    public var appNames: [String]
    /// With `--per-user`, the user whose events this run replayed (`user` column; empty otherwise).
    public var user: String?
    public init(trace: String, tracePath: String? = nil, appNames: [String], user: String? = nil) {
        self.trace = trace
        self.tracePath = tracePath ?? trace
        self.appNames = appNames
        self.user = user
    }
}

/// Renders a `SimulationResult` as the report files of `Reports/README.md`. Columns are stable: new columns
/// are only ever appended.
public enum ReportFiles {
    // MARK: summary.csv

    /// One column of a report: its name and how a row's value is rendered, side by side so that a header and its rows
    /// cannot drift apart.
    public struct Column<Row>: Sendable {
        public var name: String
        public var value: @Sendable (Row) -> String
        public init(_ name: String, _ value: @escaping @Sendable (Row) -> String) {
            self.name = name
            self.value = value
        }
    }

    /// A measured window: the counters and how long it lasted (µs).
    public typealias Window = (metrics: MetricsSnapshot, span: Int)

    /// The metric columns shared by `summary.csv` (one measured window per run) and `intervals.csv`.
    public static let metricColumns: [Column<Window>] = [
        Column("events") { String($0.metrics.events) },
        Column("sim_seconds") { FixedPoint.seconds($0.span) },
        Column("launches") { String($0.metrics.launches) },
        Column("cold_launches") { String($0.metrics.coldLaunches) },
        Column("resumes") { String($0.metrics.resumes) },
        Column("hot_launch_ratio") { FixedPoint.format($0.metrics.resumes, over: $0.metrics.launches, decimals: 4) },
        Column("kills") { String($0.metrics.totalKills) },
    ] + KillReason.summaryColumns.map { reason in
        Column("kills_" + reason.reportName.replacingOccurrences(of: "-", with: "_")) { String($0.metrics.killsByReason[Int(reason.rawValue)]) }
    } + [
        Column("user_visible_kills") { String($0.metrics.userVisibleKills) },
        Column("purged_mb") { FixedPoint.mebibytes($0.metrics.purgedBytes) },
        Column("memory_warnings") { String($0.metrics.memoryWarnings) },
        Column("oom_events") { String($0.metrics.oomEvents) },
        Column("mean_launch_ms") { FixedPoint.format($0.metrics.totalLaunchMillis, over: $0.metrics.launches, decimals: 3) },
        Column("p95_launch_ms") { String($0.metrics.p95LaunchMillis) },
        Column("time_warning_s") { FixedPoint.seconds($0.metrics.microsAtLevel[1]) },
        Column("time_critical_s") { FixedPoint.seconds($0.metrics.microsAtLevel[2]) },
        Column("mean_resident_apps") { meanResidentApps($0.metrics.residentAppMicros, span: $0.span) },
        Column("jetsam_kills") { w in String(KillReason.allCases.filter(\.isJetsam).map { w.metrics.killsByReason[Int($0.rawValue)] }.reduce(0, +)) },
        Column("relaunches_after_kill") { String($0.metrics.relaunchesAfterKill) },
        Column("background_launches") { String($0.metrics.backgroundLaunches) },
        Column("kills_avoided_by_purge") { String($0.metrics.killsAvoidedByPurge) },
        Column("terminations") { String($0.metrics.terminations) },
        Column("ignored_events") { String($0.metrics.ignoredEvents) },
        Column("compressed_mb") { FixedPoint.mebibytes($0.metrics.compressedBytes) },
        Column("peak_compressor_mb") { FixedPoint.mebibytes($0.metrics.peakCompressorBytes) },
        Column("freezes") { String($0.metrics.freezes) },
        Column("thaws") { String($0.metrics.thaws) },
        Column("frozen_written_mb") { FixedPoint.mebibytes($0.metrics.frozenWrittenBytes) },
    ]

    /// A run, as summary.csv's row sees it: the result and its workload's labels.
    public typealias LabelledRun = (result: SimulationResult, labels: RunLabels)

    /// summary.csv's columns: the cell, the measured window's metrics, the kernel, the backing, the trace as given.
    public static let summaryColumns: [Column<LabelledRun>] = [
        Column("policy") { $0.result.policy.displayName },
        Column("device") { $0.result.device.name },
        Column("trace") { $0.labels.trace },
        Column("seed") { String($0.result.seed) },
    ] + metricColumns.map { c in Column(c.name) { c.value(($0.result.measured, $0.result.simulatedMicros)) } } + [
        Column("kernel") { $0.result.device.kernelName },
    ] + backingColumns.map { c in Column(c.name) { c.value($0.result.backing) } } + [
        Column("trace_path") { $0.labels.tracePath },
        Column("user") { $0.labels.user ?? "" },
    ]

    public static var summaryHeader: [String] { summaryColumns.map(\.name) }

    public static func summaryRow(_ r: SimulationResult, labels: RunLabels) -> [String] {
        summaryColumns.map { $0.value((r, labels)) }
    }

    /// Real-memory mode's columns: which backing, what decisions used, and how far real memory diverged.
    static let backingColumns: [Column<BackingSummary?>] = [
        Column("backing") { $0?.backing ?? "model" },
        Column("pressure_source") { $0?.pressureSource.rawValue ?? "model" },
        Column("live_rows") { $0.map { String($0.liveRows) } ?? "" },
        Column("footprint_error_mean") { $0.map { FixedPoint.format($0.meanRelativeErrorPPM, over: 1_000_000, decimals: 6) } ?? "" },
        Column("footprint_error_max") { $0.map { FixedPoint.format($0.maxRelativeErrorPPM, over: 1_000_000, decimals: 6) } ?? "" },
        Column("allocator_retained_mb_max") { $0.map { FixedPoint.mebibytes($0.retainedBytesMax) } ?? "" },
    ]

    static func meanResidentApps(_ appMicros: Int128, span: Int) -> String {
        guard span > 0 else { return "0.000" }
        // Σ(apps × µs) can exceed Int; scale to milli-apps in 128 bits first.
        return FixedPoint.format(Int(appMicros * 1000 / Int128(span)), over: 1000, decimals: 3)
    }

    public static let intervalsHeader = ["policy", "device", "trace", "seed", "interval_start_s", "interval_end_s"] + metricColumns.map(\.name)
        + ["user"]

    /// One row per interval window of one run.
    public static func intervalRows(_ r: SimulationResult, labels: RunLabels) -> [[String]] {
        var start = r.measured.time - r.simulatedMicros   // the first event
        if let first = r.samples.first { start = min(start, first.time) }
        return r.intervals.map { w in
            defer { start = w.time }
            return [r.policy.displayName, r.device.name, labels.trace, String(r.seed), FixedPoint.seconds(start), FixedPoint.seconds(w.time)]
                + metricColumns.map { $0.value((w, w.time - start)) } + [labels.user ?? ""]
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
        policy.withUnsafeBufferPointer { policy in
            appField(k.app, appNames).withUnsafeBufferPointer { app in
                RowWriter.appending(to: &out, capacity: killRowCapacity(k, policy: policy, app: app)) { killRow(k, policy: policy, app: app, into: &$0) }
            }
        }
    }

    /// The widest a kill's row can be: its app's and policy's fields, and the numbers at their widest.
    static func killRowCapacity(_ k: KillRecord, policy: UnsafeBufferPointer<UInt8>, app: UnsafeBufferPointer<UInt8>) -> Int {
        320 + app.count + policy.count
    }

    /// One `kills.csv` row, written in place; `app` is the app's field (`appField`).
    static func killRow(_ k: KillRecord, policy: UnsafeBufferPointer<UInt8>, app: UnsafeBufferPointer<UInt8>, into row: inout RowWriter) {
        var w = row   // (a local: `RowWriter`)
        defer { row = w }
        w.seconds(k.time)
        w.byte(44)
        w.bytes(app)
        w.byte(44)
        w.bytes(k.reason.staticReportName)
        w.byte(44)
        w.bytes(k.state.staticReportName)
        w.byte(44)
        w.integer(k.band)
        w.byte(44)
        w.mebibytes(k.footprintBytes)
        w.byte(44)
        w.seconds(k.idleMicros)
        w.byte(44)
        w.mebibytes(k.availableBefore)
        w.byte(44)
        w.mebibytes(k.availableAfter)
        w.byte(44)
        w.bytes(policy)
        w.byte(44)
        w.bytes(k.priorityClass.staticReportName)
        w.bytes(k.userVisible ? ",true\n" as StaticString : ",false\n")
    }

    public static func field(_ text: String) -> [UInt8] { Array(CSVLine.field(text).utf8) }

    /// App `app`'s ready field among `appNames` (`field(_:)` of each name), empty for an id it does not name: what every
    /// row naming an app writes in its `app` column.
    static func appField(_ app: Int32, _ appNames: [[UInt8]]) -> [UInt8] {
        appNames.indices.contains(Int(app)) ? appNames[Int(app)] : []
    }

    // MARK: apps.csv

    public static let appsHeader = ["app", "launches", "cold_launches", "resumes", "kills", "mean_footprint_mb",
                                    "peak_footprint_mb", "background_launches", "resident_s"]

    /// One `apps.csv` row, written in place (at most `appRowCapacity(a)` bytes).
    static func appRow(_ a: AppSummary, into w: inout RowWriter) {
        w.field(a.name)
        w.byte(44)
        w.integer(a.launches)
        w.byte(44)
        w.integer(a.coldLaunches)
        w.byte(44)
        w.integer(a.resumes)
        w.byte(44)
        w.integer(a.kills)
        w.byte(44)
        w.mebibytes(a.meanFootprintBytes)
        w.byte(44)
        w.mebibytes(a.peakFootprintBytes)
        w.byte(44)
        w.integer(a.backgroundLaunches)
        w.byte(44)
        w.seconds(a.residentMicros)
        w.byte(10)
    }

    /// The widest an app's row can be: its name quoted, eight numbers at their widest and the separators.
    static func appRowCapacity(_ a: AppSummary) -> Int { RowWriter.fieldCapacity(a.name) + 8 * RowWriter.fixedCapacity(decimals: 3) + 16 }

    /// apps.csv into `file`: the header, then a row per app, each rendered in place.
    static func writeApps(_ r: SimulationResult, to file: AtomicFile) throws(InputError) {
        try file.write(CSVLine.of(appsHeader))
        for a in r.apps { try file.writeRow(capacity: appRowCapacity(a)) { appRow(a, into: &$0) } }
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
        RowWriter.appending(to: &out, capacity: sampleRowCapacity) { sampleRow(s, into: &$0) }
    }

    /// The widest a sample's row can be: six fixed-point numbers, two integers, a pressure name and the separators.
    static let sampleRowCapacity = 256

    /// One `timeseries.csv` row, written in place.
    static func sampleRow(_ s: MemorySample, into w: inout RowWriter) {
        sampleTime(s.time, into: &w)
        sampleState(s, into: &w)
    }

    /// A `timeseries.csv` row's first field: the sample's time (µs) in seconds, to the millisecond.
    @inline(__always)
    static func sampleTime(_ time: Int, into w: inout RowWriter) {
        w.seconds(time)
    }

    /// A `timeseries.csv` row after its time (from the first comma to the newline): the same for every sample of an
    /// unchanged state.
    static func sampleState(_ s: MemorySample, into row: inout RowWriter) {
        var w = row   // (a local: `RowWriter`)
        defer { row = w }
        w.byte(44)
        w.mebibytes(s.availableBytes)
        w.byte(44)
        w.bytes(s.pressure.staticReportName)
        w.byte(44)
        w.integer(s.residentApps)
        w.byte(44)
        w.integer(s.suspendedApps)
        w.byte(44)
        w.mebibytes(s.compressorBytes)
        w.byte(44)
        w.mebibytes(s.freeBytes)
        w.byte(44)
        w.mebibytes(s.footprintBytes)
        w.byte(10)
    }

    // MARK: events.csv

    public static let eventsHeader = ["time", "app", "from_state", "to_state", "callback", "footprint_mb", "deadline_s", "cause"]

    /// One `events.csv` row, written in place (at most `eventRowCapacity` bytes); `app` is the app's field (`appField`).
    static func eventRow(_ e: LifecycleRecord, app: UnsafeBufferPointer<UInt8>, into row: inout RowWriter) {
        var w = row   // (a local: `RowWriter`)
        defer { row = w }
        w.seconds(e.time)
        w.byte(44)
        w.bytes(app)
        w.byte(44)
        w.bytes(e.from.staticReportName)
        w.byte(44)
        w.bytes(e.to.staticReportName)
        w.byte(44)
        w.bytes(e.callback.reportName)
        w.byte(44)
        w.mebibytes(e.footprintBytes)
        w.byte(44)
        if e.deadlineMicros > 0 { w.seconds(e.deadlineMicros) }
        w.byte(44)
        let cause = e.cause.staticReportName
        w.bytes(cause.name)
        w.bytes(cause.reason)
        w.byte(10)
    }

    /// The widest an event's row can be: its app's field, the state, callback and cause names, three numbers at their
    /// widest and the separators.
    static func eventRowCapacity(_ e: LifecycleRecord, app: UnsafeBufferPointer<UInt8>) -> Int {
        let cause = e.cause.staticReportName
        return app.count + e.from.staticReportName.utf8CodeUnitCount + e.to.staticReportName.utf8CodeUnitCount
            + e.callback.reportName.utf8.count + cause.name.utf8CodeUnitCount + cause.reason.utf8CodeUnitCount
            + 3 * RowWriter.fixedCapacity(decimals: 3) + 8
    }

    /// Writes summary.csv and apps.csv into `directory` and commits the files streamed during the run (kills.csv,
    /// timeseries.csv, events.csv, live.csv: `ReportStream`, `LiveFileWriter`) with them. Files are prepared
    /// first and renamed only when all were written, so an error leaves no new report behind.
    public static func write(_ r: SimulationResult, labels: RunLabels, to directory: String, streamed: [AtomicFile]) throws(InputError) {
        try makeDirectories(directory)
        let summary = try AtomicFile(path: directory + "/summary.csv")
        try summary.write(summaryCSV(r, labels: labels))
        let apps = try AtomicFile(path: directory + "/apps.csv")
        try writeApps(r, to: apps)
        for f in [summary, apps] + streamed { try f.commit() }
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
    /// App names and the policy as ready CSV fields (freed in `deinit`), and one line's bytes reused row after row.
    private let appFields: ReadyFields
    private let policyField: ReadyFields
    /// The last sample whose row was rendered, and that row: a sample of the same state reuses it.
    private var previousSample: MemorySample?
    private let previousRow = TimeseriesRowTemplate(stateCapacity: ReportFiles.sampleRowCapacity)
    public private(set) var failure: InputError? { didSet { failed = failure != nil } }
    /// Whether `failure` is set, as a plain flag: tested at every row, where an optional error's comparison with nil
    /// goes through its value witnesses.
    private var failed = false

    public init(directory: String, appNames: [String], policy: String, events withEvents: Bool) throws(InputError) {
        kills = try AtomicFile(path: directory + "/kills.csv")
        timeseries = try AtomicFile(path: directory + "/timeseries.csv")
        events = withEvents ? try AtomicFile(path: directory + "/events.csv") : nil
        appFields = ReadyFields(appNames)
        policyField = ReadyFields([policy])
        try kills.write(CSVLine.of(ReportFiles.killsHeader))
        try timeseries.write(CSVLine.of(ReportFiles.timeseriesHeader))
        try events?.write(CSVLine.of(ReportFiles.eventsHeader))
    }

    deinit {
        appFields.deallocate()
        policyField.deallocate()
    }

    /// Every streamed file, for `ReportFiles.write(streamed:)`.
    public var files: [AtomicFile] { [kills, timeseries] + (events.map { [$0] } ?? []) }

    public var recordsLifecycle: Bool { events != nil }

    public func record(_ record: LifecycleRecord) {
        guard !failed, let events else { return }
        let app = appFields[record.app]
        do {
            try events.writeRow(capacity: ReportFiles.eventRowCapacity(record, app: app)) { ReportFiles.eventRow(record, app: app, into: &$0) }
        } catch { failure = error }
    }

    public func record(kill: KillRecord) {
        guard !failed else { return }
        let (policy, app) = (policyField[0], appFields[kill.app])
        do {
            try kills.writeRow(capacity: ReportFiles.killRowCapacity(kill, policy: policy, app: app)) {
                ReportFiles.killRow(kill, policy: policy, app: app, into: &$0)
            }
        } catch { failure = error }
    }

    public func record(sample: MemorySample) {
        _ = writeRow(of: sample, startingRowsEvery: 0)
    }

    /// An idle stretch's samples: the first as any other, the rest rows of its state at their times. When the
    /// interval is whole milliseconds, their time fields are advanced digit by digit from the first's
    /// (`TimeseriesRowTemplate.advancedRows`).
    public func record(sample: MemorySample, repeated count: Int, every interval: Int) {
        guard count > 0 else { return }
        let started = writeRow(of: sample, startingRowsEvery: count > 1 ? interval : 0)
        guard !failed, count > 1 else { return }
        let template = previousRow
        guard started else {
            return sameState(at: stride(from: sample.time + interval, through: sample.time + (count - 1) * interval, by: interval))
        }
        do {
            try timeseries.writeRows(count - 1, capacity: template.copyRoom) { at, rows in template.advancedRows(rows, to: at) }
        } catch { failure = error }
    }

    /// A growing foreground app's stretch: each sample projected where it is rendered (`GrowingSamples`), its row
    /// rendered whole, the rows a room's worth at a time (`AtomicFile.writeRows`). Each sample's state differs from the one
    /// before it but where the growth stops at its cap, whose rows render the same bytes: so no comparison with the last
    /// sample and no copy of its state a row (`writeRow`), only the last row's, for the samples after the stretch.
    public func record(growing: GrowingSamples, count: Int, every interval: Int) {
        guard !failed, count > 0 else { return }
        let first = growing.state.time
        var k = 0
        do {
            try timeseries.writeRows(count, capacity: ReportFiles.sampleRowCapacity) { at, rows in
                RowWriter.render(into: at, capacity: rows * ReportFiles.sampleRowCapacity) { row in
                    var w = row   // (a local: `RowWriter`)
                    defer { row = w }
                    var stateStart = 0
                    for _ in 0..<rows {
                        let sample = growing.sample(at: first + k * interval)   // (the times `GrowingSamples.samples` gives)
                        k += 1
                        ReportFiles.sampleTime(sample.time, into: &w)
                        stateStart = w.count
                        ReportFiles.sampleState(sample, into: &w)
                    }
                    previousRow.setState(w.written(from: stateStart))   // (before the file's buffer moves)
                }
            }
        } catch { failure = error }
        previousSample = growing.sample(at: first + (count - 1) * interval)
    }

    /// Writes `sample`'s row, its state rendered only when it differs from the last sample's (and then kept in
    /// `previousRow`); with a `step`, starts `previousRow`'s rows after this one at that step and says whether it could.
    private func writeRow(of sample: MemorySample, startingRowsEvery step: Int) -> Bool {
        guard !failed else { return false }
        let template = previousRow
        let unchanged = previousSample.map { sample.differsOnlyInTime(from: $0) } ?? false
        var started = false
        do {
            try timeseries.writeRow(capacity: ReportFiles.sampleRowCapacity) { w in
                ReportFiles.sampleTime(sample.time, into: &w)
                let stateStart = w.count
                if step > 0 { started = template.start(after: w.written(from: 0), step: step) }
                if unchanged {
                    w.bytes(template.state)
                } else {
                    ReportFiles.sampleState(sample, into: &w)
                    template.setState(w.written(from: stateStart))
                }
            }
        } catch { failure = error }
        if !unchanged { previousSample = sample }
        return started
    }

    /// Rows of the last sample's state (its row after the time, kept in `previousRow`) at `times`.
    private func sameState<Times: Sequence<Int>>(at times: Times) {
        let state = previousRow.state
        do {
            for time in times {
                try timeseries.writeRow(capacity: ReportFiles.sampleRowCapacity) { w in
                    ReportFiles.sampleTime(time, into: &w)
                    w.bytes(state)
                }
            }
        } catch { failure = error }
    }
}
