import Foundation
import Testing

@Suite struct WorkloadCommandTests {
    @Test func generateIsByteIdenticalPerSeedAndItsOutputRuns() throws {
        let dir = try scratch()
        for k in 0..<2 {
            let r = try CLI.run(["generate", "--users", "2", "--days", "2", "--apps", "25", "--seed", "11", "--out", "\(dir)/g\(k)"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        for f in ["apps.csv", "trace.csv"] {
            #expect(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/g0/\(f)")) == Data(contentsOf: URL(fileURLWithPath: "\(dir)/g1/\(f)")))
        }
        let other = try CLI.run(["generate", "--users", "2", "--days", "2", "--apps", "25", "--seed", "12", "--out", "\(dir)/g2"])
        #expect(other.status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/g0/trace.csv")) != Data(contentsOf: URL(fileURLWithPath: "\(dir)/g2/trace.csv")))
        let run = try CLI.run(["run", "--device", "iphone-x", "--apps", "\(dir)/g0/apps.csv", "--trace", "\(dir)/g0/trace.csv",
                               "--out", "\(dir)/r", "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        // Users one after another: user 2's first event comes after user 1's days.
        let rows = try String(contentsOfFile: "\(dir)/g0/trace.csv", encoding: .utf8).split(separator: "\n").dropFirst()
        let firstOfUser2 = rows.first { $0.hasSuffix(",2") }.flatMap { Double($0.split(separator: ",")[0]) } ?? 0
        #expect(firstOfUser2 >= 2 * 86_400)
    }

    @Test func perUserWritesOneTraceEach() throws {
        let dir = try scratch()
        let r = try CLI.run(["generate", "--users", "3", "--days", "1", "--apps", "10", "--per-user", "--out", dir])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(files(in: dir) == ["apps.csv", "trace-user-1.csv", "trace-user-2.csv", "trace-user-3.csv"])
        let bad = try CLI.run(["generate", "--users", "0", "--out", dir + "/x"])
        #expect(bad.status == 64)
    }

    @Test func inspectReportsTheExampleDay() throws {
        let r = try CLI.run(["inspect", CLI.exampleTrace, "--csv"])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = Set(r.stdout.split(separator: "\n").map(String.init))
        let trace = try String(contentsOfFile: CLI.exampleTrace, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }.dropFirst()
        let opens = trace.filter { $0.split(separator: ",", omittingEmptySubsequences: false)[2] == "open" }.count
        #expect(rows.contains("summary,events,\(trace.count)"))
        #expect(rows.contains("events,open,\(opens)"))
        #expect(rows.contains("summary,distinct_apps,12"))
        #expect(rows.contains { $0.hasPrefix("reuse_distance,0,") })
        #expect(rows.contains { $0.hasPrefix("working_set,0,") })
        let table = try CLI.run(["inspect", CLI.exampleTrace])
        #expect(table.stdout.contains("reuse distance") && table.stdout.contains("working set"))
        let unknown = try CLI.run(["inspect", CLI.exampleTrace, "--apps", CLI.packageRoot + "/Reports/examples/day-iphone-x/apps.csv"])
        #expect(unknown.status == 65)   // that file is a report, not a catalog: its header is rejected
    }

    /// Found by fuzzing: each trapped in the generator (an overflowing product, a Double → Int of 1e300).
    @Test func generateRefusesOptionsOutsideTheirLimits() throws {
        let dir = try scratch()
        let cases: [([String], String)] = [
            (["--users", "4611686018427387904", "--days", "2"], "--users"), (["--pushes-per-hour", "1e300"], "--pushes-per-hour"),
            (["--pushes-per-hour", "nan"], "--pushes-per-hour"), (["--days", "3651"], "--days"), (["--zipf", "inf"], "--zipf"),
            (["--engagement-p90", "inf"], "--engagement-p90"), (["--calls-per-day", "1e9"], "--calls-per-day"),
            (["--sessions-per-day", "nan"], "--sessions-per-day"), (["--users", "1000", "--days", "1001"], "--users × --days"),
        ]
        for (options, name) in cases {
            let r = try CLI.run(["generate"] + options + ["--out", dir + "/x"])
            #expect(r.status == 64, "\(options): \(r.stderr)")
            #expect(r.stderr.contains(name + " must"), "\(options): \(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/x"))
        let top = try CLI.run(["generate", "--pushes-per-hour", "100", "--calls-per-day", "1000", "--zipf", "10", "--out", dir + "/top"])
        #expect(top.status == 0, "\(top.stderr)")
    }

    /// Two rows 1.15e12 s apart: inspect allocated a working set for 319 million hours and aborted.
    @Test func inspectRefusesATraceOfTooManyHours() throws {
        let dir = try scratch()
        try "time,app,event,value\n0,a,open,\n1150000000000,a,open,\n".write(toFile: dir + "/t.csv", atomically: true, encoding: .utf8)
        let r = try CLI.run(["inspect", dir + "/t.csv"])
        #expect(r.status == 65)
        #expect(r.stderr.contains("t.csv: the trace spans 1 150 000 000 000 s; its hourly working set would make 319 444 445 windows (at most 1 000 000)"))
        try "time,app,event,value\n0,a,open,\n3599996400,a,open,\n".write(toFile: dir + "/edge.csv", atomically: true, encoding: .utf8)
        let edge = try CLI.run(["inspect", dir + "/edge.csv"])   // 999 999 hours and a bit: one million windows, accepted
        #expect(edge.status == 0, "\(edge.stderr)")
        #expect(edge.stdout.contains("(2 of 1000000 hours with opens"))
    }

    /// The same trace made compare allocate a window per hour per run; durations past 2^60 µs overflowed its clock.
    @Test func compareAndRunBoundTheirWindowsAndDurations() throws {
        let dir = try scratch()
        try "app,dirty_mb\na,10\n".write(toFile: dir + "/apps.csv", atomically: true, encoding: .utf8)
        try "time,app,event,value\n0,a,open,\n1150000000000,a,open,\n".write(toFile: dir + "/long.csv", atomically: true, encoding: .utf8)
        try "time,app,event,value\n1150000000000,a,open,\n1150000000001,a,open,\n".write(toFile: dir + "/late.csv", atomically: true, encoding: .utf8)
        let compare = ["compare", "--apps", dir + "/apps.csv", "--devices", "iphone-x", "--quiet"]
        let long = try CLI.run(compare + ["--trace", dir + "/long.csv", "--interval", "1h", "--out", dir + "/c1"])
        #expect(long.status == 64)
        #expect(long.stderr.contains("the trace spans 1 150 000 000 000 s; --interval 3600 s would make 319 444 445 windows (at most 1 000 000); choose a longer --interval"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/c1"))
        try "time,app,event,value\n0,a,open,\n599999,a,open,\n".write(toFile: dir + "/week.csv", atomically: true, encoding: .utf8)
        let grid = try CLI.run(["compare", "--apps", dir + "/apps.csv", "--devices", "iphone-x,iphone-6s", "--quiet", "--trace", dir + "/week.csv",
                                "--interval", "1s", "--out", dir + "/c2"])
        #expect(grid.status == 64)
        #expect(grid.stderr.contains("600 000 windows in each of its 2 runs, 1 200 000 in all (at most 1 000 000)"))
        for option in ["--interval", "--warmup"] {
            let r = try CLI.run(compare + ["--trace", dir + "/late.csv", option, "9000000000000s", "--out", dir + "/c3"])
            #expect(r.status == 64, "\(option): \(r.stderr)")
            #expect(r.stderr.contains(option + " takes a duration"))
        }
        let run = ["run", "--device", "iphone-x", "--apps", dir + "/apps.csv", "--trace", dir + "/late.csv", "--out", dir + "/r", "--quiet"]
        let sample = try CLI.run(run + ["--sample-interval", "9000000000000"])
        #expect(sample.status == 64)
        #expect(sample.stderr.contains("--sample-interval must be a positive duration"))
        let samples = try CLI.run(run + ["--max-samples", "1000001"])
        #expect(samples.status == 64)
        #expect(samples.stderr.contains("--max-samples must be between 1 and 1 000 000"))
    }
}
