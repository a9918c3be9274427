import Foundation
import JetsimCore

/// `report.html`: a self-contained page (inline SVG and CSS; no script, no network) drawn from the CSVs of a compare
/// directory, so `jetsim plot DIR` can redraw it at any time: cold launches and user-visible kills (bars with error
/// bars), kills by reason, cold launches against RAM, intervals over time, the top apps' cold launches, one cell's
/// memory timeline reduced to pixel columns, and launch-latency distributions (log scale). Each chart is also a
/// standalone SVG file (`files(directory:memoryChart:)`).
///
/// Every number drawn from a file must be finite and at most `maxMagnitude` in size; anything else is refused with
/// its file, line and column. Drawing itself clamps what it converts to pixels, so no value can stop it.
public enum ChartReport {
    /// The most points of the charted cell's memory series (chart-timeseries.csv) `compare` keeps: more than a chart's
    /// pixel columns can show, few enough to draw at once, whatever the run's length.
    public static let maxSeriesPoints = 100_000

    /// One row of a CSV table, read by column name. Rows share their table's column index, so reading a large
    /// file costs one array of strings per row (not one dictionary).
    public struct Row: Sendable {
        let columns: [String: Int]
        let values: [String]
        /// Line of the row in its file.
        public let line: Int
        public subscript(name: String) -> String? {
            guard let k = columns[name], values.indices.contains(k) else { return nil }
            return values[k]
        }
    }

    /// A CSV file as rows of named fields (quoted fields handled by the project's reader; a byte-order mark skipped).
    public static func table(_ path: String) throws(InputError) -> [Row] {
        try rows(of: try CSVReader(path: path))
    }

    /// CSV text in memory as rows of named fields.
    public static func table(text: String, name: String) throws(InputError) -> [Row] {
        try rows(of: CSVReader(bytes: Array(text.utf8), name: name))
    }

    /// CSV bytes in memory as rows of named fields.
    public static func table(bytes: [UInt8], name: String) throws(InputError) -> [Row] {
        try rows(of: CSVReader(bytes: bytes, name: name))
    }

    private static func rows(of reader: CSVReader) throws(InputError) -> [Row] {
        guard try reader.nextRow() else { return [] }
        var columns: [String: Int] = [:]
        for (k, name) in reader.strings().enumerated() where columns[name] == nil { columns[name] = k }
        var rows: [Row] = []
        while try reader.nextRow() { rows.append(Row(columns: columns, values: reader.strings(), line: reader.lineNumber)) }
        return rows
    }

    /// Largest magnitude of a number drawn (counts, MB, seconds and milliseconds all stay far below).
    public static let maxMagnitude = 1e15

    /// The tables the page is drawn from, by file name, with the columns whose numbers are drawn.
    public static let numericColumns: [(file: String, columns: [String])] = [
        ("summary.csv", ["cold_launches", "user_visible_kills"] + killReasons.map(\.column)), ("latency.csv", ["latency_ms", "launches"]),
        ("chart-timeseries.csv", ["time", "available_mb"]), ("chart-kills.csv", ["time"]),
        ("intervals.csv", ["interval_start_s", "interval_end_s", "cold_launches"]), ("chart-devices.csv", ["physical_bytes"]),
        ("chart-apps.csv", ["cold_launches"]),
    ]

    /// `rows` of the table `kind` (a file name of `numericColumns`) after checking every drawn number: empty cells are
    /// left out of the charts, anything else must be a finite number of magnitude at most `maxMagnitude`.
    static func checked(_ rows: [Row], kind: String, file: String) throws(InputError) -> [Row] {
        let columns = numericColumns.first { $0.file == kind }?.columns ?? []
        for row in rows {
            for column in columns {
                guard let text = row[column], !text.isEmpty else { continue }
                guard let v = Double(text), v.isFinite, abs(v) <= maxMagnitude else {
                    throw InputError(file: file, line: row.line, field: column,
                                     message: "expected a finite number of magnitude at most 1e15, found '\(InputError.excerpt(text))'")
                }
            }
        }
        return rows
    }

    /// The table `kind` of the compare directory `directory`, checked.
    private static func table(in directory: String, _ kind: String) throws(InputError) -> [Row] {
        try checked(table(directory + "/" + kind), kind: kind, file: directory + "/" + kind)
    }

    static let palette = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"]

    /// HTML-escapes in one pass.
    static func esc(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for ch in s.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }

    /// One decimal, rendered from integers (no Foundation formatting in loops over thousands of points). Values
    /// beyond ±10^16 are drawn at that bound, a value that is not a number as 0.
    static func f(_ v: Double) -> String {
        let tenths = (v * 10).rounded()
        guard !tenths.isNaN else { return "0.0" }
        return FixedPoint.format(Int(min(max(tenths, -1e17), 1e17)), over: 10, decimals: 1)
    }

    /// The pixel column of an x coordinate, clamped to ±10^9 (0 for a value that is not a number).
    static func pixel(_ x: Double) -> Int {
        x.isNaN ? 0 : Int(min(max(x, -1e9), 1e9))
    }

    /// A number of a row's cell, or nil when empty or not drawable.
    static func number(_ row: Row, _ column: String) -> Double? {
        guard let text = row[column], let v = Double(text), v.isFinite, abs(v) <= maxMagnitude else { return nil }
        return v
    }

