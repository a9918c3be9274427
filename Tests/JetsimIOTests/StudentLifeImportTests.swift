@testable import JetsimCore
@testable import JetsimIO
import JetsimWorkloads
import Testing

/// `StudentLifeImporter` on hand-made snapshot files: each test's expected trace is worked out from the heuristic of the
/// importer's doc comment (times in seconds; the first snapshot at 1 200 s after the lead-in).
@Suite struct StudentLifeImportTests {
    static let header = "userId,timestamp,device,RUNNING_TASKS_baseActivity_mPackage,RUNNING_TASKS_id,RUNNING_TASKS_numRunning,rank_in_snapshot\n"
    static let headerWithoutUser = "timestamp,RUNNING_TASKS_baseActivity_mPackage,RUNNING_TASKS_id,RUNNING_TASKS_numRunning,rank_in_snapshot\n"
    static let t0 = 1_400_000_000

    /// One snapshot of `user` at `t0 + seconds`: `(app, task id, numRunning)` by rank.
    static func snapshot(_ user: String?, _ seconds: Int, _ tasks: [(String, Int, Int)]) -> String {
        tasks.enumerated().map { rank, t in
            (user.map { "\($0),\(t0 + seconds),dev," } ?? "\(t0 + seconds),") + "\(t.0),\(t.1),\(t.2),\(rank)\n"
        }.joined()
    }

    struct Output {
        var summary: StudentLifeImporter.Summary
        var traces: [(user: String, trace: String)]
        var snapshots: String
        var apps: String
    }

    static func importing(_ text: String, name: String = "running_app.csv", user: String? = nil, era: CatalogEra = .android2013,
                          overrides: AppOverrides = AppOverrides()) throws(InputError) -> Output {
        let writer = ImportWriter(inMemory: name, perUser: true)
        var o = overrides
        o.era = era
        writer.overrides = o
        let summary = try StudentLifeImporter.run(bytes: Array(text.utf8), name: name, writer: writer, user: user)
        try writer.commit()
        return Output(summary: summary, traces: writer.userTraces, snapshots: writer.extraTexts[StudentLifeImporter.snapshotsFile] ?? "",
                      apps: writer.output?.apps ?? "")
    }

