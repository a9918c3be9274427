import JetsimCore

/// Reads libCacheSim's CSV trace format directly: one request per row, fields `time`, `obj-id`, `obj-size`
/// (1-based field numbers, libCacheSim's defaults 1, 2, 3), a header row detected when the first row's obj-id is
/// not a number. Each request becomes an `open` of the app named by the object id, whose size is its footprint.
///
/// Semantics match libCacheSim: numeric object ids, an object keeps the size of its first request. Unlike
/// libCacheSim, a zero-size request is refused with its line rather than dropped silently. A file whose rows have
/// a single field is libCacheSim's plain-text format: one object id per line, every object of size 1, one request
/// per second.
/// The file is read twice (once for the catalog, once streaming the requests), in constant memory per object.
/// A UTF-8 byte-order mark at the start is skipped.
public final class LibCacheSimTrace {
    public struct Fields: Sendable, Equatable {
        public var time = 1, objectID = 2, objectSize = 3
        public init() {}

        /// Parses `time=1,obj-id=2,obj-size=3` (any subset).
        public init(parsing text: String) throws(InputError) {
            for item in text.split(separator: ",") {
                let kv = item.split(separator: "=", maxSplits: 1)
                guard kv.count == 2, let n = Int(kv[1]), n >= 1 else {
                    throw InputError(file: "--csv-fields", message: "expected name=column (1-based), found '\(InputError.excerpt(item))'", exitCode: InputError.usage)
                }
                switch kv[0] {
                case "time": time = n
                case "obj-id": objectID = n
                case "obj-size": objectSize = n
                default: throw InputError(file: "--csv-fields", message: "unknown field '\(kv[0])' (time, obj-id, obj-size)", exitCode: InputError.usage)
                }
            }
        }
    }

    public let path: String
    public let fields: Fields
    public let catalog: AppCatalog
    private let ids: [UInt64: Int32]
    private let hasHeader: Bool
    /// libCacheSim's txt format: one object id per line.
    public let plainText: Bool
    private var reader: CSVReader?
    private var lastTime = Int.min
    private var requestIndex = 0
    /// The trace's bytes when it was given in memory (nil: read from `path`).
    private let bytes: [UInt8]?

    /// `name` stands for the file in messages when it is read from a private copy (`ReadOnceInput`).
    public convenience init(path source: String, fields: Fields = Fields(), name: String? = nil) throws(InputError) {
        try self.init(path: name ?? source, source: source, bytes: nil, fields: fields)
    }

    /// The same over bytes in memory (`name` stands for the file in messages); reads no file.
    public convenience init(bytes: [UInt8], name: String, fields: Fields = Fields()) throws(InputError) {
        try self.init(path: name, source: name, bytes: bytes, fields: fields)
    }

    private static func rows(path: String, source: String, bytes: [UInt8]?) throws(InputError) -> CSVReader {
        if let bytes { return CSVReader(bytes: bytes, name: path) }
        return try CSVReader(path: source, name: path)
    }

    /// Where the bytes are read from: `path`, or a private copy of it (`ReadOnceInput`).
    private let source: String

    private init(path: String, source: String, bytes: [UInt8]?, fields: Fields) throws(InputError) {
        self.path = path
        self.source = source
        self.fields = fields
        self.bytes = bytes
        let scan = try LibCacheSimTrace.rows(path: path, source: source, bytes: bytes)
        var ids: [UInt64: Int32] = [:]
        var profiles: [AppProfile] = []
        var header = false
        var first = true
        var text = false
        while try scan.nextRow() {
            if first {
                first = false
                text = scan.fieldCount == 1
                if scan.withField(text ? 0 : fields.objectID - 1, LibCacheSimTrace.unsigned) == nil {
                    header = true
                    continue
                }
            }
            let (id, size) = try LibCacheSimTrace.request(scan, fields: fields, path: path, plainText: text)
            if ids[id] == nil {
                ids[id] = Int32(profiles.count)
                var p = AppProfile(name: String(id), dirtyBytes: size)
                p.maxDirtyBytes = size
                p.cacheDropOnBackground = .zero
                profiles.append(p)
            }
        }
        guard !profiles.isEmpty else { throw InputError(file: path, message: "no requests in the trace") }
        self.ids = ids
        hasHeader = header
        plainText = text
        do {
            catalog = try AppCatalog(profiles)
        } catch {
            throw InputError(file: path, message: "duplicate object")
        }
    }