    /// Short labels for policies' display names: the policy's name (`xnu`, not its 90 characters of parameters); where two
    /// share a name, the name with the parameters that tell them apart (`cost(alpha=0.5)`).
    public static func shortLabels(_ names: [String]) -> [String] {
        func split(_ name: String) -> (base: String, parameters: [String]) {
            guard let open = name.firstIndex(of: "("), name.hasSuffix(")"), open > name.startIndex else { return (name, []) }
            let inner = name[name.index(after: open) ..< name.index(before: name.endIndex)]
            return (String(name[..<open]), inner.split(separator: ",").map(String.init))
        }
        let parts = names.map(split)
        return names.indices.map { i in
            let twins = parts.indices.filter { parts[$0].base == parts[i].base }
            guard twins.count > 1 else { return parts[i].base }
            let differing = parts[i].parameters.filter { p in twins.contains { !parts[$0].parameters.contains(p) } }
            return differing.isEmpty ? names[i] : "\(parts[i].base)(\(differing.joined(separator: ",")))"
        }
    }

    /// A file-name-safe form of `name`: lowercase letters, digits and dashes.
    static func slug(_ name: String) -> String {
        var out = ""
        for ch in name.lowercased().unicodeScalars {
            if ("a"..."z").contains(ch) || ("0"..."9").contains(ch) { out.unicodeScalars.append(ch) } else if !out.hasSuffix("-") { out += "-" }
        }
        while out.hasSuffix("-") { out.removeLast() }
        return out.isEmpty ? "x" : out
    }

    /// The grid a compare directory describes: devices and policies in the order summary.csv lists them, its rows by cell.
    struct Grid {
        var devices: [String] = [], policies: [String] = [], labels: [String] = []
        var cells: [String: [Row]] = [:]
        init(summary: [Row]) {
            for r in summary {
                guard let d = r["device"], let p = r["policy"] else { continue }
                if !devices.contains(d) { devices.append(d) }
                if !policies.contains(p) { policies.append(p) }
                cells[Self.key(d, p), default: []].append(r)
            }
            labels = ChartReport.shortLabels(policies)
        }
        static func key(_ device: String, _ policy: String) -> String { device + "\u{1F}" + policy }
        /// Mean and 95 % half-width of a summary.csv column over a cell's runs (seeds × workloads): the numbers compare.csv
        /// holds, computed by the same function.
        func stats(_ device: String, _ policy: String, _ column: String) -> (mean: Double, halfWidth: Double) {
            CompareReports.meanAndInterval((cells[Self.key(device, policy)] ?? []).compactMap { ChartReport.number($0, column) })
        }
        var runsPerCell: Int { cells.values.map(\.count).max() ?? 0 }
        func color(_ k: Int) -> String { palette[k % palette.count] }
        var legend: [ChartFrame.Entry] { policies.indices.map { ChartFrame.Entry(label: labels[$0], color: color($0), tooltip: policies[$0]) } }
    }

    /// One bar of a grouped bar chart: its height, the half-width of its error bar (0: none), its tooltip.
    struct Bar { var value: Double, halfWidth: Double, tooltip: String }

    /// Grouped bars from zero: one group per `groups` entry, one bar per legend entry, value labels when there are few bars
    /// and error bars where a half-width is given.
    static func groupedBars(name: String, title: String, subtitle: String, yTitle: String, xTitle: String, groups: [String],
                            legend entries: [ChartFrame.Entry], bars: [[Bar]]) -> String {
        let top = ChartFrame.top(legend: entries)
        let frame = ChartFrame(height: top + 300, top: top, bottom: 64)
        let peak = bars.joined().map { $0.value + $0.halfWidth }.max() ?? 0
        let ticks = ChartAxes.linear(0, max(peak, 1), integer: true)
        let yMax = ticks.last?.value ?? 1
        func y(_ v: Double) -> Double { frame.plotBottom - (frame.plotBottom - frame.plotTop) * min(max(v, 0), yMax) / yMax }
        var svg = frame.open(name: name, title: title, subtitle: subtitle)
        svg += ChartFrame.legend(entries, x: frame.plotLeft, y: 60).svg
        svg += frame.yAxis(ticks, y: y, title: yTitle)
        let groupWidth = (frame.plotRight - frame.plotLeft) / Double(max(groups.count, 1))
        let barWidth = groupWidth * 0.8 / Double(max(entries.count, 1))
        let labelled = groups.count * entries.count <= 16
        for (g, group) in groups.enumerated() {
            let x0 = frame.plotLeft + Double(g) * groupWidth + groupWidth * 0.1
            for (k, entry) in entries.enumerated() where g < bars.count && k < bars[g].count {
                let bar = bars[g][k], x = x0 + Double(k) * barWidth, w = barWidth * 0.88
                svg += "<rect class=\"bar\" x=\"\(f(x))\" y=\"\(f(y(bar.value)))\" width=\"\(f(w))\" height=\"\(f(y(0) - y(bar.value)))\" "
                    + "fill=\"\(entry.color)\"><title>\(esc(bar.tooltip))</title></rect>"
                let cx = x + w / 2
                if bar.halfWidth > 0 {
                    let lo = y(bar.value - bar.halfWidth), hi = y(bar.value + bar.halfWidth), cap = min(w / 4, 5)
                    svg += "<path class=\"error-bar\" d=\"M\(f(cx)) \(f(lo))V\(f(hi))M\(f(cx - cap)) \(f(lo))H\(f(cx + cap))M\(f(cx - cap)) \(f(hi))H\(f(cx + cap))\">"
                        + "<title>95 % confidence interval: ±\(ChartAxes.value(bar.halfWidth))</title></path>"
                }
                if labelled {
                    svg += "<text class=\"value-label\" x=\"\(f(cx))\" y=\"\(f(y(bar.value + bar.halfWidth) - 5))\" text-anchor=\"middle\">\(ChartAxes.value(bar.value))</text>"
                }
            }
            svg += "<text class=\"category\" x=\"\(f(x0 + groupWidth * 0.4))\" y=\"\(f(frame.plotBottom + 20))\" text-anchor=\"middle\">\(esc(group))</text>"
        }
        return svg + frame.baseline() + frame.xTitle(xTitle) + "</svg>"
    }

