import Foundation
@testable import JetsimCore
@testable import JetsimIO
import Testing

/// This test process's scratch directories live in one directory, removed when the process exits.
let scratchRoot: String = {
    atexit { try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "jetsim-test-\(getpid())") }
    return NSTemporaryDirectory() + "jetsim-test-\(getpid())"
}()

/// A scratch directory per test.
struct Scratch {
    let path: String
    init() throws {
        path = scratchRoot + "/" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    func write(_ name: String, _ text: String) throws -> String {
        let p = path + "/" + name
        try text.write(toFile: p, atomically: true, encoding: .utf8)
        return p
    }
}

func scaled(_ text: String, unit: Int) -> Int? {
    Array(text.utf8).withUnsafeBufferPointer { DecimalParser.scaled($0, unit: unit) }
}

/// Checks an input error against its expected line, field and message fragment.
func expectLocated(_ e: InputError?, line: Int?, field: String?, message: String, input: String,
                   sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(e != nil, "accepted: \(input)", sourceLocation: sourceLocation)
    #expect(e?.line == line, "\(input)", sourceLocation: sourceLocation)
    #expect(e?.field == field, "\(input)", sourceLocation: sourceLocation)
    #expect(e?.message.contains(message) == true, "\(input): \(String(describing: e))", sourceLocation: sourceLocation)
    #expect(e?.exitCode == InputError.dataError, sourceLocation: sourceLocation)
    #expect(e?.description.hasPrefix(e?.file ?? "?") == true, sourceLocation: sourceLocation)
}

@Suite struct DecimalParserTests {
    @Test func parsesExactlyWithoutFloatingPoint() {
        #expect(scaled("12", unit: 1_000_000) == 12_000_000)
        #expect(scaled("12.5", unit: 1_000_000) == 12_500_000)
        #expect(scaled("0.0000005", unit: 1_000_000) == 1)           // rounds half up to the microsecond
        #expect(scaled(".25", unit: Units.mebibyte) == Units.mebibyte / 4)
        #expect(scaled("0.1", unit: Units.mebibyte) == 104_858)       // 104857.6 → 104858
        #expect(scaled("-3.5", unit: 10) == -35)
        #expect(scaled(" 7 ", unit: 1) == 7)
    }

    /// Against a 128-bit reference, with fractions of 1 to 18 digits: short ones take the 64-bit division, long ones
    /// times a large unit the full-width one; both must round half up alike.
    @Test func agreesWithAWideReferenceAtEveryFractionLength() {
        var random = SplitMix64(seed: 29)
        var seen = (narrow: 0, wide: 0)
        for unit in [1, 10, 1_000_000, Units.mebibyte, 1_000_000_000_000] {
            for digits in 1...18 {
                for _ in 0..<200 {
                    let whole = Int.random(in: 0...1_000_000, using: &random)
                    let scale = (0..<digits).reduce(1) { r, _ in r * 10 }
                    let fraction = Int.random(in: 0..<scale, using: &random)
                    let fractionText = String(fraction)
                    let text = "\(whole)." + String(repeating: "0", count: digits - fractionText.count) + fractionText
                    let product = Int128(fraction) * Int128(unit)
                    let rounded = product / Int128(scale) + (product % Int128(scale) * 2 >= Int128(scale) ? 1 : 0)
                    let expected = Int128(whole) * Int128(unit) + rounded
                    let parsed: Int128? = scaled(text, unit: unit).map { Int128($0) }
                    #expect(parsed == expected, "\(text) × \(unit)")
                    if fraction.multipliedReportingOverflow(by: unit).overflow { seen.wide += 1 } else { seen.narrow += 1 }
                }
            }
        }
        #expect(seen.narrow > 1000 && seen.wide > 1000, "both divisions must be exercised: \(seen)")
    }

    @Test func rejectsWhatIsNotANumber() {
        for bad in ["", "-", ".", "1e3", "12a", "1.2.3", "NaN", "99999999999999999999"] {
            #expect(scaled(bad, unit: 1_000_000) == nil, "\(bad)")
        }
    }
}

@Suite struct CSVReaderTests {
    @Test func readsQuotedFieldsCommentsAndCRLF() throws {
        let s = try Scratch()
        let path = try s.write("x.csv", "# comment\r\na,b\r\n\"x, y\",\"say \"\"hi\"\"\"\r\n\r\n\"multi\nline\",z\n3,4")
        let r = try CSVReader(path: path, bufferSize: 16)   // a tiny buffer exercises refills
        var rows: [[String]] = []
        var lines: [Int] = []
        while try r.nextRow() { rows.append(r.strings()); lines.append(r.lineNumber) }
        #expect(rows == [["a", "b"], ["x, y", "say \"hi\""], ["multi\nline", "z"], ["3", "4"]])
        #expect(lines == [2, 3, 5, 7])
    }

