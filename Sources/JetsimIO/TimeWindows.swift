import JetsimCore

/// The one bound on time windows of simulated or traced time, shared by `run` (timeseries samples: `--max-samples`),
/// `compare` (`--interval` windows of every run of the grid) and `inspect` (hours of the working set): at most
/// `limit` in all, so that a trace spanning millennia, or a tiny interval, is refused with its numbers instead of
/// filling memory.
public enum TimeWindows {
    /// Most windows one command keeps (1 000 000).
    public static let limit = 1_000_000

    /// Windows of `intervalMicros` (> 0) from the first event to the last, the last one possibly partial.
    public static func count(spanMicros: Int, intervalMicros: Int) -> Int {
        max(0, spanMicros) / max(1, intervalMicros) + 1
    }

    /// Throws when `runs` runs of the windows of `intervalMicros` over `spanMicros` exceed `limit` in all.
    /// - Parameters:
    ///   - trace: the trace, named in the message.
    ///   - windows: what makes the windows, e.g. `--interval 3600 s`.
    ///   - advice: what to do instead, e.g. `choose a longer --interval`.
    ///   - exitCode: 64 when an option is to change, 65 when the trace is.
    public static func check(trace: String, spanMicros: Int, intervalMicros: Int, runs: Int = 1, windows: String,
                             advice: String, exitCode: Int32) throws(InputError) {
        let each = count(spanMicros: spanMicros, intervalMicros: intervalMicros)
        let (all, overflow) = each.multipliedReportingOverflow(by: max(1, runs))
        guard overflow || all > limit else { return }
        let made = runs > 1 ? "\(grouped(each)) windows in each of its \(runs) runs, \(overflow ? "more than \(grouped(Int.max))" : grouped(all)) in all"
                            : "\(grouped(each)) windows"
        throw InputError(file: trace, message: "the trace spans \(grouped(max(0, spanMicros) / Units.microsPerSecond)) s; \(windows) would make "
                         + "\(made) (at most \(grouped(limit))); \(advice)", exitCode: exitCode)
    }

    /// µs as seconds for a message: `3600`, or `0.5` when not whole.
    public static func seconds(_ micros: Int) -> String {
        var text = FixedPoint.format(micros, over: Units.microsPerSecond, decimals: 6)
        while text.hasSuffix("0") { text.removeLast() }
        return text.hasSuffix(".") ? String(text.dropLast()) : text
    }

    /// `1234567` as `1 234 567`.
    public static func grouped(_ n: Int) -> String {
        let digits = Array(String(n.magnitude))
        var out = n < 0 ? "-" : ""
        for (k, d) in digits.enumerated() {
            if k > 0 && (digits.count - k) % 3 == 0 { out += " " }
            out.append(d)
        }
        return out
    }
}