    /// What a chart over `grid` shows per device and policy, and what its error bars (if it draws them) stand for.
    static func runsNote(_ grid: Grid, errorBars: Bool = true) -> String {
        guard grid.runsPerCell > 1 else { return "one run per device and policy" }
        return "mean of \(grid.runsPerCell) runs per device and policy (seeds × workloads)"
            + (errorBars ? "; error bars where the runs differ: 95 % confidence interval, as in compare.csv" : "")
    }

    /// A summary.csv metric per device (groups) and policy (bars), with error bars over the runs.
    static func metricBars(_ grid: Grid, metric: String, title: String, yTitle: String) -> String {
        let bars = grid.devices.map { d in
            grid.policies.map { p in
                let s = grid.stats(d, p, metric)
                return Bar(value: s.mean, halfWidth: s.halfWidth,
                           tooltip: "\(d) · \(p): \(ChartAxes.value(s.mean))" + (s.halfWidth > 0 ? " ± \(ChartAxes.value(s.halfWidth))" : ""))
            }
        }
        return groupedBars(name: metric.replacingOccurrences(of: "_", with: "-"), title: title, subtitle: runsNote(grid), yTitle: yTitle,
                           xTitle: "Device", groups: grid.devices, legend: grid.legend, bars: bars)
    }

    /// summary.csv's kill-reason columns, with the reasons' report names.
    static let killReasons: [(column: String, reason: String)] = KillReason.summaryColumns.map {
        ("kills_" + $0.reportName.replacingOccurrences(of: "-", with: "_"), $0.reportName)
    }

    /// Kills by reason: per device, one stacked bar per policy (means over the runs); reasons that never occur are left out.
    static func killsByReason(_ grid: Grid) -> String {
        let means = grid.devices.map { d in grid.policies.map { p in killReasons.map { grid.stats(d, p, $0.column).mean } } }
        let present = killReasons.indices.filter { r in means.joined().contains { $0[r] > 0 } }
        let entries = present.enumerated().map { k, r in ChartFrame.Entry(label: killReasons[r].reason, color: grid.color(k), tooltip: killReasons[r].column) }
        let top = ChartFrame.top(legend: entries)
        let bars = grid.devices.count * grid.policies.count
        let groupWidth = (ChartFrame.width - 102) / Double(max(grid.devices.count, 1))
        let barWidth = groupWidth * 0.8 / Double(max(grid.policies.count, 1))
        let longest = Double(grid.labels.map(\.count).max() ?? 0) * 6.5
        let turned = longest > barWidth   // policy labels turned when they do not fit under their bars
        let frame = ChartFrame(height: top + 300 + (turned ? longest * 0.6 : 0), top: top, bottom: 84 + (turned ? longest * 0.6 : 0))
        let peak = means.joined().map { $0.reduce(0, +) }.max() ?? 0
        let ticks = ChartAxes.linear(0, max(peak, 1), integer: true)
        let yMax = ticks.last?.value ?? 1
        func y(_ v: Double) -> Double { frame.plotBottom - (frame.plotBottom - frame.plotTop) * min(max(v, 0), yMax) / yMax }
        var svg = frame.open(name: "kills-by-reason", title: "Kills by reason", subtitle: runsNote(grid, errorBars: false))
        svg += ChartFrame.legend(entries, x: frame.plotLeft, y: 60).svg
        svg += frame.yAxis(ticks, y: y, title: "Kills")
        for (g, d) in grid.devices.enumerated() {
            let x0 = frame.plotLeft + Double(g) * groupWidth + groupWidth * 0.1
            for (k, p) in grid.policies.enumerated() {
                let x = x0 + Double(k) * barWidth, w = barWidth * 0.88, cx = x + w / 2
                var base = 0.0
                for (c, r) in present.enumerated() where means[g][k][r] > 0 {
                    let v = means[g][k][r]
                    svg += "<rect class=\"bar\" x=\"\(f(x))\" y=\"\(f(y(base + v)))\" width=\"\(f(w))\" height=\"\(f(y(base) - y(base + v)))\" fill=\"\(grid.color(c))\">"
                        + "<title>\(esc(d)) · \(esc(p)): \(ChartAxes.value(v)) \(killReasons[r].reason)</title></rect>"
                    base += v
                }
                if bars <= 16 {
                    svg += "<text class=\"value-label\" x=\"\(f(cx))\" y=\"\(f(y(base) - 5))\" text-anchor=\"middle\">\(ChartAxes.value(base))</text>"
                }
                let ly = frame.plotBottom + 16
                svg += turned
                    ? "<text class=\"category policy\" x=\"\(f(cx))\" y=\"\(f(ly))\" text-anchor=\"end\" transform=\"rotate(-40 \(f(cx)) \(f(ly)))\">\(esc(grid.labels[k]))</text>"
                    : "<text class=\"category policy\" x=\"\(f(cx))\" y=\"\(f(ly))\" text-anchor=\"middle\">\(esc(grid.labels[k]))</text>"
            }
            svg += "<text class=\"category\" x=\"\(f(x0 + groupWidth * 0.4))\" y=\"\(f(frame.height - 34))\" text-anchor=\"middle\">\(esc(d))</text>"
        }
        return svg + frame.baseline() + frame.xTitle("Policy, by device") + "</svg>"
    }

