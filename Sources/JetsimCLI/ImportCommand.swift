import ArgumentParser
import JetsimCore
import JetsimIO
import JetsimWorkloads

/// `jetsim import FORMAT` — real traces and jetsam reports to Jetsim's formats. Each format is its own subcommand,
/// so `jetsim import FORMAT --help` documents that format's columns and takes only the options that apply to it.
public struct ImportCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Convert a real usage trace (lsapp, intervals, studentlife, libcachesim) or an iOS JetsamEvent report to Jetsim's formats.",
        discussion: reflowed("""
        Usage traces become DIR/trace.csv plus DIR/apps.csv for the apps seen (profiles from the name → category
        table in README, "Workloads"), ready for `jetsim run`. A jetsam-event report becomes DIR/apps.csv and
        DIR/device.yaml. Inputs stream in constant memory; .gz files are read transparently. A bad row stops the
        import with its file and line, or, with --skip-bad, is counted and skipped. Usage traces show only the app on
        screen: background audio and navigation exist only with --background-play; --app-overrides corrects the table.
        `jetsim import FORMAT --help` documents each format's columns.

        Examples:
          jetsim import lsapp lsapp.tsv.gz --out /tmp/lsapp --user 17
          jetsim import intervals usage.csv --out /tmp/usage --merge-gap 10
          jetsim import intervals usage.csv --out /tmp/usage --columns user=uid,start=begin,end=finish,app=package
          jetsim import intervals usage.csv --out /tmp/usage --background-play 30m --app-overrides my-apps.csv
          jetsim import studentlife running_app.csv.gz --out /tmp/sl
          jetsim import jetsam-event JetsamEvent-2024-01-05.ips --out /tmp/phone
        """),
        subcommands: [ImportLSAppCommand.self, ImportIntervalsCommand.self, ImportStudentLifeCommand.self, ImportLibCacheSimCommand.self,
                      ImportJetsamEventCommand.self]
    )

    public init() {}
}

/// What every import takes: the input and the output directory.
struct ImportInputOptions: ParsableArguments {
    @Argument(help: "The input file (.gz accepted).") var file: String
    @Option(help: "Output directory.") var out: String
}

/// The options of the usage-trace formats with users and epoch times (lsapp, intervals).
struct ImportUsageOptions: ParsableArguments {
    @Option(help: "Import one user only.") var user: String?
    @Option(help: ArgumentHelp("How epoch-number times count: s, ms, or auto (the file's first epoch number decides: 9–11 digits or a decimal point seconds, 12–15 digits milliseconds).", valueName: "auto|s|ms"))
    var timeUnit: String?
    @Option(help: ArgumentHelp("Keep music apps playing (audio) and navigation apps navigating (location) this long after they are left, e.g. 30m, or until opened again (default: never). The category comes from the name table or --app-overrides.", valueName: "duration"))
    var backgroundPlay: String?
    @Option(help: ArgumentHelp("CSV of per-app corrections: header app,category (optional dirty_mb, growth_mb_per_min); an empty cell keeps the table's value.", valueName: "file"))
    var appOverrides: String?
    @Flag(help: "Skip malformed rows (counted in the output) instead of stopping.") var skipBad = false
    @Option(help: ArgumentHelp("Whose app sizes apps.csv gets: 2020s (today's phones) or android-2013 (Android 4.x phones of the StudentLife study); default 2020s, android-2013 for studentlife. The category still comes from the name table or --app-overrides, whose dirty_mb wins.",
                               valueName: "era"))
    var catalogEra: String?

    func validate() throws {
        if let catalogEra, CatalogEra.named(catalogEra) == nil {
            throw ValidationError("--catalog-era must be \(CatalogEra.all.map(\.name).joined(separator: " or ")), found '\(InputError.excerpt(catalogEra))'")
        }
        if let timeUnit, EpochUnit(rawValue: timeUnit) == nil {
            throw ValidationError("--time-unit must be auto, s or ms, found '\(InputError.excerpt(timeUnit))'")
        }
        if let backgroundPlay {
            guard let micros = Durations.micros(backgroundPlay), micros >= 0, micros <= DecimalParser.maxMicros else {
                throw ValidationError("--background-play takes a duration such as 30m, 1h or 90s (at most 2^60 µs), found '\(InputError.excerpt(backgroundPlay))'")
            }
        }
    }

