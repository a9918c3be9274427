/// Builds CSV text with RFC 4180 quoting (fields with commas, quotes or line breaks are quoted).
public struct CSVLine {
    private var text = ""
    private var first = true
    public init() {}

    public mutating func add(_ field: String) {
        if !first { text += "," }
        first = false
        if field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) {
            text += "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        } else {
            text += field
        }
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
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: Character(target), omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
