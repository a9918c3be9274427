import Foundation
import JetsimIO
import Testing

/// Issue 21: grids of several traces, run whole or as shards (`compare --shard K/N`) merged by `jetsim merge` into the
/// same bytes.
@Suite struct ShardMergeTests {
    /// A second trace: the example day's first half, so the two workloads differ.
    func secondTrace(in dir: String) throws -> String {
        let lines = try String(contentsOfFile: CLI.exampleTrace, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let path = dir + "/half.csv"
        try (lines.prefix(lines.count / 2).joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func grid(_ dir: String) throws -> [String] {
        ["compare", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--trace", try secondTrace(in: dir),
         "--policies", "xnu,lru,oracle,random", "--devices", "iphone-x,iphone-11", "--seeds", "1,2", "--interval", "4h", "--quiet"]
    }

    func files(_ dir: String) throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: dir).sorted() }

    /// manifest.json without its "invocation" (how the process ran), the rest compared as JSON values.
    func manifestWithoutInvocation(_ dir: String) throws -> NSDictionary {
        var m = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/manifest.json"))) as? [String: Any] ?? [:]
        #expect(m["invocation"] != nil)
        m["invocation"] = nil
        return m as NSDictionary
    }

    @Test func aShardedGridMergesToTheBytesOfTheGridRunAtOnce() throws {
        let dir = try scratch()
        let grid = try grid(dir)
        let whole = try CLI.run(grid + ["--jobs", "2", "--out", dir + "/whole"])
        #expect(whole.status == 0, "\(whole.stderr)")
        for k in 0..<3 {
            let r = try CLI.run(grid + ["--jobs", "1", "--shard", "\(k)/3", "--out", dir + "/shards/\(k)"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        // A shard keeps its cells' intervals.csv rows, not their windows.
        #expect(try files(dir + "/shards/1") == ["intervals.csv", "results.json", "shard.json"])
        #expect(!(try String(contentsOfFile: dir + "/shards/1/results.json", encoding: .utf8)).contains("\"intervals\":[{"))
        // In any order.
        let merge = try CLI.run(["merge", dir + "/shards/2", dir + "/shards/0", dir + "/shards/1", "--out", dir + "/merged", "--quiet"])
        #expect(merge.status == 0, "\(merge.stderr)")
        let names = try files(dir + "/whole")
        #expect(names == (try files(dir + "/merged")))
        #expect(names.contains("intervals.csv") && names.contains("report.html") && names.contains("chart-kills.csv"))
        for name in names where name != "manifest.json" {
            let a = try Data(contentsOf: URL(fileURLWithPath: dir + "/whole/" + name)), b = try Data(contentsOf: URL(fileURLWithPath: dir + "/merged/" + name))
            #expect(a == b, "\(name) differs")
        }
        #expect(try manifestWithoutInvocation(dir + "/whole") == manifestWithoutInvocation(dir + "/merged"))
        // Both traces are in the grid: 2 traces × 2 devices × 4 policies × 2 seeds rows, the trace named in each.
        let summary = try String(contentsOfFile: dir + "/merged/summary.csv", encoding: .utf8).split(separator: "\n")
        #expect(summary.count == 1 + 32)
        #expect(summary.filter { $0.contains(",half.csv,") }.count == 16 && summary.filter { $0.contains(",trace.csv,") }.count == 16)
        let intervals = try String(contentsOfFile: dir + "/merged/intervals.csv", encoding: .utf8)
        #expect(intervals.hasPrefix("policy,device,trace,seed,interval_start_s"))
        #expect(intervals.contains(",half.csv,") && intervals.contains(",trace.csv,"))
        let compare = try String(contentsOfFile: dir + "/merged/compare.csv", encoding: .utf8).split(separator: "\n")
        #expect(compare.dropFirst().allSatisfy { $0.contains(",2,2,") })   // seeds 2, workloads 2
    }

    @Test func aMissingShardIsNamedWithItsCellsAndTheCommandThatRerunsIt() throws {
        let dir = try scratch()
        let grid = try grid(dir)
        for k in [0, 2] { #expect(try CLI.run(grid + ["--shard", "\(k)/3", "--out", dir + "/s/\(k)"]).status == 0) }
        let refused = try CLI.run(["merge", dir + "/s/0", dir + "/s/2", "--out", dir + "/merged"])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("1 of 3 shards are missing (1)"), "\(refused.stderr)")
        #expect(refused.stderr.contains("shard 1/3: cells 10..<21"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--shard 1/3 --out \(dir)/s/1"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/merged"))
        // Named but absent (a shard that failed before writing): missing too, not unreadable.
        let named = try CLI.run(["merge", dir + "/s/0", dir + "/s/1", dir + "/s/2", "--out", dir + "/merged"])
        #expect(named.status == 65 && named.stderr.contains("(not found: \(dir)/s/1)") && named.stderr.contains("--shard 1/3"), "\(named.stderr)")
        // Rerun just that shard, merge again.
        #expect(try CLI.run(grid + ["--shard", "1/3", "--out", dir + "/s/1"]).status == 0)
        let merged = try CLI.run(["merge", dir + "/s/0", dir + "/s/1", dir + "/s/2", "--out", dir + "/merged", "--quiet"])
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(try String(contentsOfFile: dir + "/merged/summary.csv", encoding: .utf8).split(separator: "\n").count == 33)
    }

    @Test func shardsThatDoNotMakeOneGridAreRefused() throws {
        let dir = try scratch()
        let grid = try grid(dir)
        for k in 0..<2 { #expect(try CLI.run(grid + ["--shard", "\(k)/2", "--out", dir + "/a/\(k)"]).status == 0) }
        #expect(try CLI.run(grid + ["--seeds", "1,3", "--shard", "1/2", "--out", dir + "/b/1"]).status == 0)
        #expect(try CLI.run(grid + ["--shard", "1/3", "--out", dir + "/c/1"]).status == 0)
        let cases: [([String], String)] = [
            ([dir + "/a/0", dir + "/b/1"], "belongs to another grid"),
            ([dir + "/a/0", dir + "/c/1"], "the shards of one grid share N"),
            ([dir + "/a/0", dir + "/a/1", dir + "/a/0"], "give each shard once"),
            ([dir + "/nowhere"], "nowhere: does not exist, nor does any other shard directory given"),
        ]
        for (shards, message) in cases {
            let r = try CLI.run(["merge"] + shards + ["--out", dir + "/m"])
            #expect(r.status == 65 || r.status == 66, "\(shards): \(r.status)")
            #expect(r.stderr.contains(message), "\(shards): \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/m"))
        }
        // A damaged results file is refused by its hash.
        let results = dir + "/a/1/results.json"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: results))
        bytes[bytes.count / 2] = bytes[bytes.count / 2] == UInt8(ascii: "1") ? UInt8(ascii: "2") : UInt8(ascii: "1")
        try bytes.write(to: URL(fileURLWithPath: results))
        let damaged = try CLI.run(["merge", dir + "/a/0", dir + "/a/1", "--out", dir + "/m"])
        #expect(damaged.status == 65)
        #expect(damaged.stderr.contains("results.json: is not the file shard.json recorded"), "\(damaged.stderr)")
        // An input that changed between shards is refused.
        let apps = dir + "/apps.csv"
        try FileManager.default.copyItem(atPath: CLI.exampleApps, toPath: apps)
        let own = grid.map { $0 == CLI.exampleApps ? apps : $0 }
        #expect(try CLI.run(own + ["--shard", "0/2", "--out", dir + "/d/0"]).status == 0)
        try (String(contentsOfFile: apps, encoding: .utf8) + "\n").write(toFile: apps, atomically: true, encoding: .utf8)
        #expect(try CLI.run(own + ["--shard", "1/2", "--out", dir + "/d/1"]).status == 0)
        let changed = try CLI.run(["merge", dir + "/d/0", dir + "/d/1", "--out", dir + "/m"])
        #expect(changed.status == 65)
        #expect(changed.stderr.contains("the input changed between shards"), "\(changed.stderr)")
    }

    /// `compare --trace a --trace b` ran only b, silently; `--traces DIR` reads every file of DIR in name order.
    @Test func severalTracesMakeOneGridGivenOneByOneOrAsADirectory() throws {
        let dir = try scratch()
        let half = try secondTrace(in: dir)
        try FileManager.default.createDirectory(atPath: dir + "/traces", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.exampleTrace, toPath: dir + "/traces/a.csv")
        try FileManager.default.copyItem(atPath: half, toPath: dir + "/traces/b.csv")
        for other in [".hidden", "apps.csv", "snapshots.csv", "device.yaml"] {   // not traces: what import and generate write beside them
            try "x".write(toFile: dir + "/traces/" + other, atomically: true, encoding: .utf8)
        }
        let base = ["compare", "--apps", CLI.exampleApps, "--policies", "xnu,lru", "--devices", "iphone-x", "--quiet"]
        #expect(try CLI.run(base + ["--traces", dir + "/traces", "--out", dir + "/dir"]).status == 0)
        #expect(try CLI.run(base + ["--trace", dir + "/traces/a.csv", "--trace", dir + "/traces/b.csv", "--out", dir + "/each"]).status == 0)
        // An experiment file's `traces`, relative to the file.
        try "apps: \(CLI.exampleApps)\ntraces: traces\npolicies: [xnu, lru]\ndevices: [iphone-x]\nout: from-file\n"
            .write(toFile: dir + "/grid.yaml", atomically: true, encoding: .utf8)
        #expect(try CLI.run(["compare", "--config", dir + "/grid.yaml", "--quiet"]).status == 0)
        let fromDirectory = try String(contentsOfFile: dir + "/dir/summary.csv", encoding: .utf8)
        #expect(fromDirectory == (try String(contentsOfFile: dir + "/each/summary.csv", encoding: .utf8)))
        #expect(fromDirectory == (try String(contentsOfFile: dir + "/from-file/summary.csv", encoding: .utf8)))
        #expect(fromDirectory.split(separator: "\n").map { $0.split(separator: ",")[2] }.dropFirst().contains("b.csv"))
        let twice = try CLI.run(base + ["--trace", CLI.exampleTrace, "--trace", CLI.exampleTrace, "--out", dir + "/x"])
        #expect(twice.status == 64 && twice.stderr.contains("twice"), "\(twice.stderr)")
        let both = try CLI.run(base + ["--trace", CLI.exampleTrace, "--traces", dir + "/traces", "--out", dir + "/x"])
        #expect(both.status == 64 && both.stderr.contains("not both"), "\(both.stderr)")
        let empty = dir + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let none = try CLI.run(base + ["--traces", empty, "--out", dir + "/x"])
        #expect(none.status == 66 && none.stderr.contains("holds no trace file"), "\(none.stderr)")
        for bad in ["3/3", "2/1", "1", "a/b", "0/0", "0/100001"] {
            let r = try CLI.run(base + ["--trace", CLI.exampleTrace, "--shard", bad, "--out", dir + "/x"])
            #expect(r.status == 64 && r.stderr.contains("--shard takes K/N"), "\(bad): \(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/x"))
    }

    /// `compare` ignored `--csv-fields`; it now reads a libCacheSim CSV's columns where they are, as `run` does.
    @Test func compareTakesCSVFieldsAsRunDoes() throws {
        let dir = try scratch()
        var plain = "time,obj-id,obj-size\n", swapped = "obj-size,time,obj-id\n"
        for k in 0..<400 {
            let id = (k * 7919) % 37, size = 1000 + id * 10
            plain += "\(k),\(id),\(size)\n"
            swapped += "\(size),\(k),\(id)\n"
        }
        try plain.write(toFile: dir + "/plain.csv", atomically: true, encoding: .utf8)
        try swapped.write(toFile: dir + "/swapped.csv", atomically: true, encoding: .utf8)
        let base = ["compare", "--format", "libcachesim", "--policies", "lru,fifo", "--devices", "cache:20000", "--quiet"]
        #expect(try CLI.run(base + ["--trace", dir + "/plain.csv", "--out", dir + "/p"]).status == 0)
        let r = try CLI.run(base + ["--trace", dir + "/swapped.csv", "--csv-fields", "time=2,obj-id=3,obj-size=1", "--out", dir + "/s"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try String(contentsOfFile: dir + "/p/compare.csv", encoding: .utf8) == String(contentsOfFile: dir + "/s/compare.csv", encoding: .utf8))
        let misplaced = try CLI.run(["compare", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--devices", "iphone-x",
                                     "--csv-fields", "time=2", "--out", dir + "/x"])
        #expect(misplaced.status == 64 && misplaced.stderr.contains("--csv-fields applies to --format libcachesim only"))
    }
}
