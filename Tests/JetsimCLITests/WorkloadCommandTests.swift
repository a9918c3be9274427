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
}
