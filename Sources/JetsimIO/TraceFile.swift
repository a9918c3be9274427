import Foundation
import JetsimCore

/// Streams a usage trace (`trace.csv`, header `time,app,event,value`) as `TraceEvent`s with dense app ids.
/// Times are seconds (decimals allowed, kept to the microsecond) and must not decrease. Every problem is an
/// `InputError` naming the file, line and field; nothing is partially applied by the reader itself.
public final class TraceReader {
    private let reader: CSVReader
    /// The app names, the last time and the fast path for common rows.
    private var lines: TraceLineParser
    /// The columns are in their usual order, so `lines` can read common rows (`next(into:upTo:)`).
    private let usualColumns: Bool
    /// With no catalog, unknown names get new ids in order of appearance (for inspecting a trace).
    private let interning: Bool
    private var timeColumn = 0, appColumn = 1, eventColumn = 2, valueColumn: Int? = 3, userColumn: Int?
    public var path: String { reader.path }
    public var lineNumber: Int { reader.lineNumber }

    /// Reads against `catalog` (unknown apps are errors) or, with `catalog` nil, interns every app name it meets.
    /// `name` stands for the file in messages when it is read from a private copy (`ReadOnceInput`).
    public convenience init(path: String, catalog: AppCatalog?, name: String? = nil) throws(InputError) {
        try self.init(reader: try CSVReader(path: path, name: name), catalog: catalog)
    }

    /// The same over any CSV source (a file, or bytes in memory).
    init(reader: CSVReader, catalog: AppCatalog?) throws(InputError) {
        self.reader = reader
        let path = reader.path
        lines = TraceLineParser(names: AppNameTable(catalog?.profiles.map(\.name) ?? []))
        interning = catalog == nil
        guard try reader.nextRow() else { throw InputError(file: path, message: "the file is empty (expected the header time,app,event,value)") }
        let header = reader.strings().map(\.trimmingSpaces)
        func column(_ name: String) -> Int? { header.firstIndex(of: name) }
        guard let t = column("time"), let a = column("app"), let e = column("event") else {
            throw InputError(file: path, line: reader.lineNumber,
                             message: "expected the header time,app,event,value, found '\(InputError.excerpt(header.joined(separator: ",")))'")
        }
        for name in header where !["time", "app", "event", "value", "user"].contains(name) {
            throw InputError(file: path, line: reader.lineNumber, field: name, message: "unknown column (expected time,app,event,value and optionally user)")
        }
        timeColumn = t
        appColumn = a
        eventColumn = e
        valueColumn = column("value")
        userColumn = column("user")
        usualColumns = (t, a, e, valueColumn) == (0, 1, 2, 3)
    }

    /// App names in id order (the catalog's, plus any interned).
    public var appNames: [String] { lines.names.strings }

    /// Whether the trace has a `user` column (`--per-user` splits by it).
    public var hasUserColumn: Bool { userColumn != nil }

    /// The current row's `user` cell (the optional column naming whose use this is), or nil without the column.
    public var currentUser: String? { userColumn.map { reader.string($0) } }

    private func fail(_ field: String, _ message: String) -> InputError {
        InputError(file: reader.path, line: reader.lineNumber, field: field, message: message)
    }

    private func found(_ column: Int) -> String { "'\(InputError.excerpt(reader.string(column)))'" }

