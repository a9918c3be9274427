/// A problem in a policy file: the file, the key (a dotted path such as `bands[1].when.footprint_mb_at_least`)
/// and what was expected.
public struct PolicyFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var key: String
    public var message: String
    public var exitCode: Int32 = InputError.dataError

    public init(file: String, line: Int? = nil, key: String, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    public var description: String {
        "\(file)\(line.map { ":\($0)" } ?? ""): key '\(key)': \(message)"
    }
}
