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
}
