import JetsimCore

/// Imports generic foreground intervals (CSV `user,start,end,app`; times ISO-8601 or epoch milliseconds), sorted
/// by user then start. Consecutive intervals of the same app less than `mergeGap` apart merge into one; a gap
/// of at most `mergeGap` between different apps is a direct switch, a longer one a `home`. Users follow one
/// another an hour apart. Streams with one interval of lookahead.
public enum IntervalsImporter {
    public static func run(path: String, writer: ImportWriter, user onlyUser: String?, mergeGapMicros: Int, skipBad: Bool) throws(InputError) {
        let reader = try CSVReader(path: path)
        guard try reader.nextRow() else { throw InputError(file: path, message: "the file is empty (expected the header user,start,end,app)") }
        let header = reader.strings().map(\.trimmingSpaces)
        guard let u = header.firstIndex(of: "user"), let s = header.firstIndex(of: "start"), let e = header.firstIndex(of: "end"),
              let a = header.firstIndex(of: "app") else {
            throw InputError(file: path, line: reader.lineNumber, message: "expected the header user,start,end,app, found '\(header.joined(separator: ","))'")
        }
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
            guard let start = Timestamps.micros(reader.string(s).trimmingSpaces) else { try bad("start", "expected ISO-8601 or epoch milliseconds, found '\(reader.string(s))'"); continue }
            guard let end = Timestamps.micros(reader.string(e).trimmingSpaces) else { try bad("end", "expected ISO-8601 or epoch milliseconds, found '\(reader.string(e))'"); continue }
            guard end >= start else { try bad("end", "the interval ends before it starts"); continue }
            guard !app.isEmpty else { try bad("app", "the app name is empty"); continue }
            if let c = current, c.user == user, start < c.start { try bad("start", "intervals must be sorted by start within a user"); continue }
            let next = (user: user, start: start, end: end, app: app)
            if var c = current, c.user == user, c.app == app, start - c.end <= mergeGapMicros {
                c.end = max(c.end, end)      // the same app again soon after: one interval
                current = c
                continue
            }
            try flush(next: next)
            if user != previousUser {
                offset = previousUser == nil ? 0 : writer.lastEmittedTime + 3600 * Units.microsPerSecond
                base = start
                previousUser = user
            }
            try writer.emit(time: offset + start - base, app: app, .open, user: user)
            current = next
        }
        try flush(next: nil)
    }
}
