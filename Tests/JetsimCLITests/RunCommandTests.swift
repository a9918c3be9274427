import Foundation
import JetsimRealMemory
import Testing

/// End-to-end tests of the `jetsim` executable, as a user runs it.
struct CLI {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The `jetsim` binary built next to this test bundle.
    static var binary: String {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("jetsim").path
        if FileManager.default.isExecutableFile(atPath: besideTests) { return besideTests }
        return packageRoot + "/.build/debug/jetsim"
    }

    struct Result { var status: Int32; var stdout: String; var stderr: String }

    /// `environment` adds to (or overrides) this process's variables.
    static func run(_ arguments: [String], in directory: String = packageRoot, environment: [String: String] = [:]) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = arguments
        if !environment.isEmpty { p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        p.currentDirectoryURL = URL(fileURLWithPath: directory)
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Result(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    static let exampleApps = packageRoot + "/Examples/day/apps.csv"
    static let exampleTrace = packageRoot + "/Examples/day/trace.csv"
}

/// This test process's scratch directories live in one directory, removed when the process exits.
let scratchRoot: String = {
    atexit { try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "jetsim-cli-\(getpid())") }
    return NSTemporaryDirectory() + "jetsim-cli-\(getpid())"
}()

/// A scratch directory for one test.
func scratch() throws -> String {
    let path = scratchRoot + "/" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

func files(in directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
}

@Suite struct RunCommandTests {
    @Test func runWritesEveryReportAndTheSameInputsGiveIdenticalBytes() throws {
        let dir = try scratch()
        var outputs: [[String: Data]] = []
        for k in 0..<2 {
            let out = "\(dir)/run\(k)"
            let r = try CLI.run(["run", "--device", "iphone-x", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace,
                                 "--out", out, "--events", "--quiet"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.isEmpty)
            #expect(files(in: out) == ["apps.csv", "events.csv", "kills.csv", "summary.csv", "timeseries.csv"])
            var contents: [String: Data] = [:]
            for f in files(in: out) { contents[f] = try Data(contentsOf: URL(fileURLWithPath: "\(out)/\(f)")) }
            outputs.append(contents)
        }
        #expect(outputs[0] == outputs[1])
        let summary = String(decoding: outputs[0]["summary.csv"] ?? Data(), as: UTF8.self).split(separator: "\n")
        #expect(summary.count == 2)
        #expect(summary[0].hasPrefix("policy,device,trace,seed,events,sim_seconds,launches,cold_launches,resumes,hot_launch_ratio,kills,"))
        #expect(summary[1].contains(",iphone-x,trace.csv,1,"))
    }

    @Test func theSamplingRateChangesNoResult() throws {
        let dir = try scratch()
        for interval in ["1", "600"] {
            let r = try CLI.run(["run", "--device", "iphone-6s", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace,
                                 "--out", "\(dir)/\(interval)", "--sample-interval", interval, "--quiet"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        for file in ["summary.csv", "kills.csv", "apps.csv"] {
            #expect(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/1/\(file)")) == Data(contentsOf: URL(fileURLWithPath: "\(dir)/600/\(file)")), "\(file)")
        }
        #expect(try String(contentsOfFile: "\(dir)/1/timeseries.csv", encoding: .utf8).split(separator: "\n").count > 50_000)
    }

    @Test func policyParametersAreEchoedInTheReports() throws {
        let out = try scratch() + "/r"
        let r = try CLI.run(["run", "--device", "iphone-6s", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace,
                             "--policy", "xnu:audio_band=35", "--seed", "7", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("reports: \(out)/"))
        let summary = try String(contentsOfFile: out + "/summary.csv", encoding: .utf8)
        #expect(summary.contains("\"xnu(foreground_band=100,audio_band=35,task_band=40,aging_band=20,idle_band=0,frozen_band=75)\",iphone-6s,trace.csv,7,"))
        let kills = try String(contentsOfFile: out + "/kills.csv", encoding: .utf8)
        #expect(kills.hasPrefix("time,app,reason,state,band,footprint_mb,idle_s,available_mb_before,available_mb_after,policy"))
        #expect(kills.split(separator: "\n").count > 1)   // a 2 GB phone kills on this workload
    }

    @Test func theDefaultOutputDirectoryIsUnderReports() throws {
        let dir = try scratch()
        let r = try CLI.run(["run", "--device", "iphone-xs", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--quiet"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(files(in: dir + "/Reports/out/day-trace-iphone-xs-xnu-s1").contains("summary.csv"))
        // Issue 20: every workload's trace is trace.csv; two of them wrote into one default directory.
        let other = dir + "/week"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.exampleTrace, toPath: other + "/trace.csv")
        #expect(try CLI.run(["run", "--device", "iphone-xs", "--apps", CLI.exampleApps, "--trace", "week/trace.csv", "--quiet"], in: dir).status == 0)
        #expect(files(in: dir + "/Reports/out") == ["day-trace-iphone-xs-xnu-s1", "week-trace-iphone-xs-xnu-s1"])
        let summary = try String(contentsOfFile: dir + "/Reports/out/week-trace-iphone-xs-xnu-s1/summary.csv", encoding: .utf8)
            .split(separator: "\n")
        #expect(summary[0].hasSuffix(",trace_path,user") && summary[1].hasSuffix(",week/trace.csv,"), "\(summary)")
    }

    /// `run` and `compare` read a trace with one option group (`TraceInputOptions`): the same `--apps`, `--format` and
    /// `--csv-fields`, with the same help and the same refusals (`--csv-fields` without libCacheSim's format, an
    /// unknown format), in both.
    @Test func runAndCompareShareTheirTraceInputOptions() throws {
        let dir = try scratch()
        func helpLines(_ command: String) throws -> [String] {
            let help = try CLI.run([command, "--help"]).stdout
            return help.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { $0.hasPrefix("--apps <") || $0.hasPrefix("--format <") || $0.hasPrefix("--csv-fields <") }
        }
        let runHelp = try helpLines("run"), compareHelp = try helpLines("compare")
        #expect(runHelp.count == 3 && runHelp == compareHelp, "\(runHelp) \(compareHelp)")
        let common = ["--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--out", dir + "/o", "--quiet"]
        for (command, device) in [("run", "--device"), ("compare", "--devices")] {
            let common = [command, device, "iphone-x"] + common
            let fields = try CLI.run(common + ["--csv-fields", "time=1,obj-id=2,obj-size=3"])
            #expect(fields.status == 64 && fields.stderr.contains("--csv-fields applies to --format libcachesim only"), "\(command): \(fields.stderr)")
            let format = try CLI.run(common + ["--format", "parquet"])
            #expect(format.status == 64 && format.stderr.contains("--format must be 'jetsim' or 'libcachesim', found 'parquet'"), "\(command): \(format.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/o"))
        }
    }

    @Test func aBadTraceLineFailsWithFileLineAndFieldAndWritesNothing() throws {
        let dir = try scratch()
        let body = try String(contentsOfFile: CLI.exampleTrace, encoding: .utf8)
        var lines = body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var fields = lines[200].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        fields[2] = "teleport"
        lines[200] = fields.joined(separator: ",")
        let trace = dir + "/trace.csv"
        try lines.joined(separator: "\n").write(toFile: trace, atomically: true, encoding: .utf8)
        let out = dir + "/out"
        let r = try CLI.run(["run", "--device", "iphone-x", "--apps", CLI.exampleApps, "--trace", trace, "--out", out, "--events"])
        #expect(r.status == 65)
        #expect(r.stderr == "jetsim: \(trace):201: field 'event': unknown event 'teleport' (known: open, home, interrupt, bg_task, bg_launch, mode_start, mode_stop, alloc, quit, finish)\n")
        #expect(r.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: out))   // no partial output, not even events.csv
    }

    @Test func aBadLineFarIntoTheTraceStillFailsWholeWhileTheTraceIsReadAhead() throws {
        // The trace is parsed on a second thread in batches of thousands of events: a bad line in a later batch stops the
        // run with the serial reader's message, after the simulation has consumed the events before it, and no report
        // is left behind.
        let dir = try scratch()
        var text = "time,app,event,value\n"
        for k in 0..<20_000 { text += k % 2 == 0 ? "\(k),safari,open,\n" : "\(k),,home,\n" }
        text += "20000,safari,open,\n20001,safari,alloc,lots\n20002,,home,\n"
        let trace = dir + "/long.csv"
        try text.write(toFile: trace, atomically: true, encoding: .utf8)
        let out = dir + "/out"
        let r = try CLI.run(["run", "--device", "iphone-x", "--apps", CLI.exampleApps, "--trace", trace, "--out", out, "--events"])
        #expect(r.status == 65)
        #expect(r.stderr == "jetsim: \(trace):20003: field 'value': 'alloc' needs a size in MB (negative frees), found 'lots'\n")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(files(in: dir) == ["long.csv"])
    }

    @Test func aFailedRunLeavesEarlierReportsUntouched() throws {
        let dir = try scratch()
        let out = dir + "/out"
        #expect(try CLI.run(["run", "--device", "iphone-x", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--out", out, "--quiet"]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: out + "/summary.csv"))
        let trace = dir + "/bad.csv"
        try "time,app,event,value\n0,safari,open,\n1,nosuchapp,open,\n".write(toFile: trace, atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", "--device", "iphone-x", "--apps", CLI.exampleApps, "--trace", trace, "--out", out, "--events"])
        #expect(r.status == 65)
        #expect(r.stderr.contains("bad.csv:3: field 'app': unknown app 'nosuchapp'"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/summary.csv")) == before)
        #expect(files(in: out) == ["apps.csv", "kills.csv", "summary.csv", "timeseries.csv"])   // no temporaries left
    }

    @Test func badCatalogIsBadData() throws {
        let dir = try scratch()
        let apps = dir + "/apps.csv"
        try "app,dirty_mb\nsafari,-20\n".write(toFile: apps, atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", "--device", "iphone-x", "--apps", apps, "--trace", CLI.exampleTrace, "--out", dir + "/o"])
        #expect(r.status == 65)
        #expect(r.stderr == "jetsim: \(apps):2: field 'dirty_mb': must not be negative, found '-20'\n")
        #expect(!FileManager.default.fileExists(atPath: dir + "/o"))
    }

    @Test func usageErrorsExitWith64() throws {
        let dir = try scratch()
        let base = ["run", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--out", dir + "/o"]
        let unknownPolicy = try CLI.run(base + ["--device", "iphone-x", "--policy", "belady-plus"])
        #expect(unknownPolicy.status == 64)
        #expect(unknownPolicy.stderr.contains("unknown policy 'belady-plus'"))
        let badParameter = try CLI.run(base + ["--device", "iphone-x", "--policy", "xnu:idle_band=low"])
        #expect(badParameter.status == 64)
        let unknownDevice = try CLI.run(base + ["--device", "nokia-3310"])
        #expect(unknownDevice.status == 64)
        #expect(unknownDevice.stderr.contains("unknown device 'nokia-3310'"))
        let missingOption = try CLI.run(["run", "--device", "iphone-x"])
        #expect(missingOption.status == 64)
        #expect(!FileManager.default.fileExists(atPath: dir + "/o"))
    }

    @Test func unreadableInputExitsWith66() throws {
        let r = try CLI.run(["run", "--device", "iphone-x", "--apps", "/nonexistent/apps.csv", "--trace", CLI.exampleTrace])
        #expect(r.status == 66)
        #expect(r.stderr.hasPrefix("jetsim: /nonexistent/apps.csv: cannot open"))
    }

    @Test func customDeviceFile() throws {
        let dir = try scratch()
        let device = dir + "/phone.yaml"
        try "base: iphone-xs\nname: half-xs\nram_mb: 1877\napp_limit_mb: 1000\n".write(toFile: device, atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", "--device", device, "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--out", dir + "/o", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try String(contentsOfFile: dir + "/o/summary.csv", encoding: .utf8).contains(",half-xs,"))
    }

    @Test func osEraChangesTheBudget() throws {
        let dir = try scratch()
        for era in ["ios6", "ios13"] {
            let r = try CLI.run(["run", "--device", "iphone-x", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace,
                                 "--out", "\(dir)/\(era)", "--os-era", era, "--events", "--quiet"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let long = try String(contentsOfFile: dir + "/ios6/events.csv", encoding: .utf8)
        let short = try String(contentsOfFile: dir + "/ios13/events.csv", encoding: .utf8)
        #expect(long != short)
        #expect(try CLI.run(["run", "--device", "iphone-x", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--os-era", "ios99"]).status == 64)
    }

    /// `--kernel` (issue 18, rule 3): the older kernel has no reaper, and summary.csv names the kernel.
    @Test func kernelChoosesTheRulesAndTheSummaryNamesIt() throws {
        let dir = try scratch()
        for kernel in ["xnu-11417", "xnu-10063"] {
            let r = try CLI.run(["run", "--device", "iphone-x", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace,
                                 "--out", "\(dir)/\(kernel)", "--kernel", kernel, "--quiet"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(try summaryValue("\(dir)/\(kernel)/summary.csv", "kernel") == kernel)
        }
        #expect(try summaryValue("\(dir)/xnu-10063/summary.csv", "kills_long_idle_exit") == "0")
        #expect(try summaryValue("\(dir)/xnu-11417/summary.csv", "kills_long_idle_exit") != "0")
        let bad = try CLI.run(["run", "--device", "iphone-x", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--kernel", "xnu-1"])
        #expect(bad.status == 64 && bad.stderr.contains("--kernel must be one of"))
    }

    /// The value of `column` in a one-row summary.csv.
    func summaryValue(_ path: String, _ column: String) throws -> String? {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        guard lines.count == 2, let k = lines[0].split(separator: ",").firstIndex(of: Substring(column)) else { return nil }
        // The policy cell is quoted and holds commas: count fields from the end instead.
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false)
        let row = lines[1].split(separator: ",", omittingEmptySubsequences: false)
        return String(row[row.count - (header.count - k)])
    }

    /// The freezer is on by default; `--no-freezer` turns it off, `--freezer` on (over a device file).
    @Test func freezerFlagsTurnTheFreezerOnAndOff() throws {
        let dir = try scratch()
        for (name, flag) in [("default", [String]()), ("off", ["--no-freezer"]), ("on", ["--freezer"])] {
            let r = try CLI.run(["run", "--device", "iphone-6s", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace,
                                 "--out", "\(dir)/\(name)", "--quiet"] + flag)
            #expect(r.status == 0, "\(r.stderr)")
        }
        #expect(try summaryValue(dir + "/off/summary.csv", "freezes") == "0")
        #expect(try summaryValue(dir + "/default/summary.csv", "freezes") == summaryValue(dir + "/on/summary.csv", "freezes"))
        #expect(try Int(summaryValue(dir + "/on/summary.csv", "freezes") ?? "") ?? 0 > 0)
    }

    /// `--kernel` naming the device's own kernel keeps what its file says (`reaper: false`); another kernel sets its own.
    @Test func kernelOptionKeepsADeviceFilesReaperUnderTheSameKernel() throws {
        let dir = try scratch()
        let device = dir + "/noreaper.yaml"
        try "base: iphone-x\nreaper: false\n".write(toFile: device, atomically: true, encoding: .utf8)
        for (name, extra) in [("same", ["--kernel", "xnu-11417"]), ("plain", [String]())] {
            let r = try CLI.run(["run", "--device", device, "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--out", "\(dir)/\(name)",
                                 "--quiet"] + extra)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(try summaryValue("\(dir)/\(name)/summary.csv", "kills_long_idle_exit") == "0")
        }
        let r = try CLI.run(["run", "--device", "iphone-x", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--out", dir + "/preset",
                             "--quiet", "--kernel", "xnu-11417"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Int(summaryValue(dir + "/preset/summary.csv", "kills_long_idle_exit") ?? "") ?? 0 > 0)
    }

    /// `compare` takes the same device options as `run` (`--kernel`, `--freezer` / `--no-freezer`, `--os-era`), for
    /// every device of its grid, and refuses a combination the device cannot have.
    @Test func compareTakesTheKernelAndFreezerOptions() throws {
        let dir = try scratch()
        let base = ["compare", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--policies", "xnu", "--devices", "iphone-6s",
                    "--quiet"]
        var r = try CLI.run(base + ["--out", dir + "/default"])
        #expect(r.status == 0, "\(r.stderr)")
        r = try CLI.run(base + ["--out", dir + "/old", "--kernel", "xnu-10063", "--no-freezer"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try summaryValue(dir + "/default/summary.csv", "kernel") == "xnu-11417")
        #expect(try Int(summaryValue(dir + "/default/summary.csv", "freezes") ?? "") ?? 0 > 0)
        #expect(try summaryValue(dir + "/old/summary.csv", "kernel") == "xnu-10063")
        #expect(try summaryValue(dir + "/old/summary.csv", "freezes") == "0")
        #expect(try summaryValue(dir + "/old/summary.csv", "kills_long_idle_exit") == "0")
        let device = dir + "/nocompressor.yaml"
        try "base: iphone-6s\ncompressor: false\n".write(toFile: device, atomically: true, encoding: .utf8)
        r = try CLI.run(["compare", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--policies", "xnu", "--devices", device,
                         "--freezer", "--out", dir + "/refused", "--quiet"])
        #expect(r.status == 64 && r.stderr.contains("needs the compressor"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/refused"))
    }

    @Test func aTraceWithAHugeGapFinishesAndWarnsAboutTheTimeseries() throws {
        let dir = try scratch()
        let trace = dir + "/gap.csv"
        // A stray first row at 0 before epoch timestamps: 54 years of simulated time.
        try "time,app,event,value\n0,safari,open,\n1700000000,mail,open,\n1700000060,,home,\n".write(toFile: trace, atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", "--device", "iphone-x", "--apps", CLI.exampleApps, "--trace", trace, "--out", dir + "/o",
                             "--quiet", "--max-samples", "1000"])
        #expect(r.status == 0)
        #expect(r.stderr.contains("warning: timeseries.csv stops after 1000 samples"))
        #expect(try String(contentsOfFile: dir + "/o/timeseries.csv", encoding: .utf8).split(separator: "\n").count == 1001)
        #expect(try summaryValue(dir + "/o/summary.csv", "launches") == "2")
    }

    /// A policy file equivalent to a built-in gives identical reports (the policy column aside where the built-in
    /// prints its parameters).
    @Test(arguments: ["lru", "fifo", "largest", "xnu", "oracle"])
    func policyFilesRoundTripTheirBuiltIns(name: String) throws {
        let dir = try scratch()
        for (label, policy) in [("builtin", name), ("file", CLI.packageRoot + "/Policies/\(name).yaml")] {
            let r = try CLI.run(["run", "--device", "iphone-6s", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace,
                                 "--policy", policy, "--out", "\(dir)/\(label)", "--events", "--quiet"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        for file in ["apps.csv", "timeseries.csv", "events.csv", "kills.csv", "summary.csv"] {
            let strip = { (text: String) in text.replacingOccurrences(of: "\"xnu(foreground_band=100,audio_band=120,task_band=40,aging_band=20,idle_band=0,frozen_band=75)\"", with: "xnu") }
            let a = strip(try String(contentsOfFile: "\(dir)/builtin/\(file)", encoding: .utf8))
            let b = try String(contentsOfFile: "\(dir)/file/\(file)", encoding: .utf8)
            #expect(a == b, "\(name): \(file)")
        }
    }

    @Test func libCacheSimTracesRunOnACacheDevice() throws {
        let dir = try scratch()
        let trace = dir + "/t.csv"
        try "time,obj_id,obj_size\n1,10,100\n2,11,200\n3,10,100\n4,12,300\n5,11,200\n6,13,1000\n7,10,100\n".write(toFile: trace, atomically: true, encoding: .utf8)
        // Misses by hand: LRU at 350 B: 10 11 (hit) 12 evicts 11 and 10, 11, 13 (too large, never resident), 10 → 6.
        for (capacity, expected) in [("350", "6"), ("600", "4"), ("5KB", "4"), ("1KiB", "5")] {
            let r = try CLI.run(["run", "--device", "cache:\(capacity)", "--format", "libcachesim", "--trace", trace, "--policy", "lru",
                                 "--out", "\(dir)/\(capacity)", "--quiet"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(try summaryValue("\(dir)/\(capacity)/summary.csv", "cold_launches") == expected, "\(capacity)")
        }
        let zero = dir + "/zero.csv"
        try "1,10,100\n2,11,0\n".write(toFile: zero, atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", "--device", "cache:1000", "--format", "libcachesim", "--trace", zero, "--out", dir + "/z"])
        #expect(r.status == 65)
        #expect(r.stderr.contains("zero.csv:2: field 'obj-size': a zero-size request"))
        #expect(try CLI.run(["run", "--device", "cache:lots", "--format", "libcachesim", "--trace", trace]).status == 64)
    }

    @Test func policiesListsBuiltInsAndFiles() throws {
        let r = try CLI.run(["policies"])
        #expect(r.status == 0)
        for name in ["xnu", "lru", "fifo", "largest", "lmkd", "linux-oom", "cost", "lfu", "random", "oracle", "swam", "recent-keeper"] {
            #expect(r.stdout.split(separator: "\n").contains { $0.hasPrefix(name + " ") }, "\(name)")
        }
        #expect(r.stdout.contains("alpha=1,half_life_h=24"))
        #expect(r.stdout.contains("needs-future"))
    }

    @Test func aBadPolicyFileIsBadData() throws {
        let dir = try scratch()
        let file = dir + "/bad.yaml"
        try "name: bad\norder:\n  tie_breakers: [coin_flip]\n".write(toFile: file, atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", "--device", "iphone-x", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--policy", file, "--out", dir + "/o"])
        #expect(r.status == 65)
        #expect(r.stderr == "jetsim: \(file):3:18: key 'order.tie_breakers[0]': expected one of: lru, fifo, largest, smallest, band_entry, farthest_next_use, app, found 'coin_flip'\n")
        #expect(!FileManager.default.fileExists(atPath: dir + "/o"))
    }

    @Test func devicesListsThePresets() throws {
        let r = try CLI.run(["devices", "--csv"])
        #expect(r.status == 0)
        let rows = r.stdout.split(separator: "\n")
        #expect(rows.first == "device,ram_mb,reserve_mb,app_limit_mb,critical_mb,idle_mb,soft_mb,reaper_mb,compressor_pool_mb,bg_task_budget_s,kernel,platform,minfree_mb,source")
        #expect(rows.count >= 9)
        for name in ["iphone-6s", "iphone-x", "iphone-xs", "iphone-11", "ipad-pro-11"] {
            #expect(rows.contains { $0.hasPrefix(name + ",") }, "\(name)")
        }
        #expect(rows.contains { $0.hasPrefix("iphone-x,2785,") && $0.contains(",1392,") })
    }

    @Test func helpShowsExamples() throws {
        let r = try CLI.run(["run", "--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("Examples:") && r.stdout.contains("--events"))
        // A cache device's run points to cachesim for misses and evictions alone (issue 23: "route it there and say so").
        let text = r.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")   // the help is reflowed to the terminal
        #expect(text.contains("for misses and evictions alone, `jetsim cachesim`"))
    }
}

/// The committed example reports are what `jetsim run` writes today: kills.csv and timeseries.csv stream to disk
/// during the run, and must come out byte for byte as the in-memory rendering did when they were committed.
@Suite struct ExampleReportTests {
    @Test func theCommittedExampleReportsAreCurrent() throws {
        let dir = try scratch()
        var runs = [("day-iphone-x", [String]())]
        // The real-memory example needs jemalloc (RealMemoryCommandTests covers machines without it).
        if Jemalloc.isInstalled {
            runs.append(("day-iphone-x-jemalloc", ["--backing", "jemalloc:scale=1/256", "--pressure-source", "measured", "--sample-interval", "10m"]))
        }
        for (name, extra) in runs {
            // Paths as the README gives them (summary.csv records the trace's path), from the package's root.
            let r = try CLI.run(["run", "--device", "iphone-x", "--apps", "Examples/day/apps.csv", "--trace", "Examples/day/trace.csv",
                                 "--out", "\(dir)/\(name)", "--quiet"] + extra)
            #expect(r.status == 0, "\(r.stderr)")
            let committed = CLI.packageRoot + "/Reports/examples/" + name
            #expect(files(in: "\(dir)/\(name)") == files(in: committed))
            for file in files(in: committed) {
                #expect(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/\(name)/\(file)")) == Data(contentsOf: URL(fileURLWithPath: "\(committed)/\(file)")),
                        "\(name)/\(file)")
            }
        }
    }
}
