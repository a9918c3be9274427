@testable import JetsimCLI
import Testing

/// A command's discussion is reflowed for ArgumentParser: prose paragraphs become single lines; blank lines, indented
/// lines (examples, tables) and the line after a heading ending in `:` keep their breaks.
@Suite struct HelpTextTests {
    @Test func prosePartsJoinAndEverythingElseKeepsItsBreaks() {
        let source = """
            First line of a paragraph
            continues here
            and ends here.

            Examples:
              jetsim run --a
              jetsim run --b
            Prose after the examples
            joins its next line.
            \tA tabbed line stays.
            A heading:
            Its first line stays below it
            and the next joins that one.
            """
        let expected = """
            First line of a paragraph continues here and ends here.

            Examples:
              jetsim run --a
              jetsim run --b
            Prose after the examples joins its next line.
            \tA tabbed line stays.
            A heading:
            Its first line stays below it and the next joins that one.
            """
        #expect(reflowed(source) == expected)
    }

    @Test func edgesOfTheText() {
        #expect(reflowed("") == "")
        #expect(reflowed("one") == "one")
        #expect(reflowed("\n") == "\n")
        #expect(reflowed("a\nb\n") == "a b\n")
        #expect(reflowed("\na\nb") == "\na b")
        #expect(reflowed("é ü\nß") == "é ü ß")
    }
}