    var unit: EpochUnit { timeUnit.flatMap(EpochUnit.init(rawValue:)) ?? .auto }

    /// `--columns` read over `format`'s fields (the format's own names when not given).
    func columns(_ text: String?, format: ImportColumns) throws(InputError) -> ImportColumns {
        try text.map { text throws(InputError) in try ImportColumns(parsing: text, format: format) } ?? format
    }
}

/// Runs an import of a usage trace into `input.out`: `body` fills the writer; nothing is published when no event came.
/// `usage` (lsapp, intervals, studentlife) brings the app overrides, background play and the catalog era (`era` when
/// not given). `body` returns lines printed after the summary; `files` names what the output holds.
private func importTrace(_ input: ImportInputOptions, usage: ImportUsageOptions?, era: CatalogEra = .current, perUser: Bool = false,
                         files: String = "trace.csv, apps.csv", _ body: (ImportWriter) throws -> [String]) throws {
    try reportingErrors {
        let user = usage?.user
        var overrides = try usage?.appOverrides.map { path throws(InputError) in try AppOverrides.read(path: path) } ?? AppOverrides()
        overrides.era = usage?.catalogEra.flatMap(CatalogEra.named) ?? era
        let writer = try ImportWriter(directory: input.out, source: input.file, perUser: perUser)
        writer.overrides = overrides
        writer.backgroundPlayMicros = usage?.backgroundPlay.flatMap(Durations.micros) ?? 0
        let notes = try body(writer)
        guard writer.rows > 0 else {
            throw InputError(file: input.file, message: user == nil ? "no events to import" : "no events for user '\(InputError.excerpt(user ?? ""))'")
        }
        try writer.commit()
        let absent = overrides.apps.filter { !writer.contains(app: $0) }
        if !absent.isEmpty {
            printError("note: \(absent.count) app(s) of --app-overrides are not in the trace: "
                       + InputError.excerpt(absent.joined(separator: ", "), limit: 200))
        }
        print("\(writer.rows) events, \(writer.appCount) apps, \(writer.skipped) rows skipped → \(input.out)/ (\(files))")
        for line in notes { print(line) }
    }
}

private func importTrace(_ input: ImportInputOptions, usage: ImportUsageOptions?, _ body: (ImportWriter) throws -> Void) throws {
    try importTrace(input, usage: usage) { writer in
        try body(writer)
        return []
    }
}

/// `jetsim import lsapp`.
struct ImportLSAppCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lsapp",
        abstract: "Import the LSApp dataset (tab-separated app events per user and session).",
        discussion: reflowed("""
        Columns, tab-separated, in this order (a header row `user_id ...` is skipped), or found by name in the header
        with --columns:
          user_id      the user (--user selects one)
          session_id   the session; a session's end is a return to the home screen
          timestamp    ISO-8601 (2018-01-16 06:01:05) or epoch seconds or milliseconds (--time-unit)
          app_name     the app
          event_type   Opened, Closed, User Interaction or Broken (skipped)
        Rows are sorted by user, session and time, as published. A Closed followed by an Opened within the same
        second is a switch; any other Closed a return home. Users follow one another an hour apart.

        Examples:
          jetsim import lsapp lsapp.tsv.gz --out /tmp/lsapp --user 17
          jetsim import lsapp events.tsv --out /tmp/ev --columns user_id=uid,timestamp=when,app_name=package
        """)
    )

    @OptionGroup var input: ImportInputOptions
    @OptionGroup var usage: ImportUsageOptions
    @Option(help: ArgumentHelp("The header names of this file's columns: user_id, session_id, timestamp, app_name, event_type (any subset; the rest keep their names).",
                               valueName: "field=name,..."))
    var columns: String?

    func run() throws {
        try importTrace(input, usage: usage) { writer in
            try LSAppImporter.run(path: input.file, writer: writer, user: usage.user, skipBad: usage.skipBad, timeUnit: usage.unit,
                                  columns: try usage.columns(columns, format: .lsapp))
        }
    }
}

