import Foundation
@testable import JetsimCore
@testable import JetsimIO
import Testing

/// `compare` reads its trace with two threads (`TraceReader.readAll(path:catalog:threads:)`): the same events as one
/// reader, and every problem reported as one reader reports it.
@Suite struct TwoThreadTraceReadTests {
    let catalog = try! AppCatalog([AppProfile(name: "a", dirtyBytes: 1), AppProfile(name: "b", dirtyBytes: 1)])

    /// `rows` events with a comment and a blank line before the header and in the middle.
    func trace(rows: Int, lineEnd: String = "\n", time: (Int) -> String = { "\($0).5" }) -> String {
        var s = "# generated" + lineEnd + lineEnd + "time,app,event,value" + lineEnd
        for k in 0..<rows {
            if k == rows / 2 { s += "# the middle" + lineEnd + lineEnd }
            s += "\(time(k)),\(k % 3 == 0 ? "a" : "b"),\(k % 2 == 0 ? "open" : "bg_launch"),\(k % 2 == 0 ? "" : "3")" + lineEnd
        }
        return s
    }

    func read(_ csv: String, threads: Int) throws -> Result<[TraceEvent], InputError> {
        let path = try Scratch().write("trace.csv", csv)
        do { return .success(try TraceReader.readAll(path: path, catalog: catalog, threads: threads)) } catch { return .failure(error) }
    }

    func expectSame(_ csv: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let one = try read(csv, threads: 1), two = try read(csv, threads: 2)
        switch (one, two) {
        case let (.success(a), .success(b)):
            #expect(a == b, sourceLocation: sourceLocation)
        case let (.failure(a), .failure(b)):
            #expect(a.line == b.line && a.field == b.field && a.message == b.message, "\(a) / \(b)", sourceLocation: sourceLocation)
        default:
            Issue.record("one thread: \(one), two threads: \(two)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: ["\n", "\r\n"])
    func twoThreadsReadWhatOneReads(lineEnd: String) throws {
        for rows in [0, 1, 2, 3, 50, 1_001] { try expectSame(trace(rows: rows, lineEnd: lineEnd)) }
        #expect(try read(trace(rows: 1_001, lineEnd: lineEnd), threads: 2).get().count == 1_001)
    }

    @Test func aProblemInEitherHalfIsReportedAsOneReaderReportsIt() throws {
        for bad in [10, 900] {
            let csv = trace(rows: 1_000).replacingOccurrences(of: "\n\(bad).5,", with: "\n\(bad).5x,")
            try expectSame(csv)
            if case .success = try read(csv, threads: 2) { Issue.record("row \(bad)'s bad time was accepted") }
        }
    }

    /// Rows of one length, times 9 then 1: the decrease falls exactly where the file splits, and each half alone is
    /// in order.
    @Test func aTimeThatDecreasesAcrossTheSplitIsAnError() throws {
        var csv = "time,app,event,value\n"
        for k in 0..<200 { csv += k < 99 ? "9,a,open,\n" : "1,b,open,\n" }   // the split falls before row 99
        try expectSame(csv)
        guard case let .failure(error) = try read(csv, threads: 2) else { Issue.record("accepted"); return }
        #expect(error.line == 101 && error.field == "time")
    }

    @Test func aFileWithQuotesIsReadByOneThread() throws {
        try expectSame(trace(rows: 300).replacingOccurrences(of: ",a,", with: ",\"a\",")) // a quoted field may hold a line end
    }
}
