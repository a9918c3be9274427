import Foundation
import JetsimIO
import Testing

/// What users of cache simulators and of other command-line tools expect of `jetsim`'s commands.
@Suite struct HabitsCommandTests {
    /// cache.csv without its first column (the trace's file name).
    static func cells(_ directory: String) throws -> String {
        try String(contentsOfFile: directory + "/cache.csv", encoding: .utf8).split(separator: "\n")
            .map { $0.split(separator: ",", maxSplits: 1).last.map(String.init) ?? "" }.joined(separator: "\n")
    }

    @Test func decimalUnitsAreReadAsWrittenAndNoted() throws {
        let dir = try scratch()
        let trace = try CacheSimCommandTests.trace(in: dir)
        let decimal = try CLI.run(["cachesim", "--trace", trace, "--capacity", "60kb,20000", "--out", dir + "/d"])
        #expect(decimal.status == 0, "\(decimal.stderr)")
        #expect(try CacheSimCommandTests.rows(dir + "/d/cache.csv").map { $0["capacity_bytes"] } == ["60000", "20000"])
        let note = decimal.stderr.split(separator: "\n").filter { $0.contains("note:") }
        #expect(note.count == 1 && note[0].contains("60kb = 60000 bytes") && note[0].contains("libCacheSim reads GB as GiB"), "\(decimal.stderr)")
        let binary = try CLI.run(["cachesim", "--trace", trace, "--capacity", "60KiB", "--out", dir + "/b"])
        #expect(binary.status == 0 && binary.stderr.isEmpty, "\(binary.stderr)")
        #expect(try CacheSimCommandTests.rows(dir + "/b/cache.csv").map { $0["capacity_bytes"] } == ["61440"])
        let run = try CLI.run(["run", "--device", "cache:1MB", "--format", "libcachesim", "--trace", trace, "--policy", "lru", "--out", dir + "/r"])
        #expect(run.status == 0 && run.stderr.contains("--device 1MB = 1000000 bytes"), "\(run.stderr)")
    }

    @Test func aBareFractionIsAShareOfTheWorkingSet() throws {
        let dir = try scratch()
        let trace = try CacheSimCommandTests.trace(in: dir)
        let fraction = try CLI.run(["cachesim", "--trace", trace, "--capacity", "0.1,0.025", "--out", dir + "/f", "--quiet"])
        let percent = try CLI.run(["cachesim", "--trace", trace, "--capacity", "10%,2.5%", "--out", dir + "/p", "--quiet"])
        #expect(fraction.status == 0 && percent.status == 0, "\(fraction.stderr)")
        #expect(try Self.cells(dir + "/f") == (try Self.cells(dir + "/p")))
        let tooLarge = try CLI.run(["cachesim", "--trace", trace, "--capacity", "1.5", "--out", dir + "/x"])
        #expect(tooLarge.status == 64 && tooLarge.stderr.contains("0.01"), "\(tooLarge.stderr)")
    }

