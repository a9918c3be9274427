import Foundation
@testable import JetsimCore
@testable import JetsimIO
import Testing

/// `TraceReader.next(into:upTo:)` reads common rows through `TraceLineParser` and every other row through `next()`:
/// the two ways must give the same events and the same errors.
@Suite struct TraceLineParserTests {
    let catalog = try! AppCatalog([AppProfile(name: "a", dirtyBytes: 1), AppProfile(name: "com.example.b", dirtyBytes: 1),
                                   AppProfile(name: "mail", dirtyBytes: 1)])

    /// Every event the general reader gives for `text`, row by row, and the error it stops at (if any).
    func rowByRow(_ reader: TraceReader) -> ([TraceEvent], InputError?) {
        var events: [TraceEvent] = []
        do throws(InputError) {
            while let e = try reader.next() { events.append(e) }
            return (events, nil)
        } catch {
            return (events, error)
        }
    }

    /// The same in batches of `batch` events.
    func inBatches(_ reader: TraceReader, _ batch: Int) -> ([TraceEvent], InputError?) {
        var events: [TraceEvent] = []
        do throws(InputError) {
            while true {
                let before = events.count
                try reader.next(into: &events, upTo: before + batch)
                if events.count < before + batch { return (events, nil) }
            }
        } catch {
            return (events, error)
        }
    }

    func reader(_ text: String, catalog: AppCatalog?) throws -> TraceReader {
        try TraceReader(reader: CSVReader(text: text, name: "trace.csv"), catalog: catalog)
    }

    /// The parser alone, on one line, as `TraceReader` sets it up.
    func parse(_ line: String, after lastTime: Int = Int.min, names: [String]? = nil) -> TraceEvent? {
        var parser = TraceLineParser(names: AppNameTable(names ?? catalog.profiles.map(\.name)))
        parser.lastTime = lastTime
        let event = Array(line.utf8).withUnsafeBufferPointer { parser.parse($0) }
        #expect(event != nil || parser.lastTime == lastTime, "a declined row changed the last time: \(line)")
        return event
    }

    /// The usual rows of every event kind are read by the parser, with the general reader's events.
    @Test func takesTheUsualRowsOfEveryKindAsTheGeneralReaderReadsThem() throws {
        let rows = ["0,a,open,", "0.5,,home,", "1,mail,home,", "2.25,a,interrupt,30", "3,a,bg_task,0.000001",
                    "4.123456,com.example.b,bg_launch,12.5", "5,a,mode_start,audio", "5,a,mode_stop,remote-notification",
                    "6,a,alloc,-3.5", "6,a,alloc,0.1", "7,a,alloc,1048576", "8,a,quit,anything", "9,a,finish", "10.,a,open,,u1,extra",
                    "11,a,open,,\r", ".5,a,open"]
        for row in rows {
            let general = rowByRow(try reader("time,app,event,value\n" + row + "\n", catalog: catalog))
            #expect(general.1 == nil, "\(row)")
            let fast = parse(row.hasSuffix("\r") ? String(row.dropLast()) : row)   // the line without its CRLF, as the reader hands it over
            #expect(fast != nil && fast == general.0.first, "\(row)")
        }
    }