/// `jetsim import intervals`.
struct ImportIntervalsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "intervals",
        abstract: "Import foreground intervals (CSV: user, start, end, app).",
        discussion: reflowed("""
        Columns, found by name in the header row (in any order, among any others), or under this file's own names with
        --columns:
          user    the user (--user selects one)
          start   when the app came to the foreground: ISO-8601 (2024-01-05T10:00:00Z, 2024-01-05 10:00) or epoch
                  seconds or milliseconds (--time-unit)
          end     when it left the foreground, in the same form
          app     the app
        Rows are sorted by user, then start. Intervals of the same app less than --merge-gap apart merge; a shorter
        gap between apps is a direct switch, a longer one a return home. Users follow one another an hour apart.

        Examples:
          jetsim import intervals usage.csv --out /tmp/usage --merge-gap 10
          jetsim import intervals usage.csv --out /tmp/usage --time-unit s
          jetsim import intervals screen.csv --out /tmp/screen --columns user=participant,start=begin,end=finish,app=package
        """)
    )

    @OptionGroup var input: ImportInputOptions
    @OptionGroup var usage: ImportUsageOptions
    @Option(help: "Seconds within which intervals of the same app merge, and a switch needs no home.") var mergeGap = "5"
    @Option(help: ArgumentHelp("The header names of this file's columns: user, start, end, app (any subset; the rest keep their names).",
                               valueName: "field=name,..."))
    var columns: String?

    func validate() throws {
        guard let gap = Array(mergeGap.utf8).withUnsafeBufferPointer({ DecimalParser.scaled($0, unit: Units.microsPerSecond) }), gap >= 0 else {
            throw ValidationError("--merge-gap must be a number of seconds ≥ 0")
        }
    }

    func run() throws {
        let gap = Array(mergeGap.utf8).withUnsafeBufferPointer { DecimalParser.scaled($0, unit: Units.microsPerSecond) } ?? 0
        try importTrace(input, usage: usage) { writer in
            try IntervalsImporter.run(path: input.file, writer: writer, user: usage.user, mergeGapMicros: gap, skipBad: usage.skipBad,
                                      timeUnit: usage.unit, columns: try usage.columns(columns, format: .intervals))
        }
    }
}

/// `jetsim import studentlife`.
struct ImportStudentLifeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "studentlife",
        abstract: "Import StudentLife running_app snapshots (Android recent-task lists every 20 min): a trace per user and the measured ground truth.",
        discussion: reflowed("""
        Columns, found by name in the header row (in any order, among any others), or under this file's own names with
        --columns FIELD=NAME:
          user     userId (optional: without it the file is one user, named by a '_uNN' in the file name, else 1)
          time     timestamp: the snapshot, epoch seconds (all rows of a snapshot share it)
          app      RUNNING_TASKS_baseActivity_mPackage: the task's package
          task     RUNNING_TASKS_id
          running  RUNNING_TASKS_numRunning: 0 means the task's process was killed while it stayed in recents
          rank     rank_in_snapshot: 0 is the foreground task, then the recents in order
        Rows are grouped by user, times not decreasing. Writes DIR/trace-user-USER.csv (times from 0 each: the first
        snapshot at 1200 s, after a lead-in replaying its recents), DIR/apps.csv (sizes of --catalog-era, android-2013 by
        default) and DIR/snapshots.csv (user,time,app,rank,alive,task for every task of every snapshot). Rank-0 changes are
        switches at the snapshot time, a launcher at rank 0 the home screen; a task that moved up in recents without
        being in front was used in between (a 30 s use); gaps over 2 h are not continuous use. Duplicate (user,
        timestamp, task) rows are dropped and counted. README, "StudentLife", has the details and limits.

        Examples:
          jetsim import studentlife running_app_u00-u01.csv.gz --out /tmp/sl
          jetsim import studentlife running_app_u00.csv --out /tmp/u00 --catalog-era 2020s
        """)
    )

    @OptionGroup var input: ImportInputOptions
    @OptionGroup var usage: ImportUsageOptions
    @Option(help: ArgumentHelp("The header names of this file's columns: user, time, app, task, running, rank (any subset; the rest keep the dataset's names).",
                               valueName: "field=name,..."))
    var columns: String?

    func run() throws {
        try importTrace(input, usage: usage, era: .android2013, perUser: true, files: "trace-user-*.csv, apps.csv, snapshots.csv") { writer in
            let summary = try StudentLifeImporter.run(path: input.file, writer: writer, user: usage.user, skipBad: usage.skipBad,
                                                      timeUnit: usage.unit, columns: try usage.columns(columns, format: .studentlife))
            var lines = ["\(summary.snapshotRows) snapshot rows; \(summary.duplicates) duplicate (user, timestamp, task) rows dropped"]
            for u in summary.users {
                let share = FixedPoint.format(u.deadTasks * 100, over: u.backgroundTasks, decimals: 1)
                lines.append("user \(u.user): \(u.snapshots) snapshots, \(writer.rowsPerUser[u.user] ?? 0) events, \(u.backgroundTasks) background tasks, "
                             + "\(share) % dead")
            }
            return lines
        }
    }
}

