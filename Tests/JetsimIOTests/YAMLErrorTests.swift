import Foundation
import JetsimCore
@testable import JetsimIO
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The three YAML inputs, each read from bytes in memory as the fuzzer will (`name` stands for the file).
enum YAMLKind: CaseIterable {
    case device, policy, config

    func parse(_ bytes: [UInt8], name: String) throws(InputError) {
        switch self {
        case .device: _ = try DeviceFile.parse(bytes: bytes, file: name)
        case .policy: _ = try PolicyFiles.parse(bytes: bytes, file: name)
        case .config: _ = try ExperimentConfig.parse(bytes: bytes, file: name)
        }
    }

    func read(path: String) throws(InputError) {
        switch self {
        case .device: _ = try DeviceFile.read(path: path)
        case .policy: _ = try PolicyFiles.load(path: path)
        case .config: _ = try ExperimentConfig.read(path: path)
        }
    }

    /// A small valid file of this kind.
    var valid: String {
        switch self {
        case .device: "base: iphone-x\n"
        case .policy: "name: p\n"
        case .config: "trace: t.csv\n"
        }
    }

    /// The error `bytes` give; nil (and an issue) when they are accepted.
    func error(_ bytes: [UInt8], name: String = "in.yaml", sourceLocation: SourceLocation = #_sourceLocation) -> InputError? {
        do {
            try parse(bytes, name: name)
            Issue.record("accepted: \(String(decoding: bytes.prefix(200), as: UTF8.self))", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    func error(_ text: String, name: String = "in.yaml", sourceLocation: SourceLocation = #_sourceLocation) -> InputError? {
        error(Array(text.utf8), name: name, sourceLocation: sourceLocation)
    }
}

@Suite struct YAMLLocationTests {
    /// Issue 19, 1: a syntax error is one line at libyaml's line and column, without Yams' quoted source.
    @Test func syntaxErrorsAreOneLineAtTheirLineAndColumn() {
        for kind in YAMLKind.allCases {
            let e = kind.error(kind.valid + "x: [1\n")
            #expect(e?.line == 3 && e?.column == 1, "\(kind): \(String(describing: e))")
            #expect(e?.message.hasPrefix("not valid YAML: did not find expected ',' or ']'") == true, "\(kind)")
            #expect(e?.message.contains("(while parsing a flow sequence at 2:4)") == true, "\(kind): \(String(describing: e))")
            #expect(e?.description.contains("\n") == false)
            #expect(e?.description.hasPrefix("in.yaml:3:1: not valid YAML") == true)
            #expect(e?.exitCode == InputError.dataError)
        }
    }

    /// Issue 19, 1: a wrong value is reported where the value starts, with its key path.
    @Test func aWrongValueIsLocatedAtTheValueWithItsKeyPath() {
        let device = YAMLKind.device.error("base: iphone-x\nsoft_pct:    lots\n", name: "d.yaml")
        #expect(device?.description == "d.yaml:2:14: key 'soft_pct': expected a whole percentage 0–100, found 'lots'")
        let policy = YAMLKind.policy.error("name: p\nbands:\n  - name: big\n    when:\n      footprint_mb_at_least: many\n", name: "p.yaml")
        #expect(policy?.description == "p.yaml:5:30: key 'bands[0].when.footprint_mb_at_least': expected a size in MB from 0 to 1073741824 (1 PiB), found 'many'")
        let config = YAMLKind.config.error("devices:\n  - iphone-x\njobs: [2]\n", name: "c.yaml")
        #expect(config?.description == "c.yaml:3:7: key 'jobs': expected a whole number of jobs from 1 to 1024, found a list")
    }

    /// Issue 19, 4: a duplicate key is named (cut short) at its first occurrence; the file is not echoed.
    @Test func aDuplicateKeyIsOneShortLine() {
        let long = String(repeating: "v", count: 1_000_000)
        let cases: [(YAMLKind, String, Int, Int)] = [
            (.device, "base: iphone-x\nname: \(long)\nname: \(long)\n", 2, 1),
            (.policy, "name: p\nbands:\n  - when: { class: idle, class: idle }\n", 3, 13),
            (.config, "out: \(long)\nout: again\n", 1, 1),
        ]
        for (kind, text, line, column) in cases {
            let e = kind.error(text)
            #expect(e?.line == line && e?.column == column, "\(kind): \(String(describing: e))")
            #expect(e?.message.contains("appears more than once") == true)
            #expect((e?.description.count ?? .max) < 200, "\(kind)")
        }
        let longKey = String(repeating: "k", count: 1000)   // libyaml allows no longer plain key
        let e = YAMLKind.device.error("\(longKey): 1\n\(longKey): 2\n")
        #expect(e?.key == String(repeating: "k", count: 40) + "…")
    }

    /// Issue 19, 4: values echoed in messages are cut short.
    @Test func echoedValuesAreCutShort() {
        let long = String(repeating: "z", count: 100_000)
        let inputs: [(YAMLKind, String)] = [
            (.device, "base: \(long)\n"), (.device, "base: iphone-x\nram_mb: \(long)\n"), (.device, "base: iphone-x\nos_era: \(long)\n"),
            (.policy, "name: p\nbands:\n  - when: { class: \(long) }\n"), (.policy, "name: p\norder: { score: { idle_s: \(long) } }\n"),
            (.config, "seeds: [\(long)]\n"), (.config, "format: \(long)\n"), (.config, "policies: [a]\nbaseline: \(long)\n"),
        ]
        for (kind, text) in inputs {
            let e = kind.error(text)
            #expect(e?.description.contains(String(repeating: "z", count: 40) + "…") == true, "\(kind): \(String(describing: e?.description.prefix(300)))")
            #expect((e?.description.count ?? .max) < 400)
        }
    }

    /// Issue 19, 2: invalid UTF-8 is bad data (65) located by line, column and byte offset, not "cannot read" (66).
    @Test func invalidUTF8IsALocatedDataError() throws {
        let s = try Scratch()
        for kind in YAMLKind.allCases {
            let path = s.path + "/bad-\(kind).yaml"
            #expect(FileManager.default.createFile(atPath: path, contents: Data(Array(kind.valid.utf8) + Array("x: caf".utf8) + [0xC3, 0x28, 0x0A])))
            do {
                try kind.read(path: path)
                Issue.record("accepted \(kind)")
            } catch {
                #expect(error.exitCode == InputError.dataError, "\(kind)")
                #expect(error.line == 2 && error.column == 7, "\(kind): \(error)")
                let offset = kind.valid.utf8.count + 6
                #expect(error.message == "not valid UTF-8: byte 0x28 cannot continue a character (byte offset \(offset))", "\(kind)")
            }
        }
        let cases: [([UInt8], String)] = [
            ([0xFF], "byte 0xFF cannot start a character"), ([0xE2, 0x82], "byte 0x0A cannot continue a character"),
            ([0xC0, 0xAF], "cannot start"), ([0xE0, 0x80, 0xAF], "overlong"), ([0xED, 0xA0, 0x80], "surrogate"),
            ([0xF4, 0x90, 0x80, 0x80], "out-of-range"), ([0x00], "control character U+0000"), ([0x1B], "control character U+001B"),
        ]
        for (bytes, message) in cases {
            let e = YAMLKind.device.error(Array("base: iphone-x\nname: a".utf8) + bytes + [0x0A])
            #expect(e?.line == 2 && e?.column == 8, "\(bytes)")
            #expect(e?.message.contains(message) == true, "\(bytes): \(String(describing: e))")
        }
        let truncated = YAMLKind.device.error(Array("base: iphone-x\nname: a".utf8) + [0xE2, 0x82])
        #expect(truncated?.message.contains("the file ends inside a character") == true)
        // Columns count characters, not bytes; CRLF is one line break.
        let e = YAMLKind.device.error(Array("base: iphone-x\r\nname: ↯é".utf8) + [0xFF])
        #expect(e?.line == 2 && e?.column == 9)
    }

    /// Issue 19, 2: a leading byte-order mark is accepted, and the columns after it are the text's.
    @Test func aByteOrderMarkIsAccepted() throws {
        for kind in YAMLKind.allCases {
            #expect(throws: Never.self) { try kind.parse([0xEF, 0xBB, 0xBF] + Array(kind.valid.utf8), name: "bom.yaml") }
            let e = kind.error([0xEF, 0xBB, 0xBF] + Array("colour: red\n".utf8))
            #expect(e?.line == 1 && e?.column == 1 && e?.key == "colour", "\(kind): \(String(describing: e))")
        }
        let s = try Scratch()
        let path = s.path + "/bom.yaml"
        #expect(FileManager.default.createFile(atPath: path, contents: Data([0xEF, 0xBB, 0xBF] + Array("base: iphone-xs\nname: bom\n".utf8))))
        #expect(try DeviceFile.read(path: path).name == "bom")
    }

    /// Issue 19, 2: missing, a directory, a device, a FIFO (which must not block): exit 66 with what is wrong.
    @Test func unreadableOrNonRegularFilesExitWith66() throws {
        let s = try Scratch()
        let fifo = s.path + "/fifo.yaml"
        #expect(mkfifo(fifo, 0o600) == 0)
        let cases = [(s.path + "/missing.yaml", "cannot open: No such file"), (s.path, "is a directory"), ("/dev/null", "is not a regular file"),
                     (fifo, "is not a regular file")]
        for kind in YAMLKind.allCases {
            for (path, message) in cases {
                do {
                    try kind.read(path: path)
                    Issue.record("accepted \(path)")
                } catch {
                    #expect(error.exitCode == InputError.noInput, "\(kind) \(path)")
                    #expect(error.file == path && error.line == nil)
                    #expect(error.message.hasPrefix(message), "\(kind) \(path): \(error)")
                }
            }
        }
    }
}

@Suite struct DeviceFileLimitTests {
    /// Issue 19, 5: every numeric key is range-checked where it is read, at its value, against a documented limit.
    @Test func outOfRangeValuesAreLocatedErrors() {
        let cases: [(String, String, String)] = [
            ("aging_s: 9223372036854", "aging_s", "seconds from 0 to 315360000 (10 years)"),
            ("bg_task_budget_s: 9223372036854", "bg_task_budget_s", "seconds from 0 to 315360000"),
            ("sustained_pressure_s: 9223372036854", "sustained_pressure_s", "seconds from 0 to 315360000"),
            ("launch_watchdog_s: 315360000.5", "launch_watchdog_s", "seconds from 0"),
            ("purgeable_ripen_s: 1e9", "purgeable_ripen_s", "seconds from 0"),
            ("freezer_wake_s: -1", "freezer_wake_s", "seconds from 0"),
            ("reaper_min_age_s: 99999999999999999999999", "reaper_min_age_s", "seconds from 0"),
            ("reaper_rescan_s: .inf", "reaper_rescan_s", "seconds from 0"),
            ("ram_mb: 8796093022207", "ram_mb", "a size in MB from 0 to 1073741824 (1 PiB)"),
            ("reserve_mb: 1073741825", "reserve_mb", "1 PiB"),
            ("app_limit_mb: 1073741825", "app_limit_mb", "1 PiB"),
            ("compressor_pool_mb: 1073741825", "compressor_pool_mb", "1 PiB"),
            ("freezer_daily_write_mb: 1073741825", "freezer_daily_write_mb", "1 PiB"),
            ("freezer_min_resident_mb: 1073741825", "freezer_min_resident_mb", "1 PiB"),
            ("page_size_kb: 9007199254740991", "page_size_kb", "a page size in KiB: 4, 8, 16, 32, 64"),
            ("page_size_kb: 6", "page_size_kb", "4, 8, 16, 32, 64"),
            ("page_size_kb: 128", "page_size_kb", "4, 8, 16, 32, 64"),
            ("page_size_kb: 2", "page_size_kb", "4, 8, 16, 32, 64"),
            ("compress_ratio: 1000.001", "compress_ratio", "a ratio from 1.0 to 1000"),
            ("compress_ratio: 0.5", "compress_ratio", "a ratio from 1.0 to 1000"),
            ("thaw_ms_per_mb: 10001", "thaw_ms_per_mb", "milliseconds per MB from 0 to 10000"),
            ("freezer_max_frozen: 1000001", "freezer_max_frozen", "a whole number of apps from 0 to 1000000"),
            ("freezer_suspended_threshold: 9223372036854775807", "freezer_suspended_threshold", "from 0 to 1000000"),
            ("freezer_pct: 101", "freezer_pct", "a whole percentage 0–100"),
            ("reaper_pct: -1", "reaper_pct", "a whole percentage 0–100"),
        ]
        for (line, key, message) in cases {
            let e = YAMLKind.device.error("base: iphone-x\n\(line)\n", name: "d.yaml")
            #expect(e?.key == key, "\(line)")
            #expect(e?.line == 2 && e?.column == key.count + 3, "\(line): \(String(describing: e))")
            #expect(e?.message.contains(message) == true, "\(line): \(String(describing: e))")
            #expect(e?.exitCode == InputError.dataError)
        }
    }

    /// Issue 19, 5: sizes are checked as the engine sees them, in whole pages (`ram_mb: 0.001` used to run).
    @Test func sizesAreCheckedAfterRoundingToPages() {
        let cases: [(String, String, String)] = [
            ("ram_mb: 0.001\napp_limit_mb: 1\n", "ram_mb", "leave no page for apps"),
            ("base: iphone-x\nreserve_mb: 2785\n", "reserve_mb", "leave no page for apps"),
            ("base: iphone-x\nreserve_mb: 2784.99\n", "reserve_mb", "leave no page for apps"),   // rounded up to RAM
            ("base: iphone-x\napp_limit_mb: 0.001\n", "app_limit_mb", "below one page (16 KiB)"),
            ("base: iphone-x\napp_limit_inactive_mb: 0.015\n", "app_limit_inactive_mb", "below one page"),
            ("base: iphone-x\npage_size_kb: 64\napp_limit_active_mb: 0.06\n", "app_limit_active_mb", "below one page (64 KiB)"),
        ]
        for (text, key, message) in cases {
            let e = YAMLKind.device.error(text)
            #expect(e?.key == key, "\(text): \(String(describing: e))")
            #expect(e?.line != nil && e?.column != nil)
            #expect(e?.message.contains(message) == true, "\(text): \(String(describing: e))")
        }
        // Exactly one page beyond the reserve is enough.
        let d = try? DeviceFile.parse("ram_mb: 0.03125\nreserve_mb: 0.015625\napp_limit_mb: 0.015625\n", file: "d.yaml")
        #expect(d.map { $0.physicalBytes - $0.reserveBytes } == 16 * Units.kibibyte)
    }

    @Test func thresholdsOutOfOrderBlameTheKeyGivenLast() {
        let e = YAMLKind.device.error("base: iphone-x\nsoft_pct: 20\ncritical_pct: 30\n")
        #expect(e?.key == "critical_pct" && e?.line == 3 && e?.column == 15)
        let p = YAMLKind.device.error("base: iphone-x\npressure_warning_exit_pct: 20\n")
        #expect(p?.key == "pressure_warning_exit_pct" && p?.message.contains("pressure thresholds") == true)
    }
}

@Suite struct PolicyFileLimitTests {
    @Test func outOfRangeValuesAreLocatedErrors() {
        let cases: [(String, String, String)] = [
            ("bands:\n  - when: { footprint_mb_at_least: 8796093022207 }", "bands[0].when.footprint_mb_at_least", "from 0 to 1073741824 (1 PiB)"),
            ("bands:\n  - when: { footprint_mb_below: 1073741825 }", "bands[0].when.footprint_mb_below", "1 PiB"),
            ("bands:\n  - when: { idle_s_at_least: 9223372036854 }", "bands[0].when.idle_s_at_least", "seconds from 0 to 315360000 (10 years)"),
            ("protect: { idle_s_below: 315360001 }", "protect.idle_s_below", "10 years"),
            ("order:\n  score: { footprint_mb: 1e308 }", "order.score.footprint_mb", "a number from -1000000 to 1000000"),
            ("order:\n  score: { idle_s: .nan }", "order.score.idle_s", "a number from -1000000 to 1000000"),
            ("order:\n  score: { idle_s: -.inf }", "order.score.idle_s", "from -1000000"),
            ("order:\n  score: { next_use: -1000000.5 }", "order.score.next_use", "from -1000000"),
        ]
        for (text, key, message) in cases {
            let e = YAMLKind.policy.error("name: p\n\(text)\n")
            #expect(e?.key == key, "\(text): \(String(describing: e))")
            #expect(e?.line != nil && e?.column != nil)
            #expect(e?.message.contains(message) == true, "\(text): \(String(describing: e))")
        }
    }

    @Test func amountsAreExactIntegers() throws {
        let p = try PolicyFiles.parse("name: p\nbands:\n  - when: { footprint_mb_at_least: 0.1, idle_s_below: 1.0000005 }\n", file: "p.yaml")
        #expect(p.bands[0].when.footprintAtLeast == 104_858 && p.bands[0].when.idleBelowMicros == 1_000_001)
    }
}

@Suite struct ExperimentConfigTests {
    func error(_ text: String) -> InputError? { YAMLKind.config.error(text, name: "c.yaml") }

    /// Issue 19, 3 and 5: every value that `compare` used to blame on an option is blamed on the file, located.
    @Test func badValuesAreLocatedInTheFile() {
        let cases: [(String, String, Int, Int, String)] = [
            ("warmup: forever\n", "warmup", 1, 9, "expected a duration"),
            ("interval: 9223372036854\n", "interval", 1, 11, "at most 10 years"),
            ("warmup: 3651d\n", "warmup", 1, 9, "at most 10 years"),
            ("interval: -1h\n", "interval", 1, 11, "expected a duration"),
            ("format: csv\n", "format", 1, 9, "expected one of: jetsim, libcachesim, found 'csv'"),
            ("seeds: [1, 2, 1]\n", "seeds[2]", 1, 15, "'1' is listed twice"),
            ("seeds: 1, 18446744073709551616\n", "seeds[1]", 1, 8, "whole-number seed"),
            ("seeds: [-1]\n", "seeds[0]", 1, 9, "found '-1'"),
            ("jobs: 0\n", "jobs", 1, 7, "from 1 to 1024"),
            ("jobs: 9223372036854775808\n", "jobs", 1, 7, "from 1 to 1024"),
            ("devices: []\n", "devices", 1, 10, "found none"),
            ("devices: ' , '\n", "devices", 1, 10, "found none"),
            ("devices: [iphone-x, '']\n", "devices[1]", 1, 21, "found nothing"),
            ("policies:\n  - xnu\n  - xnu\n", "policies[1]", 3, 5, "listed twice"),
            ("policies: [xnu, lru]\nbaseline: largest\n", "baseline", 2, 11, "expected one of the policies (xnu, lru), found 'largest'"),
            ("trace:\n", "trace", 1, 7, "expected a path, found nothing"),
            ("trace: [a, b]\n", "trace", 1, 8, "expected a path, found a list"),
        ]
        for (text, key, line, column, message) in cases {
            let e = error(text)
            #expect(e?.key == key, "\(text): \(String(describing: e))")
            #expect(e?.line == line && e?.column == column, "\(text): \(String(describing: e))")
            #expect(e?.message.contains(message) == true, "\(text): \(String(describing: e))")
            #expect(e?.exitCode == InputError.dataError)
        }
    }

    /// Relative paths are the file's, not the working directory's (issue 20); names and absolute paths stay as written.
    @Test func relativePathsAreResolvedAgainstTheFilesDirectory() throws {
        let text = "apps: apps.csv\ntrace: /data/trace.csv\nout: ../out\ndevices: [iphone-x, phones/mine.yaml, 'cache:2GiB']\n"
            + "policies: [xnu, swam, mine.yaml]\nbaseline: mine.yaml\n"
        let c = try ExperimentConfig.parse(text, file: "exp/c.yaml").resolvingPaths(relativeTo: "exp")
        #expect(c.apps == "exp/apps.csv" && c.trace == "/data/trace.csv" && c.out == "exp/../out")
        #expect(c.devices == ["iphone-x", "exp/phones/mine.yaml", "cache:2GiB"])
        #expect(c.policies == ["xnu", "swam", "exp/mine.yaml"] && c.baseline == "exp/mine.yaml")
        // A file in the working directory (no directory part) and one at the root.
        #expect(try ExperimentConfig.parse(text, file: "c.yaml").resolvingPaths(relativeTo: "").apps == "apps.csv")
        #expect(try ExperimentConfig.parse(text, file: "/c.yaml").resolvingPaths(relativeTo: "/").apps == "/apps.csv")
    }

    @Test func validValuesAtTheLimits() throws {
        let c = try ExperimentConfig.parse("warmup: 3650d\ninterval: 315360000\njobs: 1024\nseeds: [0, 18446744073709551615]\n", file: "c.yaml")
        #expect(c.jobs == 1024 && c.seeds == [0, UInt64.max] && c.warmup == "3650d")
    }

    /// Names are checked against presets, built-ins and the policies directory, and blamed on the item in the file.
    @Test func unknownDevicesAndPoliciesAreBlamedOnTheirItem() throws {
        let policies = PolicyFileTests.policiesDirectory
        let cases: [(String, String, Int, Int, String)] = [
            ("devices: [iphone-x, iphone-99]\n", "devices[1]", 1, 21, "unknown device 'iphone-99'"),
            ("devices: ['cache:9223372036854775807']\n", "devices[0]", 1, 11, "at most 1 PiB"),
            ("policies:\n  - xnu\n  - nosuch\n", "policies[1]", 3, 5, "unknown policy 'nosuch'"),
            ("policies: ['cost:alpha=lots']\n", "policies[0]", 1, 12, "parameter 'alpha' is 'lots'"),
            ("policies: ['lru:x']\n", "policies[0]", 1, 12, "expected key=value"),
        ]
        for (text, key, line, column, message) in cases {
            let config = try ExperimentConfig.parse(text, file: "c.yaml")
            do {
                try config.checkReferences(policiesDirectory: policies)
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.file == "c.yaml" && error.key == key, "\(text): \(error)")
                #expect(error.line == line && error.column == column, "\(text): \(error)")
                #expect(error.message.contains(message), "\(text): \(error)")
                #expect(error.exitCode == InputError.dataError)
            }
        }
        let good = try ExperimentConfig.parse("devices: [iphone-x, 'cache:2GiB']\npolicies: [xnu, swam, 'cost:alpha=0.5']\n", file: "c.yaml")
        #expect(throws: Never.self) { try good.checkReferences(policiesDirectory: policies) }
    }
}
