/// A problem with user input, located as precisely as possible: `file:line:column: key 'x': what is wrong` for YAML
/// inputs, `file:line: field 'x': what is wrong` for CSV ones.
/// `exitCode` follows sysexits: 64 usage, 65 bad data, 66 unreadable input, 73 output not writable.
public struct InputError: Error, Equatable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    /// 1-based, counted in Unicode scalars as libyaml counts them; set by the YAML readers, which know it.
    public var column: Int?
    /// A CSV column's name.
    public var field: String?
    /// A key path in a YAML file (`limits.active_mb`, `bands[1].when.class`).
    public var key: String?
    public var message: String
    public var exitCode: Int32

    public init(file: String, line: Int? = nil, column: Int? = nil, field: String? = nil, key: String? = nil, message: String,
                exitCode: Int32 = 65) {
        self.file = file
        self.line = line
        self.column = column
        self.field = field
        self.key = key
        self.message = message
        self.exitCode = exitCode
    }

    public var description: String {
        var text = Self.excerpt(file, limit: Self.longestPath)   // a path can come from a file too (`devices` in --config)
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        text += ": "
        // Names can come from the input (an unknown key): cut like any echoed value, but longer, as paths are.
        if let field { text += "field '\(Self.excerpt(field, limit: 80))': " }
        if let key { text += "key '\(Self.excerpt(key, limit: 80))': " }
        return text + message
    }


    public static let usage: Int32 = 64
    public static let dataError: Int32 = 65
    public static let noInput: Int32 = 66
    /// A library the input needs is not installed (EX_UNAVAILABLE): libzstd for a `.zst` trace.
    public static let unavailable: Int32 = 69
    public static let cannotCreate: Int32 = 73

    /// PATH_MAX: no longer name can be opened, so none is echoed whole.
    static let longestPath = 4096

    /// `value` as an error message may echo it: at most `limit` Unicode scalars (then `…`), with line breaks and
    /// other control characters escaped (`\n`, `\u{1B}`), so that one hostile value can neither flood the terminal
    /// (a 52 MB duplicate key was echoed whole) nor break the one-line message. Quote it at the call site.
    public static func excerpt(_ value: some StringProtocol, limit: Int = 40) -> String {
        var out = ""
        var count = 0
        for scalar in value.unicodeScalars {
            if count == limit { return out + "…" }
            count += 1
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}":
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
