@testable import JetsimIO
import Testing

@Suite struct ExcerptTests {
    @Test func longValuesAreCutToFortyScalarsAndAnEllipsis() {
        #expect(InputError.excerpt("short") == "short")
        #expect(InputError.excerpt(String(repeating: "x", count: 40)) == String(repeating: "x", count: 40))
        #expect(InputError.excerpt(String(repeating: "x", count: 41)) == String(repeating: "x", count: 40) + "…")
        #expect(InputError.excerpt(String(repeating: "y", count: 10_000_000)).count == 41)
        #expect(InputError.excerpt("abcdef", limit: 3) == "abc…")
    }

    /// One grapheme can hold any number of scalars: the cut counts scalars, so a combining-mark flood is cut too.
    @Test func combiningMarksCannotHideLength() {
        let flood = "e" + String(repeating: "\u{301}", count: 100_000)
        #expect(InputError.excerpt(flood).unicodeScalars.count == 41)
    }

    @Test func controlCharactersAreEscapedSoTheMessageStaysOneLine() {
        #expect(InputError.excerpt("a\nb\r\tc") == "a\\nb\\r\\tc")
        #expect(InputError.excerpt("\u{1B}[31mred") == "\\u{1B}[31mred")
        #expect(InputError.excerpt("x\u{85}y\u{2028}") == "x\\u{85}y\\u{2028}")
    }

    @Test func keysAndFieldsInTheDescriptionAreCutToo() {
        let e = InputError(file: "f.yaml", line: 3, column: 5, key: String(repeating: "k", count: 1000), message: "unknown key")
        #expect(e.description == "f.yaml:3:5: key '\(String(repeating: "k", count: 80))…': unknown key")
        #expect(InputError(file: "a.csv", line: 2, field: "time", message: "m").description == "a.csv:2: field 'time': m")
        #expect(InputError(file: "a.csv", column: 9, message: "m").description == "a.csv: m")   // no column without a line
        // A path can come from a file too: no longer one than PATH_MAX can be opened, so none is echoed longer.
        let path = String(repeating: "/p", count: 10_000)
        #expect(InputError(file: path, message: "cannot open").description == String(path.prefix(4096)) + "…: cannot open")
    }
}
