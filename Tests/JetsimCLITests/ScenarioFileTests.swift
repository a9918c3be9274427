import Foundation
import JetsimIO
import Testing

/// The kernel rules' scenarios as data (Tests/Scenarios, its README gives the format): each is run as a user runs
/// it, `jetsim run` on its files, and its kills.csv and summary.csv are compared with the expectations beside them.
@Suite struct ScenarioFileTests {
    /// Every scenario directory and every variant (a subdirectory of one), relative to `Scenario.root`.
    static let runs: [String] = Scenario.directories(in: Scenario.root).flatMap { name in
        [name] + Scenario.directories(in: Scenario.root + "/" + name).map { name + "/" + $0 }
    }

    @Test(arguments: runs) func theScenarioKillsWhatTheKernelsCodeImplies(_ run: String) throws {
        let scenario = run.split(separator: "/").dropLast().first.map { Scenario.root + "/" + $0 }
        let problems = try Scenario.check(Scenario.root + "/" + run, variantOf: scenario, dir: try scratch())
        #expect(problems.isEmpty, "Tests/Scenarios/\(run): \(problems.joined(separator: "\n"))")
    }

    /// One scenario per rule of issue 18 and of Android 4.x (issue 22), each listed in the README with its citation and command.
    @Test func everyRuleHasAScenarioListedInTheReadme() throws {
        let rules = ["pressure-level-compressor", "long-idle-reaper", "kernel-versions", "compressor-space-shortage",
                     "one-kill-walk", "highwater-purge", "limits-on-priority-change", "sustained-pressure-cap", "freezer",
                     "no-negative-available", "enter-background-deadline", "will-terminate-deadline",
                     "android-lmk-walk", "android-oom-adj", "android-process-limits"]
        #expect(Scenario.directories(in: Scenario.root) == rules.sorted())
        let readme = try String(contentsOfFile: Scenario.root + "/README.md", encoding: .utf8)
        for run in Self.runs {
            #expect(readme.contains("--out /tmp/\(run.replacingOccurrences(of: "/", with: "-"))`"), "README: no command for \(run)")
        }
    }

    /// The check itself: a directory without one of its files fails, and so does a kill list that differs in one
    /// field or a summary value that differs.
    @Test func aScenarioMissingAFileOrExpectingOtherwiseFails() throws {
        let dir = try scratch()
        let copy = dir + "/scenario"
        try FileManager.default.copyItem(atPath: Scenario.root + "/long-idle-reaper", toPath: copy)
        #expect(try Scenario.check(copy, dir: dir + "/ok").isEmpty)

        let kills = copy + "/expect-kills.csv"
        let expected = try String(contentsOfFile: kills, encoding: .utf8)
        try expected.replacingOccurrences(of: "603.000,old2", with: "604.000,old2").write(toFile: kills, atomically: true, encoding: .utf8)
        #expect(try Scenario.check(copy, dir: dir + "/time") == ["expect-kills.csv:3: time: expected '604.000', kills.csv has '603.000'"])
        try "time,app,reason\n303.000,old1,long-idle-exit\n".write(toFile: kills, atomically: true, encoding: .utf8)
        #expect(try Scenario.check(copy, dir: dir + "/count").first?.hasPrefix("expect-kills.csv: 1 kills expected, kills.csv has 2") == true)
        try expected.write(toFile: kills, atomically: true, encoding: .utf8)

        let summary = copy + "/expect-summary.csv"
        try "column,value\nkills,3\n".write(toFile: summary, atomically: true, encoding: .utf8)
        #expect(try Scenario.check(copy, dir: dir + "/summary") == ["expect-summary.csv:2: kills: expected '3', summary.csv has '2'"])

        try FileManager.default.removeItem(atPath: copy + "/trace.csv")
        #expect(try Scenario.check(copy, dir: dir + "/missing") == ["missing trace.csv"])
    }
}

/// Runs one scenario directory and lists how its reports differ from its expectations.
enum Scenario {
    static let root = CLI.packageRoot + "/Tests/Scenarios"
    /// What `jetsim run` reads, and the option it takes each with.
    static let inputs = [("device.yaml", "--device"), ("apps.csv", "--apps"), ("trace.csv", "--trace")]

