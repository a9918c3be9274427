import Foundation
import JetsimCore
@testable import JetsimIO
import Testing

/// The one-pass byte reader for cache replays against the catalog-building reader of `jetsim run`.
@Suite struct LibCacheSimStreamTests {
    static func requests(_ path: String, fields: LibCacheSimTrace.Fields = .init(), batch: Int = 3,
                         bufferSize: Int = 64) throws(InputError) -> [(object: Int32, size: Int, time: Int)] {
        let stream = try LibCacheSimStream(path: path, fields: fields, bufferSize: bufferSize)
        var b = RequestBatch(capacity: batch)
        var out: [(object: Int32, size: Int, time: Int)] = []
        while try stream.next(into: &b) {
            for k in 0..<b.count { out.append((b.objects[k], b.sizes[k], b.times[k])) }
        }
        return out
    }

    /// What `LibCacheSimTrace` (used by `run`) makes of the same file: object names in first-appearance order.
    static func reference(_ path: String, fields: LibCacheSimTrace.Fields = .init()) throws -> [(name: String, size: Int, time: Int)] {
        let trace = try LibCacheSimTrace(path: path, fields: fields)
        var out: [(name: String, size: Int, time: Int)] = []
        while let e = try trace.next() { out.append((trace.catalog[e.app].name, trace.catalog[e.app].dirtyBytes, e.time)) }
        return out
    }

    @Test func readsWhatTheCatalogReaderReadsInBothPaths() throws {
        let s = try Scratch()
        // Plain lines take the fast path; spaces, decimals, CRLF, comments and blank lines the general one.
        let text = "time,obj_id,obj_size\n0,900000000000000001,100\n1,7,5\r\n# note\n\n 2 , 900000000000000001 , 100 \n2.5,8,70\n3,7,5"
        let path = try s.write("t.csv", text)
        let got = try Self.requests(path)
        let want = try Self.reference(path)
        #expect(got.count == 5 && got.count == want.count)
        // Dense numbers in order of first appearance; each request's own size; times in µs.
        #expect(got.map(\.object) == [0, 1, 0, 2, 1])
        #expect(got.map(\.size) == [100, 5, 100, 70, 5])
        #expect(got.map(\.time) == want.map(\.time))
        #expect(got.map(\.time) == [0, 1_000_000, 2_000_000, 2_500_000, 3_000_000])
    }

    @Test func remappedFieldsAndPlainText() throws {
        let s = try Scratch()
        var fields = LibCacheSimTrace.Fields()
        fields.objectID = 1
        fields.objectSize = 3
        fields.time = 4
        let remapped = try s.write("r.csv", "5,x,40,1\n6,y,50,2\n5,z,40,3\n")
        #expect(try Self.requests(remapped, fields: fields).map(\.object) == [0, 1, 0])
        #expect(try Self.requests(remapped, fields: fields).map(\.size) == [40, 50, 40])
        let plain = try s.write("t.txt", "5\n6\n5\n7\n")
        let p = try Self.requests(plain)
        #expect(p.map(\.object) == [0, 1, 0, 2] && p.map(\.size) == [1, 1, 1, 1] && p.map(\.time) == [1, 2, 3, 4].map { $0 * 1_000_000 })
    }

    @Test func longLinesOutgrowTheBuffer() throws {
        let s = try Scratch()
        let path = try s.write("long.csv", "time,obj_id,obj_size,comment\n1,2,3," + String(repeating: "9", count: 500) + "\n2,2,3,1\n")
        #expect(try Self.requests(path, bufferSize: 64).map(\.object) == [0, 0])
    }

    @Test func malformedRowsNameTheirLineAndField() throws {
        let s = try Scratch()
        let cases: [(String, Int, String, String)] = [
            ("time,obj_id,obj_size\n1,2,3\n2,x,3\n", 3, "obj-id", "expected a numeric object id, found 'x'"),
            ("time,obj_id,obj_size\n1,2,3\n2,4,0\n", 3, "obj-size", "zero-size request"),
            ("time,obj_id,obj_size\n1,2,-3\n", 2, "obj-size", "expected a size in bytes, found '-3'"),
            ("time,obj_id,obj_size\n5,2,3\n4,2,3\n", 3, "time", "times must not decrease"),
            ("time,obj_id,obj_size\nsoon,2,3\n", 2, "time", "expected seconds, found 'soon'"),
            ("time,obj_id,obj_size\n1,2\n", 2, "obj-size", "expected a size in bytes, found ''"),
            ("1,2,3\n2,99999999999999999999,3\n", 2, "obj-id", "expected a numeric object id"),
        ]
        for (text, line, field, message) in cases {
            let path = try s.write("bad.csv", text)
            var failure: InputError?
            do { _ = try Self.requests(path) } catch { failure = error }
            expectLocated(failure, line: line, field: field, message: message, input: text)
        }
        var missing: InputError?
        do { _ = try Self.requests(s.path + "/none.csv") } catch { missing = error }
        #expect(missing?.exitCode == InputError.noInput)
    }

