import Foundation
@testable import JetsimCore
@testable import JetsimIO
import Testing

/// The importers' in-memory entry points: the trace and catalog texts, or the error.
/// Epoch numbers count milliseconds unless `timeUnit` says otherwise.
func importIntervals(_ text: String, name: String = "iv.csv", skipBad: Bool = false, timeUnit: EpochUnit = .milliseconds) throws(InputError) -> (trace: String, apps: String) {
    let writer = ImportWriter(inMemory: name)
    try IntervalsImporter.run(bytes: Array(text.utf8), name: name, writer: writer, skipBad: skipBad, timeUnit: timeUnit)
    try writer.commit()
    return writer.output ?? ("", "")
}

func importLSApp(_ text: String, name: String = "ls.tsv", skipBad: Bool = false, timeUnit: EpochUnit = .milliseconds) throws(InputError) -> (trace: String, apps: String) {
    let writer = ImportWriter(inMemory: name)
    try LSAppImporter.run(bytes: Array(text.utf8), name: name, writer: writer, skipBad: skipBad, timeUnit: timeUnit)
    try writer.commit()
    return writer.output ?? ("", "")
}

/// The input error `body` throws (nil when it throws none; any other error is an issue).
func caught(_ body: () throws -> Void) -> InputError? {
    do {
        try body()
        return nil
    } catch let e as InputError {
        return e
    } catch {
        Issue.record("not an InputError: \(error)")
        return nil
    }
}

/// Reads an importer's output back with Jetsim's own readers (files, as `jetsim run` reads them).
func readBack(_ output: (trace: String, apps: String)) throws -> (catalog: AppCatalog, events: [TraceEvent]) {
    let s = try Scratch()
    let catalog = try CatalogFile.read(path: try s.write("apps.csv", output.apps))
    let events = try TraceReader(path: try s.write("trace.csv", output.trace), catalog: catalog).readAll()
    return (catalog, events)
}

/// Trace rows without comments and header.
func rows(_ trace: String) -> [String] {
    trace.split(separator: "\n").filter { !$0.hasPrefix("#") }.dropFirst().map(String.init)
}

@Suite struct TimestampTests {
    private func micros(_ text: String, _ unit: EpochUnit = .milliseconds) -> Int? {
        var t = Timestamps(unit: unit)
        return t.micros(text)
    }

    @Test func epochMillisecondsStopAtTheLastInstantOfYear9999() {
        #expect(micros("253402300799999") == 253_402_300_799_999_000)
        #expect(micros("253402300800000") == nil)
        #expect(micros("9999999999999999") == nil)            // × 1000 overflowed before
        #expect(micros("99999999999999999999999") == nil)
        #expect(micros("253402300799", .seconds) == 253_402_300_799_000_000)
        #expect(micros("253402300800", .seconds) == nil)
        #expect(micros("9999-12-31T23:59:59.999Z") == 253_402_300_799_999_000)
        #expect(micros("0000-01-01T00:00:00+23:59").map { $0 < 0 } == true)
        #expect(micros("0000-01-01T00:00:00+99:59") == nil, "no offset of 99 hours")
    }

    /// Issue 20: ten-digit epoch seconds were read as milliseconds, so a minute lasted 0.06 s.
    @Test func theFirstEpochNumberDecidesSecondsOrMilliseconds() {
        var t = Timestamps()
        #expect(t.micros("1700000000") == 1_700_000_000_000_000)
        #expect(t.unit == .seconds)
        #expect(t.micros("1700000060") == 1_700_000_060_000_000, "a minute later is 60 s later")
        var ms = Timestamps()
        #expect(ms.micros("1700000000000") == 1_700_000_000_000_000)
        #expect(ms.unit == .milliseconds)
        var decimal = Timestamps()
        #expect(decimal.micros("1700000000.25") == 1_700_000_000_250_000 && decimal.unit == .seconds)
        var small = Timestamps()
        #expect(small.micros("1000") == nil && small.problem.contains("--time-unit"), "4 digits: seconds or milliseconds?")
        #expect(micros("1000", .seconds) == 1_000_000_000)
        #expect(micros("1000", .milliseconds) == 1_000_000)
        var iso = Timestamps()
        #expect(iso.micros("2024-01-05T10:00:00Z") != nil && iso.unit == .auto, "a date decides nothing")
    }

