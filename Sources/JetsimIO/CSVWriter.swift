/// Builds CSV text with RFC 4180 quoting (fields with commas, quotes or line breaks are quoted).
public struct CSVLine {
    private var text = ""
    private var first = true
    public init() {}

    public mutating func add(_ field: String) {
        if !first { text += "," }
        first = false
        var needsQuotes = false
        for b in field.utf8 where b == 0x2C || b == 0x22 || b == 0x0A || b == 0x0D {
            needsQuotes = true
            break
        }
        guard needsQuotes else {
            text += field
            return
        }
        // One pass: quote the field and double its quotes.
        text += "\""
        for ch in field.unicodeScalars {
            if ch == "\"" { text += "\"\"" } else { text.unicodeScalars.append(ch) }
        }
        text += "\""
    }

    public mutating func add(_ value: Int) { add(String(value)) }

    /// The line, terminated by `\n`.
    public var line: String { text + "\n" }

    public static func of(_ fields: [String]) -> String {
        var l = CSVLine()
        for f in fields { l.add(f) }
        return l.line
    }
}

extension String {
    /// Every occurrence of the single character `target` replaced (one pass).
    func replacingOccurrences(of target: Character, with replacement: String) -> String {
        var out = ""
        out.reserveCapacity(utf8.count)
        for ch in self { if ch == target { out += replacement } else { out.append(ch) } }
        return out
    }
}
