/// A problem with user input, located as precisely as possible: `file:line: field 'x': what is wrong`.
/// `exitCode` follows sysexits: 64 usage, 65 bad data, 66 unreadable input, 73 output not writable.
public struct InputError: Error, Equatable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var field: String?
    public var message: String
    public var exitCode: Int32

    public init(file: String, line: Int? = nil, field: String? = nil, message: String, exitCode: Int32 = 65) {
        self.file = file
        self.line = line
        self.field = field
        self.message = message
        self.exitCode = exitCode
    }

    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        text += ": "
        if let field { text += "field '\(field)': " }
        return text + message
    }

    /// `text` as echoed in a message: its first 40 characters, then "…" when it is longer.
    public static func excerpt(_ text: String) -> String {
        let head = text.prefix(40)
        return head.endIndex == text.endIndex ? text : head + "…"
    }

    public static let usage: Int32 = 64
    public static let dataError: Int32 = 65
    public static let noInput: Int32 = 66
    public static let cannotCreate: Int32 = 73
}
