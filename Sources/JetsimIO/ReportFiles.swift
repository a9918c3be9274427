import JetsimCore

/// What identifies a run in its reports.
public struct RunLabels: Sendable {
    public var trace: String
    public var appNames: [String]
    public init(trace: String, appNames: [String]) {
        self.trace = trace
        self.appNames = appNames
    }
}

/// Renders a `SimulationResult` as the report files of `Reports/README.md`. Columns are stable: new columns
/// are only ever appended.
public enum ReportFiles {
    // MARK: summary.csv

    public static var summaryHeader: [String] {
        ["policy", "device", "trace", "seed", "events", "sim_seconds", "launches", "cold_launches", "resumes",
         "hot_launch_ratio", "kills"]
            + KillReason.allCases.map { "kills_" + $0.reportName.replacingOccurrences(of: "-", with: "_") }
            + ["user_visible_kills", "purged_mb", "memory_warnings", "oom_events", "mean_launch_ms", "p95_launch_ms",
               "time_warning_s", "time_critical_s", "mean_resident_apps", "jetsam_kills", "relaunches_after_kill",
               "background_launches", "kills_avoided_by_purge", "terminations", "ignored_events", "compressed_mb",
               "peak_compressor_mb", "freezes", "thaws", "frozen_written_mb"]
    }

    public static func summaryRow(_ r: SimulationResult, labels: RunLabels) -> [String] {
        [r.policy.displayName, r.device.name, labels.trace, String(r.seed), String(r.events),
         FixedPoint.seconds(r.simulatedMicros), String(r.launches), String(r.coldLaunches), String(r.resumes),
         FixedPoint.format(r.resumes, over: r.launches, decimals: 4), String(r.totalKills)]
            + KillReason.allCases.map { String(r.killsByReason[$0] ?? 0) }
            + [String(r.userVisibleKills), FixedPoint.mebibytes(r.purgedBytes), String(r.memoryWarnings),
               String(r.oomEvents), FixedPoint.format(r.totalLaunchMillis, over: r.launches, decimals: 3),
               String(r.p95LaunchMillis), FixedPoint.seconds(r.microsAtWarning), FixedPoint.seconds(r.microsAtCritical),
               meanResidentApps(r), String(r.jetsamKills), String(r.relaunchesAfterKill), String(r.backgroundLaunches),
               String(r.killsAvoidedByPurge), String(r.terminations), String(r.ignoredEvents),
               FixedPoint.mebibytes(r.compressedBytes), FixedPoint.mebibytes(r.peakCompressorBytes),
               String(r.freezes), String(r.thaws), FixedPoint.mebibytes(r.frozenWrittenBytes)]
    }

    static func meanResidentApps(_ r: SimulationResult) -> String {
        guard r.simulatedMicros > 0 else { return "0.000" }
        // Σ(apps × µs) can exceed Int; scale to milli-apps in 128 bits first.
        let milli = r.residentAppMicros * 1000 / Int128(r.simulatedMicros)
        return FixedPoint.format(Int(milli), over: 1000, decimals: 3)
    }

    public static func summaryCSV(_ r: SimulationResult, labels: RunLabels) -> String {
        CSVLine.of(summaryHeader) + CSVLine.of(summaryRow(r, labels: labels))
    }

    // MARK: kills.csv

    public static let killsHeader = ["time", "app", "reason", "state", "band", "footprint_mb", "idle_s",
                                     "available_mb_before", "available_mb_after", "policy", "priority_class", "user_visible"]

    public static func killsCSV(_ r: SimulationResult, labels: RunLabels) -> String {
        var out = CSVLine.of(killsHeader)
        let policy = r.policy.displayName
        for k in r.kills {
            out += CSVLine.of([
                FixedPoint.seconds(k.time), labels.appNames[Int(k.app)], k.reason.reportName, k.state.reportName,
                String(k.band), FixedPoint.mebibytes(k.footprintBytes), FixedPoint.seconds(k.idleMicros),
                FixedPoint.mebibytes(k.availableBefore), FixedPoint.mebibytes(k.availableAfter), policy,
                k.priorityClass.reportName, k.userVisible ? "true" : "false",
            ])
        }
        return out
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

    public static func timeseriesCSV(_ r: SimulationResult) -> String {
        var out = CSVLine.of(timeseriesHeader)
        for s in r.samples {
            out += CSVLine.of([
                FixedPoint.seconds(s.time), FixedPoint.mebibytes(s.availableBytes), s.pressure.reportName,
                String(s.residentApps), String(s.suspendedApps), FixedPoint.mebibytes(s.compressorBytes),
                FixedPoint.mebibytes(s.freeBytes), FixedPoint.mebibytes(s.footprintBytes),
            ])
        }
        return out
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

    /// Writes summary, kills, apps and timeseries into `directory`, each atomically. Files are prepared first and
    /// renamed only when all were written, so an error leaves no new report behind.
    public static func write(_ r: SimulationResult, labels: RunLabels, to directory: String, extra: [AtomicFile] = []) throws(InputError) {
        try makeDirectories(directory)
        let contents = [
            ("summary.csv", summaryCSV(r, labels: labels)),
            ("kills.csv", killsCSV(r, labels: labels)),
            ("apps.csv", appsCSV(r)),
            ("timeseries.csv", timeseriesCSV(r)),
        ]
        var files: [AtomicFile] = []
        for (name, text) in contents {
            let f = try AtomicFile(path: directory + "/" + name)
            try f.write(text)
            files.append(f)
        }
        for f in files + extra { try f.commit() }
    }
}

/// Streams lifecycle records into `events.csv` (a temporary file until the run's reports are committed).
public struct EventsFileObserver: SimulationObserver {
    public let file: AtomicFile
    private let appNames: [String]
    public private(set) var failure: InputError?

    public init(path: String, appNames: [String]) throws(InputError) {
        file = try AtomicFile(path: path)
        self.appNames = appNames
        try file.write(CSVLine.of(ReportFiles.eventsHeader))
    }

    public var recordsLifecycle: Bool { true }

    public mutating func record(_ record: LifecycleRecord) {
        guard failure == nil else { return }
        do { try file.write(ReportFiles.eventLine(record, appNames: appNames)) } catch { failure = error }
    }
}
