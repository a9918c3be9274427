import ArgumentParser
import JetsimCore
import JetsimIO
import JetsimWorkloads

/// `jetsim import` — real traces and jetsam reports to Jetsim's formats.
public struct ImportCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Convert a real usage trace (lsapp, intervals, libcachesim) or an iOS JetsamEvent report to Jetsim's formats.",
        discussion: """
        Usage traces become DIR/trace.csv plus DIR/apps.csv for the apps seen (profiles from the name → category
        table in README, "Workloads"), ready for `jetsim run`. A jetsam-event report becomes DIR/apps.csv and
        DIR/device.yaml. Inputs stream in constant memory; .gz files are read transparently. A bad row stops the
        import with its file and line, or, with --skip-bad, is counted and skipped. Usage traces show only the app on
        screen: background audio and navigation exist only with --background-play; --app-overrides corrects the table.

        Formats:
          lsapp         LSApp TSV: user_id, session_id, timestamp, app_name, event_type (Opened/Closed/User Interaction/Broken)
          intervals     CSV user,start,end,app (ISO-8601, or epoch seconds or milliseconds: --time-unit)
          libcachesim   libCacheSim CSV: time, obj-id, obj-size (--csv-fields to remap)
          jetsam-event  an iOS JetsamEvent report (.ips)

        Examples:
          jetsim import lsapp lsapp.tsv.gz --out /tmp/lsapp --user 17
          jetsim import intervals usage.csv --out /tmp/usage --merge-gap 10
          jetsim import intervals usage.csv --out /tmp/usage --time-unit s
          jetsim import intervals usage.csv --out /tmp/usage --background-play 30m --app-overrides my-apps.csv
          jetsim import jetsam-event JetsamEvent-2024-01-05.ips --out /tmp/phone
        """
    )

    @Argument(help: "Input format: lsapp, intervals, libcachesim or jetsam-event.") var format: String
    @Argument(help: "The input file (.gz accepted for traces).") var file: String
    @Option(help: "Output directory.") var out: String
    @Option(help: "Import one user only (lsapp, intervals).") var user: String?
    @Option(help: "Seconds within which intervals of the same app merge, and a switch needs no home (intervals).") var mergeGap = "5"
    @Option(help: "libCacheSim CSV field numbers, e.g. 'time=1,obj-id=2,obj-size=3'.") var csvFields: String?
    @Option(help: ArgumentHelp("How epoch-number times count (lsapp, intervals): s, ms, or auto (the file's first epoch number decides: 9–11 digits or a decimal point seconds, 12–15 digits milliseconds).", valueName: "auto|s|ms"))
    var timeUnit: String?
    @Option(help: ArgumentHelp("Keep music apps playing (audio) and navigation apps navigating (location) this long after they are left, e.g. 30m, or until opened again (lsapp, intervals; default: never). The category comes from the name table or --app-overrides.", valueName: "duration"))
    var backgroundPlay: String?
    @Option(help: ArgumentHelp("CSV of per-app corrections: header app,category (optional dirty_mb, growth_mb_per_min); an empty cell keeps the table's value (lsapp, intervals).", valueName: "file"))
    var appOverrides: String?
    @Flag(help: "Skip malformed rows (counted in the output) instead of stopping.") var skipBad = false

    public init() {}

    public func validate() throws {
        guard ["lsapp", "intervals", "libcachesim", "jetsam-event"].contains(format) else {
            throw ValidationError("unknown format '\(format)' (lsapp, intervals, libcachesim, jetsam-event)")
        }
        // An option that does not apply to the format is an error, never silently ignored.
        if user != nil, !["lsapp", "intervals"].contains(format) { throw ValidationError("--user applies to lsapp and intervals, not \(format)") }
        if csvFields != nil, format != "libcachesim" { throw ValidationError("--csv-fields applies to libcachesim, not \(format)") }
        if let timeUnit {
            guard EpochUnit(rawValue: timeUnit) != nil else { throw ValidationError("--time-unit must be auto, s or ms, found '\(InputError.excerpt(timeUnit))'") }
            guard ["lsapp", "intervals"].contains(format) else { throw ValidationError("--time-unit applies to lsapp and intervals, not \(format)") }
        }
        for (given, name) in [(backgroundPlay, "--background-play"), (appOverrides, "--app-overrides")] where given != nil {
            guard ["lsapp", "intervals"].contains(format) else { throw ValidationError("\(name) applies to lsapp and intervals, not \(format)") }
        }
        if let backgroundPlay {
            guard let micros = Durations.micros(backgroundPlay), micros >= 0, micros <= DecimalParser.maxMicros else {
                throw ValidationError("--background-play takes a duration such as 30m, 1h or 90s (at most 2^60 µs), found '\(InputError.excerpt(backgroundPlay))'")
            }
        }
        guard let gap = Array(mergeGap.utf8).withUnsafeBufferPointer({ DecimalParser.scaled($0, unit: Units.microsPerSecond) }), gap >= 0 else {
            throw ValidationError("--merge-gap must be a number of seconds ≥ 0")
        }
    }

    public func run() throws {
        try reportingErrors {
            if format == "jetsam-event" {
                let result = try JetsamEventImporter.parse(path: file)
                try inReportDirectory(out, replaceable: OutputNames.workload) { staging in
                    let apps = try AtomicFile(path: staging + "/apps.csv"), device = try AtomicFile(path: staging + "/device.yaml")
                    try apps.write(WorkloadFiles.catalogCSV(result.apps))
                    try device.write(result.deviceYAML)
                    try apps.commit()
                    try device.commit()
                }
                print("\(result.apps.count) apps and a device → \(out)/ (apps.csv, device.yaml)")
                return
            }
            let unit = timeUnit.flatMap(EpochUnit.init(rawValue:)) ?? .auto
            let overrides = try appOverrides.map { path throws(InputError) in try AppOverrides.read(path: path) }
            let writer = try ImportWriter(directory: out, source: file)
            if let overrides { writer.overrides = overrides }
            writer.backgroundPlayMicros = backgroundPlay.flatMap(Durations.micros) ?? 0
            switch format {
            case "lsapp":
                try LSAppImporter.run(path: file, writer: writer, user: user, skipBad: skipBad, timeUnit: unit)
            case "intervals":
                let gap = Array(mergeGap.utf8).withUnsafeBufferPointer { DecimalParser.scaled($0, unit: Units.microsPerSecond) } ?? 0
                try IntervalsImporter.run(path: file, writer: writer, user: user, mergeGapMicros: gap, skipBad: skipBad, timeUnit: unit)
            default:
                try LibCacheSimImporter.run(path: file, writer: writer, fields: try csvFields.map { try LibCacheSimTrace.Fields(parsing: $0) } ?? .init())
            }
            guard writer.rows > 0 else { throw InputError(file: file, message: user == nil ? "no events to import" : "no events for user '\(InputError.excerpt(user ?? ""))'") }
            try writer.commit()
            let absent = overrides?.apps.filter { !writer.contains(app: $0) } ?? []
            if !absent.isEmpty {
                printError("note: \(absent.count) app(s) of --app-overrides are not in the trace: "
                           + InputError.excerpt(absent.joined(separator: ", "), limit: 200))
            }
            print("\(writer.rows) events, \(writer.appCount) apps, \(writer.skipped) rows skipped → \(out)/ (trace.csv, apps.csv)")
        }
    }
}