    /// Random rows — fields with commas, quotes, spaces and stray `\r`s, quoted where they must be, LF or CRLF line
    /// ends, blank and comment lines between — read back as written, with their line numbers, whatever the buffer's
    /// size: unquoted lines whole in the buffer take the one-pass path (fields left in the buffer), the rest the byte
    /// loop, and both must give the same fields.
    @Test func randomRowsReadBackAsWrittenByEitherPath() throws {
        var random = SplitMix64(seed: 23)
        let alphabet: [String] = ["a", "b", "7", " ", ",", "\"", "\r", "é"]
        for round in 0..<40 {
            var text = "", rows: [[String]] = [], lines: [Int] = [], line = 1
            for _ in 0..<Int(random.below(30) + 1) {
                while random.below(5) == 0 { text += random.below(2) == 0 ? "\n" : "# note, \"x\"\n"; line += 1 }
                let fields = (0..<Int(random.below(5) + 1)).map { _ in
                    (0..<Int(random.below(6))).map { _ in alphabet[Int(random.below(UInt64(alphabet.count)))] }.joined()
                }
                // A field must be quoted when it holds a delimiter or a quote, or ends in `\r` (the reader drops a `\r`
                // before the line end); a row of one empty field is a blank line, so it is quoted too.
                let quoted = fields.map { f in
                    f.contains(",") || f.contains("\"") || f.hasSuffix("\r") || fields == [""] || random.below(8) == 0
                        ? "\"" + f.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : f
                }
                // A field starting with `#` or a row starting with `\r` would read as a comment or blank line.
                if quoted[0].hasPrefix("\r") { continue }
                text += quoted.joined(separator: ",") + (random.below(2) == 0 ? "\r\n" : "\n")
                rows.append(fields)
                lines.append(line)
                line += 1
            }
            for bufferSize in [16, 64, 1 << 20] {
                let s = try Scratch()
                let r = try CSVReader(path: try s.write("r.csv", text), bufferSize: bufferSize)
                var read: [[String]] = [], readLines: [Int] = []
                while try r.nextRow() { read.append(r.strings()); readLines.append(r.lineNumber) }
                #expect(read == rows && readLines == lines, "round \(round), buffer \(bufferSize): \(text.debugDescription)")
            }
            let inMemory = CSVReader(text: text, name: "mem")
            var read: [[String]] = []
            while try inMemory.nextRow() { read.append(inMemory.strings()) }
            #expect(read == rows, "round \(round), in memory")
        }
    }

    @Test func unreadableFileIsAnInputError() {
        #expect(throws: InputError.self) { try CSVReader(path: "/nonexistent/file.csv") }
        do { _ = try CSVReader(path: "/nonexistent/file.csv") } catch { #expect(error.exitCode == InputError.noInput) }
    }
}

@Suite struct CatalogFileTests {
    @Test func readsEveryColumnWithExactSizes() throws {
        let s = try Scratch()
        let path = try s.write("apps.csv", """
        app,dirty_mb,growth_mb_per_min,max_dirty_mb,cache_mb,cache_drop_on_background,cache_drop_on_warning,purgeable_mb,backing_store_mb,image_cache_mb,file_backed_mb,compress_ratio,cold_launch_ms,resume_ms,background_modes,exits_on_suspend,bg_task_s,ends_task_on_expiry,enter_background_ms,will_terminate_ms
        music,90.5,1.25,140,30,0.4,1,20,20,10,50,2.5,800,150,audio|location,false,12.5,false,2500,1200.5
        bank,60,,,,,,,,,,,,,,true,,,,

        """)
        let c = try CatalogFile.read(path: path)
        let m = c[0]
        #expect(m.name == "music" && m.dirtyBytes == 90 * Units.mebibyte + Units.mebibyte / 2)
        #expect(m.growthBytesPerMinute == Units.mebibyte + Units.mebibyte / 4)
        #expect(m.maxDirtyBytes == 140 * Units.mebibyte && m.cacheBytes == 30 * Units.mebibyte)
        #expect(m.cacheDropOnBackground == Share(partsPerMillion: 400_000) && m.cacheDropOnWarning == .all)
        #expect(m.purgeableBytes == 20 * Units.mebibyte && m.backingStoreBytes == 20 * Units.mebibyte)
        #expect(m.imageCacheBytes == 10 * Units.mebibyte && m.fileBackedBytes == 50 * Units.mebibyte)
        #expect(m.compressRatioMilli == 2500 && m.coldLaunchMillis == 800 && m.resumeMillis == 150)
        #expect(m.backgroundModes == [.audio, .location] && !m.exitsOnSuspend)
        #expect(m.backgroundTaskMicros == 12_500_000 && !m.endsTaskOnExpiry)
        #expect(m.enterBackgroundMicros == 2_500_000 && m.willTerminateMicros == 1_200_500)
        let b = c[1]
        let defaults = AppProfile(name: "bank", dirtyBytes: 60 * Units.mebibyte)
        var expected = defaults
        expected.exitsOnSuspend = true
        #expect(b == expected)
    }

