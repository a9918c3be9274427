import JetsimCore

/// Builds CSV text with RFC 4180 quoting (fields with commas, quotes or line breaks are quoted, and fields starting
/// with `#`, which Jetsim's reader would otherwise take, at the start of a row, for a comment line).
public struct CSVLine {
    private var text = ""
    private var first = true
    public init() {}

    public mutating func add(_ field: String) {
        if !first { text += "," }
        first = false
        switch CSVLine.quoting(field) {
        case .none:
            text += field
        case .quotes:
            text += "\"" + field + "\""
        case .quotesAndDoubling:
            var bytes: [UInt8] = []   // the quotes doubled by the one writer of quoted fields
            RowWriter.appending(to: &bytes, capacity: RowWriter.fieldCapacity(field)) { $0.field(field) }
            text += String(decoding: bytes, as: UTF8.self)
        }
    }

    /// How a text field is written (RFC 4180): quoted when it holds a delimiter, quote or line end, or starts with
    /// `#` (our readers skip such lines as comments), its quotes doubled. The one place of this rule, for `CSVLine`
    /// and `RowWriter.field`.
    public enum Quoting { case none, quotes, quotesAndDoubling }

    public static func quoting(_ field: String) -> Quoting {
        var needsQuotes = field.utf8.first == 0x23, hasQuote = false
        for b in field.utf8 where b == 0x2C || b == 0x22 || b == 0x0A || b == 0x0D {
            needsQuotes = true
            if b == 0x22 { hasQuote = true }
        }
        return hasQuote ? .quotesAndDoubling : needsQuotes ? .quotes : .none
    }

    public mutating func add(_ value: Int) { add(String(value)) }

    /// The line, terminated by `\n`.
    public var line: String { text + "\n" }

    /// `text` as one field, quoted where needed, without a line end (for rows built piecewise).
    public static func field(_ text: String) -> String {
        var l = CSVLine()
        l.add(text)
        return l.text
    }

    public static func of(_ fields: [String]) -> String {
        var l = CSVLine()
        for f in fields { l.add(f) }
        return l.line
    }
}

extension RowWriter {
    /// `text` as one CSV field, quoted where needed (`CSVLine.quoting`), without building a `String`.
    /// Writes at most `RowWriter.fieldCapacity(text)` bytes.
    public mutating func field(_ text: String) {
        switch CSVLine.quoting(text) {
        case .none:
            bytes(text)
        case .quotes:
            byte(0x22)
            bytes(text)
            byte(0x22)
        case .quotesAndDoubling:
            byte(0x22)
            for b in text.utf8 {
                byte(b)
                if b == 0x22 { byte(0x22) }
            }
            byte(0x22)
        }
    }

    /// The most bytes `field(text)` writes.
    public static func fieldCapacity(_ text: String) -> Int { 2 * text.utf8.count + 2 }
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
