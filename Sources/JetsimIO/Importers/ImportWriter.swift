import JetsimCore
import JetsimWorkloads

/// Collects an importer's output: the trace, streamed into a staging directory as rows arrive, and the catalog of the
/// apps seen, written at the end from their categories (or given profiles). Nothing appears at the output
/// directory until `commit` succeeds (`ReportDirectory`); a failed import leaves nothing behind. In memory (`init(inMemory:)`) it writes nothing and `commit` leaves
/// both texts in `output`.
///
/// With `perUser`, each user's events go to their own `trace-user-<user>.csv` (as `jetsim generate --per-user` writes),
/// each with its own times from 0; a user's file is complete when the next user starts, so users must not come back.
/// Importers may add files of their own (`addFile`, e.g. StudentLife's `snapshots.csv`), published with the rest.
///
/// Times are µs from the start of the imported trace, 0 … `DecimalParser.maxMicros` (what Jetsim reads back);
/// importers check their arithmetic against that limit with the row at hand, so `emit` refusing a time is a last
/// resort.
public final class ImportWriter {
    public let directory: String
    private let source: String
    private var trace: AtomicFile?
    /// One trace file per user (`trace-user-<user>.csv`) instead of one `trace.csv`.
    public let perUser: Bool
    /// The user whose trace file is open (`perUser`), and the users whose files are complete.
    private var traceUser: String?
    private var finishedUsers: Set<String> = []
    /// Each user's trace text, in order, when `perUser` and in memory.
    public private(set) var userTraces: [(user: String, trace: String)] = []
    /// The importer's own files (`addFile`): on disk, or their texts in memory.
    private var extraFiles: [String: AtomicFile] = [:]
    public private(set) var extraTexts: [String: String] = [:]
    /// The staging directory of the output (nil in memory).
    private let reports: ReportDirectory?
    private var memoryTrace: String?
    private var names: [String] = []
    private var ids: [String: Int32] = [:]
    private var profiles: [String: AppProfile] = [:]
    public private(set) var rows = 0
    /// Events written per user.
    public private(set) var rowsPerUser: [String: Int] = [:]
    public private(set) var skipped = 0
    private var lastTime = 0
    /// The trace and catalog texts after `commit` of a writer made `inMemory` (nil otherwise).
    public private(set) var output: (trace: String, apps: String)?
    /// Per-app categories and sizes (`--app-overrides`), used for apps.csv and for `backgroundPlayMicros`.
    public var overrides = AppOverrides()
    /// How long an app whose category plays when left (`AppCategory.playedWhenLeft`: music, navigation) keeps that
    /// mode on after the user leaves it (`--background-play`); 0 writes no modes. Usage traces record only what was
    /// on screen, so without it a music app never plays in the background.
    public var backgroundPlayMicros = 0
    /// The app on screen, and the user it belongs to (for `backgroundPlayMicros`).
    private var foreground: (app: String, user: String)?
    /// Modes started when an app was left, each to stop at `time`, in the order they started.
    private var playing: [(time: Int, app: String, mode: BackgroundModes, user: String)] = []

    /// `source` names the input in messages. The trace starts with its header, nothing before it (plain RFC 4180).
    public init(directory: String, source: String, perUser: Bool = false) throws(InputError) {
        self.directory = directory
        self.source = source
        self.perUser = perUser
        let reports = try ReportDirectory(directory, replaceable: OutputNames.workload)
        self.reports = reports
        if !perUser {
            trace = try AtomicFile(path: reports.file("trace.csv"))
            try trace?.write(WorkloadFiles.traceHeader)
        }
    }

    /// A writer that keeps everything in memory (`source` names the input in messages).
    public init(inMemory source: String, perUser: Bool = false) {
        directory = ""
        self.source = source
        self.perUser = perUser
        trace = nil
        reports = nil
        memoryTrace = perUser ? nil : WorkloadFiles.traceHeader
    }

    /// The trace file name of `user` with `perUser`.
    public static func traceName(user: String) -> String { "trace-user-\(user).csv" }

    private func write(_ text: String) throws(InputError) {
        if let trace { try trace.write(text) } else { memoryTrace? += text }
    }

    /// With `perUser`, starts `user`'s trace file now, so that a user without events still has one (header only).
    public func begin(user: String) throws(InputError) { try switchTrace(to: user) }

    /// With `perUser`, makes `user`'s trace the one written: the previous user's file is completed (its modes stopped)
    /// and a new one started, with times from 0 again.
    private func switchTrace(to user: String) throws(InputError) {
        guard perUser, user != traceUser else { return }
        guard !finishedUsers.contains(user) else {
            throw InputError(file: source, message: "user '\(InputError.excerpt(user))' comes back after another user: rows must be grouped by user")
        }
        try finishTrace()
        traceUser = user
        lastTime = 0
        if let reports {
            trace = try AtomicFile(path: reports.file(Self.traceName(user: user)))
            try trace?.write(WorkloadFiles.traceHeader)
        } else {
            memoryTrace = WorkloadFiles.traceHeader
        }
    }

    /// Completes the open per-user trace: stops its modes and commits the file within the staging directory (so that
    /// many users never hold many descriptors; nothing appears until `commit` publishes the directory).
    private func finishTrace() throws(InputError) {
        guard perUser, let user = traceUser else { return }
        try stopAllModes()
        if let trace { try trace.commit() }
        if let text = memoryTrace { userTraces.append((user, text)) }
        trace = nil
        memoryTrace = nil
        finishedUsers.insert(user)
        traceUser = nil
    }

    /// Adds a file of the importer's own, written with `write(_:to:)` and published with the traces.
    public func addFile(_ name: String) throws(InputError) {
        if let reports { extraFiles[name] = try AtomicFile(path: reports.file(name)) } else { extraTexts[name] = "" }
    }

