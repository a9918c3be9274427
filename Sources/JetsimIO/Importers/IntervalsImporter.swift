import JetsimCore

/// Imports generic foreground intervals (CSV with the header `user,start,end,app`, or the file's own names mapped by
/// `columns`, in any order among other columns; times ISO-8601 or epoch numbers in `timeUnit`), sorted
/// by user then start. Consecutive intervals of the same app less than `mergeGap` apart merge into one; a gap
/// of at most `mergeGap` between different apps is a direct switch, a longer one a `home`. Users follow one
/// another an hour apart. Streams with one interval of lookahead.
///
/// Limits: times from year 0000 to 9999 (`Timestamps`), and the whole
/// imported trace, users one after another, within 2^60 µs; a row past either is refused with its line and field.
public enum IntervalsImporter {
    public static func run(path: String, writer: ImportWriter, user onlyUser: String?, mergeGapMicros: Int, skipBad: Bool,
                           timeUnit: EpochUnit = .auto, columns: ImportColumns = .intervals) throws(InputError) {
        try run(CSVReader(path: path), writer: writer, user: onlyUser, mergeGapMicros: mergeGapMicros, skipBad: skipBad, timeUnit: timeUnit,
                columns: columns)
    }

    /// The same over bytes in memory (`name` stands for the file in messages); reads and writes no file.
    public static func run(bytes: [UInt8], name: String, writer: ImportWriter, user onlyUser: String? = nil,
                           mergeGapMicros: Int = 5 * Units.microsPerSecond, skipBad: Bool = false, timeUnit: EpochUnit = .auto,
                           columns: ImportColumns = .intervals) throws(InputError) {
        try run(CSVReader(bytes: bytes, name: name), writer: writer, user: onlyUser, mergeGapMicros: mergeGapMicros, skipBad: skipBad,
                timeUnit: timeUnit, columns: columns)
    }

    static func run(_ reader: CSVReader, writer: ImportWriter, user onlyUser: String?, mergeGapMicros: Int, skipBad: Bool,
                    timeUnit: EpochUnit, columns: ImportColumns = .intervals) throws(InputError) {
        let path = reader.path
        var timestamps = Timestamps(unit: timeUnit)
        guard try reader.nextRow() else { throw InputError(file: path, message: "the file is empty (expected the header user,start,end,app)") }
        let positions = try columns.positions(in: reader.strings(), file: path, line: reader.lineNumber)
        let (u, s, e, a) = (positions[0], positions[1], positions[2], positions[3])
        var current: (user: String, start: Int, end: Int, app: String)?
        var offset = 0, base = 0
        var previousUser: String?
        func flush(next: (user: String, start: Int, end: Int, app: String)?) throws(InputError) {
            guard let c = current else { return }
            let gapToNext = next.map { $0.user == c.user ? $0.start - c.end : Int.max } ?? Int.max
            if gapToNext > mergeGapMicros { try writer.emit(time: offset + c.end - base, app: nil, .home, user: c.user) }
        }
        while try reader.nextRow() {
            func bad(_ field: String?, _ message: String) throws(InputError) {
                if skipBad { writer.skip(); return }
                throw InputError(file: path, line: reader.lineNumber, field: field, message: message)
            }
            let user = reader.string(u).trimmingSpaces, app = reader.string(a).trimmingSpaces
            if let onlyUser, user != onlyUser { continue }
            guard let start = timestamps.micros(reader.string(s).trimmingSpaces) else {
                try bad("start", "\(timestamps.problem), found '\(InputError.excerpt(reader.string(s)))'")
                continue
            }
            guard let end = timestamps.micros(reader.string(e).trimmingSpaces) else {
                try bad("end", "\(timestamps.problem), found '\(InputError.excerpt(reader.string(e)))'")
                continue
            }
            guard end >= start else { try bad("end", "the interval ends before it starts"); continue }
            guard !app.isEmpty else { try bad("app", "the app name is empty"); continue }
            if let c = current, c.user == user, start < c.start { try bad("start", "intervals must be sorted by start within a user"); continue }
            // Where the row lands in the imported trace, checked before anything is written: a new user starts an
            // hour after the last event so far, which is the current interval's home when there is one.
            let newUser = user != previousUser
            var rowOffset = offset, rowBase = base
            if newUser {
                rowBase = start
                rowOffset = 0
                if previousUser != nil {
                    let lastEvent = max(writer.lastEmittedTime, current.map { offset + $0.end - base } ?? 0)
                    rowOffset = lastEvent + ImportWriter.gapBetweenUsers
                }
            }
            guard ImportWriter.shifted(start, base: rowBase, offset: rowOffset) != nil else { try bad("start", ImportWriter.pastTheLimit); continue }
            guard ImportWriter.shifted(end, base: rowBase, offset: rowOffset) != nil else { try bad("end", ImportWriter.pastTheLimit); continue }
            let next = (user: user, start: start, end: end, app: app)
            if var c = current, c.user == user, c.app == app, start - c.end <= mergeGapMicros {
                c.end = max(c.end, end)      // the same app again soon after: one interval
                current = c
                continue
            }
            try flush(next: next)
            if newUser {
                offset = rowOffset
                base = rowBase
                previousUser = user
            }
            try writer.emit(time: offset + start - base, app: app, .open, user: user)
            current = next
        }
        try flush(next: nil)
    }
}