    func error(_ csv: String) throws -> InputError? {
        let s = try Scratch()
        let path = try s.write("apps.csv", csv)
        do { _ = try CatalogFile.read(path: path); return nil } catch { return error }
    }

    @Test func badCatalogsNameTheLineAndField() throws {
        let cases: [(String, Int?, String?, String)] = [
            ("app,dirty_mb\na,-5\n", 2, "dirty_mb", "must not be negative"),
            ("app,dirty_mb\na,lots\n", 2, "dirty_mb", "expected a size in MB"),
            ("app,dirty_mb,colour\na,5,red\n", 1, "colour", "unknown column"),
            ("app\na\n", 1, "dirty_mb", "required column is missing"),
            ("app,dirty_mb\na,5\na,6\n", 3, "app", "already defined on line 2"),
            ("app,dirty_mb,background_modes\na,5,audio|teleport\n", 2, "background_modes", "unknown mode 'teleport'"),
            ("app,dirty_mb,cache_drop_on_background\na,5,1.5\n", 2, "cache_drop_on_background", "between 0 and 1"),
            ("app,dirty_mb,compress_ratio\na,5,0.5\n", 2, "compress_ratio", "at least 1.0"),
            ("app,dirty_mb\na,5,extra\n", 2, nil, "expected 2 fields, found 3"),
            ("app,dirty_mb,exits_on_suspend\na,5,maybe\n", 2, "exits_on_suspend", "expected true or false"),
            ("app,dirty_mb\n,5\n", 2, "app", "empty"),
            ("app,dirty_mb\na,99999999999\n", 2, "dirty_mb", "too large"),
            ("app,dirty_mb,cold_launch_ms\na,5,99999999999999999\n", 2, "cold_launch_ms", "too large"),
            ("", nil, nil, "empty"),
        ]
        for (csv, line, field, message) in cases {
            expectLocated(try error(csv), line: line, field: field, message: message, input: csv)
        }
    }
}

@Suite struct TraceFileTests {
    let catalog = try! AppCatalog([AppProfile(name: "a", dirtyBytes: 1), AppProfile(name: "com.example.b", dirtyBytes: 1)])

    func read(_ csv: String) throws -> [TraceEvent] {
        let s = try Scratch()
        return try TraceReader(path: try s.write("trace.csv", csv), catalog: catalog).readAll()
    }

    @Test func readsEveryEventKind() throws {
        let events = try read("""
        time,app,event,value
        0,a,open,
        1.5,com.example.b,open,
        2,,home,
        3,a,interrupt,30
        4,a,bg_task,12.25
        5,a,bg_launch,20
        6,a,mode_start,audio
        7,a,mode_stop,audio
        8,a,alloc,-1.5
        9,a,quit,

        """)
        #expect(events.map(\.kind) == [.open, .open, .home, .interrupt, .bgTask, .bgLaunch, .modeStart, .modeStop, .alloc, .quit])
        #expect(events[1] == TraceEvent(time: 1_500_000, app: 1, kind: .open))
        #expect(events[2].app == TraceEvent.noApp)
        #expect(events[4].value == 12_250_000)
        #expect(events[6].value == Int(BackgroundModes.audio.rawValue))
        #expect(events[8].value == -(Units.mebibyte + Units.mebibyte / 2))
    }

