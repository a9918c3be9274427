import Foundation
@testable import JetsimIO
import Testing

private func entries(_ directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
}

private func contents(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

/// A pid that belonged to a process which has ended: a child that exited and was reaped.
private func deadPid() throws -> Int32 {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/true")
    try p.run()
    p.waitUntilExit()
    return p.processIdentifier
}

@Suite struct ReportDirectoryTests {
    @Test func aNewSetAppearsOnlyWhenPublished() throws {
        let s = try Scratch()
        let out = s.path + "/runs/a"
        let reports = try ReportDirectory(out, replaceable: OutputNames.run)
        try "x\n".write(toFile: reports.file("summary.csv"), atomically: false, encoding: .utf8)
        #expect(!FileManager.default.fileExists(atPath: out), "visible before publish")
        #expect(entries(s.path + "/runs") == [".a.jetsim-\(getpid()).staging"])
        try reports.publish()
        #expect(entries(out) == ["summary.csv"])
        #expect(entries(s.path + "/runs") == ["a"], "the staging directory is gone")
    }

    @Test func anEarlierSetIsReplacedWholeSoNoOldFileStaysBesideNewOnes() throws {
        let s = try Scratch()
        let out = s.path + "/r"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try "old\n".write(toFile: out + "/summary.csv", atomically: false, encoding: .utf8)
        try "old events\n".write(toFile: out + "/events.csv", atomically: false, encoding: .utf8)
        let reports = try ReportDirectory(out, replaceable: OutputNames.run)
        try "new\n".write(toFile: reports.file("summary.csv"), atomically: false, encoding: .utf8)
        #expect(contents(out + "/summary.csv") == "old\n", "the earlier set stays whole until publish")
        try reports.publish()
        #expect(entries(out) == ["summary.csv"], "events.csv of the earlier run must not survive")
        #expect(contents(out + "/summary.csv") == "new\n")
        #expect(entries(s.path) == ["r"])
    }

    @Test func aDirectoryHoldingOtherFilesIsRefusedAndLeftAlone() throws {
        let s = try Scratch()
        let out = s.path + "/mine"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        _ = try s.write("mine/notes.txt", "keep me")
        var error: InputError?
        do { _ = try ReportDirectory(out, replaceable: OutputNames.run) } catch let e { error = e }
        #expect(error?.exitCode == InputError.cannotCreate)
        #expect(error?.message.contains("notes.txt") == true)
        #expect(entries(out) == ["notes.txt"])
        #expect(entries(s.path) == ["mine"], "no staging directory left")
        let file = try s.write("plain", "x")
        #expect(throws: InputError.self) { try ReportDirectory(file, replaceable: OutputNames.run) }
        #expect(throws: InputError.self) { try ReportDirectory(s.path + "/.", replaceable: OutputNames.run) }
    }

    @Test func aDiscardedSetLeavesNothingNotEvenTheParentsItMade() throws {
        let s = try Scratch()
        do {
            let reports = try ReportDirectory(s.path + "/x/y/z", replaceable: OutputNames.compare)
            try "partial\n".write(toFile: reports.file("compare.csv"), atomically: false, encoding: .utf8)
            reports.discard()
        }
        #expect(entries(s.path).isEmpty)
        do {   // dropped without publish: the same
            let reports = try ReportDirectory(s.path + "/x/y", replaceable: OutputNames.compare)
            try "partial\n".write(toFile: reports.file("compare.csv"), atomically: false, encoding: .utf8)
        }
        #expect(entries(s.path).isEmpty)
    }

    @Test func leftoversOfDeadProcessesAreRemovedAndLiveOnesKept() throws {
        let s = try Scratch()
        let dead = try deadPid()
        let stale = [".r.jetsim-\(dead).staging", ".summary.csv.\(dead).tmp"]
        let live = [".r.jetsim-\(getpid()).staging", ".other.jetsim-1.staging", "keep.\(dead).tmp"]
        for name in stale + live where name.hasSuffix(".staging") {
            try FileManager.default.createDirectory(atPath: s.path + "/" + name, withIntermediateDirectories: true)
            _ = try s.write(name + "/kills.csv", "half")
        }
        for name in (stale + live) where name.hasSuffix(".tmp") { _ = try s.write(name, "half") }
        TemporaryFiles.removeStale(in: s.path)
        #expect(entries(s.path) == live.sorted(), "pid 1 is alive; a name not starting with '.' is not ours")
        // Making a new report set there cleans the same way.
        try FileManager.default.createDirectory(atPath: s.path + "/" + stale[0], withIntermediateDirectories: true)
        _ = try ReportDirectory(s.path + "/new", replaceable: OutputNames.run)
        #expect(!entries(s.path).contains(stale[0]))
    }

    @Test func namesMatchTheCommandsOutputPatterns() {
        #expect(ReportDirectory.matches("trace-user-12.csv", pattern: "trace-user-*.csv"))
        #expect(!ReportDirectory.matches("trace-user-12.txt", pattern: "trace-user-*.csv"))
        #expect(ReportDirectory.matches("chart-kills.csv", pattern: "chart-*.csv"))
        #expect(!ReportDirectory.matches("chart.csv", pattern: "chart-*.csv"))
        #expect(ReportDirectory.matches("summary.csv", pattern: "summary.csv"))
        #expect(!ReportDirectory.matches("summary.csv.bak", pattern: "summary.csv"))
    }
}

@Suite struct BoundedReaderTests {
    static let trace = "time,app,event,value\n" + (0..<400).map { "\($0),Maps,open,\n\($0).5,,home,\n" }.joined()

    private func gzip(_ text: String, in s: Scratch, name: String) throws -> [UInt8] {
        let path = try s.write(name, text)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/gzip")
        p.arguments = ["-f", path]
        try p.run()
        p.waitUntilExit()
        return Array(try Data(contentsOf: URL(fileURLWithPath: path + ".gz")))
    }

    private func readAll(_ path: String) throws(InputError) -> Int {
        let r = try CSVReader(path: path)
        var rows = 0
        while try r.nextRow() { rows += 1 }
        return rows
    }

    @Test func aTruncatedOrCorruptGzipIsAnErrorNeverAShorterFile() throws {
        let s = try Scratch()
        let whole = try gzip(Self.trace, in: s, name: "t.csv")
        #expect(try readAll(s.path + "/t.csv.gz") == 801)
        for cut in [whole.count / 3, whole.count / 2, whole.count - 9, whole.count - 1] {
            let path = s.path + "/cut\(cut).csv.gz"
            try Data(whole[..<cut]).write(to: URL(fileURLWithPath: path))
            var error: InputError?
            do { _ = try readAll(path) } catch let e { error = e }
            #expect(error?.message.contains("truncated") == true, "cut at \(cut) of \(whole.count): \(String(describing: error))")
            #expect(error?.exitCode == InputError.dataError)
            #expect(throws: InputError.self) { try LibCacheSimStreamCount.count(path) }
            #expect(readWholeFile(path) == nil)
        }
        var corrupt = whole
        corrupt[corrupt.count - 6] ^= 0xff   // inside the CRC-32 of the trailer
        let path = s.path + "/crc.csv.gz"
        try Data(corrupt).write(to: URL(fileURLWithPath: path))
        do { _ = try readAll(path); Issue.record("a CRC mismatch was accepted") } catch let e {
            #expect(e.message.contains("corrupt"), "\(e)")
        }
    }

    @Test func aLineWithoutEndStopsAtTheLimitInsteadOfGrowing() throws {
        let s = try Scratch()
        let path = s.path + "/nul.csv"
        try Data(count: InputLimits.maxLineBytes * 3).write(to: URL(fileURLWithPath: path))
        do { _ = try readAll(path); Issue.record("accepted") } catch let e {
            #expect(e.line == 1)
            #expect(e.message.contains("longer than 1 MiB"))
            #expect(e.description.count < 200, "the message must not echo the line")
        }
        do { _ = try LibCacheSimStreamCount.count(path); Issue.record("accepted") } catch let e {
            #expect(e.message.contains("longer than 1 MiB"))
        }
        // Long but within the limit: read.
        let long = try s.write("long.csv", "a,b\n" + String(repeating: "x", count: InputLimits.maxLineBytes - 10) + ",1\n")
        #expect(try readAll(long) == 2)
    }

    @Test func aByteOrderMarkIsSkippedEverywhere() throws {
        let s = try Scratch()
        let bom = "\u{FEFF}"
        let catalog = try s.write("apps.csv", bom + "app,dirty_mb\nMaps,100\n")
        let apps = try CatalogFile.read(path: catalog)
        #expect(apps.profiles.map(\.name) == ["Maps"])
        let trace = try s.write("trace.csv", bom + "time,app,event,value\n1,Maps,open,\n")
        #expect(try TraceReader(path: trace, catalog: apps).readAll().count == 1)
        let requests = try s.write("lcs.csv", bom + "time,obj-id,obj-size\n1,7,100\n2,8,100\n")
        #expect(try LibCacheSimStreamCount.count(requests) == 2)
    }

    @Test func aDirectoryIsUnreadableInputNotBadData() throws {
        let s = try Scratch()
        func expectUnreadable(_ attempt: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
            do { try attempt(); Issue.record("a directory was read", sourceLocation: sourceLocation) } catch {
                let e = error as? InputError
                #expect(e?.exitCode == InputError.noInput, sourceLocation: sourceLocation)
                #expect(e?.message.contains("is a directory") == true, sourceLocation: sourceLocation)
                #expect(e?.line == nil, sourceLocation: sourceLocation)
            }
        }
        expectUnreadable { _ = try CSVReader(path: s.path) }
        expectUnreadable { _ = try LibCacheSimStream(path: s.path) }
        expectUnreadable { _ = try readWholeFile(checking: s.path) }
    }

    @Test func aPipeIsCopiedOnceAndNamedAsGiven() throws {
        let s = try Scratch()
        let fifo = s.path + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let text = "time,obj-id,obj-size\n1,7,100\n2,7,100\n"
        let writer = Thread { try? text.write(toFile: fifo, atomically: false, encoding: .utf8) }
        writer.start()
        let input = try ReadOnceInput(fifo)
        #expect(input.path != fifo)
        #expect(try LibCacheSimStreamCount.count(input.path) == 2)
        #expect(try LibCacheSimStreamCount.count(input.path) == 2, "read twice, from the copy")
        let copy = input.path
        #expect(FileManager.default.fileExists(atPath: copy))
        let regular = try ReadOnceInput(try s.write("f.csv", text))
        #expect(regular.path == regular.name)
        _ = consume input
        #expect(!FileManager.default.fileExists(atPath: copy), "the private copy outlived its owner")
    }
}

/// Counts a libCacheSim trace's requests with the streaming reader.
enum LibCacheSimStreamCount {
    static func count(_ path: String) throws(InputError) -> Int {
        let stream = try LibCacheSimStream(path: path)
        var batch = RequestBatch()
        var total = 0
        while try stream.next(into: &batch) { total += batch.count }
        return total
    }
}