    static func unsigned(_ raw: UnsafeBufferPointer<UInt8>) -> UInt64? {
        let b = DecimalParser.trimmed(raw)
        guard !b.isEmpty else { return nil }
        var v: UInt64 = 0
        for c in b {
            guard c >= 48 && c <= 57 else { return nil }
            let (m, o1) = v.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(UInt64(c - 48))
            if o1 || o2 { return nil }
            v = s
        }
        return v
    }

    private static func request(_ r: CSVReader, fields: Fields, path: String, plainText: Bool) throws(InputError) -> (UInt64, Int) {
        if plainText {
            guard let id = r.withField(0, unsigned) else {
                throw LibCacheSimProblem.objectID(path, line: r.lineNumber, found: r.string(0))
            }
            return (id, 1)
        }
        guard let id = r.withField(fields.objectID - 1, unsigned) else {
            throw LibCacheSimProblem.objectID(path, line: r.lineNumber, found: r.string(fields.objectID - 1))
        }
        guard let size = r.withField(fields.objectSize - 1, unsigned), size <= UInt64(DecimalParser.maxBytes) else {
            throw LibCacheSimProblem.objectSize(path, line: r.lineNumber, found: r.string(fields.objectSize - 1))
        }
        guard size > 0 else {
            throw LibCacheSimProblem.zeroSize(path, line: r.lineNumber)
        }
        return (id, Int(size))
    }

    /// The next request as an `open`, or nil at the end.
    public func next() throws(InputError) -> TraceEvent? {
        if reader == nil {
            reader = try LibCacheSimTrace.rows(path: path, source: source, bytes: bytes)
            if hasHeader { _ = try reader?.nextRow() }
        }
        guard let r = reader, try r.nextRow() else { return nil }
        let (id, _) = try LibCacheSimTrace.request(r, fields: fields, path: path, plainText: plainText)
        requestIndex += 1
        if plainText { return TraceEvent(time: requestIndex * Units.microsPerSecond, app: ids[id] ?? 0, kind: .open) }
        guard let time = r.withField(fields.time - 1, { DecimalParser.scaled($0, unit: Units.microsPerSecond) }), time >= 0,
              time <= DecimalParser.maxMicros else {
            throw LibCacheSimProblem.time(path, line: r.lineNumber, found: r.string(fields.time - 1))
        }
        guard time >= lastTime else {
            throw LibCacheSimProblem.decreasingTime(path, line: r.lineNumber)
        }
        lastTime = time
        return TraceEvent(time: time, app: ids[id] ?? 0, kind: .open)
    }
}

/// What is wrong with a libCacheSim trace row, worded once for both readers (`LibCacheSimTrace`, `LibCacheSimStream`).
enum LibCacheSimProblem {
    static func objectID(_ path: String, line: Int, found: String) -> InputError {
        InputError(file: path, line: line, field: "obj-id", message: "expected a numeric object id, found '\(InputError.excerpt(found))'")
    }

    static func objectSize(_ path: String, line: Int, found: String) -> InputError {
        InputError(file: path, line: line, field: "obj-size", message: "expected a size in bytes, found '\(InputError.excerpt(found))'")
    }

    static func zeroSize(_ path: String, line: Int) -> InputError {
        InputError(file: path, line: line, field: "obj-size", message: "a zero-size request (libCacheSim drops these silently; Jetsim refuses them)")
    }

    static func time(_ path: String, line: Int, found: String) -> InputError {
        InputError(file: path, line: line, field: "time", message: "expected seconds, found '\(InputError.excerpt(found))'")
    }

    static func decreasingTime(_ path: String, line: Int) -> InputError {
        InputError(file: path, line: line, field: "time", message: "times must not decrease")
    }
}