    /// Cold launches against device RAM, one line per policy, devices ordered by RAM (the jetsam counterpart of a
    /// miss-ratio curve). nil with fewer than two devices of known RAM.
    static func coldLaunchesVersusRAM(_ grid: Grid, devices deviceRows: [Row]) -> String? {
        var ram: [String: Double] = [:]
        for r in deviceRows { if let d = r["device"], let b = number(r, "physical_bytes") { ram[d] = b } }
        let devices = grid.devices.filter { ram[$0] != nil }.enumerated().sorted { a, b in
            (ram[a.element] ?? 0, a.offset) < (ram[b.element] ?? 0, b.offset)
        }.map(\.element)
        guard devices.count >= 2 else { return nil }
        let entries = grid.legend
        let top = ChartFrame.top(legend: entries)
        let frame = ChartFrame(height: top + 320, top: top, bottom: 84)
        let stats = grid.policies.map { p in devices.map { grid.stats($0, p, "cold_launches") } }
        let peak = stats.joined().map { $0.mean + $0.halfWidth }.max() ?? 0
        let ticks = ChartAxes.linear(0, max(peak, 1), integer: true)
        let yMax = ticks.last?.value ?? 1
        func y(_ v: Double) -> Double { frame.plotBottom - (frame.plotBottom - frame.plotTop) * min(max(v, 0), yMax) / yMax }
        let step = (frame.plotRight - frame.plotLeft) / Double(devices.count)
        func x(_ i: Int) -> Double { frame.plotLeft + step * (Double(i) + 0.5) }
        var svg = frame.open(name: "cold-launches-vs-ram", title: "Cold launches vs device RAM",
                             subtitle: "devices ordered by RAM; " + runsNote(grid))
        svg += ChartFrame.legend(entries, x: frame.plotLeft, y: 60).svg
        svg += frame.yAxis(ticks, y: y, title: "Cold launches")
        for (i, d) in devices.enumerated() {
            svg += "<line class=\"grid\" x1=\"\(f(x(i)))\" y1=\"\(f(frame.plotTop))\" x2=\"\(f(x(i)))\" y2=\"\(f(frame.plotBottom))\"/>"
            svg += "<text class=\"category\" x=\"\(f(x(i)))\" y=\"\(f(frame.plotBottom + 20))\" text-anchor=\"middle\">\(esc(d))</text>"
            svg += "<text class=\"tick-label x\" x=\"\(f(x(i)))\" y=\"\(f(frame.plotBottom + 36))\" text-anchor=\"middle\">"
                + "\(ChartAxes.value((ram[d] ?? 0) / 1_073_741_824)) GiB</text>"
        }
        for (k, p) in grid.policies.enumerated() {
            let color = grid.color(k)
            svg += "<g class=\"line\"><title>\(esc(p))</title><polyline class=\"series\" stroke=\"\(color)\" points=\""
                + devices.indices.map { "\(f(x($0))),\(f(y(stats[k][$0].mean)))" }.joined(separator: " ") + "\"/>"
            for (i, d) in devices.enumerated() {
                let s = stats[k][i]
                if s.halfWidth > 0 {
                    svg += "<path class=\"error-bar\" stroke=\"\(color)\" d=\"M\(f(x(i))) \(f(y(s.mean - s.halfWidth)))V\(f(y(s.mean + s.halfWidth)))\"/>"
                }
                svg += "<circle class=\"point\" cx=\"\(f(x(i)))\" cy=\"\(f(y(s.mean)))\" r=\"3.5\" fill=\"\(color)\"><title>\(esc(d)) · \(esc(p)): "
                    + "\(ChartAxes.value(s.mean))\(s.halfWidth > 0 ? " ± " + ChartAxes.value(s.halfWidth) : "")</title></circle>"
            }
            svg += "</g>"
        }
        return svg + frame.baseline() + frame.xTitle("Device (physical RAM)") + "</svg>"
    }