    static func directories(in path: String) -> [String] {
        files(in: path).filter { name in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path + "/" + name, isDirectory: &isDirectory) && isDirectory.boolValue
        }
    }

    /// Problems found running `path` (empty when it passes), a scenario or, with `scenario`, one of its variants,
    /// which takes the inputs it lacks from there; its reports go under `dir`.
    static func check(_ path: String, variantOf scenario: String? = nil, dir: String) throws -> [String] {
        func locate(_ file: String, in places: [String]) -> String? {
            places.map { $0 + "/" + file }.first { FileManager.default.fileExists(atPath: $0) }
        }
        var arguments = ["run", "--policy", "xnu", "--out", dir + "/out", "--quiet"]
        for (file, option) in inputs {
            guard let found = locate(file, in: [path] + (scenario.map { [$0] } ?? [])) else { return ["missing \(file)"] }
            arguments += [option, found]
        }
        guard let kills = locate("expect-kills.csv", in: [path]) else { return ["missing expect-kills.csv"] }
        guard let summary = locate("expect-summary.csv", in: [path]) else { return ["missing expect-summary.csv"] }
        if let args = locate("args.txt", in: [path]) {
            arguments += try String(contentsOfFile: args, encoding: .utf8).split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        }
        let r = try CLI.run(arguments)
        guard r.status == 0 else { return ["jetsim run exited \(r.status): \(r.stderr)"] }
        return try compareKills(expected: kills, actual: dir + "/out/kills.csv") + compareSummary(expected: summary, actual: dir + "/out/summary.csv")
    }

    /// Every row of `expect-kills.csv`, projected on its header's kills.csv columns, against kills.csv's in order.
    static func compareKills(expected: String, actual: String) throws -> [String] {
        let want = try rows(expected), have = try rows(actual)
        guard let columns = want.first?.fields, !columns.isEmpty else { return ["expect-kills.csv: no header"] }
        let known = have.first?.fields ?? []
        let unknown = columns.filter { !known.contains($0) }
        guard unknown.isEmpty else { return ["expect-kills.csv: no kills.csv column \(unknown.joined(separator: ", "))"] }
        let indices = columns.map { c in known.firstIndex(of: c) ?? 0 }
        let projected = have.dropFirst().map { row in indices.map { $0 < row.fields.count ? row.fields[$0] : "" } }
        guard want.count == have.count else {
            return ["expect-kills.csv: \(want.count - 1) kills expected, kills.csv has \(have.count - 1): "
                    + projected.map { $0.joined(separator: ",") }.joined(separator: " | ")]
        }
        var problems: [String] = []
        for (row, actualFields) in zip(want.dropFirst(), projected) {
            for (k, column) in columns.enumerated() where (k < row.fields.count ? row.fields[k] : "") != actualFields[k] {
                problems.append("expect-kills.csv:\(row.line): \(column): expected '\(k < row.fields.count ? row.fields[k] : "")', kills.csv has '\(actualFields[k])'")
            }
        }
        return problems
    }

    /// Each `column,value` row of `expect-summary.csv` against that column of summary.csv's one row.
    static func compareSummary(expected: String, actual: String) throws -> [String] {
        let want = try rows(expected), have = try rows(actual)
        guard want.first?.fields == ["column", "value"] else { return ["expect-summary.csv: the header must be column,value"] }
        guard have.count == 2 else { return ["summary.csv: expected one row, found \(have.count - 1)"] }
        let summary = Dictionary(zip(have[0].fields, have[1].fields)) { first, _ in first }
        return want.dropFirst().compactMap { row in
            guard row.fields.count == 2 else { return "expect-summary.csv:\(row.line): expected column,value" }
            guard let value = summary[row.fields[0]] else { return "expect-summary.csv:\(row.line): no summary.csv column '\(row.fields[0])'" }
            return value == row.fields[1] ? nil
                : "expect-summary.csv:\(row.line): \(row.fields[0]): expected '\(row.fields[1])', summary.csv has '\(value)'"
        }
    }

    /// A CSV file's rows with their line numbers, read by the reader every input goes through (RFC 4180 quoting).
    static func rows(_ path: String) throws -> [(line: Int, fields: [String])] {
        let reader = try CSVReader(path: path)
        var rows: [(line: Int, fields: [String])] = []
        while try reader.nextRow() { rows.append((reader.lineNumber, reader.strings())) }
        return rows
    }
}