    /// The next event, or nil at the end of the trace.
    public func next() throws(InputError) -> TraceEvent? {
        guard try reader.nextRow() else { return nil }
        let time = reader.withField(timeColumn) { DecimalParser.scaled($0, unit: Units.microsPerSecond) }
        guard let time else { throw fail("time", "expected seconds (decimals allowed), found \(found(timeColumn))") }
        guard time >= 0 else { throw fail("time", "must not be negative, found \(found(timeColumn))") }
        guard time <= DecimalParser.maxMicros else { throw fail("time", "is too large, found \(found(timeColumn))") }
        guard time >= lines.lastTime else {
            throw fail("time", "times must not decrease: \(found(timeColumn)) comes after \(FixedPoint.seconds(lines.lastTime)) s")
        }
        lines.lastTime = time
        guard let kind = reader.withField(eventColumn, { lines.kind(named: DecimalParser.trimmed($0)) }) else {
            throw fail("event", "unknown event \(found(eventColumn)) (known: \(TraceEventKind.allCases.map(\.traceName).joined(separator: ", ")))")
        }
        let blankApp = reader.withField(appColumn) { DecimalParser.isBlank($0) }
        var app = TraceEvent.noApp
        if !(blankApp && kind == .home) {
            let resolved = reader.withField(appColumn) { bytes in
                interning && !blankApp ? lines.names.intern(DecimalParser.trimmed(bytes)) : lines.names.id(of: DecimalParser.trimmed(bytes))
            }
            guard let id = resolved else {
                throw blankApp ? fail("app", "an app is required for '\(kind.traceName)'")
                               : fail("app", "unknown app \(found(appColumn)) (not in the catalog)")
            }
            app = id
        }
        var value = 0
        let valueIndex = valueColumn ?? -1
        switch kind.valueKind {
        case .none:
            break
        case .seconds:
            guard let v = reader.withField(valueIndex, { DecimalParser.scaled($0, unit: Units.microsPerSecond) }) else {
                throw fail("value", "'\(kind.traceName)' needs a duration in seconds, found \(found(valueIndex))")
            }
            guard v >= 0 else { throw fail("value", "a duration must not be negative, found \(found(valueIndex))") }
            guard v <= DecimalParser.maxMicros else { throw fail("value", "the duration is too large, found \(found(valueIndex))") }
            value = v
        case .signedMebibytes:
            guard let v = reader.withField(valueIndex, { DecimalParser.scaled($0, unit: Units.mebibyte) }) else {
                throw fail("value", "'alloc' needs a size in MB (negative frees), found \(found(valueIndex))")
            }
            guard v.magnitude <= UInt(DecimalParser.maxBytes) else { throw fail("value", "the size is too large (at most 1 PiB), found \(found(valueIndex))") }
            value = v
        case .mode:
            let name = reader.string(valueIndex).trimmingSpaces
            guard let mode = BackgroundModes.named(name) else {
                throw fail("value", "unknown background mode '\(InputError.excerpt(name))' (known: \(BackgroundModes.names.map(\.0).joined(separator: ", ")))")
            }
            value = Int(mode.rawValue)
        }
        return TraceEvent(time: time, app: app, kind: kind, value: value)
    }

    /// Appends the trace's next events to `events` until it holds `count` or the trace ends: the events `next()` gives
    /// one by one, and its error after the events before the row that has it. Common rows are read straight from the read
    /// buffer (`TraceLineParser`), any other row by `next()`. The current row (`currentUser`) is not kept.
    public func next(into events: inout [TraceEvent], upTo count: Int) throws(InputError) {
        while events.count < count {
            if usualColumns { lines.take(from: reader, into: &events, upTo: count) }
            guard events.count < count, let e = try next() else { return }
            events.append(e)
        }
    }

    /// Reads the whole trace (a grid's cells share it; `jetsim run` streams).
    public func readAll() throws(InputError) -> [TraceEvent] {
        var events: [TraceEvent] = []
        while true {
            let before = events.count
            try next(into: &events, upTo: before + (1 << 16))
            if events.count < before + (1 << 16) { return events }
        }
    }

