import JetsimCore

/// Imports the StudentLife study's `running_app` snapshots (Android 4.x, 2013): every 20 minutes each phone logged
/// its recent-task list, rank 0 the foreground task, and per task `numRunning`, 0 when the task's process had been
/// killed while the task stayed in recents. Columns by header name (`ImportColumns.studentlife`; `userId` optional,
/// else the user comes from a file name `…_uNN…`, else `1`); rows grouped by user, times not decreasing within a
/// user, a snapshot's rows together (the dataset's order). Streams with one snapshot of lookahead.
///
/// Writes one trace per user (`trace-user-<user>.csv`, times from 0 each) and `snapshots.csv`, the measured ground
/// truth: one row per task of every snapshot (`user,time,app,rank,alive,task`, alive = numRunning > 0), in the trace's
/// time base. A task's app is its root activity's package.
///
/// Time base: trace time = `leadInMicros` + (snapshot time − the user's first snapshot time); in the lead-in the
/// first snapshot's recents are replayed, as if an empty recents list with the home screen in front had been seen
/// one snapshot period before it, so the simulated phone starts with the measured tasks launched.
///
/// The heuristic, between two consecutive snapshots A (time a) and B (time b) of a user:
/// 0. First, shortly after a (`shortUseMicros`, at most half a slot of step 2), every app with a task in A and none in B
///    gets `finish`: its task was finished (Back from its root activity, or swiped from recents), so on Android its
///    process, if alive, holds no activity any more. When that app was A's foreground one, the home screen is where
///    the uses of step 2 return to.
/// 1. Used in between: a task of B below rank 0 that A lacks (launched since), or that is now ahead of a task that was
///    ahead of it in A (it overtook it in the recents order, so it was used after that one). Tasks at rank 0 in A
///    cannot overtake; B's rank-0 task is the switch of step 3.
/// 2. Those tasks are replayed oldest use first (B's rank, descending), evenly spaced in (a, b) (to the millisecond;
///    a launcher's task is a visit to the home screen): each opens and,
///    `shortUseMicros` later (at most half its slot), the user returns to where they were (A's foreground app, or home).
/// 3. At b, B's rank-0 app opens when it is not already in front (the previous one goes to the background); a launcher
///    (`launchers`) at rank 0 is the home screen: `home`, nothing opens.
/// 4. A gap b − a over `longGapMicros` does not imply continuous use: A's foreground goes home one snapshot period
///    after a, step 2 replays in (a + period, b) returning home, and B's foreground opens at b. After a user's last
///    snapshot their foreground goes home one period later.
/// Limits: 20-minute resolution; how long each app was used between snapshots is unknown (the short use is a
/// placeholder); launches of tasks gone from recents by the next snapshot, and repeated uses of one task between two
/// snapshots, are invisible; a task used in between without overtaking any task of A (the only one in recents besides
/// the foreground) is missed.
///
/// Duplicate (user, timestamp, task id) rows (the release's 222: a snapshot's list repeated at higher ranks) are
/// dropped after the first and counted. Limits: times as `Timestamps` reads them, the trace within 2^60 µs; ranks and
/// `numRunning` whole numbers below 10^9; user ids name files, so letters, digits, `.`, `_` and `-` only.
public enum StudentLifeImporter {
    /// Packages whose task at rank 0 means the home screen: AOSP's and the era's makers' launchers and Google Now
    /// Launcher (one place; README, "StudentLife").
    public static let launchers: Set<String> = [
        "com.android.launcher", "com.android.launcher2", "com.android.launcher3", "com.google.android.launcher",
        "com.google.android.googlequicksearchbox", "com.google.android.apps.nexuslauncher", "com.sec.android.app.launcher",
        "com.sec.android.app.twlauncher", "com.htc.launcher", "com.motorola.launcher3", "com.motorola.blur.home",
        "com.lge.launcher2", "com.sonyericsson.home", "com.huawei.android.launcher", "com.teslacoilsw.launcher",
        "com.anddoes.launcher", "org.adw.launcher",
    ]
    /// The study's snapshot period (1 200 s): the resolution of everything inferred.
    public static let periodMicros = 1200 * Units.microsPerSecond
    /// Gaps between snapshots longer than this (2 h) are not taken as continuous use.
    public static let longGapMicros = 2 * 3600 * Units.microsPerSecond
    /// How long a use inferred between snapshots lasts (30 s, LiveLab's median engagement).
    public static let shortUseMicros = 30 * Units.microsPerSecond
    /// Trace time of a user's first snapshot.
    public static let leadInMicros = periodMicros
    public static let snapshotsFile = "snapshots.csv"
    public static let snapshotsHeader = "user,time,app,rank,alive,task\n"

