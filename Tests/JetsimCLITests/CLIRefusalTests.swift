import Foundation
import Testing

/// Refusals of hostile command lines (issue 19's audit of options): one line, the right exit code, bounded work.
@Suite struct CLIRefusalTests {
    static func oneLine(_ r: CLI.Result, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1 && r.stderr.count < 700, "\(what): \(r.stderr.prefix(400))", sourceLocation: sourceLocation)
    }

    @Test func usageErrorsAreOneLineNamingTheCommandsHelp() throws {
        let huge = String(repeating: "9", count: 100_000)
        let cases: [[String]] = [
            ["run", "--seed", "abc"],
            ["run", "--seed", huge],
            ["compare", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--jobs", "2000"],
            ["cachesim", "--trace", "t.csv", "--capacity", "2PiB"],
            ["cachesim", "--trace", "t.csv", "--capacity", huge],
            ["generate", "--out", "/tmp/x", "--days", "3650", "--sessions-per-day", "10000", "--apps-per-session", "100"],
            ["import", "libcachesim", "t.csv", "--out", "/tmp/x", "--user", "7"],
            ["import", "intervals", "t.csv", "--out", "/tmp/x", "--csv-fields", "time=1"],
            ["run", "--policy", "cost:" + String(repeating: "a", count: 80_000) + "=1", "--device", "iphone-x",
             "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace],
        ]
        for args in cases {
            let r = try CLI.run(args)
            #expect(r.status == 64, "\(args.prefix(3)): \(r.status) \(r.stderr.prefix(300))")
            Self.oneLine(r, "\(args.prefix(3))")
        }
        let bad = try CLI.run(["run", "--seed", "abc"])
        #expect(bad.stderr.contains("(see 'jetsim run --help')"), "\(bad.stderr)")
        #expect(try CLI.run(["run", "--help"]).stdout.contains("--policy-dir"), "help still prints")
    }

    @Test func anEndlessDeviceIsRefusedAtOnceNotCopied() throws {
        let dir = try scratch()
        for args in [["cachesim", "--trace", "/dev/zero", "--capacity", "10KB", "--out", dir + "/c"],
                     ["run", "--device", "cache:1MiB", "--format", "libcachesim", "--trace", "/dev/zero", "--out", dir + "/r"],
                     ["compare", "--apps", "/dev/zero", "--trace", CLI.exampleTrace, "--devices", "iphone-x", "--out", dir + "/m"]] {
            let r = try CLI.run(args)
            #expect(r.status == 65 && r.stderr.contains("longer than 1 MiB"), "\(args[0]): \(r.stderr.prefix(300))")
            Self.oneLine(r, args[0])
        }
        #expect(files(in: dir).isEmpty)
    }

    /// Every per-user file stayed open until the end: 1 100 users failed with 1 024 descriptors.
    @Test func perUserGenerationHoldsFewDescriptors() throws {
        let dir = try scratch()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "ulimit -n 48 && exec \"$0\" generate --users 120 --days 1 --per-user --out \"$1\"", CLI.binary, dir + "/g"]
        p.standardOutput = FileHandle.nullDevice
        let err = Pipe()
        p.standardError = err
        try p.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(stderr)")
        #expect(files(in: dir + "/g").count == 121)
    }
}