    @Test func quotedRowsReadAsUnquotedOnes() throws {
        // A quoted row is copied out of the read buffer (no delimiters between its fields): the same events.
        let plain = try read("time,app,event,value\n0,a,open,\n1.5,com.example.b,bg_task,2.25\n2,,home,\n3,a,mode_start,audio\n")
        let quoted = try read("time,app,event,value\n\"0\",a,open,\n1.5,\"com.example.b\",\"bg_task\",\"2.25\"\n2,\"\",home,\n3,a,mode_start,\"audio\"\n")
        #expect(plain.count == 4)
        #expect(quoted == plain)
    }

    func error(_ csv: String) throws -> InputError? {
        do { _ = try read(csv); return nil } catch let e as InputError { return e }
    }

    @Test func badTracesNameTheLineAndField() throws {
        let cases: [(String, Int?, String?, String)] = [
            ("time,app,event,value\n0,a,open,\n1,a,teleport,\n", 3, "event", "unknown event 'teleport'"),
            ("time,app,event,value\n0,zz,open,\n", 2, "app", "unknown app 'zz'"),
            ("time,app,event,value\n5,a,open,\n4,a,home,\n", 3, "time", "must not decrease"),
            ("time,app,event,value\nnoon,a,open,\n", 2, "time", "expected seconds"),
            ("time,app,event,value\n-1,a,open,\n", 2, "time", "must not be negative"),
            ("time,app,event,value\n0,a,bg_task,-3\n", 2, "value", "must not be negative"),
            ("time,app,event,value\n0,a,interrupt,\n", 2, "value", "needs a duration"),
            ("time,app,event,value\n0,a,mode_start,flying\n", 2, "value", "unknown background mode"),
            ("time,app,event,value\n0,a,alloc,big\n", 2, "value", "needs a size in MB"),
            ("time,app,event,value\n0,,open,\n", 2, "app", "an app is required"),
            ("when,who,what\n", 1, nil, "expected the header"),
            ("time,app,event,value\n0,a,bg_task,9000000000000\n", 2, "value", "too large"),
            ("time,app,event,value\n2000000000000,a,open,\n", 2, "time", "too large"),
            ("time,app,event,value\n0,a,alloc,2000000000\n", 2, "value", "too large"),
            ("time,app,event,value,extra\n", 1, "extra", "unknown column"),
        ]
        for (csv, line, field, message) in cases {
            expectLocated(try error(csv), line: line, field: field, message: message, input: csv)
        }
    }
}

@Suite struct DeviceFileTests {
    @Test func aDeviceFileStartsFromAPresetAndOverridesKeys() throws {
        let d = try DeviceFile.parse("""
        # a device with less reserve and the iOS 7 budget
        base: iphone-x
        name: my-x
        reserve_mb: 400
        app_limit_active_mb: 1500
        app_limit_inactive_mb: 1000
        compressor: false
        os_era: ios7
        soft_pct: 14
        """, file: "d.yaml")
        #expect(d.name == "my-x" && d.physicalBytes == 2785 * Units.mebibyte)
        #expect(d.reserveBytes == 400 * Units.mebibyte)
        #expect(d.appLimitActiveBytes == 1500 * Units.mebibyte && d.appLimitInactiveBytes == 1000 * Units.mebibyte)
        #expect(!d.compressor.enabled && d.backgroundTaskBudgetMicros == 180_000_000 && d.killThresholds.softPercent == 14)
        #expect(!d.freezer.enabled)   // it writes the compressor's segments: off with it unless the file says otherwise
    }

    /// The freezer needs the compressor: a file that asks for both off-and-on is refused, naming the freezer.
    @Test func aFreezerWithoutTheCompressorIsRefused() throws {
        #expect(try DeviceFile.parse("base: iphone-x\n", file: "d.yaml").freezer.enabled)
        let error = #expect(throws: InputError.self) {
            try DeviceFile.parse("base: iphone-x\ncompressor: false\nfreezer: true\n", file: "d.yaml")
        }
        #expect(error?.description.contains("needs the compressor") == true)
    }

