import Foundation
import JetsimCore

/// Axes a reader can read at a glance: ticks at 1-2-5 steps with exact labels, decade ticks for log scales, and a time
/// unit that suits the span. Labels are printed from integers, so a page is byte-identical wherever it is drawn.
public enum ChartAxes {
    /// A tick: where it is (in data units) and what it says.
    public struct Tick: Equatable, Sendable {
        public var value: Double
        public var label: String
    }

    /// About `target` ticks at a step of 1, 2 or 5 × 10^k covering `low…high`: the first tick is at or below `low`, the
    /// last at or above `high`. With `integer`, the step is at least 1 (counts get no fractional ticks). Each tick is an
    /// integer multiple of the step, printed from that integer; an axis reaching 10 000 is labelled in thousands (`20k`),
    /// one reaching a million in millions (`1.5M`).
    public static func linear(_ low: Double, _ high: Double, target: Int = 5, integer: Bool = false) -> [Tick] {
        var low = low.isFinite ? low : 0, high = high.isFinite ? high : 0
        if low > high { swap(&low, &high) }
        if high - low < 1e-12 { high = low + (integer || low == 0 ? 1 : abs(low)) }
        let raw = (high - low) / Double(max(target, 1))
        var exponent = min(max(Int(floor(log10(raw))), -12), 16)
        var mantissa = [1, 2, 5, 10].first { Double($0) * pow(10, Double(exponent)) >= raw * (1 - 1e-9) } ?? 10
        if mantissa == 10 { mantissa = 1; exponent += 1 }
        if integer && exponent < 0 { mantissa = 1; exponent = 0 }
        let step = Double(mantissa) * pow(10, Double(exponent))
        let first = Int(floor(low / step + 1e-9)), last = max(Int(ceil(high / step - 1e-9)), first + 1)
        let largest = Double(max(abs(first), abs(last)) * mantissa) * pow(10, Double(exponent))
        let power = exponent < 0 ? 0 : largest >= 1e6 ? 6 : largest >= 1e4 ? 3 : 0
        return (first...last).map { n in
            Tick(value: Double(n * mantissa) * pow(10, Double(exponent)), label: label(units: n * mantissa, exponent: exponent, power: power))
        }
    }

    /// `units` × 10^`exponent` in units of 10^`power` (3: `k`, 6: `M`), exactly: `label(units: 25, exponent: -2)` is
    /// `0.25`, `label(units: 4, exponent: 4, power: 3)` is `40k`, `label(units: 15, exponent: 5, power: 6)` is `1.5M`.
    static func label(units: Int, exponent: Int, power: Int = 0) -> String {
        guard units != 0 else { return "0" }
        let suffix = power == 6 ? "M" : power == 3 ? "k" : "", shift = exponent - power
        if shift >= 0 { return String(units) + String(repeating: "0", count: shift) + suffix }
        var scale = 1
        for _ in 0 ..< -shift { scale *= 10 }
        return FixedPoint.format(units, over: scale, decimals: -shift) + suffix
    }

    /// The decades (powers of ten, as exponents) a log axis needs to show `low…high` (both positive): at least one.
    public static func decades(_ low: Double, _ high: Double) -> ClosedRange<Int> {
        let lo = low > 0 && low.isFinite ? low : 1, hi = high.isFinite ? max(high, lo) : lo
        let first = Int(floor(log10(lo) + 1e-9)), last = Int(ceil(log10(hi) - 1e-9))
        return min(max(first, -9), 15) ... min(max(last, first + 1, -8), 16)
    }

    /// A latency of 10^`exponent` ms as a reader says it: `100 ms`, `1 s`, `10 s`, `0.1 ms`.
    public static func latencyLabel(exponent: Int) -> String {
        exponent >= 3 ? "1" + String(repeating: "0", count: exponent - 3) + " s" : label(units: 1, exponent: exponent) + " ms"
    }

    /// The unit a time axis spanning `seconds` is read in: seconds up to 2 minutes, minutes up to 2 hours, hours up to
    /// 3 days, then days.
    public static func timeUnit(spanSeconds seconds: Double) -> (name: String, seconds: Double) {
        if seconds <= 120 { return ("s", 1) }
        if seconds <= 7200 { return ("min", 60) }
        if seconds <= 3 * 86400 { return ("h", 3600) }
        return ("days", 86400)
    }

    /// A value as a label: an integer as one, anything else with one decimal (exactly, from tenths).
    public static func value(_ v: Double) -> String {
        guard v.isFinite else { return "0" }
        let tenths = Int((min(max(v, -1e16), 1e16) * 10).rounded())
        return tenths % 10 == 0 ? String(tenths / 10) : FixedPoint.format(tenths, over: 10, decimals: 1)
    }
}

/// The memory timeline reduced to what a chart's pixel columns can show, in exact integer arithmetic (times and values in
/// thousandths, as the CSVs print them): the lowest and highest value in each column, and the number of kills in each.
/// The result grows with the chart's width, not with the run.
public enum TimelineColumns {
    /// The values that fell into one pixel column.
    public struct Range: Equatable, Sendable {
        public var column: Int
        public var low: Int
        public var high: Int
    }

    /// The column of time `t` on a chart from `start` to `end` over `columns` columns (the end falls in the last), or nil
    /// outside the span.
    public static func column(of t: Int, start: Int, end: Int, columns: Int) -> Int? {
        guard columns > 0, end > start, t >= start, t <= end else { return nil }
        return min(Int(Int128(t - start) * Int128(columns) / Int128(end - start)), columns - 1)
    }

    /// The lowest and highest value per column, for the columns that hold a point, left to right. `points` are in time order.
    public static func minMax(_ points: [(time: Int, value: Int)], start: Int, end: Int, columns: Int) -> [Range] {
        var ranges: [Range] = []
        for p in points {
            guard let c = column(of: p.time, start: start, end: end, columns: columns) else { continue }
            if let last = ranges.last, last.column == c {
                ranges[ranges.count - 1].low = min(last.low, p.value)
                ranges[ranges.count - 1].high = max(last.high, p.value)
            } else {
                ranges.append(Range(column: c, low: p.value, high: p.value))
            }
        }
        return ranges
    }

    /// How many of `times` fall into each column (`columns` counts; times outside the span are not counted).
    public static func counts(_ times: [Int], start: Int, end: Int, columns: Int) -> [Int] {
        var counts = Array(repeating: 0, count: max(columns, 0))
        for t in times { if let c = column(of: t, start: start, end: end, columns: columns) { counts[c] += 1 } }
        return counts
    }

    /// A number of a CSV cell in thousandths, or nil when it is not a finite number of magnitude at most 10^15.
    public static func thousandths(_ text: String?) -> Int? {
        guard let text, let v = Double(text), v.isFinite, abs(v) <= ChartReport.maxMagnitude else { return nil }
        return Int((v * 1000).rounded())
    }
}