    /// What one user's import gave.
    public struct User: Sendable, Equatable {
        public var user: String
        public var snapshots = 0
        /// Tasks below rank 0, and those of them whose process was dead.
        public var backgroundTasks = 0
        public var deadTasks = 0
    }

    public struct Summary: Sendable, Equatable {
        public var users: [User] = []
        public var duplicates = 0
        /// Rows of snapshots.csv.
        public var snapshotRows = 0
    }

    public static func run(path: String, writer: ImportWriter, user onlyUser: String?, skipBad: Bool, timeUnit: EpochUnit = .auto,
                           columns: ImportColumns = .studentlife) throws(InputError) -> Summary {
        try run(CSVReader(path: path), writer: writer, user: onlyUser, skipBad: skipBad, timeUnit: timeUnit, columns: columns)
    }

    /// The same over bytes in memory (`name` stands for the file in messages); reads and writes no file.
    public static func run(bytes: [UInt8], name: String, writer: ImportWriter, user onlyUser: String? = nil, skipBad: Bool = false,
                           timeUnit: EpochUnit = .auto, columns: ImportColumns = .studentlife) throws(InputError) -> Summary {
        try run(CSVReader(bytes: bytes, name: name), writer: writer, user: onlyUser, skipBad: skipBad, timeUnit: timeUnit, columns: columns)
    }

    /// The user of a file without a `userId` column: the digits after the last `_u` of its name (`running_app_u07.csv`
    /// → `07`, the release's per-user files), else `1`.
    static func user(fromFileName path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let r = name.range(of: "_u", options: .backwards) else { return "1" }
        let digits = name[r.upperBound...].prefix { $0.isASCII && $0.isNumber }
        return digits.isEmpty ? "1" : String(digits)
    }

    struct Task {
        var id: String
        var app: String
        var rank: Int
        var alive: Bool
    }

    struct Snapshot {
        var user: String
        var epoch: Int
        var line: Int
        var tasks: [Task] = []
    }