    @Test func datesAreRealDaysAndSecondsAreOptional() {
        #expect(micros("2024-02-31 10:00:00") == nil)
        #expect(micros("2023-02-29 10:00:00") == nil)
        #expect(micros("2024-02-29 10:00:00") != nil, "2024 is a leap year")
        #expect(micros("1900-02-29 00:00:00") == nil, "1900 is not")
        #expect(micros("2000-02-29 00:00:00") != nil, "2000 is")
        #expect(micros("2024-04-31T00:00:00Z") == nil)
        #expect(micros("2024-01-05 10:00") == micros("2024-01-05 10:00:00"))
        #expect(micros("2024-01-05T10:00Z") == micros("2024-01-05T10:00:00Z"))
        #expect(micros("2024-01-05 10:0") == nil)
    }
}

@Suite struct ImporterArithmeticTests {
    @Test func theFuzzedIntervalIsALocatedErrorNotATrap() {
        let e = caught { _ = try importIntervals("user,start,end,app\na,9999999999999999,9999999999999999,Maps\n") }
        expectLocated(e, line: 2, field: "start", message: "past 9999-12-31 (at most 253402300799999 milliseconds)", input: "16-digit epoch ms")
        let lsapp = caught { _ = try importLSApp("1\t1\t9999999999999999\tMaps\tOpened\n") }
        expectLocated(lsapp, line: 1, field: "timestamp", message: "253402300799999", input: "16-digit epoch ms (lsapp)")
        #expect(throws: Never.self) { _ = try importIntervals("user,start,end,app\na,253402300799999,253402300799999,Maps\n") }
    }

    /// Users follow one another an hour apart: five users spanning years 0000–9999 each pass 2^60 µs, which Jetsim's
    /// trace reader refuses, so the importer refuses the row that would.
    @Test func aTracePastTwoToTheSixtyIsRefusedAtItsRow() throws {
        var intervals = "user,start,end,app\n", lsapp = ""
        for u in 1...5 {
            intervals += "u\(u),0000-01-01T00:00:00Z,9999-12-31T00:00:00Z,Maps\n"
            lsapp += "\(u)\t1\t0000-01-01 00:00:00\tMaps\tOpened\n\(u)\t1\t9999-12-31 00:00:00\tMaps\tClosed\n"
        }
        expectLocated(caught { _ = try importIntervals(intervals) }, line: 5, field: "end", message: "2^60 µs", input: intervals)
        expectLocated(caught { _ = try importLSApp(lsapp) }, line: 8, field: "timestamp", message: "2^60 µs", input: lsapp)
        // Skipped, the rows that would pass the limit leave a trace Jetsim reads.
        let lenient = try importIntervals(intervals, skipBad: true)
        #expect(!lenient.trace.contains("#"), "plain CSV: the count goes to stdout, not into the trace")
        let back = try readBack(lenient)
        #expect(back.events.count == 6)
        #expect(back.events.allSatisfy { $0.time <= DecimalParser.maxMicros })
        #expect(try readBack(try importLSApp(lsapp, skipBad: true)).events.last.map { $0.time <= DecimalParser.maxMicros } == true)
    }

    @Test func theWriterRefusesTimesJetsimCouldNotRead() {
        let w = ImportWriter(inMemory: "x")
        #expect(throws: InputError.self) { try w.emit(time: -1, app: "a", .open) }
        #expect(throws: InputError.self) { try w.emit(time: DecimalParser.maxMicros + 1, app: "a", .open) }
        #expect(throws: Never.self) { try w.emit(time: DecimalParser.maxMicros, app: "a", .open) }
    }
}

@Suite struct ImporterEncodingTests {
    static let bom = "\u{FEFF}"