    @Test func namesIgnoreCaseAndTyposGetASuggestion() throws {
        let dir = try scratch()
        let base = ["run", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--quiet"]
        let upper = try CLI.run(base + ["--device", "iPhone-X", "--policy", "LRU", "--out", dir + "/u"])
        let lower = try CLI.run(base + ["--device", "iphone-x", "--policy", "lru", "--out", dir + "/l"])
        #expect(upper.status == 0 && lower.status == 0, "\(upper.stderr)")
        #expect(try String(contentsOfFile: dir + "/u/summary.csv", encoding: .utf8) == (try String(contentsOfFile: dir + "/l/summary.csv", encoding: .utf8)))
        let typo = try CLI.run(base + ["--device", "iphone-x", "--policy", "larget", "--out", dir + "/t"])
        #expect(typo.status == 64 && typo.stderr.contains("did you mean 'largest'?"), "\(typo.stderr)")
        let device = try CLI.run(["compare", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--devices", "iphone-11,iphone-xz", "--out", dir + "/c"])
        #expect(device.status == 64 && device.stderr.contains("did you mean 'iphone-x'?"), "\(device.stderr)")
        let cachesim = try CLI.run(["cachesim", "--trace", try CacheSimCommandTests.trace(in: dir), "--capacity", "1000", "--policy", "FIFO,lfuu", "--out", dir + "/s"])
        #expect(cachesim.status == 64 && cachesim.stderr.contains("did you mean 'lfu'?"), "\(cachesim.stderr)")
    }

    @Test func policyListsKeepEachPoliciesParameters() throws {
        let dir = try scratch()
        let trace = try CacheSimCommandTests.trace(in: dir)
        for (list, out) in [("cost:alpha=0.5;half_life_h=12,lru", "/a"), ("cost:alpha=0.5,half_life_h=12,lru", "/b")] {
            let r = try CLI.run(["cachesim", "--trace", trace, "--capacity", "20000", "--policies", list, "--out", dir + out, "--quiet"])
            #expect(r.status == 0, "\(r.stderr)")
            let rows = try String(contentsOfFile: dir + out + "/cache.csv", encoding: .utf8).split(separator: "\n").dropFirst()
            #expect(rows.count == 2 && rows.first?.contains(",\"cost(alpha=0.5,half_life_h=12)\",20000,") == true && rows.last?.contains(",lru,20000,") == true,
                    "\(rows)")
        }
        let compare = try CLI.run(["compare", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--devices", "iphone-x",
                                   "--policies", "cost:alpha=0.5;half_life_h=12,xnu", "--out", dir + "/c", "--quiet"])
        #expect(compare.status == 0, "\(compare.stderr)")
        let summary = try CacheSimCommandTests.rows(dir + "/c/compare.csv")
        #expect(summary.count == 2, "\(summary)")
    }

    @Test func cachesimReadsOracleGeneralAndZstdAsTheSameTraceInCSV() throws {
        let dir = try scratch()
        let trace = try CacheSimCommandTests.trace(in: dir)
        // The CSV's rows as oracleGeneral records.
        var records: [UInt8] = []
        for line in try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",").compactMap { UInt64($0) }
            withUnsafeBytes(of: UInt32(f[0]).littleEndian) { records += $0 }
            withUnsafeBytes(of: f[1].littleEndian) { records += $0 }
            withUnsafeBytes(of: UInt32(f[2]).littleEndian) { records += $0 }
            withUnsafeBytes(of: Int64(-1).littleEndian) { records += $0 }
        }
        let binary = dir + "/t.oracleGeneral.bin"
        try Data(records).write(to: URL(fileURLWithPath: binary))
        let unnamed = dir + "/requests.dat"
        try Data(records).write(to: URL(fileURLWithPath: unnamed))
        let args = ["--capacity", "20000,5%", "--policy", "lru,fifo,lfu", "--quiet"]
        #expect(try CLI.run(["cachesim", "--trace", trace, "--out", dir + "/csv"] + args).status == 0)
        let bySuffix = try CLI.run(["cachesim", "--trace", binary, "--out", dir + "/bin"] + args)
        let byOption = try CLI.run(["cachesim", "--trace", unnamed, "--trace-format", "oracleGeneral", "--out", dir + "/dat"] + args)
        #expect(bySuffix.status == 0 && byOption.status == 0, "\(bySuffix.stderr) \(byOption.stderr)")
        #expect(try Self.cells(dir + "/bin") == (try Self.cells(dir + "/csv")))
        #expect(try Self.cells(dir + "/dat") == (try Self.cells(dir + "/csv")))
        let cut = dir + "/cut.oracleGeneral"
        try Data(records.prefix(24 * 10 + 5)).write(to: URL(fileURLWithPath: cut))
        let truncated = try CLI.run(["cachesim", "--trace", cut, "--capacity", "1000", "--out", dir + "/cut"])
        #expect(truncated.status == 65 && truncated.stderr.contains("record 11 (byte offset 240)"), "\(truncated.stderr)")

        guard let zstd = ZstdLibrary.shared else {
            print("skipped the zstd half: libzstd is not installed")
            return
        }
        let compressed = try #require(zstd.compress(records))
        try Data(compressed).write(to: URL(fileURLWithPath: binary + ".zst"))
        try Data(try #require(zstd.compress(Array(try Data(contentsOf: URL(fileURLWithPath: trace)))))).write(to: URL(fileURLWithPath: dir + "/t.csv.zst"))
        #expect(try CLI.run(["cachesim", "--trace", binary + ".zst", "--out", dir + "/binzst"] + args).status == 0)
        #expect(try CLI.run(["cachesim", "--trace", dir + "/t.csv.zst", "--out", dir + "/csvzst"] + args).status == 0)
        #expect(try Self.cells(dir + "/binzst") == (try Self.cells(dir + "/csv")))
        #expect(try Self.cells(dir + "/csvzst") == (try Self.cells(dir + "/csv")))
    }

    @Test func cachesimCellsOnSeveralThreadsGiveTheSameBytes() throws {
        let dir = try scratch()
        let trace = try CacheSimCommandTests.trace(in: dir)
        let args = ["--trace", trace, "--capacity", "5000,20000,60000", "--policy", "lru,fifo,xnu,lfu,random,cost", "--seed", "5"]
        let one = try CLI.run(["cachesim", "--jobs", "1", "--out", dir + "/one"] + args)
        let three = try CLI.run(["cachesim", "--jobs", "3", "--out", dir + "/three"] + args)
        #expect(one.status == 0 && three.status == 0, "\(three.stderr)")
        #expect(one.stdout == three.stdout.replacingOccurrences(of: "/three/", with: "/one/"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/one/cache.csv")) == (try Data(contentsOf: URL(fileURLWithPath: dir + "/three/cache.csv"))))
        #expect(one.stderr.isEmpty && three.stderr.isEmpty, "no progress line when stderr is not a terminal")
        #expect(try CLI.run(["cachesim", "--jobs", "0", "--out", dir + "/zero"] + args).status == 64)
    }

    @Test func usageErrorsNameTheFailingSubcommand() throws {
        let nested = try CLI.run(["import", "intervals", "t.csv", "--out", "/tmp/x", "--csv-fields", "time=1"])
        #expect(nested.status == 64 && nested.stderr.contains("(see 'jetsim import intervals --help')"), "\(nested.stderr)")
        let misplaced = try CLI.run(["import", "libcachesim", "t.csv", "--out", "/tmp/x", "--time-unit", "s"])
        #expect(misplaced.status == 64 && misplaced.stderr.contains("--time-unit") && misplaced.stderr.contains("(see 'jetsim import libcachesim --help')"),
                "\(misplaced.stderr)")
        let format = try CLI.run(["import", "csv", "t.csv", "--out", "/tmp/x"])
        #expect(format.status == 64 && format.stderr.contains("(see 'jetsim import --help')"), "\(format.stderr)")
    }

