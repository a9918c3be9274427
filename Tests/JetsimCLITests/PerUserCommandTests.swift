import Foundation
import JetsimIO
import Testing

/// Issue 22, parts 3 and 4: `--per-user` (each user of a multi-user trace on a fresh device, per-user rows and
/// population aggregates) and the `residency` output of `run` and `compare`.
@Suite struct PerUserCommandTests {
    /// Two users of one trace. Alone, user 2's Chat stays resident; after user 1's Game on the same phone (one phone
    /// life, as a trace without --per-user replays it), it would not start on an empty device.
    static let apps = "app,dirty_mb\nGame,700\nChat,90\nMaps,300\n"
    static let user1 = [(0, "Game", "open"), (50, "", "home"), (60, "Maps", "open"), (100, "", "home"), (7_200, "Game", "open")]
    static let user2 = [(40, "Chat", "open"), (70, "Maps", "open"), (90, "Chat", "open"), (86_440, "Maps", "open")]

    /// The trace of both users interleaved in time, with a user column; and each user's events alone.
    static func traces(in dir: String) throws {
        try apps.write(toFile: dir + "/apps.csv", atomically: true, encoding: .utf8)
        let rows = (user1.map { ($0.0, $0.1, $0.2, "1") } + user2.map { ($0.0, $0.1, $0.2, "2") }).sorted { $0.0 < $1.0 }
        try ("time,app,event,value,user\n" + rows.map { "\($0.0),\($0.1),\($0.2),,\($0.3)\n" }.joined())
            .write(toFile: dir + "/both.csv", atomically: true, encoding: .utf8)
        for (name, events) in [("1", user1), ("2", user2)] {
            try ("time,app,event,value,user\n" + events.map { "\($0.0),\($0.1),\($0.2),,\(name)\n" }.joined())
                .write(toFile: dir + "/alone-\(name).csv", atomically: true, encoding: .utf8)
        }
    }

    static func csv(_ path: String) throws -> [[String]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    /// A row without the columns that name its trace.
    static func metrics(_ row: [String], header: [String]) -> [String] {
        zip(header, row).filter { !["trace", "trace_path", "user"].contains($0.0) }.map(\.1)
    }

    @Test func runPerUserReplaysEachUserOnAFreshDeviceAsTheirOwnTraceWould() throws {
        let dir = try scratch()
        try Self.traces(in: dir)
        let base = ["run", "--device", "iphone-x", "--apps", dir + "/apps.csv", "--policy", "lru", "--quiet"]
        let r = try CLI.run(base + ["--trace", dir + "/both.csv", "--per-user", "--out", dir + "/per"])
        #expect(r.status == 0, "\(r.stderr)")
        let summary = try Self.csv(dir + "/per/summary.csv")
        let header = summary[0]
        #expect(header.last == "user")
        #expect(summary.count == 3 && summary.dropFirst().map { $0.last } == ["1", "2"])
        for user in ["1", "2"] {
            let alone = try CLI.run(base + ["--trace", dir + "/alone-\(user).csv", "--out", dir + "/alone-\(user)"])
            #expect(alone.status == 0, "\(alone.stderr)")
            let own = try Self.csv(dir + "/alone-\(user)/summary.csv")[1]
            let row = summary.first { $0.last == user } ?? []
            #expect(Self.metrics(row, header: header) == Self.metrics(own, header: header), "user \(user)")
            // Each user's full report set, as a run of its own writes it.
            for file in ["kills.csv", "apps.csv", "timeseries.csv"] {
                #expect(try String(contentsOfFile: dir + "/per/user-\(user)/\(file)", encoding: .utf8)
                        == String(contentsOfFile: dir + "/alone-\(user)/\(file)", encoding: .utf8), "user \(user) \(file)")
            }
        }
        // Replayed as one phone life, the users share one screen: user 2's Maps at 70 s finds user 1's Maps (60 s) in
        // front, which is no launch; each user on their own phone launches it.
        let one = try CLI.run(base + ["--trace", dir + "/both.csv", "--out", dir + "/one"])
        #expect(one.status == 0)
        let life = try Self.csv(dir + "/one/summary.csv")[1]
        let launches = header.firstIndex(of: "launches") ?? 0
        #expect((Int(life[launches]) ?? 0) + 1 == summary.dropFirst().map { Int($0[launches]) ?? 0 }.reduce(0, +))
    }