    static func run(_ reader: CSVReader, writer: ImportWriter, user onlyUser: String?, skipBad: Bool, timeUnit: EpochUnit,
                    columns: ImportColumns) throws(InputError) -> Summary {
        let path = reader.path
        var timestamps = Timestamps(unit: timeUnit)
        guard try reader.nextRow() else {
            throw InputError(file: path, message: "the file is empty (expected a header with \(columns.fields.map(columns.header(for:)).joined(separator: ",")))")
        }
        let at = try columns.located(in: reader.strings(), file: path, line: reader.lineNumber)
        let needed = (at.compactMap { $0 }.max() ?? 0) + 1
        let fileUser = user(fromFileName: path)
        try writer.addFile(snapshotsFile)
        try writer.write(snapshotsHeader, to: snapshotsFile)
        var replay = Replay(writer: writer)
        var summary = Summary()
        var open: Snapshot?
        var seenUsers: Set<String> = []
        var lastEpoch = Int.min
        func finish() throws(InputError) {
            guard let s = open else { return }
            open = nil
            guard s.tasks.contains(where: { $0.rank == 0 }) else {
                if skipBad { writer.skip(); return }
                throw InputError(file: path, line: s.line, field: columns.header(for: "rank"),
                                 message: "the snapshot starting here has no rank 0 (its foreground task)")
            }
            if summary.users.last?.user != s.user {
                try replay.end()
                try writer.begin(user: s.user)
                summary.users.append(User(user: s.user))
            }
            let tasks = s.tasks.sorted { $0.rank < $1.rank }
            guard let time = try replay.snapshot(Snapshot(user: s.user, epoch: s.epoch, line: s.line, tasks: tasks)) else {
                if skipBad { writer.skip(); return }
                throw InputError(file: path, line: s.line, field: columns.header(for: "time"), message: ImportWriter.pastTheLimit)
            }
            for t in tasks {
                writer.register(app: t.app)
                try writer.write(CSVLine.of([s.user, ImportWriter.seconds(time), t.app, String(t.rank), t.alive ? "true" : "false", t.id]), to: snapshotsFile)
                if t.rank > 0 {
                    summary.users[summary.users.count - 1].backgroundTasks += 1
                    if !t.alive { summary.users[summary.users.count - 1].deadTasks += 1 }
                }
            }
            summary.users[summary.users.count - 1].snapshots += 1
            summary.snapshotRows += tasks.count
        }
        while try reader.nextRow() {
            func bad(_ field: String, _ message: String) throws(InputError) {
                if skipBad { writer.skip(); return }
                throw InputError(file: path, line: reader.lineNumber, field: columns.header(for: field), message: message)
            }
            guard reader.fieldCount >= needed else {
                if skipBad { writer.skip(); continue }
                throw InputError(file: path, line: reader.lineNumber, message: "expected \(needed) or more fields, found \(reader.fieldCount)")
            }
            func field(_ k: Int) -> String { at[k].map { reader.string($0).trimmingSpaces } ?? "" }
            let user = at[0] == nil ? fileUser : field(0)
            if let onlyUser, user != onlyUser { continue }
            guard isFileNameSafe(user) else {
                try bad("user", "a user id names a trace file (trace-user-ID.csv): 1–64 letters, digits, '.', '_' or '-', "
                        + "not starting with '.', found '\(InputError.excerpt(user))'")
                continue
            }
            guard let epoch = timestamps.micros(field(1)) else {
                try bad("time", "\(timestamps.problem), found '\(InputError.excerpt(field(1)))'")
                continue
            }
            let app = field(2), task = field(3)
            guard !app.isEmpty else { try bad("app", "the package name is empty"); continue }
            guard !task.isEmpty else { try bad("task", "the task id is empty"); continue }
            guard let running = wholeNumber(field(4)) else {
                try bad("running", "expected a whole number of running activities (0 … 999999999), found '\(InputError.excerpt(field(4)))'")
                continue
            }
            guard let rank = wholeNumber(field(5)) else {
                try bad("rank", "expected a whole-number rank (0 … 999999999), found '\(InputError.excerpt(field(5)))'")
                continue
            }
            let newUser = user != (open?.user ?? summary.users.last?.user)
            if newUser {
                guard !seenUsers.contains(user) else {
                    try bad("user", "user '\(InputError.excerpt(user))' comes back after another user: rows must be grouped by user")
                    continue
                }
            } else if epoch < lastEpoch {
                try bad("time", "times must not decrease within a user")
                continue
            }
            if newUser || epoch != open?.epoch {
                try finish()
                seenUsers.insert(user)
                lastEpoch = epoch
                open = Snapshot(user: user, epoch: epoch, line: reader.lineNumber)
            }
            guard var s = open else { continue }
            if s.tasks.contains(where: { $0.id == task }) {
                summary.duplicates += 1
                continue
            }
            if s.tasks.contains(where: { $0.rank == rank }) {
                try bad("rank", "rank \(rank) is given twice in this snapshot (for two tasks)")
                continue
            }
            open = nil   // no second reference while it grows
            s.tasks.append(Task(id: task, app: app, rank: rank, alive: running > 0))
            open = s
        }
        try finish()
        try replay.end()
        return summary
    }

