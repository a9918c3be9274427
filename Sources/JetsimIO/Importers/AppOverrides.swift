import JetsimCore
import JetsimWorkloads

/// Per-app corrections of the name → category table at import (`--app-overrides FILE`): CSV with the header first,
/// `app` and `category` required, `dirty_mb` and `growth_mb_per_min` optional. An empty cell keeps what the table
/// gives (an empty category: the table's category; an empty size: the category's). `dirty_mb` sets the footprint
/// after launch and, as in the table, `max_dirty_mb` to twice it. Every bad row is refused with its line and field.
/// The category's sizes are `era`'s (`--catalog-era`); an override's `dirty_mb` wins over any era.
public struct AppOverrides: Sendable {
    public static let columns = ["app", "category", "dirty_mb", "growth_mb_per_min"]

    struct Entry: Sendable {
        var category: AppCategory?
        var dirtyBytes: Int?
        var growthBytesPerMinute: Int?
    }

    private var entries: [String: Entry] = [:]
    /// The apps named, in the file's order.
    public private(set) var apps: [String] = []
    /// Whose sizes the categories have.
    public var era = CatalogEra.current

    public init() {}

    public static func read(path: String) throws(InputError) -> AppOverrides {
        try read(CSVReader(path: path))
    }

    public static func read(_ reader: CSVReader) throws(InputError) -> AppOverrides {
        let path = reader.path
        let expected = "the header app,category (optional: dirty_mb, growth_mb_per_min)"
        guard try reader.nextRow() else { throw InputError(file: path, message: "the file is empty (expected \(expected))") }
        var index: [String: Int] = [:]
        for (i, name) in reader.strings().map(\.trimmingSpaces).enumerated() {
            guard columns.contains(name) else {
                throw InputError(file: path, line: reader.lineNumber, field: name, message: "unknown column (expected \(expected))")
            }
            guard index[name] == nil else { throw InputError(file: path, line: reader.lineNumber, field: name, message: "column given twice") }
            index[name] = i
        }
        for required in ["app", "category"] where index[required] == nil {
            throw InputError(file: path, line: reader.lineNumber, field: required, message: "required column is missing (expected \(expected))")
        }
        let known = (AppCategory.all + AppCategory.importOnly).map(\.name)
        var overrides = AppOverrides()
        var seen: [String: Int] = [:]
        while try reader.nextRow() {
            let row = RowFields(reader: reader, index: index, path: path)
            guard reader.fieldCount == index.count else {
                throw InputError(file: path, line: reader.lineNumber, message: "expected \(index.count) fields, found \(reader.fieldCount)")
            }
            let app = reader.string(index["app", default: 0]).trimmingSpaces
            guard !app.isEmpty else { throw row.error("app", "the app name is empty") }
            if let first = seen[app] { throw row.error("app", "'\(InputError.excerpt(app))' is already overridden on line \(first)") }
            seen[app] = reader.lineNumber
            var entry = Entry()
            let name = reader.string(index["category", default: 0]).trimmingSpaces
            if !name.isEmpty {
                guard let category = AppCategory.named(name) else {
                    throw row.error("category", "unknown category '\(InputError.excerpt(name))' (known: \(known.joined(separator: ", ")))")
                }
                entry.category = category
            }
            entry.dirtyBytes = try row.mebibytes("dirty_mb")
            if let d = entry.dirtyBytes, d > DecimalParser.maxBytes / 2 { throw row.error("dirty_mb", "is too large (at most 512 TiB)") }
            entry.growthBytesPerMinute = try row.mebibytes("growth_mb_per_min")
            overrides.entries[app] = entry
            overrides.apps.append(app)
        }
        return overrides
    }

    /// The category of `app`: the file's, else the name → category table's, with `era`'s sizes.
    public func category(for app: String) -> AppCategory {
        era.sized(entries[app]?.category ?? AppNameCategories.category(for: app))
    }

    /// The profile written to apps.csv for `app`.
    public func profile(for app: String) -> AppProfile {
        var p = category(for: app).profile(named: app)
        guard let entry = entries[app] else { return p }
        if let d = entry.dirtyBytes {
            p.dirtyBytes = d
            p.maxDirtyBytes = d * 2
        }
        if let g = entry.growthBytesPerMinute { p.growthBytesPerMinute = g }
        return p
    }
}
