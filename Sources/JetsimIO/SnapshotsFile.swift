import Foundation
import JetsimCore

/// `snapshots.csv` (`jetsim import studentlife`; Reports/README.md): measured residency, the ground truth of
/// `jetsim validate`. Columns `user,time,app,rank,alive` and, when present,
/// `task` (the task's id: its dead → alive transitions are counted per task), found by name in the header.
public enum SnapshotsFile {
    /// One task of one snapshot: the time (µs of its user's trace), the app (catalog id), its rank in recents (0 is the
    /// foreground) and whether its process was alive.
    public struct Task: Sendable, Equatable {
        public var time: Int
        public var app: Int32
        public var rank: Int
        public var alive: Bool
        /// The task's id as measured, or the app's name when the file has no `task` column.
        public var task: String
        public init(time: Int, app: Int32, rank: Int, alive: Bool, task: String) {
            (self.time, self.app, self.rank, self.alive, self.task) = (time, app, rank, alive, task)
        }
    }

    public static let columns = ["user", "time", "app", "rank", "alive"]

    /// Every user's tasks, in time order per user; apps are named by `catalog` (an app it lacks is an error at its line).
    public static func read(path: String, catalog: AppCatalog) throws(InputError) -> [String: [Task]] {
        try read(try CSVReader(path: path), catalog: catalog)
    }

    /// The tasks in `reader` (a file, or bytes in memory: `FuzzTarget.studentlife`).
    public static func read(_ reader: CSVReader, catalog: AppCatalog) throws(InputError) -> [String: [Task]] {
        let path = reader.path
        guard try reader.nextRow() else { throw InputError(file: path, message: "is empty: expected the header \(columns.joined(separator: ","))") }
        let header = reader.strings().map { $0.trimmingCharacters(in: .whitespaces) }
        var index: [Int] = []
        for name in columns {
            guard let k = header.firstIndex(of: name) else {
                throw InputError(file: path, line: 1, message: "has no column '\(name)' (expected \(columns.joined(separator: ",")))")
            }
            index.append(k)
        }
        let taskColumn = header.firstIndex(of: "task")
        var users: [String: [Task]] = [:]
        while try reader.nextRow() {
            let line = reader.lineNumber
            func fail(_ field: String, _ message: String) -> InputError {
                InputError(file: path, line: line, field: field, message: message)
            }
            guard reader.fieldCount >= header.count else { throw fail("user", "expected \(header.count) fields, found \(reader.fieldCount)") }
            let user = reader.string(index[0])
            guard let time = reader.withField(index[1], { DecimalParser.scaled($0, unit: Units.microsPerSecond) }), time >= 0,
                  time <= DecimalParser.maxMicros else {
                throw fail("time", "expected seconds of the trace (0 or more), found '\(InputError.excerpt(reader.string(index[1])))'")
            }
            let name = reader.string(index[2])
            guard let app = catalog.id(of: name) else {
                throw fail("app", "'\(InputError.excerpt(name))' is not in the catalog")
            }
            guard let rank = Int(reader.string(index[3]).trimmingCharacters(in: .whitespaces)), rank >= 0 else {
                throw fail("rank", "expected a whole number 0 or more, found '\(InputError.excerpt(reader.string(index[3])))'")
            }
            guard let alive = reader.withField(index[4], DecimalParser.boolean) else {
                throw fail("alive", "expected true or false, found '\(InputError.excerpt(reader.string(index[4])))'")
            }
            if let last = users[user]?.last, last.time > time {
                throw fail("time", "goes back in time for user '\(InputError.excerpt(user))' (\(FixedPoint.seconds(time)) after \(FixedPoint.seconds(last.time)))")
            }
            let task = taskColumn.map { reader.fieldCount > $0 ? reader.string($0) : "" } ?? name
            users[user, default: []].append(Task(time: time, app: app, rank: rank, alive: alive, task: task))
        }
        return users
    }
}
