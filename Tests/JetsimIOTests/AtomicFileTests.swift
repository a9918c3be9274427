import Foundation
@testable import JetsimIO
import Testing

@Suite struct AtomicFileTests {
    /// A file that cannot be created is one error, and the half-made writer goes away cleanly (its deinit runs after
    /// the throw: the buffer must be freed once, not twice).
    @Test func aFileThatCannotBeCreatedIsOneError() throws {
        let s = try Scratch()
        for _ in 0..<3 {
            #expect(throws: InputError.self) { try AtomicFile(path: s.path + "/no-such-directory/x.csv") }
        }
        let fine = try AtomicFile(path: s.path + "/x.csv")
        try fine.write("a\n")
        try fine.commit()
        #expect(try String(contentsOfFile: s.path + "/x.csv", encoding: .utf8) == "a\n")
    }

    /// Rows and text wider than the file's buffer are written whole, in order.
    @Test func rowsWiderThanTheBufferAreWrittenWhole() throws {
        let s = try Scratch()
        let file = try AtomicFile(path: s.path + "/wide.csv")
        let wide = String(repeating: "w", count: 200_000) + "\n"
        try file.write("head\n")
        try file.writeRow(capacity: 300_000) { w in
            for _ in 0..<150_000 { w.byte(120) }
            w.byte(10)
        }
        try file.write(wide)
        try file.write(bytes: Array("tail\n".utf8))
        try file.commit()
        let written = try String(contentsOfFile: s.path + "/wide.csv", encoding: .utf8)
        #expect(written == "head\n" + String(repeating: "x", count: 150_000) + "\n" + wide + "tail\n")
    }

    /// Many rows of uneven widths across several of the buffer's blocks, with rows wider than a block among them, come
    /// out whole and in order: each flush writes whole blocks and keeps the part of a row past them for the next.
    @Test func rowsAcrossBlockBoundariesComeOutWhole() throws {
        let s = try Scratch()
        let file = try AtomicFile(path: s.path + "/blocks.csv")
        var expected: [UInt8] = []
        var state: UInt64 = 7
        for k in 0..<40_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let width = k % 9_973 == 0 ? 700_000 : Int(state >> 58) + 1   // mostly 1 to 64 bytes, a few over 2 blocks
            let letter = UInt8(97 + k % 26)
            try file.writeRow(capacity: width + 1) { w in
                for _ in 0..<width { w.byte(letter) }
                w.byte(10)
            }
            expected += [UInt8](repeating: letter, count: width) + [10]
        }
        try file.commit()
        let written = try Data(contentsOf: URL(fileURLWithPath: s.path + "/blocks.csv"))
        #expect(written.count == expected.count)
        #expect(Array(written) == expected)
    }

    /// A file that grows past several of its space reservations (1, 1, 2 and 4 MiB ahead) holds its bytes alone once
    /// committed: the reserved space past the last byte is given back (no trailing zeros, no blocks beyond it).
    @Test func aGrownFileGivesBackTheSpaceReservedPastItsEnd() throws {
        let s = try Scratch()
        let path = s.path + "/grown.csv"
        let file = try AtomicFile(path: path)
        var expected: [UInt8] = []
        for k in 0..<90_001 {   // 5.3 MB of 59-byte rows, then one more byte
            let letter = UInt8(97 + k % 26)
            let width = k == 90_000 ? 0 : 58
            try file.writeRow(capacity: width + 1) { w in
                for _ in 0..<width { w.byte(letter) }
                w.byte(10)
            }
            expected += [UInt8](repeating: letter, count: width) + [10]
        }
        try file.commit()
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(written.count == expected.count)
        #expect(written.elementsEqual(expected), "the bytes differ")   // (not the arrays: 5.3 MB in a failure's message)
        var status = stat()
        #expect(stat(path, &status) == 0)
        #expect(Int(status.st_size) == expected.count)
        #expect(Int(status.st_blocks) * 512 < expected.count + 1 << 20, "\(status.st_blocks) blocks of 512 bytes for \(expected.count) bytes")
    }

    /// Runs of rows (`writeRows`, an idle stretch's samples, rendered a run at a time), between single rows, short and
    /// long runs, narrow and wider than two blocks: every row whole and in order, across the block boundaries.
    @Test func runsOfRowsComeOutWholeAndInOrder() throws {
        let s = try Scratch()
        let file = try AtomicFile(path: s.path + "/runs.csv")
        var expected: [UInt8] = []
        var state: UInt64 = 11
        for k in 0..<1_500 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let capacity = k % 397 == 0 ? 600_000 : 80
            let count = capacity == 80 ? Int(state >> 56) : 3   // 0 to 255 narrow rows, or three over two blocks wide
            var row = 0
            try file.writeRows(count, capacity: capacity) { start, rows in
                var at = start
                for _ in 0..<rows {
                    let width = capacity == 80 ? 20 + (k + row) % 61 : capacity   // uneven widths, the capacity itself among them
                    let letter = UInt8(97 + (k + row) % 26)
                    at.initialize(repeating: letter, count: width - 1)
                    at[width - 1] = 10
                    at += width
                    row += 1
                }
                return at - start
            }
            for r in 0..<count {
                let width = capacity == 80 ? 20 + (k + r) % 61 : capacity
                expected += [UInt8](repeating: UInt8(97 + (k + r) % 26), count: width - 1) + [10]
            }
            #expect(row == count)
            try file.writeRow(capacity: 4) { $0.bytes("#\n" as StaticString) }
            expected += Array("#\n".utf8)
        }
        try file.commit()
        let written = try Data(contentsOf: URL(fileURLWithPath: s.path + "/runs.csv"))
        #expect(written.count == expected.count)
        #expect(Array(written) == expected)
    }
}
