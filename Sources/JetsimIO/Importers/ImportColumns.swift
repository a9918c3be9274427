/// `--columns user=uid,start=begin,…`: which header name of the input holds each of a format's fields, so a real
/// file with its own header imports without rewriting. A field not mapped keeps its format's name; header names
/// match ignoring case and surrounding spaces.
public struct ImportColumns: Sendable, Equatable {
    /// The format's fields, in its documented order (`intervals`: user, start, end, app).
    public let fields: [String]
    /// The header name for each field that `--columns` mapped.
    public private(set) var mapped: [String: String] = [:]

    /// The header name of a field that `--columns` does not map, where it is not the field's own name.
    public let defaultHeaders: [String: String]
    /// The fields a file may lack.
    public let optional: Set<String>

    public static let intervals = ImportColumns(fields: ["user", "start", "end", "app"])
    public static let lsapp = ImportColumns(fields: ["user_id", "session_id", "timestamp", "app_name", "event_type"])
    /// StudentLife's `running_app` files: short field names for the dataset's long headers; `userId` is absent from the
    /// per-user files of the original release.
    public static let studentlife = ImportColumns(
        fields: ["user", "time", "app", "task", "running", "rank"],
        defaultHeaders: ["user": "userId", "time": "timestamp", "app": "RUNNING_TASKS_baseActivity_mPackage", "task": "RUNNING_TASKS_id",
                         "running": "RUNNING_TASKS_numRunning", "rank": "rank_in_snapshot"],
        optional: ["user"])

    public init(fields: [String], defaultHeaders: [String: String] = [:], optional: Set<String> = []) {
        self.fields = fields
        self.defaultHeaders = defaultHeaders
        self.optional = optional
    }

    /// `text` (`field=header,field=header`) over the fields of `format`; a usage error (exit 64) for an unknown field,
    /// a field given twice or an item without `=`.
    public init(parsing text: String, format: ImportColumns) throws(InputError) {
        self = format
        for item in text.split(separator: ",") {
            let kv = item.split(separator: "=", maxSplits: 1).map { String($0).trimmingSpaces }
            guard kv.count == 2, !kv[0].isEmpty, !kv[1].isEmpty else {
                throw InputError(file: "--columns", message: "expected field=header, found '\(InputError.excerpt(String(item)))'", exitCode: InputError.usage)
            }
            guard fields.contains(kv[0]) else {
                throw InputError(file: "--columns", message: "unknown field '\(InputError.excerpt(kv[0]))' (fields: \(fields.joined(separator: ", ")))",
                                 exitCode: InputError.usage)
            }
            guard mapped[kv[0]] == nil else {
                throw InputError(file: "--columns", message: "field '\(kv[0])' is given twice", exitCode: InputError.usage)
            }
            mapped[kv[0]] = kv[1]
        }
    }

    public var isMapped: Bool { !mapped.isEmpty }

    /// The header name that holds `field`.
    public func header(for field: String) -> String { mapped[field] ?? defaultHeaders[field] ?? field }

    /// Each field's position in the header `row`, in `fields` order; an error at `line` of `file` naming the header names
    /// not found (and that `--columns` maps them).
    func positions(in row: [String], file: String, line: Int) throws(InputError) -> [Int] {
        try located(in: row, file: file, line: line).compactMap { $0 }
    }

    /// Each field's position in the header `row`, in `fields` order, nil for an `optional` field the header lacks.
    func located(in row: [String], file: String, line: Int) throws(InputError) -> [Int?] {
        let names = row.map { $0.trimmingSpaces.lowercased() }
        var positions: [Int?] = [], absent: [String] = []
        for field in fields {
            let k = names.firstIndex(of: header(for: field).lowercased())
            if k == nil && !optional.contains(field) { absent.append(header(for: field)) }
            positions.append(k)
        }
        guard absent.isEmpty else {
            let missing = absent.map { "'\(InputError.excerpt($0))'" }.joined(separator: ", ")
            let expected = fields.map { optional.contains($0) ? "[\(header(for: $0))]" : header(for: $0) }.joined(separator: ",")
            throw InputError(file: file, line: line, message: "expected the header \(expected) (no column \(missing); "
                             + "--columns maps fields to this file's names), found '\(InputError.excerpt(row.joined(separator: ",")))'")
        }
        return positions
    }
}