    @Test func eachImportFormatDocumentsItsColumns() throws {
        for (format, columns) in [("intervals", ["user", "start", "end", "app", "--columns"]),
                                  ("lsapp", ["user_id", "session_id", "timestamp", "app_name", "event_type", "--columns"]),
                                  ("libcachesim", ["time", "obj-id", "obj-size", "--csv-fields"]),
                                  ("jetsam-event", ["rpages", "pageSize", "per-process-limit"])] {
            let help = try CLI.run(["import", format, "--help"])
            #expect(help.status == 0, "\(format)")
            for c in columns { #expect(help.stdout.contains(c), "\(format) --help: \(c)") }
        }
        #expect(!(try CLI.run(["import", "libcachesim", "--help"])).stdout.contains("--user"), "options that do not apply are not offered")
    }

    @Test func importReadsAFilesOwnColumnNames() throws {
        let dir = try scratch()
        try "participant,package,begin,finish\nu1,Maps,2024-01-05T10:00:00Z,2024-01-05T10:01:00Z\nu1,Mail,2024-01-05T10:02:00Z,2024-01-05T10:03:00Z\n"
            .write(toFile: dir + "/own.csv", atomically: true, encoding: .utf8)
        let r = try CLI.run(["import", "intervals", dir + "/own.csv", "--out", dir + "/o", "--columns", "user=participant,start=begin,end=finish,app=package"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try String(contentsOfFile: dir + "/o/trace.csv", encoding: .utf8).contains("Mail"))
        let without = try CLI.run(["import", "intervals", dir + "/own.csv", "--out", dir + "/w"])
        #expect(without.status == 65 && without.stderr.contains("--columns"), "\(without.stderr)")
    }

    @Test func helpWrapsAtTheTerminalsWidth() throws {
        let narrow = try CLI.run(["compare", "--help"], environment: ["COLUMNS": "72"])
        #expect(narrow.status == 0)
        let long = narrow.stdout.split(separator: "\n").filter { $0.count > 72 }
        #expect(long.isEmpty, "\(long)")
        let wide = try CLI.run(["compare", "--help"], environment: ["COLUMNS": "250"])
        #expect(wide.stdout.split(separator: "\n").contains { $0.count > 150 }, "a paragraph fills a wide terminal")
    }

    @Test func compareHelpNamesEveryFileItWrites() throws {
        let dir = try scratch()
        let r = try CLI.run(["compare", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--devices", "iphone-x", "--policies", "xnu,lru",
                             "--interval", "1h", "--out", dir + "/c", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let help = try CLI.run(["compare", "--help"]).stdout
        let written = files(in: dir + "/c")
        #expect(written.count >= 8, "\(written)")
        // A chart file is named by its pattern, chart-NAME.svg, and its NAME (a device's part as DEVICE).
        func named(_ file: String) -> Bool {
            guard !help.contains(file) else { return true }
            guard file.hasPrefix("chart-"), file.hasSuffix(".svg"), help.contains("chart-NAME.svg") else { return false }
            return help.contains(String(file.dropFirst("chart-".count).dropLast(".svg".count)).replacingOccurrences(of: "-iphone-x", with: "-DEVICE"))
        }
        #expect(written.contains("chart-latency-iphone-x.svg"), "\(written)")
        for file in written { #expect(named(file), "compare --help does not name \(file)") }
    }

    @Test func plotOnAnotherDirectorySaysWhatIsMissing() throws {
        let dir = try scratch()
        let trace = try CacheSimCommandTests.trace(in: dir)
        #expect(try CLI.run(["cachesim", "--trace", trace, "--capacity", "1000", "--out", dir + "/c", "--quiet"]).status == 0)
        let notCompare = try CLI.run(["plot", dir + "/c"])
        #expect(notCompare.status == 66 && notCompare.stderr.contains("not a directory written by `jetsim compare`")
                && notCompare.stderr.contains("summary.csv"), "\(notCompare.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/c/report.html"))
        let absent = try CLI.run(["plot", dir + "/nowhere"])
        #expect(absent.status == 66 && absent.stderr.contains("no such directory"), "\(absent.stderr)")
    }
}