    @Test func freezerKeys() throws {
        let d = try DeviceFile.parse("base: iphone-xs\nfreezer: true\nfreezer_pct: 40\nfreezer_max_frozen: 5\nfreezer_daily_write_mb: 512\nthaw_ms_per_mb: 1.5\nfreezer_suspended_threshold: 2\nfreezer_wake_s: 30\n", file: "f.yaml")
        #expect(d.freezer.suspendedThreshold == 2 && d.freezer.wakeIntervalMicros == 30_000_000)
        #expect(d.freezer.enabled && d.freezer.thresholdPercent == 40 && d.freezer.maxFrozen == 5)
        #expect(d.freezer.dailyWriteBudgetBytes == 512 * Units.mebibyte && d.freezer.thawMicrosPerMebibyte == 1500)
    }

    /// The `kernel` key and the reaper's (issue 18, rules 2 and 3): the kernel decides the reaper; the threshold follows
    /// the RAM class, a changed critical threshold (4 × it, 18/4 × between 3 and 6 GiB), or its own key.
    @Test func kernelAndReaperKeys() throws {
        let x = try DeviceFile.parse("base: iphone-x\n", file: "x.yaml")
        #expect(x.kernel == .xnu11417 && x.reaper.enabled && x.reaper.thresholdPercent == 20)
        let old = try DeviceFile.parse("base: iphone-x\nkernel: xnu-10063\n", file: "o.yaml")
        #expect(old.kernel == .xnu10063 && !old.reaper.enabled)
        let xs = try DeviceFile.parse("base: iphone-xs\ncritical_pct: 6\n", file: "xs.yaml")   // 3.7 GB: medium
        #expect(xs.reaper.thresholdPercent == 27)
        let tuned = try DeviceFile.parse("base: iphone-x\nreaper_pct: 25\nreaper_min_age_s: 60\nreaper_rescan_s: 120\n", file: "t.yaml")
        #expect(tuned.reaper.thresholdPercent == 25 && tuned.reaper.minIdleAgeMicros == 60_000_000 && tuned.reaper.rescanMicros == 120_000_000)
        let off = try DeviceFile.parse("base: iphone-x\nreaper: false\n", file: "f.yaml")
        #expect(off.kernel == .xnu11417 && !off.reaper.enabled)
    }

    @Test func aDeviceFromScratchAndInJSON() throws {
        let d = try DeviceFile.parse(#"{"ram_mb": 6144, "app_limit_mb": 3000, "page_size_kb": 4}"#, file: "d.json")
        #expect(d.physicalBytes == 6144 * Units.mebibyte && d.pageSize == 4096)
        #expect(d.killThresholds == Device.KillThresholds.forPhysicalMemory(6144 * Units.mebibyte))
    }

    @Test func badDeviceFilesNameTheKey() {
        let cases: [(String, String?, String)] = [
            ("base: iphone-x\nram: 4\n", "ram", "unknown key"),
            ("base: iphone-99\n", "base", "unknown device"),
            ("ram_mb: lots\napp_limit_mb: 1\n", "ram_mb", "expected a size in MB"),
            ("app_limit_mb: 100\n", "ram_mb", "required"),
            ("base: iphone-x\nos_era: ios99\n", "os_era", "expected one of"),
            ("base: iphone-x\nkernel: xnu-1\n", "kernel", "expected one of"),
            ("base: iphone-x\nkernel: xnu-10063\nreaper: true\n", "reaper", "no long-idle reaper"),
            ("base: iphone-x\nsoft_pct: 2\n", "soft_pct", "kill thresholds"),
            ("- a\n- b\n", nil, "expected a mapping"),
        ]
        for (yaml, key, message) in cases {
            do {
                _ = try DeviceFile.parse(yaml, file: "bad.yaml")
                Issue.record("accepted: \(yaml)")
            } catch {
                #expect(error.key == key, "\(yaml)")
                #expect(error.message.contains(message), "\(yaml): \(error)")
            }
        }
    }

    @Test func unknownPresetIsAUsageError() {
        do {
            _ = try DeviceSource.resolve("iphone-99")
            Issue.record("accepted")
        } catch {
            #expect(error.exitCode == InputError.usage)
            #expect(error.message.contains("iphone-xs"))
        }
    }
}

@Suite struct FixedPointTests {
    @Test func formatsIntegerRatiosExactly() {
        #expect(FixedPoint.format(3, over: 2, decimals: 2) == "1.50")
        #expect(FixedPoint.format(2, over: 3, decimals: 4) == "0.6667")
        #expect(FixedPoint.format(-1, over: 8, decimals: 2) == "-0.13")
        #expect(FixedPoint.format(5, over: 0, decimals: 1) == "0.0")
        #expect(FixedPoint.mebibytes(Units.mebibyte * 3 / 2) == "1.500")
        #expect(FixedPoint.seconds(Int.max) == "9223372036854.776")
        #expect(CSVLine.of(["a,b", "say \"x\"", "plain"]) == "\"a,b\",\"say \"\"x\"\"\",plain\n")
        #expect(FixedPoint.format(0, over: 7, decimals: 3) == "0.000")
        #expect(FixedPoint.format(-7, over: -2, decimals: 0) == "4")
        #expect(FixedPoint.format(Int.min, over: 1, decimals: 0) == "-9223372036854775808")
        #expect(FixedPoint.format(999_999, over: 1_000_000, decimals: 3) == "1.000")
        #expect(FixedPoint.format(1, over: 1000, decimals: 3) == "0.001")
    }

