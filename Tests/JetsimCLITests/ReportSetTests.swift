import Foundation
import Testing

/// Reports as one complete set or none, whatever happens to the process (README: Guarantees and limits).
@Suite struct ReportSetTests {
    @Test func anInterruptedRunLeavesNoStagingDirectoryAndNoReports() throws {
        let dir = try scratch()
        let fifo = dir + "/trace.csv"
        #expect(mkfifo(fifo, 0o600) == 0)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CLI.binary)
        p.arguments = ["run", "--device", "iphone-x", "--apps", CLI.exampleApps, "--trace", fifo, "--out", dir + "/out/r", "--quiet"]
        p.standardError = FileHandle.nullDevice
        try p.run()
        // The run reads the trace as it arrives: write a few events and keep the pipe open, so it is mid-run.
        let writer = try #require(FileHandle(forWritingAtPath: fifo))
        writer.write(Data("time,app,event,value\n0,messages,open,\n1,,home,\n".utf8))
        var staged = false
        for _ in 0..<600 where !staged {   // until the staging directory exists (the run is then writing reports)
            staged = files(in: dir + "/out").contains { $0.hasSuffix(".staging") }
            if !staged { usleep(50_000) }
        }
        #expect(staged, "the run never made its staging directory")
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        try? writer.close()
        #expect(p.terminationReason == .uncaughtSignal)
        #expect(p.terminationStatus == SIGINT)
        #expect(files(in: dir + "/out").isEmpty, "left behind: \(files(in: dir + "/out"))")
    }

    @Test func aFailedImportCreatesNothing() throws {
        let dir = try scratch()
        let input = dir + "/intervals.csv"
        try "user,start,end,app\na,1700000001000,1700000002000,Maps\na,1700000003000,oops,Maps\n".write(toFile: input, atomically: true, encoding: .utf8)
        let r = try CLI.run(["import", "intervals", input, "--out", dir + "/new/imported"])
        #expect(r.status == 65, "\(r.stderr)")
        #expect(files(in: dir) == ["intervals.csv"], "a failed import left \(files(in: dir))")
    }

    @Test func aRerunReplacesTheWholeSetAndAForeignDirectoryIsRefused() throws {
        let dir = try scratch()
        let out = dir + "/r"
        let args = ["run", "--device", "iphone-x", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--out", out, "--quiet"]
        #expect(try CLI.run(args + ["--events"]).status == 0)
        #expect(files(in: out).contains("events.csv"))
        #expect(try CLI.run(args).status == 0)
        #expect(files(in: out) == ["apps.csv", "kills.csv", "summary.csv", "timeseries.csv"], "events.csv of the earlier run stayed")
        try "mine".write(toFile: out + "/notes.txt", atomically: true, encoding: .utf8)
        let refused = try CLI.run(args)
        #expect(refused.status == 73)
        #expect(refused.stderr.contains("notes.txt"))
        #expect(files(in: out).contains("notes.txt") && files(in: out).contains("summary.csv"))
    }

    @Test func compareReadsAPipeOnceAndHashesEveryFileItRead() throws {
        let dir = try scratch()
        let fifo = dir + "/trace-pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let trace = try Data(contentsOf: URL(fileURLWithPath: CLI.exampleTrace))
        let feeder = Thread { FileHandle(forWritingAtPath: fifo).map { $0.write(trace); try? $0.close() } }
        feeder.start()
        let device = dir + "/phone.yaml"
        try "name: phone\nbase: iphone-x\nram_mb: 3072\n".write(toFile: device, atomically: true, encoding: .utf8)
        let policy = CLI.packageRoot + "/Policies/" + (files(in: CLI.packageRoot + "/Policies").first { $0.hasSuffix(".yaml") } ?? "")
        let r = try CLI.run(["compare", "--apps", CLI.exampleApps, "--trace", fifo, "--policies", "lru,\(policy)",
                             "--devices", "iphone-x,\(device)", "--out", dir + "/cmp", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/cmp/manifest.json"))) as? [String: Any]
        let hashes = manifest?["inputs_sha256"] as? [String: String] ?? [:]
        #expect(Set(hashes.keys) == [fifo, CLI.exampleApps, device, policy])
        let traceHash = try CLI.run(["compare", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--policies", "lru",
                                     "--devices", "iphone-x", "--out", dir + "/cmp2", "--quiet"])
        #expect(traceHash.status == 0)
        let second = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/cmp2/manifest.json"))) as? [String: Any]
        #expect((second?["inputs_sha256"] as? [String: String])?[CLI.exampleTrace] == hashes[fifo], "the pipe's bytes hash as the file's")
        #expect(!files(in: NSTemporaryDirectory()).contains { $0.hasPrefix(".jetsim-") && $0.contains("trace-pipe") }, "the private copy stayed")
    }
}