    @Test func denseNumbersSurviveTableGrowth() {
        var table = ObjectIDTable(capacity: 4)
        let ids = (0..<10_000).map { UInt64($0) &* 0x9E37_79B9 &+ 17 }
        for (k, id) in ids.enumerated() { #expect(table.number(id) == Int32(k)) }
        for (k, id) in ids.enumerated().reversed() { #expect(table.number(id) == Int32(k)) }
        #expect(table.count == ids.count)
    }

    /// Ids are numbered a few requests after they are read (their table slots prefetched meanwhile): the numbers are
    /// still those of first appearance, within a batch, across batches of every size and through the table's growth.
    @Test func numbersReadAheadAreThoseOfFirstAppearance() throws {
        let s = try Scratch()
        var state: UInt64 = 7
        var text = "time,obj_id,obj_size\n", binaryRows: [(time: UInt32, id: UInt64, size: UInt32)] = []
        for k in 0..<3000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let id = (state >> 33) % (k < 1500 ? 400 : 5000) + 1_000_000   // repeats, then mostly new ids
            text += "\(k / 10),\(id),\(id % 997 + 1)\n"
            binaryRows.append((UInt32(k / 10), id, UInt32(id % 997 + 1)))
        }
        let path = try s.write("many.csv", text)
        let binary = s.path + "/many.oracleGeneral.bin"
        try Data(HabitsInputTests.oracleGeneral(binaryRows)).write(to: URL(fileURLWithPath: binary))
        var first: [String: Int32] = [:]
        let want = try Self.reference(path).map { r -> Int32 in
            if let n = first[r.name] { return n }
            first[r.name] = Int32(first.count)
            return Int32(first.count - 1)
        }
        for batch in [1, 5, 12, 13, 16, 100, 4096] {
            #expect(try Self.requests(path, batch: batch, bufferSize: 1 << 12).map(\.object) == want, "batch \(batch)")
            let stream = try LibCacheSimStream(path: binary, format: .oracleGeneral, bufferSize: 1000)
            var b = RequestBatch(capacity: batch), got: [Int32] = []
            while try stream.next(into: &b) { got += b.objects }
            #expect(got == want, "oracleGeneral, batch \(batch)")
        }
    }

    /// Past the last object number the trace is refused at the line (record) of the first object with none, whether the
    /// numbers run out at once or after ids were numbered behind the reading (a limit below Int32's, as no test can read
    /// 2^31 objects).
    @Test func runningOutOfObjectNumbersNamesItsLine() throws {
        let s = try Scratch()
        let rows = (0..<60).map { k in (time: UInt32(k), id: UInt64(500 + k % 45), size: UInt32(10)) }   // 45 distinct ids
        let path = try s.write("ids.csv", "time,obj_id,obj_size\n" + rows.map { "\($0.time),\($0.id),\($0.size)\n" }.joined())
        let binary = s.path + "/ids.oracleGeneral.bin"
        try Data(HabitsInputTests.oracleGeneral(rows)).write(to: URL(fileURLWithPath: binary))
        func read(_ file: String, _ format: LibCacheSimFormat, limit: Int, batch: Int) throws(InputError) -> [Int32] {
            let stream = try LibCacheSimStream(path: file, fields: .init(), format: format, bufferSize: 256, name: nil, objectLimit: limit)
            var b = RequestBatch(capacity: batch), got: [Int32] = []
            while try stream.next(into: &b) { got += b.objects }
            return got
        }
        for batch in [4, 64] {
            for limit in [10, 30] {   // below and above 2 × the numbering delay
                var failure: InputError?
                do { _ = try read(path, .csv, limit: limit, batch: batch) } catch { failure = error }
                expectLocated(failure, line: limit + 2, field: "obj-id", message: "more than \(limit) distinct objects", input: "ids.csv")
                failure = nil
                do { _ = try read(binary, .oracleGeneral, limit: limit, batch: batch) } catch { failure = error }
                #expect(failure?.field == "obj_id" && failure?.message == "record \(limit + 1) (byte offset \(limit * 24)): more than \(limit) distinct objects",
                        "\(String(describing: failure))")
            }
            let all = try read(path, .csv, limit: 45, batch: batch)   // exactly enough numbers
            #expect(all == rows.indices.map { Int32($0 % 45) })
            #expect(try read(binary, .oracleGeneral, limit: 45, batch: batch) == all)
        }
    }

    /// A batch's columns are written in place (`RequestBatch.write`) and are still a value: a copy keeps what it held
    /// when the other is refilled or renumbered, a batch shows only its requests, and a write that throws keeps the
    /// requests it appended (the reader numbers them before the error leaves, `Scanner.fill`).
    @Test func aBatchWrittenInPlaceIsStillAValue() {
        struct Stop: Error {}
        var a = RequestBatch(capacity: 4)
        a.append(7, size: 70, time: 1)
        a.append(8, size: 80, time: 2)
        let b = a
        a.removeAll()
        a.append(9, size: 90, time: 3)
        a.write { (w: inout RequestBatch.Writer) in w.setObject(0, 5) }
        #expect(Array(b.objects) == [7, 8] && Array(b.sizes) == [70, 80] && Array(b.times) == [1, 2] && b.count == 2)
        #expect(Array(a.objects) == [5] && Array(a.sizes) == [90] && Array(a.times) == [3] && a.count == 1)
        #expect(throws: Stop.self) {
            try a.write { (w: inout RequestBatch.Writer) throws(Stop) in
                w.append(10, size: 100, time: 4)
                throw Stop()
            }
        }
        #expect(Array(a.objects) == [5, 10] && a.count == 2 && a.memoryBytes == 4 * 20 && b.count == 2)
    }
}
