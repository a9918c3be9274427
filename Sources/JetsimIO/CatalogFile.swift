import JetsimCore

/// Reads an app catalog (`apps.csv`). `app` and `dirty_mb` are required; every other column is optional and an
/// empty cell means the documented default (Reports/README.md). Unknown columns are errors, so a typo in a
/// header never silently falls back to a default.
public enum CatalogFile {
    public static let columns = [
        "app", "dirty_mb", "growth_mb_per_min", "max_dirty_mb", "cache_mb", "cache_drop_on_background",
        "cache_drop_on_warning", "purgeable_mb", "backing_store_mb", "image_cache_mb", "file_backed_mb",
        "compress_ratio", "cold_launch_ms", "resume_ms", "background_modes", "exits_on_suspend", "bg_task_s",
        "ends_task_on_expiry", "enter_background_ms", "will_terminate_ms",
    ]

    /// `name` stands for the file in messages when it is read from a private copy (`ReadOnceInput`).
    public static func read(path source: String, name: String? = nil) throws(InputError) -> AppCatalog {
        try read(try CSVReader(path: source, name: name))
    }

    /// The catalog in `reader` (a file, or bytes in memory: `FuzzTarget.catalog`).
    public static func read(_ reader: CSVReader) throws(InputError) -> AppCatalog {
        let path = reader.path
        guard try reader.nextRow() else { throw InputError(file: path, message: "the file is empty (expected a header row)") }
        let header = reader.strings().map { $0.trimmingSpaces }
        var index: [String: Int] = [:]
        for (i, name) in header.enumerated() {
            guard columns.contains(name) else {
                throw InputError(file: path, line: reader.lineNumber, field: name,
                                 message: "unknown column (known: \(columns.joined(separator: ", ")))")
            }
            guard index[name] == nil else { throw InputError(file: path, line: reader.lineNumber, field: name, message: "column given twice") }
            index[name] = i
        }
        for required in ["app", "dirty_mb"] where index[required] == nil {
            throw InputError(file: path, line: reader.lineNumber, field: required, message: "required column is missing")
        }
        let appColumn = index["app", default: 0]
        var profiles: [AppProfile] = []
        var seen: [String: Int] = [:]
        while try reader.nextRow() {
            let row = RowFields(reader: reader, index: index, path: path)
            if reader.fieldCount != header.count {
                throw InputError(file: path, line: reader.lineNumber,
                                 message: "expected \(header.count) fields, found \(reader.fieldCount)")
            }
            let name = reader.string(appColumn).trimmingSpaces
            guard !name.isEmpty else { throw row.error("app", "the app name is empty") }
            if let first = seen[name] { throw row.error("app", "'\(InputError.excerpt(name))' is already defined on line \(first)") }
            seen[name] = reader.lineNumber
            var p = AppProfile(name: name, dirtyBytes: try row.mebibytes("dirty_mb", required: true) ?? 0)
            if let v = try row.mebibytes("growth_mb_per_min") { p.growthBytesPerMinute = v }
            p.maxDirtyBytes = try row.mebibytes("max_dirty_mb") ?? p.dirtyBytes * 2
            if p.maxDirtyBytes < p.dirtyBytes { throw row.error("max_dirty_mb", "must be at least dirty_mb") }
            if let v = try row.mebibytes("cache_mb") { p.cacheBytes = v }
            if let v = try row.share("cache_drop_on_background") { p.cacheDropOnBackground = v }
            if let v = try row.share("cache_drop_on_warning") { p.cacheDropOnWarning = v }
            if let v = try row.mebibytes("purgeable_mb") { p.purgeableBytes = v }
            if let v = try row.mebibytes("backing_store_mb") { p.backingStoreBytes = v }
            if let v = try row.mebibytes("image_cache_mb") { p.imageCacheBytes = v }
            if let v = try row.mebibytes("file_backed_mb") { p.fileBackedBytes = v }
            if let v = try row.scaled("compress_ratio", unit: 1000, expected: "a ratio of at least 1.0 (e.g. 2.5)") {
                guard v >= 1000 else { throw row.error("compress_ratio", "must be at least 1.0") }
                guard v <= 1_000_000 else { throw row.error("compress_ratio", "must be at most 1000") }
                p.compressRatioMilli = v
            }
            if let v = try row.milliseconds("cold_launch_ms") { p.coldLaunchMillis = v }
            if let v = try row.milliseconds("resume_ms") { p.resumeMillis = v }
            if let i = index["background_modes"] {
                let text = reader.string(i).trimmingSpaces
                for part in text.split(separator: "|") {
                    let name = String(part).trimmingSpaces
                    guard let mode = BackgroundModes.named(name) else {
                        throw row.error("background_modes", "unknown mode '\(InputError.excerpt(name))' (known: \(BackgroundModes.names.map(\.0).joined(separator: ", ")))")
                    }
                    p.backgroundModes.insert(mode)
                }
            }
            if let v = try row.boolean("exits_on_suspend") { p.exitsOnSuspend = v }
            if let v = try row.nonNegative("bg_task_s", unit: Units.microsPerSecond, expected: "seconds") {
                guard v <= DecimalParser.maxMicros else { throw row.error("bg_task_s", "is too large") }
                p.backgroundTaskMicros = v
            }
            if let v = try row.boolean("ends_task_on_expiry") { p.endsTaskOnExpiry = v }
            if let v = try row.nonNegative("enter_background_ms", unit: Units.microsPerMilli, expected: "milliseconds") {
                guard v <= DecimalParser.maxMicros else { throw row.error("enter_background_ms", "is too large") }
                p.enterBackgroundMicros = v
            }
            if let v = try row.nonNegative("will_terminate_ms", unit: Units.microsPerMilli, expected: "milliseconds") {
                guard v <= DecimalParser.maxMicros else { throw row.error("will_terminate_ms", "is too large") }
                p.willTerminateMicros = v
            }
            profiles.append(p)
        }
        guard !profiles.isEmpty else { throw InputError(file: path, message: "the catalog has a header but no apps") }
        do {
            return try AppCatalog(profiles)
        } catch {
            throw InputError(file: path, message: "duplicate app")
        }
    }
}

