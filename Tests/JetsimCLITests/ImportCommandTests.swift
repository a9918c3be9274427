import Foundation
import Testing

/// `gzip -k path`: writes path.gz beside the file.
func gzipKeeping(_ path: String) throws {
    let gz = Process()
    gz.executableURL = URL(fileURLWithPath: "/bin/gzip")
    gz.arguments = ["-k", path]
    try gz.run()
    gz.waitUntilExit()
}

@Suite struct ImportCommandTests {
    static let lsapp = """
    user_id\tsession_id\ttimestamp\tapp_name\tevent_type
    1\t1\t2018-01-16 06:01:05\tWhatsApp\tOpened
    1\t1\t2018-01-16 06:01:40\tWhatsApp\tClosed
    1\t1\t2018-01-16 06:01:40\tChrome\tOpened
    1\t1\t2018-01-16 06:01:41\tChrome\tUser Interaction
    1\t1\t2018-01-16 06:03:00\tChrome\tClosed
    1\t1\t2018-01-16 06:05:00\tSpotify\tOpened
    1\t1\t2018-01-16 06:06:00\tSpotify\tClosed
    1\t2\t2018-01-16 09:00:00\tcom.google.android.gm\tOpened
    1\t2\t2018-01-16 09:00:30\tcom.google.android.gm\tClosed
    2\t7\t2018-02-01 12:00:00\tcom.whatsapp\tOpened
    2\t7\t2018-02-01 12:00:20\tcom.whatsapp\tClosed

    """

    func traceRows(_ dir: String) throws -> [String] {
        try String(contentsOfFile: dir + "/trace.csv", encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }.dropFirst().map(String.init)
    }