    /// A time axis from 0 to `spanSeconds` in the unit the span suggests; `x` places seconds.
    static func timeAxis(_ frame: ChartFrame, spanSeconds: Double, x: (Double) -> Double, what: String) -> String {
        let unit = ChartAxes.timeUnit(spanSeconds: spanSeconds)
        let ticks = ChartAxes.linear(0, spanSeconds / unit.seconds, target: 8).filter { $0.value * unit.seconds <= spanSeconds * (1 + 1e-9) }
        return frame.xAxis(ticks, x: { x($0 * unit.seconds) }, title: "\(what) (\(unit.name))")
    }

    /// Available memory over time for one cell, reduced to the chart's pixel columns (the lowest and highest sample in
    /// each), with its kills counted per pixel column in a strip beneath.
    static func memory(timeseries: [Row], kills: [Row], cell: String) -> String {
        let frame = ChartFrame(height: 420, top: 56, bottom: 60)
        let memoryBottom = frame.plotBottom - 90, stripTop = memoryBottom + 22
        let points = timeseries.compactMap { r -> (time: Int, value: Int)? in
            guard let t = TimelineColumns.thousandths(r["time"]), let a = TimelineColumns.thousandths(r["available_mb"]) else { return nil }
            return (t, a)
        }
        let killTimes = kills.map { TimelineColumns.thousandths($0["time"]) }
        var svg = frame.open(name: "memory", title: "Available memory and kills", subtitle: cell.isEmpty ? nil
                             : "\(cell) · memory: lowest–highest sample per pixel column · kills: count per pixel column")
        let times = points.map(\.time) + killTimes.compactMap { $0 }
        guard let t0 = times.min(), let t1 = times.max(), t1 > t0 else {
            return svg + "<text class=\"subtitle\" x=\"\(f(frame.plotLeft))\" y=\"90\">no samples</text></svg>"
        }
        let columns = frame.columns
        let ranges = TimelineColumns.minMax(points, start: t0, end: t1, columns: columns)
        let low = min(ranges.map(\.low).min() ?? 0, 0), high = max(ranges.map(\.high).max() ?? 1000, 1000)
        let ticks = ChartAxes.linear(Double(low) / 1000, Double(high) / 1000)
        let yLow = ticks.first?.value ?? 0, yHigh = ticks.last?.value ?? 1
        func y(_ mb: Double) -> Double { memoryBottom - (memoryBottom - frame.plotTop) * (mb - yLow) / max(yHigh - yLow, 1e-9) }
        func x(column c: Int) -> Double { frame.plotLeft + Double(c) + 0.5 }
        let span = Double(t1 - t0) / 1000
        svg += frame.yAxis(ticks, y: y, title: "Available memory (MB)", bottom: memoryBottom)
        svg += timeAxis(frame, spanSeconds: span, x: { frame.plotLeft + (frame.plotRight - frame.plotLeft) * $0 / span }, what: "Time since start")
        if !ranges.isEmpty {
            let upper = ranges.map { "\(f(x(column: $0.column))),\(f(y(Double($0.high) / 1000)))" }
            let lower = ranges.reversed().map { "\(f(x(column: $0.column))),\(f(y(Double($0.low) / 1000)))" }
            svg += "<polygon class=\"band series\" fill=\"#4e79a7\" stroke=\"#4e79a7\" points=\"\((upper + lower).joined(separator: " "))\">"
                + "<title>available memory, lowest to highest per pixel column</title></polygon>"
        }
        // Kills per pixel column, each column titled with a few of its kills.
        let counts = TimelineColumns.counts(killTimes.compactMap { $0 }, start: t0, end: t1, columns: columns)
        var examples: [Int: [String]] = [:]
        for (k, t) in zip(kills, killTimes) {
            guard let t, let c = TimelineColumns.column(of: t, start: t0, end: t1, columns: columns), examples[c, default: []].count < 3 else { continue }
            examples[c, default: []].append("\(k["app"] ?? "") (\(k["reason"] ?? "")) at \(k["time"] ?? "") s")
        }
        let stripTicks = ChartAxes.linear(0, Double(max(counts.max() ?? 0, 1)), target: 2, integer: true)
        let stripMax = stripTicks.last?.value ?? 1
        func stripY(_ n: Double) -> Double { frame.plotBottom - (frame.plotBottom - stripTop) * n / stripMax }
        svg += frame.yAxis(stripTicks, y: stripY, title: "Kills", top: stripTop)
        for (c, n) in counts.enumerated() where n > 0 {
            let shown = examples[c] ?? []
            let more = n > shown.count ? "; \(n - shown.count) more" : ""
            svg += "<rect class=\"kill\" x=\"\(f(frame.plotLeft + Double(c)))\" y=\"\(f(stripY(Double(n))))\" width=\"1.2\" height=\"\(f(stripY(0) - stripY(Double(n))))\">"
                + "<title>\(n) kill\(n == 1 ? "" : "s"): \(esc(shown.joined(separator: "; ")))\(more)</title></rect>"
        }
        return svg + "</svg>"
    }

