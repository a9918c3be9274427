import JetsimCore

/// Imports the LSApp dataset (TSV: `user_id, session_id, timestamp, app_name, event_type`, events `Opened`,
/// `Closed`, `User Interaction`, `Broken`), sorted by user, session and time as published. When `columns` maps any
/// field, the first row is a header and the fields are found by name there.
///
/// A Closed followed by an Opened within the same second is an app switch; any other Closed, and the end of a
/// session, is a `home`. Users follow one another, each user's first event an hour after the previous user's last;
/// `user` selects one user. Streams in constant memory.
///
/// Times are ISO-8601 or epoch numbers in `timeUnit` (`Timestamps`). Limits: years 0000 to 9999, and the whole
/// imported trace, users one after another, within 2^60 µs; a row past either is refused with its line and field.
public enum LSAppImporter {
    public static func run(path: String, writer: ImportWriter, user onlyUser: String?, skipBad: Bool, timeUnit: EpochUnit = .auto,
                           columns: ImportColumns = .lsapp) throws(InputError) {
        try run(CSVReader(path: path, delimiter: UInt8(ascii: "\t")), writer: writer, user: onlyUser, skipBad: skipBad, timeUnit: timeUnit,
                columns: columns)
    }

    /// The same over bytes in memory (`name` stands for the file in messages); reads and writes no file.
    public static func run(bytes: [UInt8], name: String, writer: ImportWriter, user onlyUser: String? = nil, skipBad: Bool = false,
                           timeUnit: EpochUnit = .auto, columns: ImportColumns = .lsapp) throws(InputError) {
        try run(CSVReader(bytes: bytes, name: name, delimiter: UInt8(ascii: "\t")), writer: writer, user: onlyUser, skipBad: skipBad,
                timeUnit: timeUnit, columns: columns)
    }

    static func run(_ reader: CSVReader, writer: ImportWriter, user onlyUser: String?, skipBad: Bool, timeUnit: EpochUnit,
                    columns: ImportColumns = .lsapp) throws(InputError) {
        let path = reader.path
        var timestamps = Timestamps(unit: timeUnit)
        var header = true
        var currentUser: String?, currentSession: String?
        var foreground: String?
        var pendingClose: Int?       // output time of a Closed not yet known to be a switch
        var lastOutput = 0, offset = 0, base = 0, lastInput = Int.min
        func bad(_ field: String?, _ message: String) throws(InputError) {
            if skipBad { writer.skip(); return }
            throw InputError(file: path, line: reader.lineNumber, field: field, message: message)
        }
        func endSession(user: String) throws(InputError) {
            if let t = pendingClose ?? (foreground != nil ? lastOutput : nil) { try writer.emit(time: t, app: nil, .home, user: user) }
            pendingClose = nil
            foreground = nil
        }
        // The fields' positions: the published order, or where the header names them when `columns` maps any.
        var at = Array(0..<5)
        while try reader.nextRow() {
            if header {
                header = false
                if columns.isMapped {
                    at = try columns.positions(in: reader.strings(), file: path, line: reader.lineNumber)
                    continue
                }
                if reader.string(0).trimmingSpaces == "user_id" { continue }
            }
            let needed = (at.max() ?? 4) + 1
            guard reader.fieldCount >= needed else { try bad(nil, "expected \(needed) tab-separated fields, found \(reader.fieldCount)"); continue }
            let user = reader.string(at[0]).trimmingSpaces, session = reader.string(at[1]).trimmingSpaces
            let app = reader.string(at[3]).trimmingSpaces, event = reader.string(at[4]).trimmingSpaces
            if let onlyUser, user != onlyUser { continue }
            guard let time = timestamps.micros(reader.string(at[2]).trimmingSpaces) else {
                try bad("timestamp", "\(timestamps.problem), found '\(InputError.excerpt(reader.string(at[2])))'")
                continue
            }
            guard ["Opened", "Closed", "User Interaction", "Broken"].contains(event) else {
                try bad("event_type", "expected Opened, Closed, User Interaction or Broken, found '\(InputError.excerpt(event))'")
                continue
            }
            guard !app.isEmpty else { try bad("app_name", "the app name is empty"); continue }
            if user != currentUser {
                if let currentUser { try endSession(user: currentUser) }
                offset = currentUser == nil ? 0 : writer.lastEmittedTime + ImportWriter.gapBetweenUsers
                base = time
                lastInput = Int.min
                currentUser = user
                currentSession = session
            } else if session != currentSession {
                try endSession(user: user)
                currentSession = session
            }
            guard time >= lastInput else { try bad("timestamp", "times must not decrease within a user"); continue }
            guard let t = ImportWriter.shifted(time, base: base, offset: offset) else { try bad("timestamp", ImportWriter.pastTheLimit); continue }
            lastInput = time
            switch event {
            case "Opened", "User Interaction":
                if let closed = pendingClose, closed / Units.microsPerSecond < t / Units.microsPerSecond {
                    try writer.emit(time: closed, app: nil, .home, user: user)   // not a same-second switch
                    foreground = nil
                }
                pendingClose = nil
                if foreground != app { try writer.emit(time: t, app: app, .open, user: user) }
                foreground = app
            case "Closed":
                if foreground == app { pendingClose = t }
            default:
                writer.skip()   // Broken: the dataset's own marker of an unusable row
            }
            lastOutput = t
        }
        if let currentUser { try endSession(user: currentUser) }
    }
}