    @Test func byteOrderMarksAndCRLFAreAccepted() throws {
        let plain = try importIntervals("user,start,end,app\na,2024-01-05T10:00:00Z,2024-01-05T10:01:00Z,Maps\n")
        let marked = try importIntervals(Self.bom + "user,start,end,app\r\na,2024-01-05T10:00:00Z,2024-01-05T10:01:00Z,Maps\r\n")
        #expect(rows(marked.trace) == rows(plain.trace))
        #expect(rows(plain.trace) == ["0.000,Maps,open,,a", "60.000,,home,,a"])
        // LSApp with its header, and without one (the mark then sits before the first user id).
        let lsapp = "1\t1\t2018-01-16 06:01:05\tWhatsApp\tOpened\n1\t1\t2018-01-16 06:01:40\tWhatsApp\tClosed\n"
        let expected = rows(try importLSApp(lsapp).trace)
        #expect(expected == ["0.000,WhatsApp,open,,1", "35.000,,home,,1"])
        #expect(rows(try importLSApp(Self.bom + lsapp).trace) == expected)
        #expect(rows(try importLSApp(Self.bom + "user_id\tsession_id\ttimestamp\tapp_name\tevent_type\r\n" + lsapp).trace) == expected)
        // libCacheSim: a marked first request is a request, not a header.
        let w = ImportWriter(inMemory: "t.csv")
        try LibCacheSimImporter.run(bytes: Array((Self.bom + "1,10,100\n2,11,200\n").utf8), name: "t.csv", writer: w)
        try w.commit()
        #expect(rows(w.output?.trace ?? "") == ["1.000,10,open,,1", "2.000,11,open,,1"])
    }

    @Test func aMarkedFileIsReadLikeTheSameFileWithout() throws {
        let s = try Scratch()
        let text = "user,start,end,app\na,2024-01-05T10:00:00Z,2024-01-05T10:01:00Z,Maps\n"
        for (k, input) in [text, Self.bom + text].enumerated() {
            let writer = try ImportWriter(directory: s.path + "/o\(k)", source: "iv.csv")
            try IntervalsImporter.run(path: try s.write("iv\(k).csv", input), writer: writer, user: nil, mergeGapMicros: 0, skipBad: false)
            try writer.commit()
        }
        #expect(try String(contentsOfFile: s.path + "/o0/trace.csv", encoding: .utf8) == String(contentsOfFile: s.path + "/o1/trace.csv", encoding: .utf8))
        let rows = try CSVReader(path: try s.write("m.tsv", Self.bom + "#comment\n\"q\"\tx\n"), delimiter: UInt8(ascii: "\t"))
        #expect(try rows.nextRow())
        #expect(rows.strings() == ["q", "x"] && rows.lineNumber == 2)
    }

    /// `é` composed and decomposed are one app to Swift (and the catalog reader), two byte strings to the trace reader.
    @Test func namesSwiftTakesAsEqualAreWrittenOneWay() throws {
        let out = try importIntervals("user,start,end,app\na,1000,2000,\u{E9}\na,60000,70000,e\u{301}\n")
        let back = try readBack(out)
        #expect(back.catalog.count == 1)
        #expect(back.events.filter { $0.kind == .open }.map(\.app) == [0, 0])
    }

    @Test func hostileNamesReadBackAsTheyWereImported() throws {
        let names = ["#hashtag", "Mail, \"Pro\"", "two\nlines", "semi;colon", "tab\there", "\u{1F600} emoji"]
        var intervals = "user,start,end,app\n"
        for (k, n) in names.enumerated() { intervals += "a,\(k * 100_000),\(k * 100_000 + 50_000),\(CSVLine.field(n))\n" }
        let back = try readBack(try importIntervals(intervals))
        #expect(back.catalog.profiles.map(\.name) == names)
        #expect(back.events.filter { $0.kind == .open }.count == names.count)
        let lsapp = names.enumerated().map { "1\t1\t2018-01-16 06:0\($0.offset):00\t\(CSVLine.field($0.element.replacingOccurrences(of: "\t", with: " ")))\tOpened\n" }
        #expect(try readBack(try importLSApp(lsapp.joined())).catalog.count == names.count)
    }