/// Typed access to the named cells of one catalog row, with errors that name the line and field.
struct RowFields {
    let reader: CSVReader
    let index: [String: Int]
    let path: String

    func error(_ field: String, _ message: String) -> InputError {
        InputError(file: path, line: reader.lineNumber, field: field, message: message)
    }

    private func cell<R>(_ field: String, _ body: (UnsafeBufferPointer<UInt8>) throws(InputError) -> R?) throws(InputError) -> R? {
        guard let i = index[field] else { return nil }
        let result: Result<R?, InputError> = reader.withField(i) { bytes in
            if DecimalParser.isBlank(bytes) { return .success(nil) }
            do throws(InputError) { return .success(try body(bytes)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    private func text(_ field: String) -> String { index[field].map { reader.string($0) } ?? "" }

    func scaled(_ field: String, unit: Int, expected: String) throws(InputError) -> Int? {
        try cell(field) { (bytes) throws(InputError) -> Int? in
            guard let v = DecimalParser.scaled(bytes, unit: unit) else { throw error(field, "expected \(expected), found '\(InputError.excerpt(text(field)))'") }
            return v
        }
    }

    func nonNegative(_ field: String, unit: Int, expected: String) throws(InputError) -> Int? {
        let v = try scaled(field, unit: unit, expected: expected)
        if let v, v < 0 { throw error(field, "must not be negative, found '\(InputError.excerpt(text(field)))'") }
        return v
    }

    func mebibytes(_ field: String, required: Bool = false) throws(InputError) -> Int? {
        let v = try nonNegative(field, unit: Units.mebibyte, expected: "a size in MB (decimals allowed)")
        if let v, v > DecimalParser.maxBytes { throw error(field, "is too large (at most 1 PiB), found '\(InputError.excerpt(text(field)))'") }
        if v == nil && required { throw error(field, "a value is required") }
        return v
    }

    func milliseconds(_ field: String) throws(InputError) -> Int? {
        let v = try nonNegative(field, unit: 1, expected: "milliseconds")
        if let v, v > DecimalParser.maxMicros / Units.microsPerMilli { throw error(field, "is too large, found '\(InputError.excerpt(text(field)))'") }
        return v
    }

    func share(_ field: String) throws(InputError) -> Share? {
        guard let v = try scaled(field, unit: Share.scale, expected: "a share between 0 and 1") else { return nil }
        guard v >= 0 && v <= Share.scale else { throw error(field, "expected a share between 0 and 1, found '\(InputError.excerpt(text(field)))'") }
        return Share(partsPerMillion: v)
    }

    func boolean(_ field: String) throws(InputError) -> Bool? {
        try cell(field) { (bytes) throws(InputError) -> Bool? in
            guard let v = DecimalParser.boolean(bytes) else { throw error(field, "expected true or false, found '\(InputError.excerpt(text(field)))'") }
            return v
        }
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return String(s)
    }
}