/// `jetsim import libcachesim`.
struct ImportLibCacheSimCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "libcachesim",
        abstract: "Import a libCacheSim CSV or txt trace: each object an app of its size, each request an open.",
        discussion: reflowed("""
        Columns, by number (1-based, --csv-fields to remap), a header row detected:
          time       seconds (decimals allowed), not decreasing
          obj-id     a numeric object id: the app
          obj-size   bytes, > 0: the app's footprint (an object keeps its first request's size, as in libCacheSim)
        A file with one field per row is libCacheSim's txt format: object ids, size 1, one request a second.

        Examples:
          jetsim import libcachesim requests.csv --out /tmp/req
          jetsim import libcachesim requests.csv --out /tmp/req --csv-fields time=2,obj-id=1,obj-size=3
        """)
    )

    @OptionGroup var input: ImportInputOptions
    @Option(help: "libCacheSim CSV field numbers, e.g. 'time=1,obj-id=2,obj-size=3'.") var csvFields: String?

    func run() throws {
        try importTrace(input, usage: nil) { writer in
            try LibCacheSimImporter.run(path: input.file, writer: writer, fields: try csvFields.map { try LibCacheSimTrace.Fields(parsing: $0) } ?? .init())
        }
    }
}

/// `jetsim import jetsam-event`.
struct ImportJetsamEventCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jetsam-event",
        abstract: "Import an iOS JetsamEvent report (.ips): the apps it lists and the device it came from.",
        discussion: reflowed("""
        Reads the report's one-line JSON header and its JSON body (bug_type 298). Fields used:
          processes[].name, rpages, purgeable, states   apps (not daemons): footprint = rpages × pageSize; background
                                                        modes from states (audio, location)
          memoryStatus.pageSize, memoryPages            the device's memory, with the compressor's pages
          processes[].reason = per-process-limit       that process's footprint is the per-app limit (else 55 % of RAM)
        Apps go to DIR/apps.csv, the device to DIR/device.yaml (for `jetsim run --device DIR/device.yaml`).

        Examples:
          jetsim import jetsam-event JetsamEvent-2024-01-05.ips --out /tmp/phone
        """)
    )

    @OptionGroup var input: ImportInputOptions

    func run() throws {
        try reportingErrors {
            let result = try JetsamEventImporter.parse(path: input.file)
            try inReportDirectory(input.out, replaceable: OutputNames.workload) { staging in
                let apps = try AtomicFile(path: staging + "/apps.csv"), device = try AtomicFile(path: staging + "/device.yaml")
                try apps.write(WorkloadFiles.catalogCSV(result.apps))
                try device.write(result.deviceYAML)
                try apps.commit()
                try device.commit()
            }
            print("\(result.apps.count) apps and a device → \(input.out)/ (apps.csv, device.yaml)")
        }
    }
}