    /// A user id usable in a file name.
    static func isFileNameSafe(_ user: String) -> Bool {
        !user.isEmpty && user.utf8.count <= 64 && !user.hasPrefix(".")
            && user.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)) }
    }

    /// `text` as a whole number 0 … 999 999 999 (digits only), or nil.
    static func wholeNumber(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 9, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int(text)
    }

    /// The events inferred from one user's snapshots, in order (the heuristic of the type's doc comment).
    struct Replay {
        let writer: ImportWriter
        /// The previous snapshot and its trace time; nil before a user's first.
        var previous: (snapshot: Snapshot, time: Int)?
        /// The app on screen (nil: the home screen).
        var front: String?
        /// The user's first snapshot time (epoch µs).
        var base = 0

        init(writer: ImportWriter) { self.writer = writer }

        /// The app a task at rank 0 puts on screen: nil for a launcher (the home screen).
        static func screen(_ task: Task) -> String? { launchers.contains(task.app) ? nil : task.app }

        /// Puts `app` (nil: home) on screen at `time` unless it already is.
        mutating func show(_ app: String?, at time: Int, user: String) throws(InputError) {
            guard app != front else { return }
            if let app { try writer.emit(time: time, app: app, .open, user: user) } else { try writer.emit(time: time, app: nil, .home, user: user) }
            front = app
        }

        /// Replays the events up to and including snapshot `s`; returns its trace time, nil (and nothing replayed) when
        /// that is past the trace limit.
        mutating func snapshot(_ s: Snapshot) throws(InputError) -> Int? {
            if previous == nil { base = s.epoch }
            guard let time = ImportWriter.shifted(s.epoch, base: base, offset: leadInMicros),
                  time <= DecimalParser.maxMicros - periodMicros else { return nil }   // room for the final home
            let earlier = previous ?? (Snapshot(user: s.user, epoch: s.epoch, line: s.line), 0)   // the lead-in: empty recents, home
            var start = earlier.time
            if time - earlier.time > longGapMicros {
                start += periodMicros
                try show(nil, at: start, user: s.user)
            }
            let used = Self.usedBetween(earlier.snapshot.tasks, s.tasks)
            let slot = (time - start) / (used.count + 1) / 1000 * 1000   // whole milliseconds
            let finishedAt = start + min(shortUseMicros, slot / 2)
            for app in Self.finishedBetween(earlier.snapshot.tasks, s.tasks) {
                try writer.emit(time: finishedAt, app: app, .finish, user: s.user)
                if app == front { front = nil }   // Back from the app on screen shows the home screen
            }
            let back = front
            for (k, task) in used.enumerated() {
                let at = start + (k + 1) * slot
                try show(Self.screen(task), at: at, user: s.user)
                try show(back, at: at + min(shortUseMicros, slot / 2), user: s.user)
            }
            if let top = s.tasks.first { try show(Self.screen(top), at: time, user: s.user) }
            previous = (s, time)
            return time
        }

        /// The tasks of `now` below rank 0 used since `before`: new ones, and those that overtook a task of `before`;
        /// oldest use first.
        static func usedBetween(_ before: [Task], _ now: [Task]) -> [Task] {
            var position: [String: Int] = [:]
            for (k, t) in before.enumerated() where position[t.id] == nil { position[t.id] = k }
            let shared = now.filter { position[$0.id] != nil }
            var used: [Task] = []
            for (k, t) in now.enumerated() where k > 0 {
                guard let was = position[t.id] else { used.append(t); continue }
                // Behind it now yet ahead of it before: overtaken.
                let overtook = shared.drop { $0.id != t.id }.dropFirst().contains { (position[$0.id] ?? was) < was }
                if overtook { used.append(t) }
            }
            return used.reversed()
        }

        /// The apps (launchers aside) with a task in `before` and none in `now`: their tasks were finished in between
        /// (Back from the root activity, or a swipe from recents), in `before`'s order.
        static func finishedBetween(_ before: [Task], _ now: [Task]) -> [String] {
            let remaining = Set(now.map(\.app))
            var seen: Set<String> = []
            return before.compactMap { t in
                guard !launchers.contains(t.app), !remaining.contains(t.app), seen.insert(t.app).inserted else { return nil }
                return t.app
            }
        }

        /// Ends the current user's replay: the foreground goes home one period after the last snapshot.
        mutating func end() throws(InputError) {
            if let (s, time) = previous { try show(nil, at: time + periodMicros, user: s.user) }
            previous = nil
            front = nil
        }
    }
}