    @Test func inMemoryImportsMatchTheFilesTheCommandWrites() throws {
        let s = try Scratch()
        let text = "user,start,end,app\na,2024-01-05T10:00:00Z,2024-01-05T10:01:00Z,Maps\nb,1704449400000,1704449460000,Gmail\n"
        let path = try s.write("iv.csv", text)
        let writer = try ImportWriter(directory: s.path + "/o", source: path)
        try IntervalsImporter.run(path: path, writer: writer, user: nil, mergeGapMicros: 5_000_000, skipBad: false)
        try writer.commit()
        let memory = try importIntervals(text, name: path)
        #expect(memory.trace == (try String(contentsOfFile: s.path + "/o/trace.csv", encoding: .utf8)))
        #expect(memory.apps == (try String(contentsOfFile: s.path + "/o/apps.csv", encoding: .utf8)))
        #expect(writer.output == nil)
    }

    @Test func theTraceStartsWithItsHeaderWhateverTheInputsName() throws {
        let out = try importIntervals("user,start,end,app\na,1000,2000,Maps\n", name: "odd\nname.csv")
        #expect(out.trace.hasPrefix("time,app,event,value,user\n"))
        #expect(try readBack(out).events.count == 2)
    }
}

@Suite struct JetsamEventInputTests {
    static let header = "{\"bug_type\":\"298\",\"os_version\":\"iPhone OS 14.2 (18B92)\"}"

    static func body(pageSize: String = "16384", pages: String = "\"free\":3000,\"active\":60000,\"wired\":4000", compressor: Int = 2000,
                     processes: String = "{\"name\":\"Game\",\"rpages\":9280,\"purgeable\":64,\"reason\":\"per-process-limit\"},{\"name\":\"Music\",\"rpages\":640}",
                     extra: String = "") -> String {
        "{\"product\":\"iPhone12,1\",\"build\":\"18B92\"\(extra),\"memoryStatus\":{\"pageSize\":\(pageSize),\"memoryPages\":{\(pages)},\"compressorSize\":\(compressor)},"
            + "\"processes\":[\(processes)]}"
    }

    func parse(_ text: String) throws(InputError) -> JetsamEventImporter.Result {
        try JetsamEventImporter.parse(bytes: Array(text.utf8), name: "r.ips")
    }

    @Test func crlfAndAByteOrderMarkAreAccepted() throws {
        let lf = try parse(Self.header + "\n" + Self.body() + "\n")
        for text in [Self.header + "\r\n" + Self.body() + "\r\n", "\u{FEFF}" + Self.header + "\r\n" + Self.body()] {
            let r = try parse(text)
            #expect(r.apps.map(\.name) == ["Game", "Music"])
            #expect(r.apps.map(\.dirtyBytes) == lf.apps.map(\.dirtyBytes))
            #expect(r.deviceYAML == lf.deviceYAML)
        }
    }

    @Test func pageCountsAreWholeNonNegativeAndBounded() {
        let huge = "1152921504606846976"   // 2^60
        let cases: [(String, String, String)] = [
            (Self.body(pageSize: huge), "memoryStatus.pageSize", "1 to 1048576 bytes"),
            (Self.body(pageSize: "0"), "memoryStatus.pageSize", "1 to 1048576 bytes"),
            (Self.body(pageSize: "true"), "memoryStatus.pageSize", "found 'true'"),
            (Self.body(pageSize: "4096.5"), "memoryStatus.pageSize", "whole number"),
            (Self.body(processes: "{\"name\":\"a\",\"rpages\":-5}"), "processes[0].rpages", "must not be negative"),
            (Self.body(processes: "{\"name\":\"a\",\"rpages\":1e300}"), "processes[0].rpages", "whole number"),
            (Self.body(processes: "{\"name\":\"a\",\"rpages\":\"lots\"}"), "processes[0].rpages", "whole number"),
            (Self.body(processes: "{\"name\":\"a\",\"rpages\":9223372036854775807}"), "processes[0].rpages", "exceed 1 PiB"),
            (Self.body(processes: "{\"name\":\"a\",\"rpages\":1},{\"name\":\"b\",\"rpages\":1,\"purgeable\":\(huge)}"), "processes[1].purgeable", "exceed 1 PiB"),
            (Self.body(processes: "{\"name\":\"  \",\"rpages\":1}"), "processes[0].name", "blank"),
            (Self.body(pages: "\"free\":3000,\"active\":9223372036854775807"), "memoryStatus.memoryPages.active", "exceed 1 PiB"),
            (Self.body(pages: "\"free\":\(1 << 36),\"active\":\(1 << 36)"), "memoryStatus.memoryPages", "exceed 1 PiB"),
            (Self.body(pages: "\"free\":\(1 << 35),\"active\":\(1 << 35)"), "memoryStatus", "exceed 1 PiB"),   // and the compressor
            (Self.body(pages: "\"free\":-1"), "memoryStatus.memoryPages.free", "must not be negative"),
            (Self.body(pages: "\"wired\":3000", compressor: 0), "memoryStatus", "OS reserve"),   // all memory wired: no device Jetsim runs
            (Self.body(processes: "{\"name\":\"a\",\"rpages\":0,\"reason\":\"per-process-limit\"}"), "memoryStatus", "an app limit below one page"),
        ]
        for (body, field, message) in cases {
            expectLocated(caught { _ = try parse(Self.header + "\n" + body) }, line: 2, field: field, message: message, input: body)
        }
    }

