import JetsimCore

/// The times of `--residency FILE`: a CSV with a `time` column (seconds of the trace) and, optionally, a `user` column
/// (a row then probes that user's run only, with `--per-user`); other columns are ignored, so `jetsim import`'s
/// snapshots.csv serves as it is.
public struct ProbeTimesFile: Sendable {
    /// Every time in the file, sorted, each once.
    public var times: [Int]
    /// With a `user` column: each user's times, sorted, each once.
    public var byUser: [String: [Int]]?

    /// The times for a run of `user` (nil: not split by user).
    public func times(forUser user: String?) -> [Int] {
        guard let user, let byUser else { return times }
        return byUser[user] ?? []
    }

    public static func read(path: String) throws(InputError) -> ProbeTimesFile {
        try read(try CSVReader(path: path))
    }

    public static func read(_ reader: CSVReader) throws(InputError) -> ProbeTimesFile {
        let path = reader.path
        guard try reader.nextRow() else { throw InputError(file: path, message: "is empty: expected a header with a time column") }
        let header = reader.strings().map(\.trimmingSpaces)
        guard let timeColumn = header.firstIndex(of: "time") else {
            throw InputError(file: path, line: reader.lineNumber, message: "has no column 'time' (seconds of the trace at which to probe)")
        }
        let userColumn = header.firstIndex(of: "user")
        var all: [Int] = []
        var byUser: [String: [Int]] = [:]
        while try reader.nextRow() {
            guard let time = reader.withField(timeColumn, { DecimalParser.scaled($0, unit: Units.microsPerSecond) }), time >= 0,
                  time <= DecimalParser.maxMicros else {
                throw InputError(file: path, line: reader.lineNumber, field: "time",
                                 message: "expected seconds of the trace (0 or more), found '\(InputError.excerpt(reader.string(timeColumn)))'")
            }
            all.append(time)
            if let userColumn { byUser[reader.string(userColumn).trimmingSpaces, default: []].append(time) }
        }
        func distinct(_ times: [Int]) -> [Int] {
            var out: [Int] = []
            for t in times.sorted() where out.last != t { out.append(t) }
            return out
        }
        return ProbeTimesFile(times: distinct(all), byUser: userColumn == nil ? nil : byUser.mapValues(distinct))
    }
}