    /// Cumulative launch-latency distribution per policy for one device, on a log-scale latency axis with decade ticks.
    static func latency(rows: [Row], device: String, grid: Grid, name: String) -> String {
        var byPolicy: [String: [Double: Double]] = [:]
        for r in rows where r["device"] == device {
            guard let p = r["policy"], let ms = number(r, "latency_ms"), let n = number(r, "launches") else { continue }
            byPolicy[p, default: [:]][ms, default: 0] += n
        }
        let all = byPolicy.values.flatMap(\.keys)
        let decades = ChartAxes.decades(all.filter { $0 > 0 }.min() ?? 1, all.max() ?? 10)
        let entries = grid.legend
        let top = ChartFrame.top(legend: entries)
        let frame = ChartFrame(height: top + 300, top: top, bottom: 64)
        let lo = Double(decades.lowerBound), hi = Double(decades.upperBound)
        func xLog(_ exponent: Double) -> Double { frame.plotLeft + (frame.plotRight - frame.plotLeft) * (exponent - lo) / (hi - lo) }
        func x(_ ms: Double) -> Double { ms > 0 ? xLog(min(max(log10(ms), lo), hi)) : frame.plotLeft }
        func y(_ percent: Double) -> Double { frame.plotBottom - (frame.plotBottom - frame.plotTop) * percent / 100 }
        var svg = frame.open(name: name, title: "Launch latency — \(device)", subtitle: "cumulative share of launches, all runs of each policy")
        svg += ChartFrame.legend(entries, x: frame.plotLeft, y: 60).svg
        svg += frame.yAxis(ChartAxes.linear(0, 100).map { ChartAxes.Tick(value: $0.value, label: $0.label + " %") }, y: y, title: "Launches at or below")
        let ticks = decades.map { ChartAxes.Tick(value: Double($0), label: ChartAxes.latencyLabel(exponent: $0)) }
        let minor = decades.dropLast().flatMap { e in (2...9).map { log10(Double($0)) + Double(e) } }
        svg += frame.xAxis(ticks, x: xLog, title: "Launch latency (log scale)", minor: minor)
        for (k, p) in grid.policies.enumerated() {
            guard let counts = byPolicy[p] else { continue }
            let total = counts.values.reduce(0, +)
            guard total > 0 else { continue }
            var acc = 0.0, points: [String] = []
            for (ms, n) in counts.sorted(by: { $0.key < $1.key }) {
                points.append("\(f(x(ms))),\(f(y(100 * acc / total)))")
                acc += n
                points.append("\(f(x(ms))),\(f(y(100 * acc / total)))")
            }
            points.append("\(f(frame.plotRight)),\(f(y(100)))")
            svg += "<polyline class=\"series\" stroke=\"\(grid.color(k))\" points=\"\(points.joined(separator: " "))\"><title>\(esc(p))</title></polyline>"
        }
        return svg + "</svg>"
    }

