import Foundation
import Testing

/// `jetsim cachesim`: one pass, many cells, the same misses as `jetsim run` on a cache device.
@Suite struct CacheSimCommandTests {
    static func rows(_ path: String) throws -> [[String: String]] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        guard let header = lines.first else { return [] }
        return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    /// A seeded trace with repeats, ties in time and objects of several sizes (one larger than the small cache).
    static func trace(in dir: String) throws -> String {
        var text = "time,obj_id,obj_size\n"
        var x: UInt64 = 7
        for t in 0..<3000 {
            x = x &* 6364136223846793005 &+ 1442695040888963407
            let object = Int((x >> 33) % 40) * Int((x >> 50) % 3 + 1) % 97
            text += "\(t / 4),\(object + 1000),\(object == 13 ? 90_000 : 1000 + object * 37)\n"
        }
        let path = dir + "/t.csv"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func everyCellMissesAsTheFullEngineDoes() throws {
        let dir = try scratch()
        let path = try Self.trace(in: dir)
        let r = try CLI.run(["cachesim", "--trace", path, "--capacity", "20000,60KB", "--policy", "lru,fifo,lfu", "--out", dir + "/c"])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try Self.rows(dir + "/c/cache.csv")
        #expect(rows.map { $0["policy"] ?? "" } == ["lru", "lru", "fifo", "fifo", "lfu(half_life_h=24)", "lfu(half_life_h=24)"])
        #expect(rows.map { $0["capacity_bytes"] ?? "" } == ["20000", "60000", "20000", "60000", "20000", "60000"])
        for (k, row) in rows.enumerated() {
            let policy = ["lru", "fifo", "lfu"][k / 2], capacity = row["capacity_bytes"] ?? ""
            let full = try CLI.run(["run", "--device", "cache:\(capacity)", "--format", "libcachesim", "--trace", path, "--policy", policy,
                                    "--out", "\(dir)/r-\(policy)-\(capacity)", "--quiet"])
            #expect(full.status == 0, "\(full.stderr)")
            let summary = try Self.rows("\(dir)/r-\(policy)-\(capacity)/summary.csv")[0]
            #expect(row["misses"] == summary["cold_launches"], "\(policy) at \(capacity)")
            #expect(Int(row["hits"] ?? "") ?? -1 == 3000 - (Int(row["misses"] ?? "") ?? 0))
        }
        #expect(rows[0]["not_admitted"] != "0")   // the 90 000-byte object never fits 20 000 bytes
        #expect(r.stdout.contains("3000 requests"))
    }

    @Test func gzipAndRepeatedRunsGiveIdenticalBytes() throws {
        let dir = try scratch()
        let path = try Self.trace(in: dir)
        try gzipKeeping(path)
        for (input, out) in [(path, "/a"), (path + ".gz", "/b"), (path, "/c")] {
            let r = try CLI.run(["cachesim", "--trace", input, "--capacity", "30000", "--policy", "xnu,random", "--seed", "3", "--out", dir + out, "--quiet"])
            #expect(r.status == 0 && r.stdout.isEmpty, "\(r.stderr)")
        }
        let a = try String(contentsOfFile: dir + "/a/cache.csv", encoding: .utf8)
        #expect(a == (try String(contentsOfFile: dir + "/c/cache.csv", encoding: .utf8)))
        #expect(a.replacingOccurrences(of: "t.csv,", with: "t.csv.gz,") == (try String(contentsOfFile: dir + "/b/cache.csv", encoding: .utf8)))
    }

    /// `lfu`'s and `cost`'s decayed counts computed on the reader's thread, in each cell, or as the clock decides
    /// (`--decayed-counts`), from the file and from the requests a working-set pass kept: the same bytes.
    @Test func decayedCountsGiveTheSameBytesWhereverTheyAreComputed() throws {
        let dir = try scratch()
        let path = try Self.trace(in: dir)
        for capacity in ["20000,60KB", "10%,50%"] {
            var outputs: [String] = []
            for where_ in ["reader", "replay", "auto"] {
                let out = "\(dir)/\(where_)-\(capacity.hasSuffix("%") ? "share" : "bytes")"
                let r = try CLI.run(["cachesim", "--trace", path, "--capacity", capacity, "--policy", "lfu,cost,lfu:half_life_h=0.001",
                                     "--decayed-counts", where_, "--jobs", "2", "--out", out, "--quiet"])
                #expect(r.status == 0, "\(r.stderr)")
                outputs.append(try String(contentsOfFile: out + "/cache.csv", encoding: .utf8))
            }
            #expect(outputs.count == 3 && Set(outputs).count == 1, "\(capacity)")
            #expect(try Self.rows("\(dir)/reader-\(capacity.hasSuffix("%") ? "share" : "bytes")/cache.csv").contains { $0["not_admitted"] != "0" })
        }
        let bad = try CLI.run(["cachesim", "--trace", path, "--capacity", "20000", "--decayed-counts", "elsewhere", "--out", dir + "/bad"])
        #expect(bad.status == 64 && !FileManager.default.fileExists(atPath: dir + "/bad"), "\(bad.stderr)")
    }

    @Test func sharesOfTheWorkingSetAreRoundedDownBytes() throws {
        let dir = try scratch()
        let path = try Self.trace(in: dir)
        // The working set: each distinct object's first size.
        var sizes: [String: Int] = [:]
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",")
            if sizes[String(f[1])] == nil { sizes[String(f[1])] = Int(f[2]) }
        }
        let workingSet = sizes.values.reduce(0, +)
        let shares = try CLI.run(["cachesim", "--trace", path, "--capacity", "10%,2.5%", "--out", dir + "/s", "--quiet"])
        let bytes = try CLI.run(["cachesim", "--trace", path, "--capacity", "\(workingSet / 10),\(workingSet * 25 / 1000)", "--out", dir + "/b", "--quiet"])
        #expect(shares.status == 0 && bytes.status == 0, "\(shares.stderr)")
        let a = try Self.rows(dir + "/s/cache.csv"), b = try Self.rows(dir + "/b/cache.csv")
        #expect(a.map { $0["capacity_bytes"] } == [String(workingSet / 10), String(workingSet * 25 / 1000)])
        #expect(a.map { $0["misses"] } == b.map { $0["misses"] })
        for bad in ["0%", "101%", "x%"] {
            let r = try CLI.run(["cachesim", "--trace", path, "--capacity", bad, "--out", dir + "/x"])
            #expect(r.status == 64 && r.stderr.contains("share of the working set"), "\(bad)")
        }
    }

    @Test func badInputWritesNothing() throws {
        let dir = try scratch()
        try "time,obj_id,obj_size\n1,2,3\n2,3,oops\n".write(toFile: dir + "/bad.csv", atomically: true, encoding: .utf8)
        let bad = try CLI.run(["cachesim", "--trace", dir + "/bad.csv", "--capacity", "100", "--out", dir + "/o"])
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("bad.csv:3: field 'obj-size': expected a size in bytes, found 'oops'"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/o"))
        let oracle = try CLI.run(["cachesim", "--trace", dir + "/bad.csv", "--capacity", "100", "--policy", "lru,oracle", "--out", dir + "/o"])
        #expect(oracle.status == 64 && oracle.stderr.contains("needs the whole trace in advance"))
        let capacity = try CLI.run(["cachesim", "--trace", dir + "/bad.csv", "--capacity", "lots", "--out", dir + "/o"])
        #expect(capacity.status == 64 && capacity.stderr.contains("--capacity"))
        let unknown = try CLI.run(["cachesim", "--trace", dir + "/bad.csv", "--capacity", "100", "--policy", "nope", "--out", dir + "/o"])
        #expect(unknown.status == 64)
        let missing = try CLI.run(["cachesim", "--trace", dir + "/none.csv", "--capacity", "100", "--out", dir + "/o"])
        #expect(missing.status == 66)
        #expect(!FileManager.default.fileExists(atPath: dir + "/o"))
    }
}
