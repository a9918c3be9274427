/// How an importer's all-digit times count: seconds or milliseconds since 1970-01-01 UTC (`--time-unit`).
public enum EpochUnit: String, CaseIterable, Sendable {
    /// The first all-digit time of the file decides, by its size (`Timestamps.decide`).
    case auto
    case seconds = "s"
    case milliseconds = "ms"
}

/// An importer's times to epoch microseconds (UTC), without Foundation's locale machinery: ISO-8601 dates
/// (`2018-01-16 06:01:05`, `2024-01-05T10:00:00Z`, `2024-01-05T10:00:00.250+02:00`, `2024-01-05 10:00`), validated
/// to the day (`2024-02-30` is refused), or epoch numbers in `unit`.
///
/// With `.auto`, the first epoch number of a file decides its unit for the whole file: one with a decimal point or
/// of 9 to 11 digits counts seconds (1973 to 5138), one of 12 or more digits milliseconds; fewer than 9 cannot be told
/// and is refused with a request for `--time-unit`. (Read as milliseconds, ten-digit epoch seconds made a minute 0.06 s.)
///
/// Every result lies within ±2^59 µs, so differences of two never overflow.
public struct Timestamps: Sendable {
    public private(set) var unit: EpochUnit
    /// Why the last time was refused, for the importer's message.
    public private(set) var problem = ""

    public init(unit: EpochUnit = .auto) { self.unit = unit }

    /// Largest epoch-milliseconds time accepted: 9999-12-31T23:59:59.999Z, the last instant ISO-8601 dates reach.
    public static let maxEpochMillis = 253_402_300_799_999

    /// The time `text` names, in µs since the epoch; nil with `problem` set when it names none.
    public mutating func micros(_ text: String) -> Int? {
        let s = Array(text.utf8)
        if let first = s.first, first >= 48 && first <= 57, s.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == 46 }) {
            return epoch(s)
        }
        guard let micros = Self.iso(s) else {
            problem = "expected ISO-8601 (YYYY-MM-DD HH:MM[:SS[.fff]][Z|±HH:MM], a real date in years 0000–9999) or epoch "
                + (unit == .auto ? "seconds or milliseconds" : unit == .seconds ? "seconds" : "milliseconds")
            return nil
        }
        return micros
    }

    /// The unit auto-detection gives an epoch number of `digits` digits (`decimal`: it has a decimal point).
    static func decide(digits: Int, decimal: Bool) -> EpochUnit? {
        if decimal { return .seconds }
        switch digits {
        case 9...11: return .seconds
        case 12...: return .milliseconds   // beyond 15 digits, past year 9999 either way: refused by the range check
        default: return nil
        }
    }

    private mutating func epoch(_ s: [UInt8]) -> Int? {
        let dot = s.firstIndex(of: 46)
        let whole = s[..<(dot ?? s.count)]
        let fraction = dot.map { s[($0 + 1)...] } ?? []
        guard !whole.isEmpty, !fraction.contains(46), dot == nil || !fraction.isEmpty else {
            problem = "expected an epoch number (digits, one decimal point)"
            return nil
        }
        if unit == .auto {
            let significant = whole.drop { $0 == 48 }.count
            guard let decided = Self.decide(digits: significant, decimal: dot != nil) else {
                problem = "cannot tell whether this epoch number counts seconds or milliseconds (9–11 digits are taken as "
                    + "seconds, 12–15 as milliseconds); give --time-unit s or ms"
                return nil
            }
            unit = decided
        }
        let perUnit = unit == .seconds ? 1_000_000 : 1_000
        let largest = Self.maxEpochMillis * 1_000 / perUnit
        guard whole.count <= 16, let value = Int(String(decoding: whole, as: UTF8.self)), value <= largest else {
            problem = "the epoch time is past 9999-12-31 (at most \(largest) \(unit == .seconds ? "seconds" : "milliseconds"))"
            return nil
        }
        var micros = value * perUnit
        var scale = perUnit / 10
        for digit in fraction.prefix(unit == .seconds ? 6 : 3) {
            micros += Int(digit - 48) * scale
            scale /= 10
        }
        return micros
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Days in `month` of `year` (proleptic Gregorian).
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// An ISO-8601 date and time (seconds optional), or nil.
    static func iso(_ s: [UInt8]) -> Int? {
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= s.count else { return nil }
            var v = 0
            for c in s[from..<(from + count)] {
                guard c >= 48 && c <= 57 else { return nil }
                v = v * 10 + Int(c - 48)
            }
            return v
        }
        guard s.count >= 16, let year = number(0, 4), s[4] == 45, let month = number(5, 2), s[7] == 45, let day = number(8, 2),
              s[10] == 32 || s[10] == 84, let hour = number(11, 2), s[13] == 58, let minute = number(14, 2),
              (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour < 24, minute < 60 else { return nil }
        var i = 16
        var second = 0
        if i < s.count && s[i] == 58 {
            guard let sec = number(17, 2), sec < 61 else { return nil }
            second = sec
            i = 19
        }
        var micros = ((days(year: year, month: month, day: day) * 24 + hour) * 60 + minute) * 60 * 1_000_000 + second * 1_000_000
        if i < s.count && s[i] == 46 {   // fraction, to the microsecond
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
            else if s[i] == 43 || s[i] == 45, let h = number(i + 1, 2), s.count > i + 3, s[i + 3] == 58, let m = number(i + 4, 2),
                    h < 24, m < 60 {
                let offset = (h * 60 + m) * 60 * 1_000_000
                micros += s[i] == 43 ? -offset : offset
                i += 6
            } else { return nil }
        }
        return i == s.count ? micros : nil
    }
}
