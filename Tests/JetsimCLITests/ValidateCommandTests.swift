import Foundation
import JetsimIO
import Testing

/// Issue 22, part 4: `jetsim validate` scores simulated residency against measured snapshots.
@Suite struct ValidateCommandTests {
    /// Three 100 MB apps on a 200 MiB cache under LRU: opening c evicts a. Snapshot 30 s: b measured dead (simulated
    /// alive), a measured dead (simulated dead); 40 s: both measured alive, a still simulated dead. So 4 tasks, 2 dead
    /// measured, 2 simulated, 1 both: accuracy, precision, recall and the all-alive baseline all 1/2; 2 dead → alive
    /// transitions (a and b) and 1 kill over the 10 s span. The launcher's task (`home`, never opened by the trace) is
    /// not scored, only counted: 1 unmodelled task, measured alive at 30 s, which would otherwise score as a wrong kill.
    @Test func aHandCheckedCaseScoresAsComputedByHand() throws {
        let dir = try scratch()
        try "app,dirty_mb\na,100\nb,100\nc,100\nlauncher,10\n".write(toFile: dir + "/apps.csv", atomically: true, encoding: .utf8)
        try "time,app,event,value\n0,a,open,\n10,b,open,\n20,c,open,\n".write(toFile: dir + "/trace-user-x.csv", atomically: true, encoding: .utf8)
        try "user,time,app,rank,alive,task\nx,30,c,0,true,3\nx,30,b,1,false,2\nx,30,a,2,false,1\nx,30,launcher,3,true,9\nx,40,c,0,true,3\nx,40,b,1,true,2\nx,40,a,2,true,1\n"
            .write(toFile: dir + "/snapshots.csv", atomically: true, encoding: .utf8)
        let r = try CLI.run(["validate", "--snapshots", dir + "/snapshots.csv", "--apps", dir + "/apps.csv", "--trace", dir + "/trace-user-x.csv",
                             "--devices", "cache:200MiB", "--policies", "lru", "--out", dir + "/out"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = try String(contentsOfFile: dir + "/out/validation.csv", encoding: .utf8).split(separator: "\n")
        let header = "user,trace,device,policy,days,snapshots,background_tasks,unmodelled_tasks,measured_dead_share,simulated_dead_share,accuracy,"
            + "all_alive_accuracy,precision_dead,recall_dead,kills_per_day,relaunches_after_kill_per_day,measured_dead_to_alive_per_day"
        #expect(lines.first.map(String.init) == header)
        #expect(lines.dropFirst() == ["x,trace-user-x.csv,cache:200MiB,lru,0.000,2,4,1,0.5000,0.5000,0.5000,0.5000,0.5000,0.5000,8640.000,0.000,17280.000"])
        #expect(r.stdout.contains("measured_dead_share"))
    }

    @Test func mistakesAreNamedAndWriteNothing() throws {
        let dir = try scratch()
        try "app,dirty_mb\na,100\n".write(toFile: dir + "/apps.csv", atomically: true, encoding: .utf8)
        try "time,app,event,value\n0,a,open,\n".write(toFile: dir + "/t.csv", atomically: true, encoding: .utf8)
        try "user,time,app,rank,alive\nx,30,a,0,true\ny,30,zz,1,false\n".write(toFile: dir + "/unknown.csv", atomically: true, encoding: .utf8)
        try "user,time,app,rank,alive\nx,30,a,0,maybe\n".write(toFile: dir + "/bad.csv", atomically: true, encoding: .utf8)
        try "user,time,app,rank,alive\nx,30,a,0,true\ny,30,a,0,true\n".write(toFile: dir + "/two.csv", atomically: true, encoding: .utf8)
        let base = ["validate", "--apps", dir + "/apps.csv", "--trace", dir + "/t.csv", "--devices", "iphone-x", "--out", dir + "/o"]
        let cases: [(String, Int32, String)] = [
            ("unknown.csv", 65, "unknown.csv:3: field 'app': 'zz' is not in the catalog"),
            ("bad.csv", 65, "bad.csv:2: field 'alive': expected true or false, found 'maybe'"),
            ("two.csv", 64, "names no user of"),
        ]
        for (file, status, message) in cases {
            let r = try CLI.run(base + ["--snapshots", dir + "/" + file])
            #expect(r.status == status, "\(file): \(r.stderr)")
            #expect(r.stderr.contains(message), "\(file): \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/o"))
        }
    }

    /// On the shared StudentLife data (skipped when absent): the measured side reproduces the data's README — dead
    /// shares 20.6 % and 7.1 % of all background tasks (the importer's figures), 180 and 15 dead → alive task
    /// transitions over the users' spans — and validate scores every background task but the launchers' (never opened
    /// by the traces), whose measured dead share it gives on the scored tasks.
    static let data = CLI.packageRoot + "/../shared/data/studentlife/running_app_u00-u01.csv.gz"

    @Test(.enabled(if: FileManager.default.fileExists(atPath: data), "the StudentLife data is not at ../shared/data/studentlife/ (skipped)"))
    func theMeasuredSideOfTheRealDataIsTheDatasReadme() throws {
        let data = Self.data
        let dir = try scratch()
        let imported = try CLI.run(["import", "studentlife", data, "--out", dir + "/sl"])
        #expect(imported.status == 0)
        #expect(imported.stdout.contains("user 00: 5233 snapshots") && imported.stdout.contains("54437 background tasks, 20.6 % dead"), "\(imported.stdout)")
        #expect(imported.stdout.contains("user 01: 4452 snapshots") && imported.stdout.contains("27030 background tasks, 7.1 % dead"), "\(imported.stdout)")
        let r = try CLI.run(["validate", "--snapshots", dir + "/sl/snapshots.csv", "--apps", dir + "/sl/apps.csv", "--traces", dir + "/sl",
                             "--devices", "iphone-x", "--policies", "lru", "--out", dir + "/v", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try String(contentsOfFile: dir + "/v/validation.csv", encoding: .utf8).split(separator: "\n").dropFirst().map { $0.split(separator: ",") }
        #expect(rows.map { $0[0] } == ["00", "01"])
        #expect(rows.map { $0[5] } == ["5233", "4452"])
        #expect(rows.map { (Int($0[6]) ?? 0) + (Int($0[7]) ?? 0) } == [54437, 27030])
        let launcherTasks = try String(contentsOfFile: dir + "/sl/snapshots.csv", encoding: .utf8).split(separator: "\n").filter { line in
            let f = line.split(separator: ",")
            return f.count > 3 && f[3] != "0" && f[3] != "rank" && StudentLifeImporter.launchers.contains(String(f[2]))
        }.count
        #expect(rows.map { Int($0[7]) ?? 0 }.reduce(0, +) == launcherTasks)
        let transitions = rows.map { (Double($0[16]) ?? 0) * (Double($0[4]) ?? 0) }
        #expect(abs(transitions[0] - 180) < 0.5 && abs(transitions[1] - 15) < 0.5, "\(transitions)")
    }
}