    /// Report rows are built as bytes; they must read exactly as the fields joined by the CSV writer would.
    @Test func byteBuiltReportLinesMatchTheCSVWriter() {
        let kill = KillRecord(time: 61_234_567, app: 1, reason: .vmPageShortage, state: .suspended, priorityClass: .idle, band: -1,
                              footprintBytes: 123_456_789, idleMicros: 5_000_500, availableBefore: -1_048_576, availableAfter: 0,
                              userVisible: true)
        let names = ["Maps", "Mail, \"Pro\""]
        var out: [UInt8] = []
        ReportFiles.appendKillLine(kill, policy: ReportFiles.field("cost(alpha=0.5,beta=1)"), appNames: names.map(ReportFiles.field), to: &out)
        let expected = CSVLine.of([
            FixedPoint.seconds(kill.time), names[1], kill.reason.reportName, kill.state.reportName, String(kill.band),
            FixedPoint.mebibytes(kill.footprintBytes), FixedPoint.seconds(kill.idleMicros), FixedPoint.mebibytes(kill.availableBefore),
            FixedPoint.mebibytes(kill.availableAfter), "cost(alpha=0.5,beta=1)", kill.priorityClass.reportName, "true",
        ])
        #expect(String(decoding: out, as: UTF8.self) == expected)
        let sample = MemorySample(time: 3_600_000_000, availableBytes: -5, freeBytes: 7 << 20, pressure: .critical, residentApps: 12,
                                  suspendedApps: 0, compressorBytes: 1, footprintBytes: 1 << 30)
        #expect(ReportFiles.sampleLine(sample) == CSVLine.of([
            "3600.000", FixedPoint.mebibytes(-5), "critical", "12", "0", FixedPoint.mebibytes(1), "7.000", "1024.000",
        ]))
    }

    /// Streamed rows read their app's and policy's fields from one allocation: each is the field the CSV writer writes,
    /// and an id the names do not cover reads as no bytes (as `ReportFiles.appField`).
    @Test func readyFieldsAreTheQuotedFieldsAndNoneOutOfRange() {
        let names = ["Maps", "Mail, \"Pro\"", "", "名前", "#hash"]
        let fields = ReadyFields(names)
        defer { fields.deallocate() }
        #expect(fields.count == names.count)
        for (i, name) in names.enumerated() {
            #expect(Array(fields[Int32(i)]) == ReportFiles.field(name), "\(name)")
        }
        for outside: Int32 in [-1, Int32(names.count), .max, .min] { #expect(fields[outside].isEmpty) }
        let none = ReadyFields([])
        defer { none.deallocate() }
        #expect(none[0].isEmpty)
    }

    /// A row rendered in place, as a String (a test's view of `RowWriter`).
    func rendered(capacity: Int, _ body: (inout RowWriter) -> Void) -> String {
        var out: [UInt8] = []
        RowWriter.appending(to: &out, capacity: capacity, body)
        return String(decoding: out, as: UTF8.self)
    }

    @Test func textFieldsAreQuotedAsTheCSVWriterQuotesThem() {
        var random = SplitMix64(seed: 31)
        let pieces = ["a", ",", "\"", "\n", "\r", "#", " ", "é", "名", ""]
        for _ in 0..<2_000 {
            let text = (0..<Int(random.below(7))).map { _ in pieces[Int(random.below(UInt64(pieces.count)))] }.joined()
            #expect(rendered(capacity: RowWriter.fieldCapacity(text)) { $0.field(text) } == CSVLine.field(text), "\(text.debugDescription)")
        }
    }

    @Test func appsAndEventsRowsAreTheCSVWritersLines() {
        let names = ["Maps", "Mail, \"Pro\"", "#hash"]
        for (k, name) in names.enumerated() {
            let app = AppSummary(name: name, launches: 12 + k, coldLaunches: 3, resumes: 9, backgroundLaunches: 2, kills: 4 - k,
                                 meanFootprintBytes: 123_456_789 * (k + 1), peakFootprintBytes: Int.max - k, residentMicros: 86_400_000_001)
            #expect(rendered(capacity: ReportFiles.appRowCapacity(app)) { ReportFiles.appRow(app, into: &$0) } == CSVLine.of([
                name, String(app.launches), "3", "9", String(app.kills), FixedPoint.mebibytes(app.meanFootprintBytes),
                FixedPoint.mebibytes(app.peakFootprintBytes), "2", FixedPoint.seconds(app.residentMicros),
            ]))
            for deadline in [0, 5_000_000] {
                let e = LifecycleRecord(time: 61_234_567, app: Int32(k), from: .background, to: .suspended,
                                        callback: .didEnterBackground, footprintBytes: 7 << 20, deadlineMicros: deadline,
                                        cause: .kill(.vmPageShortage))
                let fields = ReadyFields(names)
                defer { fields.deallocate() }
                let app = fields[e.app]
                #expect(rendered(capacity: ReportFiles.eventRowCapacity(e, app: app)) {
                    ReportFiles.eventRow(e, app: app, into: &$0)
                } == CSVLine.of([
                    FixedPoint.seconds(e.time), name, e.from.reportName, e.to.reportName, e.callback.reportName,
                    FixedPoint.mebibytes(e.footprintBytes), deadline > 0 ? FixedPoint.seconds(deadline) : "", e.cause.reportName,
                ]))
            }
        }
    }
}