    /// Rank-0 changes are switches at the snapshot time, a launcher at rank 0 is `home`, the lead-in replays the first
    /// snapshot's recents oldest first; without `userId` the user comes from the file name; snapshots.csv has every task.
    @Test func switchesHomeScreenAndLeadIn() throws {
        let text = Self.headerWithoutUser
            + Self.snapshot(nil, 0, [("a", 1, 1), ("com.android.launcher", 2, 1), ("b", 3, 0)])
            + Self.snapshot(nil, 1200, [("com.android.launcher", 2, 1), ("a", 1, 1), ("b", 3, 0)])
            + Self.snapshot(nil, 2400, [("c", 4, 1), ("com.android.launcher", 2, 1), ("a", 1, 0), ("b", 3, 0)])
        let out = try Self.importing(text, name: "data/running_app_u07.csv")
        #expect(out.traces.map(\.user) == ["07"])
        // Lead-in: b (rank 2) then the launcher (rank 1: home, already there) in slots of 400 s; a in front at 1200;
        // home at 2400; c opens at 3600; home one period after the last snapshot.
        #expect(rows(out.traces.first?.trace ?? "") == [
            "400.000,b,open,,07", "430.000,,home,,07", "1200.000,a,open,,07", "2400.000,,home,,07", "3600.000,c,open,,07",
            "4800.000,,home,,07",
        ])
        #expect(out.snapshots.hasPrefix("user,time,app,rank,alive,task\n07,1200.000,a,0,true,1\n07,1200.000,com.android.launcher,1,true,2\n07,1200.000,b,2,false,3\n"))
        #expect(out.snapshots.hasSuffix("07,3600.000,a,2,false,1\n07,3600.000,b,3,false,3\n"))
        #expect(out.summary.users == [.init(user: "07", snapshots: 3, backgroundTasks: 7, deadTasks: 4)])
        #expect(out.summary.snapshotRows == 10)
        #expect(out.apps.contains("\ncom.android.launcher,"))   // every package seen is in the catalog
    }

    /// A task that overtook another in recents, and a task new in recents below rank 0, were used between the snapshots:
    /// a short use each, oldest first, returning to the foreground app.
    @Test func recentsReorderingIsUseBetweenSnapshots() throws {
        let text = Self.header
            + Self.snapshot("1", 0, [("a", 1, 1), ("b", 2, 1), ("c", 3, 1), ("d", 4, 1)])
            + Self.snapshot("1", 1200, [("a", 1, 1), ("c", 3, 1), ("e", 5, 1), ("b", 2, 1), ("d", 4, 1)])
        let out = try Self.importing(text)
        #expect(rows(out.traces.first?.trace ?? "") == [
            "300.000,d,open,,1", "330.000,,home,,1", "600.000,c,open,,1", "630.000,,home,,1", "900.000,b,open,,1", "930.000,,home,,1",
            "1200.000,a,open,,1",
            "1600.000,e,open,,1", "1630.000,a,open,,1", "2000.000,c,open,,1", "2030.000,a,open,,1",   // e new, c overtook b
            "3600.000,,home,,1",
        ])
    }

    /// Tasks gone from recents by the next snapshot were finished (Back, or a swipe): each app with a task in A and
    /// none in B gets `finish` 30 s after A, before the uses in between. Here the foreground app a went (the use of e
    /// in between returns to the home screen, not to a) and b went; c keeps one of its two tasks, so it is not finished.
    @Test func tasksGoneFromRecentsAreFinished() throws {
        let text = Self.header
            + Self.snapshot("1", 0, [("a", 1, 1), ("b", 2, 1), ("c", 3, 1), ("c", 4, 1), ("d", 5, 1)])
            + Self.snapshot("1", 1200, [("d", 5, 1), ("e", 6, 1), ("c", 3, 1)])
        let out = try Self.importing(text)
        #expect(rows(out.traces.first?.trace ?? "").drop { $0 != "1200.000,a,open,,1" } == [
            "1200.000,a,open,,1",
            "1230.000,a,finish,,1", "1230.000,b,finish,,1",   // a was in front: the home screen shows
            "1800.000,e,open,,1", "1830.000,,home,,1",        // e, new, used in between returns home, not to a
            "2400.000,d,open,,1", "3600.000,,home,,1",
        ])
    }

    /// Over 2 h without a snapshot is not continuous use: the foreground goes home one period after the snapshot.
    @Test func longGapsEndTheForegroundUse() throws {
        let text = Self.header
            + Self.snapshot("1", 0, [("a", 1, 1), ("b", 2, 1)])
            + Self.snapshot("1", 10800, [("b", 2, 1), ("a", 1, 1)])
        let out = try Self.importing(text)
        #expect(rows(out.traces.first?.trace ?? "") == [
            "600.000,b,open,,1", "630.000,,home,,1", "1200.000,a,open,,1", "2400.000,,home,,1", "12000.000,b,open,,1", "13200.000,,home,,1",
        ])
    }

    /// Several users: a trace each, times from 0 each; a duplicate (user, timestamp, task) row is dropped and counted;
    /// `user` selects one.
    @Test func severalUsersAndDuplicates() throws {
        let text = Self.header
            + Self.snapshot("00", 0, [("a", 1, 1), ("b", 2, 0), ("a", 1, 1)])
            + Self.snapshot("01", 500, [("c", 7, 1)])
        let out = try Self.importing(text)
        #expect(out.summary.duplicates == 1)
        #expect(out.traces.map(\.user) == ["00", "01"])
        #expect(rows(out.traces[1].trace) == ["1200.000,c,open,,01", "2400.000,,home,,01"])
        #expect(out.snapshots == "user,time,app,rank,alive,task\n00,1200.000,a,0,true,1\n00,1200.000,b,1,false,2\n01,1200.000,c,0,true,7\n")
        let one = try Self.importing(text, user: "01")
        #expect(one.traces.map(\.user) == ["01"])
    }

    /// A malformed row stops the import with its file, line and field (the file's own column name).
    @Test func malformedRowsAreLocated() throws {
        let good = Self.header + Self.snapshot("1", 0, [("a", 1, 1)])
        func error(_ text: String) -> InputError? { caught { _ = try Self.importing(text) } }
        let rank = error(good + "1,\(Self.t0 + 1200),dev,b,2,1,first\n")
        #expect(rank?.description.contains("running_app.csv:3: field 'rank_in_snapshot'") == true, "\(String(describing: rank))")
        let running = error(good + "1,\(Self.t0 + 1200),dev,b,2,-1,0\n")
        #expect(running?.description.contains("field 'RUNNING_TASKS_numRunning'") == true, "\(String(describing: running))")
        let time = error(good + "1,yesterday,dev,b,2,1,0\n")
        #expect(time?.description.contains(":3: field 'timestamp'") == true, "\(String(describing: time))")
        let backwards = error(good + "1,\(Self.t0 - 1),dev,b,2,1,0\n")
        #expect(backwards?.description.contains("times must not decrease") == true)
        let comeback = error(good + Self.snapshot("2", 0, [("a", 1, 1)]) + Self.snapshot("1", 2400, [("a", 1, 1)]))
        #expect(comeback?.description.contains(":4: field 'userId'") == true, "\(String(describing: comeback))")
        let noForeground = error(good + "1,\(Self.t0 + 1200),dev,b,2,1,1\n")
        #expect(noForeground?.description.contains(":3: field 'rank_in_snapshot': the snapshot starting here has no rank 0") == true,
                "\(String(describing: noForeground))")
        let unsafeUser = error(Self.header + Self.snapshot("../x", 0, [("a", 1, 1)]))
        #expect(unsafeUser?.description.contains("field 'userId'") == true)
        let noHeader = error("timestamp,package\n1,2\n")
        #expect(noHeader?.description.contains("no column 'RUNNING_TASKS_baseActivity_mPackage'") == true, "\(String(describing: noHeader))")
    }

    /// The era table sizes the catalog: Android 2013 by default for this importer, today's on request; an override's
    /// size wins over either.
    @Test func catalogEraIsChosenAndOverridden() throws {
        let text = Self.header + Self.snapshot("1", 0, [("com.android.chrome", 1, 1), ("com.google.android.gm", 2, 1)])
        let old = try Self.importing(text)
        #expect(old.apps.contains("\ncom.android.chrome,70,3,140,"), "\(old.apps)")
        let today = try Self.importing(text, era: .current)
        #expect(today.apps.contains("\ncom.android.chrome,180,6,360,"), "\(today.apps)")
        let overrides = try AppOverrides.read(CSVReader(bytes: Array("app,category,dirty_mb\ncom.android.chrome,,55\n".utf8), name: "o.csv"))
        let overridden = try Self.importing(text, overrides: overrides)
        #expect(overridden.apps.contains("\ncom.android.chrome,55,3,110,"), "\(overridden.apps)")
        #expect(overridden.apps.contains("\ncom.google.android.gm,35,"), "\(overridden.apps)")   // the era's mail size
        #expect(CatalogEra.android2013.categories.map(\.name) == CatalogEra.current.categories.map(\.name))
    }
}
