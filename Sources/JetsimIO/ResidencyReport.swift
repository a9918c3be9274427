import JetsimCore

/// residency.csv (`--residency`): every started app's state at each probe time of each run (`ResidencyProbes`), one
/// row per app and probe; an app killed since it started is `not-running`. The same columns for `run` and `compare`.
public enum ResidencyReport {
    public static let header = ["policy", "device", "trace", "user", "seed", "time", "app", "state", "band", "footprint_mb"]

    /// Appends one run's rows to `out` (a row is built from integers and pre-quoted fields, without a `String`).
    public static func append(_ r: SimulationResult, labels: RunLabels, to out: inout [UInt8]) {
        var prefix: [UInt8] = []
        for field in [r.policy.displayName, r.device.name, labels.trace, labels.user ?? "", String(r.seed)] {
            prefix += ReportFiles.field(field)
            prefix.append(44)
        }
        let names = labels.appNames.map(ReportFiles.field)
        for record in r.residency {
            let name = ReportFiles.appField(record.app, names)
            // The widest row: the prefix and the name, a time and a footprint at their widest, a band, a state, separators.
            RowWriter.appending(to: &out, capacity: prefix.count + name.count + 128) { w in
                w.bytes(prefix)
                w.seconds(record.time)
                w.byte(44)
                w.bytes(name)
                w.byte(44)
                w.bytes(record.state.staticReportName)
                w.byte(44)
                w.integer(record.band)
                w.byte(44)
                w.mebibytes(record.footprintBytes)
                w.byte(10)
            }
        }
    }

    /// The whole file for `runs` (each with its workload's labels, app names included).
    public static func csv(_ runs: [(result: SimulationResult, labels: RunLabels)]) -> [UInt8] {
        var out = Array(CSVLine.of(header).utf8)
        for run in runs { append(run.result, labels: run.labels, to: &out) }
        return out
    }
}