    /// Names with every character CSV and YAML treat specially, a product that would break the YAML, repeated names:
    /// what the importer writes, Jetsim's catalog, device and trace readers read back.
    @Test func theOutputsReadBackWithJetsimsReaders() throws {
        let names = ["#Game, \\\"big\\\"", " Maps ", "Maps", "Maps-2", "line\\nbreak", "colon: [x] {y} &z *w !v |u >t 'q' %p @o `n"]
        let processes = names.map { "{\"name\":\"\($0)\",\"rpages\":640,\"states\":[\"audio\"]}" }.joined(separator: ",")
        let product = ", \\\"quoted\\\"\\n: [evil] #comment \\u0085 \\u2028 \\t\\u0000 \\u00e9"
        let report = Self.header + "\n" + Self.body(processes: processes, extra: "").replacingOccurrences(of: "iPhone12,1", with: product)
            .replacingOccurrences(of: "\"18B92\"", with: "\"18B92\\nname: evil\"")
        let r = try parse(report)
        let expectedNames = ["#Game, \"big\"", "Maps", "Maps-2", "Maps-2-2", "line\nbreak", "colon: [x] {y} &z *w !v |u >t 'q' %p @o `n"]
        #expect(r.apps.map(\.name) == expectedNames)
        let s = try Scratch()
        let catalog = try CatalogFile.read(path: try s.write("apps.csv", WorkloadFiles.catalogCSV(r.apps)))
        #expect(catalog.profiles.map(\.name) == expectedNames)
        #expect(catalog.profiles.map(\.dirtyBytes) == r.apps.map(\.dirtyBytes))
        let device = try DeviceFile.read(path: try s.write("device.yaml", r.deviceYAML))
        #expect(device.name == ", \"quoted\"\n: [evil] #comment \u{85} \u{2028} \t\u{0} \u{E9}".lowercased().replacingOccurrences(of: ",", with: "-"))
        #expect(device.physicalBytes == (3000 + 60000 + 4000 + 2000) * 16384)
        #expect(device.reserveBytes == 4000 * 16384)
        var trace = "time,app,event\n"
        for (k, n) in expectedNames.enumerated() { trace += "\(k),\(CSVLine.field(n)),open\n" }
        #expect(try TraceReader(path: try s.write("trace.csv", trace), catalog: catalog).readAll().map(\.app) == [0, 1, 2, 3, 4, 5])
    }

    @Test func aDeeplyNestedBodyIsAnErrorNotACrash() {
        let body = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        expectLocated(caught { _ = try parse(Self.header + "\n" + body) }, line: 2, field: nil, message: "JSON", input: "nested")
    }
}

@Suite struct ImporterExcerptTests {
    @Test func longValuesAreCutInMessages() {
        #expect(InputError.excerpt("short") == "short")
        #expect(InputError.excerpt(String(repeating: "x", count: 40)) == String(repeating: "x", count: 40))
        #expect(InputError.excerpt(String(repeating: "y", count: 10_000)) == String(repeating: "y", count: 40) + "…")
        let e = caught { _ = try importIntervals("user,start,end,app\na," + String(repeating: "9", count: 5000) + ",1,x\n") }
        #expect(e.map { $0.description.count < 300 } == true, "\(String(describing: e))")
    }
}