    /// Rows outside the common form are left to the general reader, and the parser's state is untouched.
    @Test func declinesEveryOtherRow() {
        let rows = ["1", "1,a", "1.1234567,a,open,", "+1,a,open,", " 1,a,open,", "1 ,a,open,", "1,a ,open,",
                    "1, a,open,", "1,a,open ,", "1,a,OPEN,", "1,a,opened,", "1,a,,", "1,zz,open,", "1,,open,", "1,\"a\",open,",
                    "1,a,open,\"x,y\"", "1,a,open,,\"u\"", "1,a,interrupt,", "1,a,interrupt,-1", "1,a,interrupt,1.1234567",
                    "1,a,alloc,+1", "1,a,alloc,1e3", "1,a,alloc,2000000000", "1,a,mode_start,Audio", "1,a,mode_start, audio",
                    "1234567890123,a,open,", "1,a,interrupt,1234567890123", "x,a,open,", "1,a,home\u{1}"]
        for row in rows { #expect(parse(row) == nil, "taken: \(row)") }
        // The general reader trims a name before looking it up, so a table name with a space at either end is never it.
        for row in ["1,a ,open,", "1, b,open,", "1,\tc,open,"] { #expect(parse(row, names: ["a ", " b", "\tc"]) == nil, "taken: \(row)") }
        #expect(parse("5,a,open,", after: 5_000_001) == nil, "a time before the last")
        #expect(parse("5,a,open,", after: 5_000_000) != nil, "a time equal to the last")
    }

    /// Random traces mixing common rows, rows only the general reader takes and bad rows, read from memory in
    /// batches of 1 to 9 events and from a file through a 64-byte buffer (lines split across refills): the events and
    /// the error are the row-by-row reader's.
    @Test func batchesReadWhatTheGeneralReaderReads() throws {
        var random = SplitMix64(seed: 41)
        let apps = ["a", "a", "mail", "com.example.b", "", "zz", " a", "a ", "\"a\""]
        let kinds = ["open", "home", "home", "interrupt", "bg_task", "bg_launch", "mode_start", "mode_stop", "alloc", "quit",
                     "finish", "opens", " open"]
        let values = ["", "2", "0.5", "1.25", "-3", "-0.0000005", "audio", "fetch", "location ", "bogus", "1.9999995", "\"1\""]
        let tails = ["", "", ",u1", ",\"u,2\"", ",u3,x"]
        let scratch = try Scratch()
        var takenFast = 0
        for round in 0..<300 {
            var time = 0.0
            var text = random.next() % 4 == 0 ? "\u{FEFF}time,app,event,value,user\n" : "time,app,event,value,user\n"
            for _ in 0..<Int.random(in: 1...40, using: &random) {
                switch Int.random(in: 0..<40, using: &random) {
                case 0: text += "\n"
                case 1: text += "# a comment, \"quoted\"\n"
                case 2: time -= 1   // a time that decreases
                case 3: text += "\r\n"
                default: break
                }
                time += Double(Int.random(in: 0...3_000_000, using: &random)) / 1_000_000
                let digits = Int.random(in: 0...7, using: &random)
                let timeText = digits == 0 ? String(Int(time.rounded(.down))) : String(format: "%.\(digits)f", time)
                var fields = [timeText, apps.randomElement(using: &random)!, kinds.randomElement(using: &random)!,
                              values.randomElement(using: &random)!]
                if random.next() % 4 != 0 {   // mostly rows that are right
                    let kind = kinds[Int.random(in: 0..<11, using: &random)]
                    fields[1] = kind == "home" && random.next() % 2 == 0 ? "" : apps[Int.random(in: 0..<4, using: &random)]
                    fields[2] = kind
                    let decimals = Int.random(in: 0...7, using: &random), amount = Double(Int.random(in: -20_000_000...20_000_000, using: &random)) / 1e6
                    fields[3] = kind.hasPrefix("mode") ? "audio" : String(format: "%.\(decimals)f", kind == "alloc" ? amount : abs(amount))
                }
                let row = fields.joined(separator: ",") + tails.randomElement(using: &random)!
                text += row + (random.next() % 8 == 0 ? "\r\n" : "\n")
            }
            if random.next() % 4 == 0 { text.removeLast() }   // no line end at the end
            let interning = round % 5 == 0
            let expected = rowByRow(try reader(text, catalog: interning ? nil : catalog))
            let batch = Int.random(in: 1...9, using: &random)
            let fromMemory = inBatches(try reader(text, catalog: interning ? nil : catalog), batch)
            #expect(fromMemory.0 == expected.0, "round \(round)")
            #expect(fromMemory.1 == expected.1, "round \(round): \(String(describing: fromMemory.1)) against \(String(describing: expected.1))")
            let path = try scratch.write("trace-\(round).csv", text)
            let fromFile = inBatches(try TraceReader(reader: CSVReader(path: path, name: "trace.csv", bufferSize: 64), catalog: interning ? nil : catalog), batch)
            #expect(fromFile.0 == expected.0, "round \(round), from a file")
            #expect(fromFile.1 == expected.1, "round \(round), from a file")
            takenFast += expected.0.count
        }
        #expect(takenFast > 1000, "the random traces hold few good rows")
    }
}