    /// Appends `text` to the file `name` of `addFile`.
    public func write(_ text: String, to name: String) throws(InputError) {
        if let file = extraFiles[name] { try file.write(text) } else { extraTexts[name, default: ""] += text }
    }

    /// `micros` as a trace writes times: seconds with 3 decimals, or 6 when the time has a fraction of a millisecond.
    public static func seconds(_ micros: Int) -> String {
        micros % 1000 == 0 ? FixedPoint.format(micros, over: Units.microsPerSecond, decimals: 3)
                           : FixedPoint.format(micros, over: Units.microsPerSecond, decimals: 6)
    }

    /// Registers an app with a known profile (libCacheSim sizes, jetsam reports) instead of its category's.
    public func define(_ profile: AppProfile) {
        profiles[profile.name] = profile
        _ = id(profile.name)
    }

    private func id(_ name: String) -> Int32 {
        if let id = ids[name] { return id }
        names.append(name)
        ids[name] = Int32(names.count - 1)
        return Int32(names.count - 1)
    }

    /// Times are clamped to be non-decreasing (importers feed them in order already). An app is written as the name
    /// it was first seen with: names Swift takes as equal (`é` composed or not) are one app, also for Jetsim's
    /// readers, which compare trace names byte by byte.
    public func emit(time: Int, app: String?, _ kind: TraceEventKind, value: String = "", user: String = "1") throws(InputError) {
        guard time >= 0 && time <= DecimalParser.maxMicros else {
            throw InputError(file: source, message: "an imported time of \(time) µs is outside 0 … 2^60 µs (the trace limit)")
        }
        try switchTrace(to: user)
        let t = max(time, lastTime)
        lastTime = t
        if backgroundPlayMicros > 0 { try play(at: t, kind, app: app, user: user) }
        try row(t, app, kind, value, user)
    }

    private func row(_ time: Int, _ app: String?, _ kind: TraceEventKind, _ value: String, _ user: String) throws(InputError) {
        let name = app.map { names[Int(id($0))] }
        try write(CSVLine.of([Self.seconds(time), name ?? "", kind.traceName, value, user]))
        rows += 1
        rowsPerUser[user, default: 0] += 1
    }

    /// Before an event at `time`: stops the modes whose time is up (all of another user's, at once), and when the
    /// event leaves an app that plays when left, starts its mode (`mode_start` just before the event, while the app
    /// is still running) until `backgroundPlayMicros` later or until it is opened again, when it plays on screen.
    private func play(at time: Int, _ kind: TraceEventKind, app: String?, user: String) throws(InputError) {
        while let first = playing.indices.min(by: { playing[$0].time < playing[$1].time }),
              playing[first].time <= time || playing[first].user != user {
            let p = playing.remove(at: first)
            try row(min(p.time, time), p.app, .modeStop, p.mode.reportName, p.user)
        }
        if foreground?.user != user { foreground = nil }
        guard kind == .open || kind == .home else { return }
        if let left = foreground?.app, left != app, let mode = AppCategory.playedWhenLeft[overrides.category(for: left).name] {
            playing.removeAll { $0.app == left && $0.user == user }
            try row(time, left, .modeStart, mode.reportName, user)
            playing.append((min(time + backgroundPlayMicros, DecimalParser.maxMicros), left, mode, user))
        }
        if let app { playing.removeAll { $0.app == app && $0.user == user } }
        foreground = app.map { ($0, user) }
    }

    public func skip() { skipped += 1 }

    /// Registers `app` for the catalog without an event (an app seen only in the background).
    public func register(app: String) { _ = id(app) }

    public var lastEmittedTime: Int { lastTime }

    /// Writes `apps.csv` for every app seen and renames both files into place (in memory: fills `output`).
    public func commit() throws(InputError) {
        try stopAllModes()
        try finishTrace()
        let catalog = names.map { profiles[$0] ?? overrides.profile(for: $0) }
        guard let reports else {
            output = (memoryTrace ?? "", WorkloadFiles.catalogCSV(catalog))
            return
        }
        let apps = try AtomicFile(path: reports.file("apps.csv"))
        try apps.write(WorkloadFiles.catalogCSV(catalog))
        try trace?.commit()
        try apps.commit()
        for name in extraFiles.keys.sorted() { try extraFiles[name]?.commit() }
        try reports.publish()
    }

    /// Ends every mode still playing, in the order they end, no earlier than the last event.
    private func stopAllModes() throws(InputError) {
        for p in playing.sorted(by: { $0.time < $1.time }) { try row(max(p.time, lastTime), p.app, .modeStop, p.mode.reportName, p.user) }
        playing = []
    }

    public var appCount: Int { names.count }

    /// Whether `app` is in the imported trace.
    public func contains(app: String) -> Bool { ids[app] != nil }

    /// `time` of an input row placed in the imported trace: `offset + (time − base)`, or nil when that is negative,
    /// overflows or passes `DecimalParser.maxMicros`.
    static func shifted(_ time: Int, base: Int, offset: Int) -> Int? {
        let (delta, o1) = time.subtractingReportingOverflow(base)
        let (t, o2) = offset.addingReportingOverflow(delta)
        guard !o1, !o2, t >= 0, t <= DecimalParser.maxMicros else { return nil }
        return t
    }

    /// Between the last event of one user and the first of the next.
    static let gapBetweenUsers = 3600 * Units.microsPerSecond

    /// Why a shifted time was refused, for the importers' messages.
    static let pastTheLimit = "the imported trace would pass its limit of 1152921504606 s (2^60 µs, about 36 000 years; "
        + "users follow one another an hour apart)"
}