    /// The whole trace against `catalog`, read by two threads when `threads` > 1: `compare`'s cells wait for it, so
    /// it is the serial part of a grid. The file splits at a line end near its middle and the second half is read
    /// behind a copy of everything up to the header row. Any problem in either half,
    /// or a time that decreases across the split, is left to a serial read to report, so a message and its line number
    /// are the serial reader's; so is a file with quotes (a quoted field may hold a line end), and one over 1 GiB on disk (the
    /// halves are copies of the file's bytes).
    public static func readAll(path source: String, catalog: AppCatalog, threads: Int, name: String? = nil) throws(InputError) -> [TraceEvent] {
        let path = name ?? source
        func serially() throws(InputError) -> [TraceEvent] { try TraceReader(path: source, catalog: catalog, name: name).readAll() }
        let size = (try? FileManager.default.attributesOfItem(atPath: source)[.size] as? Int) ?? nil
        guard threads > 1, let size, size <= 1 << 30, let bytes = readWholeFile(source), !bytes.contains(UInt8(ascii: "\"")),
              let header = headerEnd(bytes, name: path), let middle = bytes[(bytes.count / 2)...].firstIndex(of: UInt8(ascii: "\n")),
              middle + 1 > header, middle + 1 < bytes.count else {
            return try serially()
        }
        let halves = [Array(bytes[..<(middle + 1)]), Array(bytes[..<header]) + bytes[(middle + 1)...]]
        let results = HalfResults()
        DispatchQueue.concurrentPerform(iterations: 2) { k in
            results.set(k, try? TraceReader(reader: CSVReader(bytes: halves[k], name: path), catalog: catalog).readAll())
        }
        guard let first = results.get(0), let second = results.get(1),
              (first.last?.time ?? Int.min) <= (second.first?.time ?? Int.max) else {
            return try serially()
        }
        return first + second
    }

    /// The current row's user as a dense index in order of first appearance (`userNames`); a blank cell is an error.
    /// Requires the `user` column (`requireUserColumn`).
    private func currentUserIndex(_ column: Int) throws(InputError) -> Int {
        guard !reader.withField(column, DecimalParser.isBlank) else {
            throw fail("user", "is blank: a trace split by user (--per-user) names the user on every row")
        }
        return Int(reader.withField(column) { users.intern(DecimalParser.trimmed($0)) })
    }

    /// Users met by `currentUserIndex`, in order of first appearance.
    private var users = AppNameTable([])
    private var userNames: [String] { users.strings }

    private func requireUserColumn() throws(InputError) -> Int {
        guard let column = userColumn else {
            throw InputError(file: reader.path, field: "user",
                             message: "the trace has no user column: --per-user splits a trace by the user each row names")
        }
        return column
    }

    /// The users a trace names, in order of first appearance, read without parsing its events (a grid's plan needs
    /// them before any cell runs; the rows' other fields are checked when the trace is read).
    public static func users(path: String, name: String? = nil) throws(InputError) -> [String] {
        let trace = try TraceReader(path: path, catalog: nil, name: name)
        let column = try trace.requireUserColumn()
        while try trace.reader.nextRow() { _ = try trace.currentUserIndex(column) }
        return trace.userNames
    }

    /// The whole trace split by its `user` column (`--per-user`: each user replays on a fresh device): every user's
    /// events in trace order, users in order of first appearance.
    public static func readAllByUser(path: String, catalog: AppCatalog, name: String? = nil) throws(InputError) -> [(user: String, events: [TraceEvent])] {
        let trace = try TraceReader(path: path, catalog: catalog, name: name)
        let column = try trace.requireUserColumn()
        var split: [[TraceEvent]] = []
        while let e = try trace.next() {
            let u = try trace.currentUserIndex(column)
            if u == split.count { split.append([]) }
            split[u].append(e)
        }
        return zip(trace.userNames, split).map { ($0, $1) }
    }

    /// Where the header row ends (just past its line end) by the reader's own rules for blank and comment lines; nil
    /// when the file has no row or nothing after it. The file has no quotes, so the row is one line.
    private static func headerEnd(_ bytes: [UInt8], name: String) -> Int? {
        let reader = CSVReader(bytes: bytes, name: name)
        guard (try? reader.nextRow()) == true else { return nil }
        var lines = 0
        for (k, b) in bytes.enumerated() where b == UInt8(ascii: "\n") {
            lines += 1
            if lines == reader.lineNumber { return k + 1 }
        }
        return nil
    }
}

/// The two halves' events (nil: that half has a problem), each written once by its own thread.
private final class HalfResults: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [[TraceEvent]?] = [nil, nil]
    func set(_ k: Int, _ value: [TraceEvent]?) { lock.lock(); events[k] = value; lock.unlock() }
    func get(_ k: Int) -> [TraceEvent]? { lock.lock(); defer { lock.unlock() }; return events[k] }
}