/// Android device files (README, "Android 4.x"; Reports/README.md, "Device files").
@Suite struct AndroidDeviceFileTests {
    @Test func platformAndroidStartsFromProcessListsLevelsForItsRAM() throws {
        let d = try DeviceFile.parse("platform: android\nram_mb: 2048\nandroid_version: 4.2\nprocess_limit: 12\n", file: "a.yaml")
        #expect(d.platform == .android && d.android.release == .jellyBean && d.android.processLimit == 12)
        #expect(d.android.levels.map { $0.minfreeBytes / Units.mebibyte } == [32, 40, 48, 56, 64, 80])
        #expect(d.kernelName == "android-4.2" && !d.compressor.enabled && d.pageSize == 4096)
        let n = try DeviceFile.parse("base: nexus-5\nram_mb: 1024\nminfree_mb: [10, 20, 30, 40, 50, 60]\n", file: "n.yaml")
        #expect(n.physicalBytes == 1 << 30 && n.android.levels.map { $0.minfreeBytes / Units.mebibyte } == [10, 20, 30, 40, 50, 60])
        #expect(n.android.levels.map(\.oomAdj) == [0, 1, 2, 3, 9, 15])
    }

    @Test func eachPlatformRefusesTheOthersKeys() {
        func message(_ text: String) -> String? {
            do { _ = try DeviceFile.parse(text, file: "d.yaml"); return nil } catch { return error.description }
        }
        #expect(message("base: nexus-4\ncritical_pct: 5\n") == "d.yaml:2:15: key 'critical_pct': not a key of an Android device (platform: android)")
        #expect(message("base: iphone-x\nminfree_mb: [1, 2, 3, 4, 5, 6]\n") == "d.yaml:2:13: key 'minfree_mb': not a key of an iOS device")
        #expect(message("base: iphone-x\nplatform: android\n")?.contains("the base device 'iphone-x' is an ios device") == true)
        #expect(message("platform: android\nram_mb: 2048\nminfree_mb: [1, 2]\n")?.contains("expected a list of 6 sizes in MB") == true)
        #expect(message("platform: android\nram_mb: 2048\nminfree_mb: [60, 50, 40, 30, 20, 10]\n")?.contains("ascending") == true)
        #expect(message("platform: android\nram_mb: 2048\nandroid_version: 5.0\n")?.contains("4.1, 4.2, 4.3 or 4.4, found '5.0'") == true)
        #expect(message("platform: android\nram_mb: 2048\ncompressor: true\n")?.contains("no memory compressor") == true)
    }
}
