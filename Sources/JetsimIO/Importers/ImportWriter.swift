import JetsimCore
import JetsimWorkloads

/// Collects an importer's output: the trace, streamed into a staging directory as rows arrive, and the catalog of the
/// apps seen, written at the end from their categories (or given profiles). Nothing appears at the output
/// directory until `commit` succeeds (`ReportDirectory`); a failed import leaves nothing behind.
public final class ImportWriter {
    public let directory: String
    private let output: ReportDirectory
    private let trace: AtomicFile
    private var names: [String] = []
    private var ids: [String: Int32] = [:]
    private var profiles: [String: AppProfile] = [:]
    public private(set) var rows = 0
    public private(set) var skipped = 0
    private var lastTime = 0

    public init(directory: String, source: String, format: String) throws(InputError) {
        self.directory = directory
        output = try ReportDirectory(directory, replaceable: OutputNames.workload)
        trace = try AtomicFile(path: output.file("trace.csv"))
        try trace.write("# Imported by jetsim import \(format) from \(source)\n" + WorkloadFiles.traceHeader)
    }

    /// Registers an app with a known profile (libCacheSim sizes, jetsam reports) instead of its category's.
    public func define(_ profile: AppProfile) {
        profiles[profile.name] = profile
        _ = id(profile.name)
    }

    private func id(_ name: String) -> Int32 {
        if let id = ids[name] { return id }
        names.append(name)
        ids[name] = Int32(names.count - 1)
        return Int32(names.count - 1)
    }

    /// Times are clamped to be non-decreasing (importers feed them in order already).
    public func emit(time: Int, app: String?, _ kind: TraceEventKind, value: String = "", user: String = "1") throws(InputError) {
        let t = max(time, lastTime)
        lastTime = t
        if let app { _ = id(app) }
        let seconds = t % 1000 == 0 ? FixedPoint.format(t, over: Units.microsPerSecond, decimals: 3)
                                    : FixedPoint.format(t, over: Units.microsPerSecond, decimals: 6)
        try trace.write(CSVLine.of([seconds, app ?? "", kind.traceName, value, user]))
        rows += 1
    }

    public func skip() { skipped += 1 }

    public var lastEmittedTime: Int { lastTime }

    /// Writes `apps.csv` for every app seen and renames both files into place.
    public func commit() throws(InputError) {
        if skipped > 0 { try trace.write("# \(skipped) malformed rows were skipped (--skip-bad)\n") }
        let catalog = names.map { profiles[$0] ?? AppNameCategories.category(for: $0).profile(named: $0) }
        let apps = try AtomicFile(path: output.file("apps.csv"))
        try apps.write(WorkloadFiles.catalogCSV(catalog))
        try trace.commit()
        try apps.commit()
        try output.publish()
    }

    public var appCount: Int { names.count }
}

/// Civil dates and times to epoch microseconds (UTC), without Foundation's locale machinery.
public enum Timestamps {
    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// `2018-01-16 06:01:05`, `2024-01-05T10:00:00Z`, `2024-01-05T10:00:00.250+02:00`, or epoch milliseconds (all digits).
    public static func micros(_ text: String) -> Int? {
        let s = Array(text.utf8)
        if !s.isEmpty, s.allSatisfy({ $0 >= 48 && $0 <= 57 }), s.count <= 16, let ms = Int(text) { return ms * 1000 }
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= s.count else { return nil }
            var v = 0
            for c in s[from..<(from + count)] {
                guard c >= 48 && c <= 57 else { return nil }
                v = v * 10 + Int(c - 48)
            }
            return v
        }
        guard s.count >= 19, let year = number(0, 4), s[4] == 45, let month = number(5, 2), s[7] == 45, let day = number(8, 2),
              s[10] == 32 || s[10] == 84, let hour = number(11, 2), s[13] == 58, let minute = number(14, 2), s[16] == 58,
              let second = number(17, 2), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        var micros = ((days(year: year, month: month, day: day) * 24 + hour) * 60 + minute) * 60 * 1_000_000 + second * 1_000_000
        var i = 19
        if i < s.count && s[i] == 46 {   // fraction
            i += 1
            var scale = 100_000
            while i < s.count, s[i] >= 48, s[i] <= 57 {
                micros += Int(s[i] - 48) * scale
                scale /= 10
                i += 1
            }
        }
        if i < s.count {
            if s[i] == 90 { i += 1 }      // Z
            else if s[i] == 43 || s[i] == 45, let h = number(i + 1, 2), s.count > i + 3, s[i + 3] == 58, let m = number(i + 4, 2) {
                let offset = (h * 60 + m) * 60 * 1_000_000
                micros += s[i] == 43 ? -offset : offset
                i += 6
            } else { return nil }
        }
        return i == s.count ? micros : nil
    }
}
