import Foundation
import Testing

/// `jetsim import studentlife`: the output directory, the options it shares with the other usage importers, and the
/// measured figures of the shared data's README.
@Suite struct StudentLifeCommandTests {
    static let sample = """
    userId,timestamp,device,RUNNING_TASKS_baseActivity_mPackage,RUNNING_TASKS_id,RUNNING_TASKS_numRunning,rank_in_snapshot
    00,1400000000,d,com.android.chrome,1,1,0
    00,1400000000,d,com.google.android.gm,2,0,1
    00,1400001200,d,com.google.android.gm,2,1,0
    00,1400001200,d,com.android.chrome,1,1,1
    01,1400000000,d,com.android.launcher,5,1,0

    """

    /// The StudentLife release beside the project (README: never committed; tests skip without it).
    static let realData = CLI.packageRoot + "/../shared/data/studentlife/running_app_u00-u01.csv.gz"

    @Test func writesPerUserTracesSnapshotsAndAnEraCatalog() throws {
        let dir = try scratch()
        try Self.sample.write(toFile: dir + "/running_app.csv", atomically: true, encoding: .utf8)
        let r = try CLI.run(["import", "studentlife", dir + "/running_app.csv", "--out", dir + "/o"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("user 00: 2 snapshots") && r.stdout.contains("50.0 % dead"), "\(r.stdout)")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir + "/o").sorted()
        #expect(files == ["apps.csv", "snapshots.csv", "trace-user-00.csv", "trace-user-01.csv"])
        let apps = try String(contentsOfFile: dir + "/o/apps.csv", encoding: .utf8)
        #expect(apps.contains("\ncom.android.chrome,70,"), "\(apps)")   // android-2013, this importer's default
        let run = try CLI.run(["run", "--device", "iphone-x", "--apps", dir + "/o/apps.csv", "--trace", dir + "/o/trace-user-00.csv",
                               "--out", dir + "/r", "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")

        try "app,category,dirty_mb\ncom.android.chrome,,99\n".write(toFile: dir + "/ov.csv", atomically: true, encoding: .utf8)
        let today = try CLI.run(["import", "studentlife", dir + "/running_app.csv", "--out", dir + "/t", "--catalog-era", "2020s",
                                 "--app-overrides", dir + "/ov.csv"])
        #expect(today.status == 0, "\(today.stderr)")
        let todayApps = try String(contentsOfFile: dir + "/t/apps.csv", encoding: .utf8)
        #expect(todayApps.contains("\ncom.android.chrome,99,6,198,") && todayApps.contains("\ncom.google.android.gm,92,"), "\(todayApps)")
        // The other usage importers take the option too, keeping today's sizes by default.
        let iv = "user,start,end,app\n1,2024-01-05 10:00,2024-01-05 10:05,com.android.chrome\n"
        try iv.write(toFile: dir + "/iv.csv", atomically: true, encoding: .utf8)
        #expect(try CLI.run(["import", "intervals", dir + "/iv.csv", "--out", dir + "/i"]).status == 0)
        #expect(try String(contentsOfFile: dir + "/i/apps.csv", encoding: .utf8).contains("\ncom.android.chrome,180,"))
        #expect(try CLI.run(["import", "intervals", dir + "/iv.csv", "--out", dir + "/i13", "--catalog-era", "android-2013"]).status == 0)
        #expect(try String(contentsOfFile: dir + "/i13/apps.csv", encoding: .utf8).contains("\ncom.android.chrome,70,"))
        let usage = try CLI.run(["import", "studentlife", dir + "/running_app.csv", "--out", dir + "/u", "--catalog-era", "1999"])
        #expect(usage.status == 64 && usage.stderr.contains("--catalog-era must be 2020s or android-2013"), "\(usage.stderr)")
    }

    @Test func aMalformedRowStopsWithItsLineAndWritesNothing() throws {
        let dir = try scratch()
        try (Self.sample + "01,1400001200,d,com.android.launcher,5,many,0\n").write(toFile: dir + "/bad.csv", atomically: true, encoding: .utf8)
        let r = try CLI.run(["import", "studentlife", dir + "/bad.csv", "--out", dir + "/o"])
        #expect(r.status == 65 && r.stderr.contains("bad.csv:7: field 'RUNNING_TASKS_numRunning'"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/o"))
    }

    /// The measured figures of the data's README: snapshots per user, and the share of background tasks whose process
    /// was dead, computed from snapshots.csv (rank > 0 rows).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: realData), "the StudentLife data is not at ../shared/data/studentlife/ (skipped)"))
    func realDataMatchesTheMeasuredFigures() throws {
        let dir = try scratch()
        let r = try CLI.run(["import", "studentlife", Self.realData, "--out", dir + "/sl"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("222 duplicate"), "\(r.stdout)")
        var snapshots: [String: Int] = [:], background: [String: Int] = [:], dead: [String: Int] = [:]
        let text = try String(contentsOfFile: dir + "/sl/snapshots.csv", encoding: .utf8)
        for line in text.split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 6 else { Issue.record("row \(line)"); continue }
            if f[3] == "0" { snapshots[f[0], default: 0] += 1; continue }
            background[f[0], default: 0] += 1
            if f[4] == "false" { dead[f[0], default: 0] += 1 }
        }
        #expect(snapshots == ["00": 5233, "01": 4452])
        // Shares in tenths of a percent, rounded: 20.6 % and 7.1 %.
        func share(_ u: String) -> Int { ((dead[u] ?? 0) * 2000 / max(background[u] ?? 1, 1) + 1) / 2 }
        #expect(share("00") == 206 && share("01") == 71, "\(dead) of \(background)")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir + "/sl").sorted()
        #expect(files == ["apps.csv", "snapshots.csv", "trace-user-00.csv", "trace-user-01.csv"])
    }
}