    @Test func lsappBecomesForegroundIntervalsAndRuns() throws {
        let dir = try scratch()
        let input = dir + "/ls.tsv"
        try Self.lsapp.write(toFile: input, atomically: true, encoding: .utf8)
        let r = try CLI.run(["import", "lsapp", input, "--out", dir + "/o"])
        #expect(r.status == 0, "\(r.stderr)")
        // 06:01:05 open; the same-second Closed/Opened is a switch; an Opened two minutes after a Closed comes after
        // a home; session 2 starts three hours later; user 2 starts an hour after user 1's last event.
        #expect(try traceRows(dir + "/o") == [
            "0.000,WhatsApp,open,,1", "35.000,Chrome,open,,1", "115.000,,home,,1", "235.000,Spotify,open,,1", "295.000,,home,,1",
            "10735.000,com.google.android.gm,open,,1", "10765.000,,home,,1", "14365.000,com.whatsapp,open,,2", "14385.000,,home,,2",
        ])
        let apps = try String(contentsOfFile: dir + "/o/apps.csv", encoding: .utf8)
        #expect(apps.contains("\ncom.google.android.gm,92,"))   // package name → mail profile
        #expect(apps.contains("\nSpotify,90,"))                 // app name → music profile
        let run = try CLI.run(["run", "--device", "iphone-x", "--apps", dir + "/o/apps.csv", "--trace", dir + "/o/trace.csv", "--out", dir + "/r", "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        let one = try CLI.run(["import", "lsapp", input, "--out", dir + "/u2", "--user", "2"])
        #expect(one.status == 0)
        #expect(try traceRows(dir + "/u2") == ["0.000,com.whatsapp,open,,2", "20.000,,home,,2"])
    }

    /// `--background-play` and `--app-overrides` (issue 20): Spotify plays on after it is left, an override's category
    /// and size reach apps.csv, a bad override row stops the import before anything is written.
    @Test func backgroundPlayAndAppOverrides() throws {
        let dir = try scratch()
        let input = dir + "/ls.tsv"
        try Self.lsapp.write(toFile: input, atomically: true, encoding: .utf8)
        try "app,category,dirty_mb\nChrome,music,70\nnot-in-trace,game,\n".write(toFile: dir + "/o.csv", atomically: true, encoding: .utf8)
        let r = try CLI.run(["import", "lsapp", input, "--out", dir + "/o", "--background-play", "10m", "--app-overrides", dir + "/o.csv"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("1 app(s) of --app-overrides are not in the trace: not-in-trace"), "\(r.stderr)")
        let trace = try traceRows(dir + "/o")
        #expect(trace.contains("115.000,Chrome,mode_start,audio,1") && trace.contains("295.000,Spotify,mode_start,audio,1"), "\(trace)")
        #expect(trace.contains("715.000,Chrome,mode_stop,audio,1") && trace.contains("895.000,Spotify,mode_stop,audio,1"), "\(trace)")
        let apps = try String(contentsOfFile: dir + "/o/apps.csv", encoding: .utf8)
        #expect(apps.contains("\nChrome,70,1,140,"), "\(apps)")
        let run = try CLI.run(["run", "--device", "iphone-x", "--apps", dir + "/o/apps.csv", "--trace", dir + "/o/trace.csv", "--out", dir + "/r", "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")

        try "app,category\nChrome,musik\n".write(toFile: dir + "/bad.csv", atomically: true, encoding: .utf8)
        let bad = try CLI.run(["import", "lsapp", input, "--out", dir + "/b", "--app-overrides", dir + "/bad.csv"])
        #expect(bad.status == 65 && bad.stderr.contains("bad.csv:2: field 'category': unknown category 'musik'"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/b"))
        let usage = try CLI.run(["import", "lsapp", input, "--out", dir + "/u", "--background-play", "soon"])
        #expect(usage.status == 64 && usage.stderr.contains("--background-play takes a duration"), "\(usage.stderr)")
        let wrongFormat = try CLI.run(["import", "libcachesim", input, "--out", dir + "/l", "--app-overrides", dir + "/o.csv"])
        // The libcachesim import has no such option: its subcommand refuses it by name.
        #expect(wrongFormat.status == 64 && wrongFormat.stderr.contains("--app-overrides"), "\(wrongFormat.stderr)")
    }

    @Test func gzipInputIsReadTransparently() throws {
        let dir = try scratch()
        let input = dir + "/ls.tsv"
        try Self.lsapp.write(toFile: input, atomically: true, encoding: .utf8)
        try gzipKeeping(input)
        #expect(try CLI.run(["import", "lsapp", input + ".gz", "--out", dir + "/gz"]).status == 0)
        #expect(try CLI.run(["import", "lsapp", input, "--out", dir + "/plain"]).status == 0)
        #expect(try traceRows(dir + "/gz") == traceRows(dir + "/plain"))
    }

    @Test func badRowsStopWithTheirLineOrAreCountedAndSkipped() throws {
        let dir = try scratch()
        let input = dir + "/bad.tsv"
        try (Self.lsapp + "2\t7\tyesterday\tcom.whatsapp\tOpened\n2\t7\t2018-02-01 12:01:00\tx\tTeleported\n").write(toFile: input, atomically: true, encoding: .utf8)
        let strict = try CLI.run(["import", "lsapp", input, "--out", dir + "/strict"])
        #expect(strict.status == 65)
        #expect(strict.stderr.contains("bad.tsv:13: field 'timestamp'"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/strict/trace.csv"))
        let lenient = try CLI.run(["import", "lsapp", input, "--out", dir + "/lenient", "--skip-bad"])
        #expect(lenient.status == 0, "\(lenient.stderr)")
        #expect(lenient.stdout.contains("2 rows skipped"))
        #expect(try String(contentsOfFile: dir + "/lenient/trace.csv", encoding: .utf8).hasPrefix("time,app,event,value,user\n"))
    }

    @Test func intervalsMergeSameAppAndSwitchWithinTheGap() throws {
        let dir = try scratch()
        let input = dir + "/iv.csv"
        try """
        user,start,end,app
        a,2024-01-05T10:00:00Z,2024-01-05T10:01:00Z,Maps
        a,2024-01-05T10:01:03Z,2024-01-05T10:02:00Z,Maps
        a,2024-01-05T10:02:02Z,2024-01-05T10:03:00Z,Spotify
        a,1704449400000,1704449460000,Gmail
        b,2024-01-06T08:00:00.500+01:00,2024-01-06T08:00:10.500+01:00,Chrome

        """.write(toFile: input, atomically: true, encoding: .utf8)
        let r = try CLI.run(["import", "intervals", input, "--out", dir + "/o", "--merge-gap", "5"])
        #expect(r.status == 0, "\(r.stderr)")
        // Maps twice 3 s apart: one interval; Spotify 2 s later: a switch; Gmail at 10:10 (epoch ms): after a home.
        #expect(try traceRows(dir + "/o") == [
            "0.000,Maps,open,,a", "122.000,Spotify,open,,a", "180.000,,home,,a", "600.000,Gmail,open,,a", "660.000,,home,,a",
            "4260.000,Chrome,open,,b", "4270.000,,home,,b",
        ])
        try "user,start,end,app\na,2024-01-05T10:00:00Z,2024-01-05T09:00:00Z,Maps\n".write(toFile: dir + "/bad.csv", atomically: true, encoding: .utf8)
        let bad = try CLI.run(["import", "intervals", dir + "/bad.csv", "--out", dir + "/b"])
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("bad.csv:2: field 'end': the interval ends before it starts"))
    }

    @Test func libcachesimImportKeepsExactSizesAndTheSameMisses() throws {
        let dir = try scratch()
        let input = dir + "/t.csv"
        try "time,obj_id,obj_size\n1,10,100\n2,11,200001\n3,10,100\n4,12,300\n5,11,200001\n6,13,1000\n7,10,100\n".write(toFile: input, atomically: true, encoding: .utf8)
        #expect(try CLI.run(["import", "libcachesim", input, "--out", dir + "/o"]).status == 0)
        for policy in ["lru", "fifo"] {
            let direct = try CLI.run(["run", "--device", "cache:200500", "--format", "libcachesim", "--trace", input, "--policy", policy, "--out", "\(dir)/d-\(policy)", "--quiet"])
            let imported = try CLI.run(["run", "--device", "cache:200500", "--apps", dir + "/o/apps.csv", "--trace", dir + "/o/trace.csv",
                                        "--policy", policy, "--out", "\(dir)/i-\(policy)", "--quiet"])
            #expect(direct.status == 0 && imported.status == 0, "\(imported.stderr)")
            let a = try String(contentsOfFile: "\(dir)/d-\(policy)/kills.csv", encoding: .utf8)
            let b = try String(contentsOfFile: "\(dir)/i-\(policy)/kills.csv", encoding: .utf8)
            #expect(a == b)
        }
        #expect(try String(contentsOfFile: dir + "/o/apps.csv", encoding: .utf8).contains("\n11,0.19073581695556640625,"))  // 200001 B exactly
    }

    @Test func libcachesimPlainTextTraces() throws {
        let dir = try scratch()
        try "5\n6\n5\n7\n6\n".write(toFile: dir + "/t.txt", atomically: true, encoding: .utf8)
        #expect(try CLI.run(["import", "libcachesim", dir + "/t.txt", "--out", dir + "/o"]).status == 0)
        #expect(try traceRows(dir + "/o") == ["1.000,5,open,,1", "2.000,6,open,,1", "3.000,5,open,,1", "4.000,7,open,,1", "5.000,6,open,,1"])
        // Capacity 2 objects of size 1, LRU: 5 6 5(hit) 7(evicts 6) 6(evicts 5) → 4 misses.
        let r = try CLI.run(["run", "--device", "cache:2", "--format", "libcachesim", "--trace", dir + "/t.txt", "--policy", "lru", "--out", dir + "/r", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try String(contentsOfFile: dir + "/r/summary.csv", encoding: .utf8).contains(",5,4,1,0.2000,"))   // launches, cold, resumes, hot ratio
    }

    @Test func jetsamEventReportBecomesACatalogAndADevice() throws {
        let dir = try scratch()
        let report = dir + "/JetsamEvent.ips"
        try """
        {"bug_type":"298","timestamp":"2024-01-05 10:00:00.00 +0000","os_version":"iPhone OS 14.2 (18B92)","incident_id":"X"}
        {"product":"iPhone12,1","build":"18B92","memoryStatus":{"pageSize":16384,"memoryPages":{"free":3000,"active":60000,"inactive":50000,"purgeable":1000,"wired":40000,"speculative":2000,"throttled":0,"fileBacked":30000,"anonymous":80000},"compressorSize":20000,"uncompressed":50000},"largestProcess":"Game",
        "processes":[{"name":"Game","pid":1,"rpages":92802,"purgeable":640,"states":["frontmost"],"reason":"per-process-limit","killDelta":1},
        {"name":"Music","pid":2,"rpages":6400,"purgeable":0,"states":["audio","background"]},
        {"name":"Maps","pid":3,"rpages":12800,"purgeable":320,"states":["location","background"]},
        {"name":"Mail","pid":4,"rpages":3200,"states":["suspended"]},
        {"name":"backboardd","pid":5,"rpages":5000,"states":["daemon","idle"]}]}
        """.write(toFile: report, atomically: true, encoding: .utf8)
        let r = try CLI.run(["import", "jetsam-event", report, "--out", dir + "/o"])
        #expect(r.status == 0, "\(r.stderr)")
        let apps = try String(contentsOfFile: dir + "/o/apps.csv", encoding: .utf8).split(separator: "\n").dropFirst()   // the header
        #expect(apps.count == 4)                                                  // the daemon is left out
        #expect(apps.contains { $0.hasPrefix("Game,1450.03125,") && $0.contains(",10,") })  // 92802 × 16 KiB; 640 pages purgeable
        #expect(apps.contains { $0.hasPrefix("Music,100,") && $0.contains(",audio,") })
        #expect(apps.contains { $0.hasPrefix("Maps,200,") && $0.contains(",location,") })
        let device = try String(contentsOfFile: dir + "/o/device.yaml", encoding: .utf8)
        #expect(device.contains("ram_mb: 2750\n"))        // (156 000 + 20 000) pages × 16 KiB
        #expect(device.contains("reserve_mb: 625\n"))     // 40 000 wired pages
        #expect(device.contains("app_limit_mb: 1450.03125\n"))
        let run = try CLI.run(["run", "--device", dir + "/o/device.yaml", "--apps", dir + "/o/apps.csv", "--trace", CLI.exampleTrace, "--out", dir + "/r"])
        #expect(run.status == 65)   // the example trace names other apps: a clear error, not a crash
        #expect(run.stderr.contains("unknown app"))
        try gzipKeeping(report)
        #expect(try CLI.run(["import", "jetsam-event", report + ".gz", "--out", dir + "/gz"]).status == 0)
        #expect(try String(contentsOfFile: dir + "/gz/apps.csv", encoding: .utf8) == String(contentsOfFile: dir + "/o/apps.csv", encoding: .utf8))
        try "{\"bug_type\":\"109\"}\n{}\n".write(toFile: dir + "/crash.ips", atomically: true, encoding: .utf8)
        let wrong = try CLI.run(["import", "jetsam-event", dir + "/crash.ips", "--out", dir + "/w"])
        #expect(wrong.status == 65)
        #expect(wrong.stderr.contains("crash.ips:1: field 'bug_type': expected 298"))
    }

    /// Issue 20: ten-digit epoch seconds were read as milliseconds, so a minute of use lasted 0.06 s, with exit 0.
    @Test func epochSecondsAreSecondsAndAmbiguousTimesAskForAUnit() throws {
        let dir = try scratch()
        try "user,start,end,app\na,1700000000,1700000060,Maps\n".write(toFile: dir + "/s.csv", atomically: true, encoding: .utf8)
        let r = try CLI.run(["import", "intervals", dir + "/s.csv", "--out", dir + "/s"])
        #expect(r.status == 0, "\(r.stderr)")
        let trace = try String(contentsOfFile: dir + "/s/trace.csv", encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(trace.dropFirst().map { String($0.prefix { $0 != "," }) } == ["0.000", "60.000"], "\(trace)")
        try "user,start,end,app\na,1000,2000,Maps\n".write(toFile: dir + "/a.csv", atomically: true, encoding: .utf8)
        let ambiguous = try CLI.run(["import", "intervals", dir + "/a.csv", "--out", dir + "/a"])
        #expect(ambiguous.status == 65 && ambiguous.stderr.contains("--time-unit"), "\(ambiguous.stderr)")
        let told = try CLI.run(["import", "intervals", dir + "/a.csv", "--out", dir + "/a", "--time-unit", "s"])
        #expect(told.status == 0, "\(told.stderr)")
        let misplaced = try CLI.run(["import", "libcachesim", dir + "/a.csv", "--out", dir + "/l", "--time-unit", "s"])
        #expect(misplaced.status == 64 && misplaced.stderr.contains("Unknown option '--time-unit'"), "\(misplaced.stderr)")   // libcachesim has no such option
        try "user,start,end,app\na,2024-02-30T10:00:00Z,2024-02-30T10:01:00Z,Maps\n".write(toFile: dir + "/d.csv", atomically: true, encoding: .utf8)
        #expect(try CLI.run(["import", "intervals", dir + "/d.csv", "--out", dir + "/d"]).status == 65, "30 February")
    }

    /// Found by fuzzing: each crashed the importer (overflow) or was refused for its line ends or byte-order mark.
    @Test func hostileInputsAreLocatedErrorsAndEncodingsAreAccepted() throws {
        let dir = try scratch()
        try "user,start,end,app\na,9999999999999999,9999999999999999,Maps\n".write(toFile: dir + "/iv.csv", atomically: true, encoding: .utf8)
        let iv = try CLI.run(["import", "intervals", dir + "/iv.csv", "--out", dir + "/iv"])
        #expect(iv.status == 65)
        #expect(iv.stderr.contains("iv.csv:2: field 'start': the epoch time is past 9999-12-31"))
        try "1\t1\t9999999999999999\tMaps\tOpened\n".write(toFile: dir + "/ls.tsv", atomically: true, encoding: .utf8)
        let ls = try CLI.run(["import", "lsapp", dir + "/ls.tsv", "--out", dir + "/ls"])
        #expect(ls.status == 65)
        #expect(ls.stderr.contains("ls.tsv:1: field 'timestamp'"))
        let header = "{\"bug_type\":\"298\"}"
        let body = "{\"memoryStatus\":{\"pageSize\":1152921504606846976,\"memoryPages\":{\"free\":3000}},\"processes\":[{\"name\":\"a\",\"rpages\":1}]}"
        try (header + "\n" + body + "\n").write(toFile: dir + "/big.ips", atomically: true, encoding: .utf8)
        let big = try CLI.run(["import", "jetsam-event", dir + "/big.ips", "--out", dir + "/big"])
        #expect(big.status == 65)
        #expect(big.stderr.contains("big.ips:2: field 'memoryStatus.pageSize'"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/big"))
        // CRLF and a byte-order mark.
        let report = "\u{FEFF}" + header + "\r\n" + "{\"memoryStatus\":{\"pageSize\":16384,\"memoryPages\":{\"free\":3000,\"wired\":100}},"
            + "\"processes\":[{\"name\":\"a\",\"rpages\":10}]}\r\n"
        try report.write(toFile: dir + "/crlf.ips", atomically: true, encoding: .utf8)
        let crlf = try CLI.run(["import", "jetsam-event", dir + "/crlf.ips", "--out", dir + "/crlf"])
        #expect(crlf.status == 0, "\(crlf.stderr)")
        try ("\u{FEFF}user,start,end,app\r\na,2024-01-05T10:00:00Z,2024-01-05T10:01:00Z,Maps\r\n").write(toFile: dir + "/bom.csv", atomically: true, encoding: .utf8)
        let bom = try CLI.run(["import", "intervals", dir + "/bom.csv", "--out", dir + "/bom"])
        #expect(bom.status == 0, "\(bom.stderr)")
        #expect(try traceRows(dir + "/bom") == ["0.000,Maps,open,,a", "60.000,,home,,a"])
    }

    /// `import jetsam-event` wrote names and a device that Jetsim then refused: what it writes now runs.
    @Test func jetsamEventOutputsRunInJetsim() throws {
        let dir = try scratch()
        let report = """
        {"bug_type":"298"}
        {"product":"iPhone12,1\\n: [evil] #x","build":"18B92\\nname: evil","memoryStatus":{"pageSize":16384,"memoryPages":{"free":30000,"active":60000,"wired":4000},"compressorSize":2000},
        "processes":[{"name":"#Game, \\"big\\"","rpages":9000,"reason":"per-process-limit"},{"name":" Maps ","rpages":640},{"name":"Maps","rpages":640},
        {"name":"line\\nbreak","rpages":320}]}
        """
        try report.write(toFile: dir + "/r.ips", atomically: true, encoding: .utf8)
        let r = try CLI.run(["import", "jetsam-event", dir + "/r.ips", "--out", dir + "/o"])
        #expect(r.status == 0, "\(r.stderr)")
        try "time,app,event\n0,\"#Game, \"\"big\"\"\",open\n10,Maps,open\n20,Maps-2,open\n30,\"line\nbreak\",open\n40,,home\n"
            .write(toFile: dir + "/trace.csv", atomically: true, encoding: .utf8)
        let run = try CLI.run(["run", "--device", dir + "/o/device.yaml", "--apps", dir + "/o/apps.csv", "--trace", dir + "/trace.csv",
                               "--out", dir + "/run", "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try String(contentsOfFile: dir + "/run/summary.csv", encoding: .utf8).contains(",4,4,0,"))   // 4 launches, all cold
    }
}