    /// population.csv's sums are the users' rows added up; a rate per user-day is each user's count over their span in
    /// days, averaged over users with the t-interval across them.
    @Test func populationSumsAndRatesPerUserDayAreTheUsersRowsAggregated() throws {
        let dir = try scratch()
        try Self.traces(in: dir)
        let r = try CLI.run(["run", "--device", "iphone-x", "--apps", dir + "/apps.csv", "--policy", "lru", "--trace", dir + "/both.csv",
                             "--per-user", "--out", dir + "/per", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let summary = try Self.csv(dir + "/per/summary.csv")
        let population = try Self.csv(dir + "/per/population.csv")
        #expect(population.count == 2)
        let (h, row) = (population[0], population[1])
        func value(_ name: String) -> String { row[h.firstIndex(of: name) ?? 0] }
        func users(_ name: String) -> [Double] { summary.dropFirst().map { Double($0[summary[0].firstIndex(of: name) ?? 0]) ?? -1 } }
        #expect(value("users") == "2" && value("rated_users") == "2")
        let days = users("sim_seconds").map { $0 / 86_400 }
        #expect(value("user_days") == String(format: "%.3f", days.reduce(0, +)))
        let launches = users("launches")
        #expect(value("launches_sum") == String(Int(launches.reduce(0, +))))
        let rates = zip(launches, days).map { $0 / $1 }
        let mean = rates.reduce(0, +) / 2
        #expect(value("launches_per_user_day") == String(format: "%.3f", mean))
        let sd = ((rates.map { ($0 - mean) * ($0 - mean) }.reduce(0, +)) / 1).squareRoot()
        #expect(value("launches_per_user_day_ci95") == String(format: "%.3f", 12.7062 * sd / 2.squareRoot()))
    }

    @Test func comparePerUserGivesPerUserRowsIntervalsAcrossUsersAndTheSameBytesForAnyJobs() throws {
        let dir = try scratch()
        try Self.traces(in: dir)
        let base = ["compare", "--apps", dir + "/apps.csv", "--trace", dir + "/both.csv", "--per-user", "--devices", "iphone-x,iphone-11",
                    "--policies", "lru,largest", "--quiet"]
        let one = try CLI.run(base + ["--jobs", "1", "--out", dir + "/j1"])
        let two = try CLI.run(base + ["--jobs", "2", "--out", dir + "/j2"])
        #expect(one.status == 0 && two.status == 0, "\(one.stderr)\(two.stderr)")
        for file in ["summary.csv", "compare.csv", "population.csv", "latency.csv"] {
            #expect(try String(contentsOfFile: dir + "/j1/" + file, encoding: .utf8) == String(contentsOfFile: dir + "/j2/" + file, encoding: .utf8), "\(file)")
        }
        let summary = try Self.csv(dir + "/j1/summary.csv")
        #expect(summary.count == 1 + 2 * 2 * 2)
        #expect(summary.dropFirst().map { $0.last ?? "" } == ["1", "1", "1", "1", "2", "2", "2", "2"])
        let compare = try Self.csv(dir + "/j1/compare.csv")
        let over = compare[0].firstIndex(of: "ci95_over") ?? 0
        #expect(compare.dropFirst().allSatisfy { $0[over] == "users" })
        #expect(try Self.csv(dir + "/j1/population.csv").count == 1 + 2 * 2)
        // The same users as separate traces give the same per-user rows.
        let separate = try CLI.run(["compare", "--apps", dir + "/apps.csv", "--trace", dir + "/alone-1.csv", "--trace", dir + "/alone-2.csv",
                                    "--devices", "iphone-x,iphone-11", "--policies", "lru,largest", "--quiet", "--out", dir + "/sep"])
        #expect(separate.status == 0)
        let rows = try Self.csv(dir + "/sep/summary.csv")
        #expect(rows.dropFirst().map { Self.metrics($0, header: rows[0]) } == summary.dropFirst().map { Self.metrics($0, header: summary[0]) })
    }

    @Test func aTraceWithoutUsersIsRefusedNamingTheFileAndWritesNothing() throws {
        let dir = try scratch()
        try Self.traces(in: dir)
        try "time,app,event,value\n0,Game,open,\n".write(toFile: dir + "/nouser.csv", atomically: true, encoding: .utf8)
        try "time,app,event,value,user\n0,Game,open,,1\n5,Chat,open,, \n".write(toFile: dir + "/blank.csv", atomically: true, encoding: .utf8)
        let cases: [([String], String)] = [
            (["run", "--device", "iphone-x", "--trace", dir + "/nouser.csv"], "nouser.csv: field 'user': the trace has no user column"),
            (["compare", "--devices", "iphone-x", "--trace", dir + "/nouser.csv"], "nouser.csv: field 'user': the trace has no user column"),
            (["run", "--device", "iphone-x", "--trace", dir + "/blank.csv"], "blank.csv:3: field 'user': is blank"),
        ]
        for (arguments, message) in cases {
            let r = try CLI.run(arguments + ["--apps", dir + "/apps.csv", "--per-user", "--out", dir + "/o"])
            #expect(r.status == 65, "\(r.stderr)")
            #expect(r.stderr.contains(message), "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/o"))
        }
        let generated = try CLI.run(["compare", "--workload-seeds", "1", "--devices", "iphone-x", "--per-user", "--out", dir + "/o"])
        #expect(generated.status == 64 && generated.stderr.contains("--per-user"), "\(generated.stderr)")
    }

    /// The hand-checked case of ValidateCommandTests, with a second user in the same file: --per-user scores each user
    /// as their own trace file would be scored.
    @Test func validatePerUserSplitsOneFileIntoItsUsers() throws {
        let dir = try scratch()
        try "app,dirty_mb\na,100\nb,100\nc,100\n".write(toFile: dir + "/apps.csv", atomically: true, encoding: .utf8)
        try "time,app,event,value,user\n0,a,open,,x\n5,c,open,,y\n10,b,open,,x\n20,c,open,,x\n"
            .write(toFile: dir + "/both.csv", atomically: true, encoding: .utf8)
        try "time,app,event,value\n0,a,open,\n10,b,open,\n20,c,open,\n".write(toFile: dir + "/trace-user-x.csv", atomically: true, encoding: .utf8)
        try "user,time,app,rank,alive\nx,30,c,0,true\nx,30,b,1,false\nx,30,a,2,false\nx,40,c,0,true\nx,40,b,1,true\nx,40,a,2,true\ny,30,c,0,true\n"
            .write(toFile: dir + "/snapshots.csv", atomically: true, encoding: .utf8)
        let base = ["validate", "--snapshots", dir + "/snapshots.csv", "--apps", dir + "/apps.csv", "--devices", "cache:200MiB", "--policies", "lru", "--quiet"]
        let split = try CLI.run(base + ["--trace", dir + "/both.csv", "--per-user", "--out", dir + "/split"])
        let own = try CLI.run(base + ["--trace", dir + "/trace-user-x.csv", "--out", dir + "/own"])
        #expect(split.status == 0 && own.status == 0, "\(split.stderr)\(own.stderr)")
        let rows = try Self.csv(dir + "/split/validation.csv")
        #expect(rows.dropFirst().map { $0[0] } == ["x", "y"])
        let x = try Self.csv(dir + "/own/validation.csv")[1]
        #expect(Array(rows[1].dropFirst(2)) == Array(x.dropFirst(2)))
    }

    @Test func residencyListsEveryStartedAppAtEachProbeAndChangesNoOtherReport() throws {
        let dir = try scratch()
        try "app,dirty_mb\na,100\nb,100\nc,100\n".write(toFile: dir + "/apps.csv", atomically: true, encoding: .utf8)
        try "time,app,event,value\n0,a,open,\n10,b,open,\n20,c,open,\n".write(toFile: dir + "/t.csv", atomically: true, encoding: .utf8)
        let base = ["run", "--device", "cache:200MiB", "--policy", "lru", "--apps", dir + "/apps.csv", "--trace", dir + "/t.csv", "--quiet"]
        let probed = try CLI.run(base + ["--residency", "every:10s", "--out", dir + "/p"])
        let plain = try CLI.run(base + ["--out", dir + "/n"])
        #expect(probed.status == 0 && plain.status == 0, "\(probed.stderr)")
        // A probe at t sees every event at or before t: at 20 s, c's open has evicted a (200 MiB hold two apps).
        let rows = try Self.csv(dir + "/p/residency.csv")
        #expect(rows[0] == ["policy", "device", "trace", "user", "seed", "time", "app", "state", "band", "footprint_mb"])
        #expect(rows.dropFirst().map { "\($0[5]) \($0[6]) \($0[7])" } == [
            "0.000 a active", "10.000 a suspended", "10.000 b active", "20.000 a not-running", "20.000 b suspended", "20.000 c active",
        ])
        for file in ["summary.csv", "kills.csv", "apps.csv", "timeseries.csv"] {
            #expect(try String(contentsOfFile: dir + "/p/" + file, encoding: .utf8) == String(contentsOfFile: dir + "/n/" + file, encoding: .utf8), "\(file)")
        }
        // Times from a file (any CSV with a time column: snapshots.csv serves), per user with --per-user.
        try "time,app,event,value,user\n0,a,open,,x\n5,c,open,,y\n10,b,open,,x\n20,c,open,,x\n".write(toFile: dir + "/both.csv", atomically: true, encoding: .utf8)
        try "user,time,app\nx,15,a\ny,7,c\ny,30,c\n".write(toFile: dir + "/times.csv", atomically: true, encoding: .utf8)
        let perUser = try CLI.run(["compare", "--devices", "cache:200MiB", "--policies", "lru", "--apps", dir + "/apps.csv", "--trace", dir + "/both.csv",
                                   "--per-user", "--residency", dir + "/times.csv", "--out", dir + "/c", "--quiet"])
        #expect(perUser.status == 0, "\(perUser.stderr)")
        #expect(try Self.csv(dir + "/c/residency.csv").dropFirst().map { "\($0[3]) \($0[5]) \($0[6]) \($0[7])" } == [
            "x 15.000 a suspended", "x 15.000 b active", "y 7.000 c active", "y 30.000 c active",
        ])
        let bad = try CLI.run(base + ["--residency", "every:0s", "--out", dir + "/b"])
        #expect(bad.status == 64 && bad.stderr.contains("--residency every:DURATION"), "\(bad.stderr)")
        try "when\n1\n".write(toFile: dir + "/nowhen.csv", atomically: true, encoding: .utf8)
        let badFile = try CLI.run(base + ["--residency", dir + "/nowhen.csv", "--out", dir + "/b"])
        #expect(badFile.status == 65 && badFile.stderr.contains("nowhen.csv:1: has no column 'time'"), "\(badFile.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/b"))
    }

    /// A per-user grid shards and merges like any grid: the users' rows and population.csv come out byte for byte; an
    /// experiment file says `per_user: true` as the flag does.
    @Test func aPerUserGridMergesFromShardsAndTakesPerUserFromAnExperimentFile() throws {
        let dir = try scratch()
        try Self.traces(in: dir)
        try "apps: apps.csv\ntrace: both.csv\ndevices: [iphone-x, iphone-11]\npolicies: [lru, largest]\nper_user: true\n"
            .write(toFile: dir + "/grid.yaml", atomically: true, encoding: .utf8)
        let whole = try CLI.run(["compare", "--config", dir + "/grid.yaml", "--out", dir + "/whole", "--quiet"])
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(try Self.csv(dir + "/whole/summary.csv").dropFirst().map { $0.last ?? "" } == ["1", "1", "1", "1", "2", "2", "2", "2"])
        for k in 0..<3 {
            let shard = try CLI.run(["compare", "--config", dir + "/grid.yaml", "--shard", "\(k)/3", "--out", dir + "/s\(k)", "--quiet"])
            #expect(shard.status == 0, "\(shard.stderr)")
        }
        let merged = try CLI.run(["merge", dir + "/s2", dir + "/s0", dir + "/s1", "--out", dir + "/merged", "--quiet"])
        #expect(merged.status == 0, "\(merged.stderr)")
        for file in ["summary.csv", "compare.csv", "population.csv", "latency.csv"] {
            #expect(try String(contentsOfFile: dir + "/whole/" + file, encoding: .utf8) == String(contentsOfFile: dir + "/merged/" + file, encoding: .utf8), "\(file)")
        }
        try "per_user: maybe\n".write(toFile: dir + "/bad.yaml", atomically: true, encoding: .utf8)
        let bad = try CLI.run(["compare", "--config", dir + "/bad.yaml", "--out", dir + "/b"])
        #expect(bad.status == 65 && bad.stderr.contains("per_user") && bad.stderr.contains("expected true or false"), "\(bad.stderr)")
    }

    /// The importers' multi-user trace (users one after another in one trace.csv) splits the same way: user 2's row is
    /// the run of `import --user 2`'s trace.
    @Test func anImportedMultiUserTraceRunsPerUserAsEachUsersOwnImport() throws {
        let dir = try scratch()
        try "user,start,end,app\n1,1600000000,1600000100,com.a\n1,1600000200,1600000300,com.b\n2,1600000050,1600000150,com.b\n2,1600000400,1600000500,com.a\n"
            .write(toFile: dir + "/usage.csv", atomically: true, encoding: .utf8)
        #expect(try CLI.run(["import", "intervals", dir + "/usage.csv", "--out", dir + "/all"]).status == 0)
        #expect(try CLI.run(["import", "intervals", dir + "/usage.csv", "--user", "2", "--out", dir + "/two"]).status == 0)
        let base = ["run", "--device", "iphone-x", "--policy", "lru", "--quiet"]
        let per = try CLI.run(base + ["--apps", dir + "/all/apps.csv", "--trace", dir + "/all/trace.csv", "--per-user", "--out", dir + "/per"])
        let own = try CLI.run(base + ["--apps", dir + "/two/apps.csv", "--trace", dir + "/two/trace.csv", "--out", dir + "/own"])
        #expect(per.status == 0 && own.status == 0, "\(per.stderr)\(own.stderr)")
        let rows = try Self.csv(dir + "/per/summary.csv")
        #expect(rows.dropFirst().map { $0.last ?? "" } == ["1", "2"])
        let mine = try Self.csv(dir + "/own/summary.csv")[1]
        let metrics = ["events", "sim_seconds", "launches", "cold_launches", "resumes", "kills"].map { rows[0].firstIndex(of: $0) ?? 0 }
        #expect(metrics.map { rows[2][$0] } == metrics.map { mine[$0] })
    }
}