    /// Cold launches per interval of intervals.csv over time for one device, one line per policy (means over seeds).
    static func intervals(rows: [Row], device: String, grid: Grid, name: String) -> String? {
        var byPolicy: [String: [Int: [Double]]] = [:]
        var start = Int.max, end = Int.min
        for r in rows where r["device"] == device {
            guard let p = r["policy"], let s = TimelineColumns.thousandths(r["interval_start_s"]), let e = TimelineColumns.thousandths(r["interval_end_s"]),
                  let v = number(r, "cold_launches") else { continue }
            byPolicy[p, default: [:]][e, default: []].append(v)
            start = min(start, s)
            end = max(end, e)
        }
        guard end > start else { return nil }
        let series = grid.policies.map { p in (byPolicy[p] ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value.reduce(0, +) / Double($0.value.count)) } }
        let entries = grid.legend
        let top = ChartFrame.top(legend: entries)
        let frame = ChartFrame(height: top + 300, top: top, bottom: 64)
        let ticks = ChartAxes.linear(0, max(series.joined().map(\.1).max() ?? 1, 1), integer: true)
        let yMax = ticks.last?.value ?? 1
        let span = Double(end - start) / 1000
        func x(_ seconds: Double) -> Double { frame.plotLeft + (frame.plotRight - frame.plotLeft) * seconds / span }
        func y(_ v: Double) -> Double { frame.plotBottom - (frame.plotBottom - frame.plotTop) * min(max(v, 0), yMax) / yMax }
        var svg = frame.open(name: name, title: "Cold launches per interval — \(device)", subtitle: "from intervals.csv, at each interval's end; mean over seeds")
        svg += ChartFrame.legend(entries, x: frame.plotLeft, y: 60).svg
        svg += frame.yAxis(ticks, y: y, title: "Cold launches per interval")
        svg += timeAxis(frame, spanSeconds: span, x: x, what: "Time since start")
        for (k, p) in grid.policies.enumerated() where !series[k].isEmpty {
            svg += "<polyline class=\"series\" stroke=\"\(grid.color(k))\" points=\""
                + series[k].map { "\(f(x(Double($0.0 - start) / 1000))),\(f(y($0.1)))" }.joined(separator: " ") + "\"><title>\(esc(p))</title></polyline>"
        }
        return svg + "</svg>"
    }

    /// Cold launches of the apps that cold-launch most (chart-apps.csv), per policy, for one device.
    static func apps(rows: [Row], device: String, grid: Grid, name: String) -> String? {
        var apps: [String] = [], values: [String: Double] = [:]
        for r in rows where r["device"] == device {
            guard let a = r["app"], let p = r["policy"], let v = number(r, "cold_launches") else { continue }
            if !apps.contains(a) { apps.append(a) }
            values[Grid.key(a, p)] = v
        }
        guard !apps.isEmpty else { return nil }
        let bars = apps.map { a in
            grid.policies.map { p in Bar(value: values[Grid.key(a, p)] ?? 0, halfWidth: 0, tooltip: "\(a) · \(p): \(ChartAxes.value(values[Grid.key(a, p)] ?? 0))") }
        }
        return groupedBars(name: name, title: "Cold launches per app — \(device)", subtitle: "the \(apps.count) apps with the most cold launches over all cells; mean over the runs",
                           yTitle: "Cold launches", xTitle: "App", groups: apps, legend: grid.legend, bars: bars)
    }

    /// The tables of a compare directory the page is drawn from (the memory chart is drawn apart, see `memoryChart`).
    struct Tables {
        var summary: [Row], latency: [Row], intervals: [Row] = [], devices: [Row] = [], apps: [Row] = []
    }

    /// Every chart of the page, by name (its standalone file is chart-NAME.svg), in page order.
    static func charts(_ tables: Tables, memoryChart: String) -> [(name: String, svg: String)] {
        let grid = Grid(summary: tables.summary)
        var charts: [(name: String, svg: String)] = []
        func add(_ svg: String?) {
            guard let svg, let start = svg.range(of: "data-chart=\""), let end = svg[start.upperBound...].firstIndex(of: "\"") else { return }
            charts.append((String(svg[start.upperBound..<end]), svg))
        }
        add(metricBars(grid, metric: "cold_launches", title: "Cold launches", yTitle: "Cold launches"))
        add(metricBars(grid, metric: "user_visible_kills", title: "User-visible kills", yTitle: "User-visible kills"))
        add(killsByReason(grid))
        add(coldLaunchesVersusRAM(grid, devices: tables.devices))
        var used: Set<String> = []
        func name(_ prefix: String, _ device: String) -> String {
            var n = prefix + "-" + slug(device), k = 2
            while used.contains(n) { n = prefix + "-" + slug(device) + "-\(k)"; k += 1 }
            used.insert(n)
            return n
        }
        for d in grid.devices { add(intervals(rows: tables.intervals, device: d, grid: grid, name: name("intervals", d))) }
        for d in grid.devices { add(apps(rows: tables.apps, device: d, grid: grid, name: name("apps", d))) }
        add(memoryChart)
        for d in grid.devices { add(latency(rows: tables.latency, device: d, grid: grid, name: name("latency", d))) }
        return charts
    }

    /// The style of every chart element; a standalone SVG file carries it inside.
    static let chartStyle = """
        .chart-title{font:600 17px system-ui,Helvetica,Arial,sans-serif;fill:#222}.subtitle{font:12px system-ui,Helvetica,Arial,sans-serif;fill:#666}\
        .tick-label,.legend-label,.category,.value-label,.axis-title{font-family:system-ui,Helvetica,Arial,sans-serif}\
        .tick-label,.legend-label,.category{font-size:12px;fill:#444}.value-label{font-size:11px;fill:#222}.axis-title{font-size:13px;fill:#333}\
        .axis,.tick{stroke:#444;stroke-width:1}.grid{stroke:#e2e2e2;stroke-width:1}.grid.minor{stroke:#f2f2f2}\
        .series{fill:none;stroke-width:2}.band{stroke-width:1;fill-opacity:.35}.error-bar{stroke:#222;stroke-width:1.2;fill:none}.kill{fill:#e15759}
        """

    /// A chart as a file of its own: the SVG namespace, an XML declaration and the style inside.
    static func standalone(_ svg: String) -> String {
        guard let end = svg.firstIndex(of: ">") else { return svg }
        let open = svg[..<end].replacingOccurrences(of: "<svg ", with: "<svg xmlns=\"http://www.w3.org/2000/svg\" ")
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + open + "><style>\(chartStyle)</style>" + svg[svg.index(after: end)...] + "\n"
    }

    /// The page for the compare directory `directory`.
    public static func html(directory: String) throws(InputError) -> String {
        try files(directory: directory, memoryChart: memoryChart(directory: directory))[0].text
    }

    /// The memory chart from chart-timeseries.csv and chart-kills.csv of the compare directory `directory`, checked.
    public static func memoryChart(directory: String) throws(InputError) -> String {
        memoryChart(timeseries: try table(in: directory, "chart-timeseries.csv"), kills: try table(in: directory, "chart-kills.csv"))
    }

    /// The page from the tables' bytes in memory, named as the files of `directory` in messages; reads and writes no file.
    public static func html(summary: [UInt8], latency: [UInt8], timeseries: [UInt8], kills: [UInt8], intervals: [UInt8] = [],
                            devices: [UInt8] = [], apps: [UInt8] = [], directory: String) throws(InputError) -> String {
        func load(_ bytes: [UInt8], _ kind: String) throws(InputError) -> [Row] {
            try checked(table(bytes: bytes, name: directory + "/" + kind), kind: kind, file: directory + "/" + kind)
        }
        let chart = memoryChart(timeseries: try load(timeseries, "chart-timeseries.csv"), kills: try load(kills, "chart-kills.csv"))
        let tables = Tables(summary: try load(summary, "summary.csv"), latency: try load(latency, "latency.csv"), intervals: try load(intervals, "intervals.csv"),
                            devices: try load(devices, "chart-devices.csv"), apps: try load(apps, "chart-apps.csv"))
        return page(tables, charts: charts(tables, memoryChart: chart))
    }

    /// The tables a page is drawn from, by the start of their file names.
    public static let tableKinds = ["chart-timeseries", "chart-kills", "chart-devices", "chart-apps", "summary", "latency", "intervals"]

    /// The page from one table in memory, the others empty: which table is told by the start of `name`'s last
    /// component (one of `tableKinds`, e.g. `summary-inf.csv`). For replaying single files (fuzzing corpora); reads and
    /// writes no file.
    public static func html(csv bytes: [UInt8], name: String) throws(InputError) -> String {
        let base = name.split(separator: "/").last.map(String.init) ?? name
        guard let kind = tableKinds.first(where: { base.hasPrefix($0) }) else {
            throw InputError(file: name, message: "cannot tell which table this is: its name must start with \(tableKinds.joined(separator: ", "))",
                             exitCode: InputError.usage)
        }
        func load(_ table: String) throws(InputError) -> [Row] {
            table == kind ? try checked(self.table(bytes: bytes, name: name), kind: table + ".csv", file: name) : []
        }
        let chart = memoryChart(timeseries: try load("chart-timeseries"), kills: try load("chart-kills"))
        let tables = Tables(summary: try load("summary"), latency: try load("latency"), intervals: try load("intervals"),
                            devices: try load("chart-devices"), apps: try load("chart-apps"))
        return page(tables, charts: charts(tables, memoryChart: chart))
    }

    /// The memory chart of the charted cell from the rows of `chart-timeseries.csv` and `chart-kills.csv` (compare
    /// draws it as soon as that cell is done, while the other cells still run).
    public static func memoryChart(timeseries: [Row], kills: [Row]) -> String {
        let row = kills.first ?? timeseries.first
        let cell = row.map { r in
            "\(r["device"] ?? "") · \(shortLabels([r["policy"] ?? ""])[0]) · seed \(r["seed"] ?? "")"
        } ?? ""
        return memory(timeseries: timeseries, kills: kills, cell: cell)
    }

    /// The tables of `directory` that are there only when compare wrote them (intervals.csv with --interval).
    static func optionalTable(in directory: String, _ kind: String) throws(InputError) -> [Row] {
        FileManager.default.fileExists(atPath: directory + "/" + kind) ? try table(in: directory, kind) : []
    }

    /// What `compare` and `plot` write into `directory`: report.html first, then every chart as chart-NAME.svg. Reads
    /// summary.csv, latency.csv and, where present, intervals.csv, chart-devices.csv and chart-apps.csv; the memory chart is given.
    public static func files(directory: String, memoryChart: String) throws(InputError) -> [(name: String, text: String)] {
        let tables = Tables(summary: try table(in: directory, "summary.csv"), latency: try table(in: directory, "latency.csv"),
                            intervals: try optionalTable(in: directory, "intervals.csv"), devices: try optionalTable(in: directory, "chart-devices.csv"),
                            apps: try optionalTable(in: directory, "chart-apps.csv"))
        let drawn = charts(tables, memoryChart: memoryChart)
        return [("report.html", page(tables, charts: drawn))] + drawn.map { ("chart-\($0.name).svg", standalone($0.svg)) }
    }

    /// The page: every chart (each also saved as chart-NAME.svg), then the policies' full names and parameters.
    static func page(_ tables: Tables, charts: [(name: String, svg: String)]) -> String {
        let grid = Grid(summary: tables.summary)
        var body = "<h1>Jetsim comparison</h1><p>\(tables.summary.count) runs: \(grid.devices.count) device(s) × \(grid.policies.count) "
            + "polic\(grid.policies.count == 1 ? "y" : "ies"). Drawn from summary.csv, latency.csv, intervals.csv, chart-*.csv (redraw with "
            + "<code>jetsim plot</code>); each chart is also a file of its own, named under it.</p>"
        for chart in charts {
            body += "<figure id=\"chart-\(esc(chart.name))\">\(chart.svg)<figcaption>chart-\(esc(chart.name)).svg</figcaption></figure>"
        }
        body += "<h2>Policies</h2><table class=\"policies\"><thead><tr><th></th><th>Label</th><th>Policy and parameters</th></tr></thead><tbody>"
        for (k, p) in grid.policies.enumerated() {
            body += "<tr><td><i style=\"background:\(grid.color(k))\"></i></td><td>\(esc(grid.labels[k]))</td><td><code>\(esc(p))</code></td></tr>"
        }
        body += "</tbody></table>"
        return """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Jetsim comparison</title>
        <style>body{font:14px system-ui,Helvetica,Arial,sans-serif;margin:24px auto;max-width:1400px;padding:0 16px;color:#222}
        figure{margin:24px 0}figcaption{font-size:11px;color:#888}svg.chart{display:block;width:100%;height:auto;background:#fff}
        table.policies{border-collapse:collapse}table.policies td,table.policies th{padding:4px 10px;border-bottom:1px solid #ddd;text-align:left}
        table.policies i{display:inline-block;width:12px;height:12px}\(chartStyle)</style>
        </head><body>\(body)</body></html>

        """
    }
}
