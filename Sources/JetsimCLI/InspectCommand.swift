import ArgumentParser
import JetsimCore
import JetsimIO
import JetsimWorkloads

/// `jetsim inspect` — what a trace holds, in one streaming pass.
public struct InspectCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Describe a trace: events by type, span, users, apps, launches per hour, top apps, reuse distances, working set.",
        discussion: reflowed("""
        The reuse distance of an open is the number of distinct apps opened since the previous open of the same app:
        an LRU device that keeps d + 1 apps resumes it. The working set is the number of distinct apps opened per hour.
        --csv prints every number as `section,key,value` rows (stable; the hourly working set in full). A trace whose
        hours would exceed 1 000 000 (over 114 years) is refused.

        Examples:
          jetsim inspect Examples/day/trace.csv
          jetsim inspect requests.csv --format libcachesim --csv > stats.csv
        """)
    )

    @Argument(help: "The trace to inspect.") var trace: String
    @Option(help: "Trace format: 'jetsim' or 'libcachesim'.") var format = "jetsim"
    @Option(help: "Check app names against this catalog (default: take them from the trace).") var apps: String?
    @Option(help: "How many top apps to list.") var top = 10
    @Flag(help: "Print section,key,value CSV instead of tables.") var csv = false

    public init() {}

    public func validate() throws {
        guard format == "jetsim" || format == "libcachesim" else { throw ValidationError("--format must be 'jetsim' or 'libcachesim'") }
        guard top >= 0 else { throw ValidationError("--top must not be negative") }
    }

    public func run() throws {
        try reportingErrors {
            var stats = TraceStatistics()
            let names: [String]
            if format == "libcachesim" {
                let lcs = try LibCacheSimTrace(path: trace)
                while let e = try lcs.next() { stats.add(e) }
                names = lcs.catalog.profiles.map(\.name)
            } else {
                let reader = try TraceReader(path: trace, catalog: try apps.map { try CatalogFile.read(path: $0) })
                while let e = try reader.next() { stats.add(e, user: reader.currentUser) }
                names = reader.appNames
            }
            try TimeWindows.check(trace: trace, spanMicros: stats.spanMicros, intervalMicros: 3600 * Units.microsPerSecond,
                                  windows: "its hourly working set", advice: "are its times in seconds?", exitCode: InputError.dataError)
            csv ? printCSV(stats, names: names) : printTables(stats, names: names)
        }
    }

    private func rows(_ s: TraceStatistics, names: [String]) -> [(String, String, String)] {
        var r: [(String, String, String)] = []
        let hours = max(s.spanMicros, 1)
        r.append(("summary", "events", String(s.events)))
        r.append(("summary", "span_s", FixedPoint.seconds(s.spanMicros)))
        r.append(("summary", "users", String(max(1, s.users.count))))
        r.append(("summary", "distinct_apps", String(s.appsSeen.count)))
        r.append(("summary", "apps_opened", String(s.opensByApp.filter { $0 > 0 }.count)))
        r.append(("summary", "launches_per_hour", FixedPoint.format(s.eventsByKind[0] * 3600 * Units.microsPerSecond, over: hours, decimals: 3)))
        r.append(("summary", "first_opens", String(s.firstOpens)))
        r.append(("summary", "reuse_distance_median", s.reuseDistancePercentile(50).map(String.init) ?? ""))
        r.append(("summary", "reuse_distance_p90", s.reuseDistancePercentile(90).map(String.init) ?? ""))
        for kind in TraceEventKind.allCases { r.append(("events", kind.traceName, String(s.eventsByKind[Int(kind.rawValue)]))) }
        for (app, opens) in s.topApps(top) { r.append(("top_apps", names[Int(app)], String(opens))) }
        for (b, count) in zip(TraceStatistics.distanceBuckets, s.bucketCounts()) { r.append(("reuse_distance", b.label, String(count))) }
        for (h, hour) in s.hours.enumerated() { r.append(("working_set", String(h), String(hour.distinctApps))) }
        return r
    }

    private func printCSV(_ s: TraceStatistics, names: [String]) {
        print("section,key,value")
        for (a, b, c) in rows(s, names: names) { print(CSVLine.of([a, b, c]), terminator: "") }
    }

    private func printTables(_ s: TraceStatistics, names: [String]) {
        let r = rows(s, names: names)
        func value(_ section: String, _ key: String) -> String { r.first { $0.0 == section && $0.1 == key }?.2 ?? "" }
        print("\(trace): \(s.events) events over \(FixedPoint.format(s.spanMicros, over: 3600 * Units.microsPerSecond, decimals: 2)) h, "
              + "\(value("summary", "users")) user(s), \(s.appsSeen.count) apps (\(value("summary", "apps_opened")) opened)")
        print("events:   " + r.filter { $0.0 == "events" && $0.2 != "0" }.map { "\($0.1) \($0.2)" }.joined(separator: ", "))
        print("launches: \(value("summary", "launches_per_hour")) per hour")
        print("top apps: " + r.filter { $0.0 == "top_apps" }.map { "\($0.1) \($0.2)" }.joined(separator: ", "))
        let reused = s.reuseDistances.values.reduce(0, +)
        print("reuse distance (distinct apps between two opens of an app): \(reused) reuses, \(s.firstOpens) first opens, "
              + "median \(value("summary", "reuse_distance_median")), p90 \(value("summary", "reuse_distance_p90"))")
        let counts = s.bucketCounts(), peak = max(counts.max() ?? 1, 1)
        for (b, c) in zip(TraceStatistics.distanceBuckets, counts) {
            print("  " + b.label.padding(toLength: 6, withPad: " ", startingAt: 0)
                  + String(repeating: " ", count: max(0, 8 - String(c).count)) + String(c) + "  " + String(repeating: "#", count: c * 40 / peak))
        }
        let active = s.activeHours
        let mean = active.isEmpty ? "0" : FixedPoint.format(active.map(\.distinctApps).reduce(0, +), over: active.count, decimals: 2)
        print("working set: \(mean) distinct apps per active hour, at most \(active.map(\.distinctApps).max() ?? 0) "
              + "(\(active.count) of \(s.hourCount) hours with opens; --csv lists every hour)")
    }
}
