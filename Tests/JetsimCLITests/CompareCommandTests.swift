import Foundation
import JetsimIO
import Testing

@Suite struct CompareCommandTests {
    func csv(_ path: String) throws -> [[String: String]] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        // Fields may be quoted (policy names with commas): split outside quotes.
        func split(_ line: String) -> [String] {
            var fields: [String] = [], current = "", quoted = false
            for ch in line {
                if ch == "\"" { quoted.toggle() } else if ch == "," && !quoted { fields.append(current); current = "" } else { current.append(ch) }
            }
            return fields + [current]
        }
        let header = split(lines[0])
        return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, split($0))) }
    }

    let grid = ["compare", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--policies", "xnu,lru,largest,oracle",
                "--devices", "iphone-x,iphone-11", "--seeds", "1,2", "--interval", "4h", "--quiet"]

    /// Issue 20: the charted cell's series stopped at 1 000 000 samples without a word (46 % of a 30-day run). Now it
    /// spans the whole run in at most `ChartReport.maxSeriesPoints` points, and its spacing changes no result.
    @Test func theChartSeriesCoversTheWholeRunWithinItsPointBudget() throws {
        let dir = try scratch()
        let base = ["compare", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--policies", "xnu", "--devices", "iphone-x"]
        let fine = try CLI.run(base + ["--sample-interval", "0.2", "--out", dir + "/fine"])   // 415 000 samples asked for
        #expect(fine.status == 0, "\(fine.stderr)")
        #expect(fine.stderr.contains("chart-timeseries.csv samples every"), "\(fine.stderr)")
        let series = try csv(dir + "/fine/chart-timeseries.csv")
        #expect(series.count <= ChartReport.maxSeriesPoints + 1 && series.count > ChartReport.maxSeriesPoints / 2)
        let lastSample = Double(series.last?["time"] ?? "") ?? 0
        #expect(lastSample > 83_000, "the series stops at \(lastSample) s of 83 191 s")
        let plain = try CLI.run(base + ["--out", dir + "/plain", "--quiet"])
        #expect(plain.status == 0)
        #expect(try csv(dir + "/fine/summary.csv") == csv(dir + "/plain/summary.csv"), "sample spacing changed a result")
    }

    @Test func theGridHasOneRowPerCellAndTheSameBytesForAnyJobs() throws {
        let dir = try scratch()
        for jobs in ["1", "2"] {
            let r = try CLI.run(grid + ["--jobs", jobs, "--out", "\(dir)/j\(jobs)"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        for f in ["summary.csv", "compare.csv", "intervals.csv"] {
            #expect(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/j1/\(f)")) == Data(contentsOf: URL(fileURLWithPath: "\(dir)/j2/\(f)")), "\(f)")
        }
        let summary = try csv(dir + "/j1/summary.csv")
        #expect(summary.count == 4 * 2 * 2)                       // policies × devices × seeds
        let compare = try csv(dir + "/j1/compare.csv")
        #expect(compare.count == 4 * 2)
        #expect(compare.allSatisfy { $0["seeds"] == "2" })
        // Deltas: the baseline against itself is zero; against the oracle, the oracle row is zero.
        #expect(compare.filter { $0["policy"]?.hasPrefix("xnu") == true }.allSatisfy { $0["delta_cold_launches_vs_baseline"] == "0.0" })
        #expect(compare.filter { $0["policy"] == "oracle" }.allSatisfy { $0["delta_cold_launches_vs_oracle"] == "0.0" })
        // Deterministic policies give the same numbers for both seeds: a zero-width interval.
        #expect(compare.allSatisfy { $0["cold_launches_ci95"] == "0.0" })
        // Interval windows add up to each run's totals.
        let intervals = try csv(dir + "/j1/intervals.csv")
        for run in summary {
            let windows = intervals.filter { $0["policy"] == run["policy"] && $0["device"] == run["device"] && $0["seed"] == run["seed"] }
            #expect(windows.count == 5)                           // 16.1 h in 4 h windows
            #expect(windows.compactMap { Int($0["launches"] ?? "") }.reduce(0, +) == Int(run["launches"] ?? ""))
            #expect(windows.compactMap { Int($0["kills"] ?? "") }.reduce(0, +) == Int(run["kills"] ?? ""))
        }
    }

    @Test func randomPoliciesVaryBySeedAndGetAConfidenceInterval() throws {
        let dir = try scratch()
        let r = try CLI.run(["compare", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--policies", "random",
                             "--devices", "iphone-6s", "--seeds", "1,2,3,4", "--out", dir, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let compare = try csv(dir + "/compare.csv")
        let cold = try csv(dir + "/summary.csv").compactMap { Double($0["cold_launches"] ?? "") }
        let (mean, half) = CompareReports.meanAndInterval(cold)
        #expect(compare.first?["cold_launches"] == CompareReports.format(mean, 1))
        #expect(compare.first?["cold_launches_ci95"] == CompareReports.format(half, 1))
        #expect(half > 0)
    }

    @Test func confidenceIntervalsOnKnownSamples() {
        // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, s = 2.138, t(7) = 2.365 → 2.365 × 2.138 / √8 = 1.788.
        let (mean, half) = CompareReports.meanAndInterval([2, 4, 4, 4, 5, 5, 7, 9])
        #expect(mean == 5)
        #expect(abs(half - 1.7875) < 0.001)
        #expect(CompareReports.meanAndInterval([3]).halfWidth == 0)
        #expect(abs(CompareReports.meanAndInterval([1, 3]).halfWidth - 12.7062) < 1e-9)   // s = √2, n = 2
    }

    /// Issue 20: beyond 30 degrees of freedom the quantile was 1.96 (too narrow by 4 % at 31). Reference values:
    /// scipy.stats.t.ppf(0.975, df), to five decimals.
    @Test(arguments: [(30, 2.04227), (31, 2.03951), (35, 2.03011), (40, 2.02108), (50, 2.00856), (60, 2.00030), (80, 1.99006),
                      (120, 1.97993), (200, 1.97190), (1000, 1.96234), (1_000_000, 1.95997)])
    func studentQuantilesMatchTheTablesForAnyDegreesOfFreedom(df: Int, expected: Double) {
        #expect(abs(CompareReports.studentT95(degreesOfFreedom: df) - expected) < 1e-4, "df \(df)")
    }

    @Test func theQuantileFallsToTheNormalOneAndNeverBelow() {
        var previous = Double.infinity
        for df in 1...10_000 {
            let t = CompareReports.studentT95(degreesOfFreedom: df)
            #expect(t < previous && t > 1.959964, "df \(df)")
            previous = t
        }
        #expect(abs(CompareReports.studentT95(degreesOfFreedom: Int.max) - 1.959964) < 1e-6)
    }

    @Test func warmupExcludesTheStartButTheSimulationStillRunsIt() throws {
        let dir = try scratch()
        // The first 4 hours of the trace on their own.
        let lines = try String(contentsOfFile: CLI.exampleTrace, encoding: .utf8).split(separator: "\n").map(String.init)
        let start = lines.first { $0.first?.isNumber == true }.flatMap { Double($0.split(separator: ",")[0]) } ?? 0
        let head = lines.filter { !$0.first!.isNumber || (Double($0.split(separator: ",")[0]) ?? 0) < start + 4 * 3600 }
        try head.joined(separator: "\n").write(toFile: dir + "/head.csv", atomically: true, encoding: .utf8)
        for (name, trace, warmup) in [("full", CLI.exampleTrace, "0"), ("head", dir + "/head.csv", "0"), ("warm", CLI.exampleTrace, "4h")] {
            let r = try CLI.run(["compare", "--apps", CLI.exampleApps, "--trace", trace, "--devices", "iphone-6s", "--policies", "xnu",
                                 "--warmup", warmup, "--out", "\(dir)/\(name)", "--quiet"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let full = try csv(dir + "/full/summary.csv")[0], head4 = try csv(dir + "/head/summary.csv")[0], warm = try csv(dir + "/warm/summary.csv")[0]
        for metric in ["launches", "cold_launches", "resumes", "kills", "user_visible_kills"] {
            #expect(Int(warm[metric] ?? "") == (Int(full[metric] ?? "") ?? 0) - (Int(head4[metric] ?? "") ?? 0), "\(metric)")
        }
        #expect(Int(warm["launches"] ?? "") ?? 0 > 0)
    }

    @Test func aConfigFileHoldsTheSettingsAndOptionsOverrideIt() throws {
        let dir = try scratch()
        let config = dir + "/exp.yaml"
        try """
        apps: \(CLI.exampleApps)
        trace: \(CLI.exampleTrace)
        devices: [iphone-x]
        policies: [xnu, lru]
        seeds: [5]
        out: \(dir)/from-file

        """.write(toFile: config, atomically: true, encoding: .utf8)
        let r = try CLI.run(["compare", "--config", config, "--policies", "largest", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let summary = try csv(dir + "/from-file/summary.csv")
        #expect(summary.map { $0["policy"] } == ["largest"])       // the option wins
        #expect(summary.map { $0["seed"] } == ["5"])               // the file's seed stays
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/from-file/manifest.json"))) as? [String: Any]
        let hashes = manifest?["inputs_sha256"] as? [String: String]
        #expect(hashes?[config] == (try CompareReports.sha256(path: config)))
        #expect(hashes?[CLI.exampleTrace]?.count == 64)
        #expect(((manifest?["invocation"] as? [String: Any])?["command"] as? [String])?.contains("--config") == true)
        #expect(((manifest?["config"] as? [String: Any])?["seeds"] as? [Int]) == [5])
        #expect(manifest?["jetsim_version"] as? String == JetsimVersionInfo.version)
        let policies = manifest?["policies"] as? [[String: Any]]
        #expect(policies?.first?["name"] as? String == "largest")
        try "apps: x\ncolour: red\n".write(toFile: dir + "/bad.yaml", atomically: true, encoding: .utf8)
        let bad = try CLI.run(["compare", "--config", dir + "/bad.yaml", "--devices", "iphone-x", "--trace", CLI.exampleTrace, "--out", dir + "/b"])
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("bad.yaml:2:1: key 'colour': unknown key"))
    }

    /// Issue 19, 3: a bad value in --config is bad data in that file (65, located, no usage text), where it used to be
    /// blamed on an option (64 with usage): a duration, a repeated seed, an unknown policy, a baseline not in the grid.
    @Test func badValuesInTheConfigFileAreBlamedOnTheFile() throws {
        let dir = try scratch()
        let config = dir + "/exp.yaml"
        let head = "apps: \(CLI.exampleApps)\ntrace: \(CLI.exampleTrace)\nout: \(dir)/o\ndevices: [iphone-x]\n"
        let cases = [
            ("warmup: forever\n", ":5:9: key 'warmup': expected a duration"),
            ("seeds: [3, 3]\n", ":5:12: key 'seeds[1]': '3' is listed twice"),
            ("policies: [xnu, nosuch]\n", ":5:17: key 'policies[1]': unknown policy 'nosuch'"),
            ("format: csv\n", ":5:9: key 'format': expected one of: jetsim, libcachesim, found 'csv'"),
            ("baseline: lru\n", ":5:11: key 'baseline': 'lru' is not one of the policies"),
        ]
        for (line, message) in cases {
            try (head + line).write(toFile: config, atomically: true, encoding: .utf8)
            let r = try CLI.run(["compare", "--config", config, "--quiet"])
            #expect(r.status == 65, "\(line): \(r.stderr)")
            #expect(r.stderr.hasPrefix("jetsim: \(config)\(message)"), "\(line): \(r.stderr)")
            #expect(!r.stderr.contains("Usage") && !r.stderr.contains("--warmup"), "\(line): \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(line): \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/o"))
        }
        // An option still overrides the file's value, and its own mistakes stay usage errors.
        try (head + "baseline: lru\n").write(toFile: config, atomically: true, encoding: .utf8)
        #expect(try CLI.run(["compare", "--config", config, "--policies", "xnu,lru", "--quiet"]).status == 0)
        try head.write(toFile: config, atomically: true, encoding: .utf8)
        #expect(try CLI.run(["compare", "--config", config, "--warmup", "forever", "--quiet"]).status == 64)
        // Not a regular file: 66.
        let r = try CLI.run(["compare", "--config", dir, "--quiet"])
        #expect(r.status == 66 && r.stderr == "jetsim: \(dir): is a directory, not an experiment file\n", "\(r.stderr)")
    }

    /// A config beside its data runs from any working directory: its relative paths are the file's (issue 20).
    @Test func configPathsAreRelativeToTheConfigFile() throws {
        let dir = try scratch(), elsewhere = try scratch()
        try FileManager.default.copyItem(atPath: CLI.exampleApps, toPath: dir + "/apps.csv")
        try FileManager.default.copyItem(atPath: CLI.exampleTrace, toPath: dir + "/trace.csv")
        try "apps: apps.csv\ntrace: trace.csv\ndevices: [iphone-x]\npolicies: [lru]\nout: reports\n"
            .write(toFile: dir + "/experiment.yaml", atomically: true, encoding: .utf8)
        let r = try CLI.run(["compare", "--config", dir + "/experiment.yaml", "--quiet"], in: elsewhere)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try csv(dir + "/reports/compare.csv").count == 1)
        #expect(!FileManager.default.fileExists(atPath: elsewhere + "/reports"))
    }

    /// Issue 20: --seeds moves only `random`, so a deterministic policy's interval over seeds is 0 by construction; the
    /// report says so (`kind`, `ci95_over`, a note on the console), and labels oracle a heuristic.
    /// The console table names a policy by its name alone when one variant of it is in the grid (issue 20: the xnu
    /// label was 90 characters); variants of one policy keep their parameters; compare.csv keeps full labels.
    @Test func theConsoleTableUsesShortPolicyNames() throws {
        let dir = try scratch()
        let r = try CLI.run(["compare", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--policies", "xnu,cost:alpha=0.5,cost:alpha=2",
                             "--devices", "iphone-x", "--out", dir])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("iphone-x  xnu ") })
        #expect(!r.stdout.contains("foreground_band"))
        #expect(lines.contains { $0.contains("cost(alpha=0.5,") } && lines.contains { $0.contains("cost(alpha=2,") })
        #expect(try csv(dir + "/compare.csv").contains { $0["policy"]?.hasPrefix("xnu(foreground_band=100,") == true })
    }

    @Test func compareSaysWhatItsIntervalsAreOverAndThatOracleIsAHeuristic() throws {
        let dir = try scratch()
        let r = try CLI.run(["compare", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--policies", "lru,random,oracle,belady-size",
                             "--devices", "iphone-x", "--seeds", "1,2", "--out", dir])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = Dictionary(uniqueKeysWithValues: try csv(dir + "/compare.csv").map { ($0["policy"] ?? "", $0) })
        #expect(rows["lru"]?["kind"] == "deterministic" && rows["lru"]?["ci95_over"] == "none" && rows["lru"]?["cold_launches_ci95"] == "0.0")
        #expect(rows["random"]?["kind"] == "randomized" && rows["random"]?["ci95_over"] == "seeds")
        #expect(rows["oracle"]?["kind"] == "offline-heuristic" && rows["belady-size"]?["kind"] == "offline-heuristic")
        #expect(rows.values.allSatisfy { $0["seeds"] == "2" && $0["workloads"] == "1" })
        #expect(r.stdout.contains("note: ci95 is over seeds, and seeds move only randomized policies: lru, oracle, belady-size ran identically"))
        #expect(r.stdout.contains("note: oracle, belady-size know the future but are heuristics, not bounds"))
        // The mean launch latency sits beside the p95, and is the summary's mean over seeds.
        let header = try String(contentsOfFile: dir + "/compare.csv", encoding: .utf8).prefix { $0 != "\n" }.split(separator: ",")
        #expect(header.firstIndex(of: "mean_launch_ms_ci95").map { header[$0 + 1] } == "p95_launch_ms")
        let lru = try csv(dir + "/summary.csv").filter { $0["policy"] == "lru" }.compactMap { Double($0["mean_launch_ms"] ?? "") }
        #expect(rows["lru"]?["mean_launch_ms"] == CompareReports.format(lru.reduce(0, +) / Double(lru.count), 1))
    }

    /// Issue 20: --workload-seeds generates the workloads in memory; a cell equals the same cell on generate's files.
    @Test func aGeneratedWorkloadEqualsGeneratesFiles() throws {
        let dir = try scratch()
        let gen = try CLI.run(["generate", "--days", "1", "--apps", "14", "--seed", "7", "--zipf", "0.8", "--out", dir + "/w7"])
        #expect(gen.status == 0, "\(gen.stderr)")
        let common = ["--policies", "xnu,random,oracle", "--devices", "iphone-x", "--seeds", "1,2", "--quiet"]
        let files = try CLI.run(["compare", "--apps", dir + "/w7/apps.csv", "--trace", dir + "/w7/trace.csv", "--out", dir + "/files"] + common)
        let memory = try CLI.run(["compare", "--workload-seeds", "7", "--generate", "days=1,apps=14,zipf=0.8", "--out", dir + "/memory"] + common)
        #expect(files.status == 0 && memory.status == 0, "\(files.stderr) \(memory.stderr)")
        #expect(try csv(dir + "/files/compare.csv") == csv(dir + "/memory/compare.csv"))
        let unlabelled = { (path: String) throws -> [[String: String]] in try self.csv(path).map { $0.filter { !["trace", "trace_path"].contains($0.key) } } }
        #expect(try unlabelled(dir + "/files/summary.csv") == unlabelled(dir + "/memory/summary.csv"))
        let labels = try csv(dir + "/memory/summary.csv")[0]
        #expect(labels["trace"] == "workload-seed-7")
        #expect(labels["trace_path"]?.hasPrefix("generate:seed=7,users=1,days=1,apps=14,zipf=0.8,") == true)
        for f in ["latency.csv", "chart-timeseries.csv", "chart-kills.csv"] {
            #expect(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/files/\(f)")) == Data(contentsOf: URL(fileURLWithPath: "\(dir)/memory/\(f)")), "\(f)")
        }
    }

    /// Several workloads: cells are policy × device × seed × workload, intervals are across workloads (a deterministic
    /// policy's too), and the bytes do not depend on --jobs.
    @Test func workloadSeedsGiveIntervalsAcrossWorkloadsForAnyJobs() throws {
        let dir = try scratch()
        for jobs in ["1", "2"] {
            let r = try CLI.run(["compare", "--workload-seeds", "1-3,9", "--generate", "days=1,apps=12", "--policies", "lru,random",
                                 "--devices", "iphone-x,iphone-11", "--seeds", "1,2", "--jobs", jobs, "--out", "\(dir)/j\(jobs)", "--quiet"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        // Every file but the manifest (which records --jobs and times), the page and the chart files included.
        let written = try FileManager.default.contentsOfDirectory(atPath: dir + "/j1").filter { $0 != "manifest.json" }.sorted()
        #expect(written.contains("report.html") && written.contains("chart-cold-launches.svg") && written.contains("chart-apps.csv"))
        for f in written {
            #expect(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/j1/\(f)")) == Data(contentsOf: URL(fileURLWithPath: "\(dir)/j2/\(f)")), "\(f)")
        }
        // Runs that differ draw error bars.
        let page = try String(contentsOfFile: dir + "/j1/report.html", encoding: .utf8)
        #expect(page.contains("<path class=\"error-bar\"") && page.contains("95 % confidence interval"))
        let summary = try csv(dir + "/j1/summary.csv")
        #expect(summary.count == 4 * 2 * 2 * 2)   // workloads × devices × policies × seeds
        #expect(Set(summary.compactMap { $0["trace"] }) == ["workload-seed-1", "workload-seed-2", "workload-seed-3", "workload-seed-9"])
        let compare = try csv(dir + "/j1/compare.csv")
        #expect(compare.count == 2 * 2)
        let lru = compare.filter { $0["policy"] == "lru" }
        #expect(lru.allSatisfy { $0["ci95_over"] == "workloads" && $0["workloads"] == "4" && $0["seeds"] == "2" })
        #expect(compare.filter { $0["policy"] == "random" }.allSatisfy { $0["ci95_over"] == "seeds+workloads" })
        // The interval is the t interval of lru's eight runs per device (four workloads, each twice).
        for row in lru {
            let cold = summary.filter { $0["policy"] == "lru" && $0["device"] == row["device"] }.compactMap { Double($0["cold_launches"] ?? "") }
            #expect(cold.count == 8)
            #expect(row["cold_launches_ci95"] == CompareReports.format(CompareReports.meanAndInterval(cold).halfWidth, 1))
            #expect(row["cold_launches_ci95"] != "0.0")
        }
    }

    @Test func workloadSeedMistakesAreUsageErrors() throws {
        let dir = try scratch()
        let base = ["compare", "--policies", "lru", "--devices", "iphone-x", "--out", dir + "/o"]
        let cases: [([String], String)] = [
            (["--workload-seeds", "1", "--trace", CLI.exampleTrace], "--workload-seeds generates the workloads: give no --trace, --traces, --apps or --format"),
            (["--generate", "days=2"], "--generate sets the model of --workload-seeds' workloads"),
            (["--workload-seeds", "3-1"], "--workload-seeds takes whole numbers and ranges such as 1-10, found '3-1'"),
            (["--workload-seeds", "1,2,1"], "--workload-seeds must not repeat a seed"),
            (["--workload-seeds", "1-20000"], "--workload-seeds lists at most 10000 seeds"),
            (["--workload-seeds", "1", "--generate", "days"], "--generate takes key=value pairs such as days=7,apps=40, found 'days'"),
            (["--workload-seeds", "1", "--generate", "colour=red"], "--generate: Unknown option 'colour'"),
            (["--workload-seeds", "1", "--generate", "days=0"], "--days must be between 1 and 3 650, found 0"),
        ]
        for (arguments, message) in cases {
            let r = try CLI.run(base + arguments)
            #expect(r.status == 64, "\(arguments): \(r.stderr)")
            #expect(r.stderr.contains(message), "\(arguments): \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/o"))
        }
    }

    @Test func theShippedExampleConfigRuns() throws {
        let dir = try scratch()
        let r = try CLI.run(["compare", "--config", CLI.packageRoot + "/Examples/experiment.yaml", "--out", dir, "--quiet"], in: CLI.packageRoot)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try csv(dir + "/compare.csv").count == 3 * 5)
        #expect(FileManager.default.fileExists(atPath: dir + "/intervals.csv"))
    }
}

@Suite struct ProgressTests {
    /// Runs `arguments` under `script`, which gives the command a terminal; returns what the terminal showed.
    func onATerminal(_ arguments: [String]) throws -> String {
        let command = ([CLI.binary] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        p.arguments = ["-qec", command, "/dev/null"]
        p.currentDirectoryURL = URL(fileURLWithPath: CLI.packageRoot)
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func progressGoesToATerminalOnlyAndNeverIntoTheReports() throws {
        let dir = try scratch()
        let base = ["compare", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--policies", "xnu,lru", "--devices", "iphone-x"]
        let shown = try onATerminal(base + ["--out", dir + "/tty"])
        #expect(shown.contains("cells 2/2"))
        let quiet = try onATerminal(base + ["--out", dir + "/quiet", "--quiet"])
        #expect(!quiet.contains("cells"))
        #expect(try CLI.run(base + ["--out", dir + "/pipe", "--quiet"]).stderr.isEmpty)   // not a terminal: nothing
        for f in ["summary.csv", "compare.csv"] {
            #expect(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/tty/\(f)")) == Data(contentsOf: URL(fileURLWithPath: "\(dir)/pipe/\(f)")))
        }
    }
}

@Suite struct SampleIntervalTests {
    @Test func bothCommandsTakeDurationsAndRejectNonsense() throws {
        let dir = try scratch()
        let run = try CLI.run(["run", "--device", "iphone-x", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace,
                               "--sample-interval", "1h", "--out", dir + "/r", "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try String(contentsOfFile: dir + "/r/timeseries.csv", encoding: .utf8).split(separator: "\n").count == 1 + 17)   // 16.1 h, hourly
        for command in [["run", "--device", "iphone-x", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace],
                        ["compare", "--devices", "iphone-x", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace]] {
            let bad = try CLI.run(command + ["--sample-interval", "often", "--out", dir + "/bad"])
            #expect(bad.status == 64, "\(command[0])")
            #expect(bad.stderr.contains("--sample-interval"))
            #expect(!FileManager.default.fileExists(atPath: dir + "/bad"))
        }
    }
}
