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
}
