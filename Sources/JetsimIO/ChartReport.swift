import Foundation
import JetsimCore

/// `report.html`: a self-contained page (inline SVG and CSS; no script, no network) drawn from the CSVs of a compare
/// directory, so `jetsim plot DIR` can redraw it at any time: cold launches and user-visible kills per policy
/// (bars, per device), available memory over time with kill markers for one cell, and the launch-latency
/// distribution per policy (cumulative, per device).
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
        ("summary.csv", ["cold_launches", "user_visible_kills"]), ("latency.csv", ["latency_ms", "launches"]),
        ("chart-timeseries.csv", ["time", "available_mb"]), ("chart-kills.csv", ["time"]),
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

    /// Grouped bars: one group per device, one bar per policy (the mean over seeds).
    static func bars(title: String, metric: String, summary: [Row], devices: [String], policies: [String]) -> String {
        let width = 760.0, height = 260.0, left = 70.0, bottom = 40.0, top = 30.0
        var means: [[Double]] = []
        for d in devices {
            means.append(policies.map { p in
                let values = summary.filter { $0["device"] == d && $0["policy"] == p }.compactMap { Double($0[metric] ?? "") }
                return values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
            })
        }
        let peak = max(means.flatMap { $0 }.max() ?? 1, 1)
        let groupWidth = (width - left - 10) / Double(max(devices.count, 1))
        let barWidth = groupWidth * 0.8 / Double(max(policies.count, 1))
        var svg = "<svg class=\"chart\" data-chart=\"\(metric)\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\"><title>\(esc(title))</title>"
        svg += "<text x=\"\(f(left))\" y=\"18\" class=\"title\">\(esc(title))</text>"
        svg += "<line x1=\"\(f(left))\" y1=\"\(f(height - bottom))\" x2=\"\(f(width - 10))\" y2=\"\(f(height - bottom))\" class=\"axis\"/>"
        svg += "<text x=\"\(f(left - 6))\" y=\"\(f(top + 4))\" class=\"tick\" text-anchor=\"end\">\(f(peak))</text>"
        for (g, d) in devices.enumerated() {
            let x0 = left + Double(g) * groupWidth + groupWidth * 0.1
            for (k, p) in policies.enumerated() {
                let v = means[g][k], h = (height - bottom - top) * v / peak
                let x = x0 + Double(k) * barWidth
                svg += "<rect x=\"\(f(x))\" y=\"\(f(height - bottom - h))\" width=\"\(f(barWidth * 0.9))\" height=\"\(f(h))\" fill=\"\(palette[k % palette.count])\"><title>\(esc(d)) · \(esc(p)): \(f(v))</title></rect>"
            }
            svg += "<text x=\"\(f(x0 + groupWidth * 0.4))\" y=\"\(f(height - bottom + 16))\" class=\"tick\" text-anchor=\"middle\">\(esc(d))</text>"
        }
        return svg + "</svg>"
    }

    /// Available memory over time for one cell, with its kills marked.
    static func memory(timeseries: [Row], kills: [Row], cell: String) -> String {
        let width = 760.0, height = 260.0, left = 60.0, bottom = 30.0, top = 30.0
        let points = timeseries.compactMap { r -> (Double, Double)? in
            guard let t = Double(r["time"] ?? ""), let a = Double(r["available_mb"] ?? "") else { return nil }
            return (t, a)
        }
        var svg = "<svg class=\"chart\" data-chart=\"memory\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\"><title>Available memory</title>"
        svg += "<text x=\"\(f(left))\" y=\"18\" class=\"title\">Available memory (MB) and kills — \(esc(cell))</text>"
        guard let t0 = points.first?.0, let t1 = points.last?.0, t1 > t0 else { return svg + "<text x=\"60\" y=\"60\">no samples</text></svg>" }
        let lo = min(points.map(\.1).min() ?? 0, 0), hi = max(points.map(\.1).max() ?? 1, 1)
        func x(_ t: Double) -> Double { left + (width - left - 10) * (t - t0) / (t1 - t0) }
        func y(_ v: Double) -> Double { height - bottom - (height - bottom - top) * (v - lo) / (hi - lo) }
        svg += "<line x1=\"\(f(left))\" y1=\"\(f(height - bottom))\" x2=\"\(f(width - 10))\" y2=\"\(f(height - bottom))\" class=\"axis\"/>"
        svg += "<text x=\"\(f(left - 6))\" y=\"\(f(y(hi) + 4))\" class=\"tick\" text-anchor=\"end\">\(f(hi))</text>"
        svg += "<text x=\"\(f(left - 6))\" y=\"\(f(y(lo) + 4))\" class=\"tick\" text-anchor=\"end\">\(f(lo))</text>"
        // At most a few points per pixel column (first, lowest, highest, last): the line looks the same, spikes
        // included, and the page stays small for long runs.
        var drawn: [(Double, Double)] = []
        var column = Int.min
        var bucket: [(Double, Double)] = []
        func flush() {
            guard let first = bucket.first, let last = bucket.last else { return }
            let low = bucket.min { $0.1 < $1.1 } ?? first, high = bucket.max { $0.1 < $1.1 } ?? first
            for p in [first, low, high, last].sorted(by: { $0.0 < $1.0 }) where drawn.last.map({ $0 != p }) ?? true { drawn.append(p) }
            bucket.removeAll(keepingCapacity: true)
        }
        for p in points {
            let c = pixel(x(p.0))
            if c != column { flush(); column = c }
            bucket.append(p)
        }
        flush()
        svg += "<polyline class=\"series\" fill=\"none\" stroke=\"#4e79a7\" points=\"" + drawn.map { "\(f(x($0.0))),\(f(y($0.1)))" }.joined(separator: " ") + "\"/>"
        // One marker per pixel column, titled with what it stands for.
        var byColumn: [Int: (t: Double, labels: [String], count: Int)] = [:]
        for k in kills {
            guard let t = Double(k["time"] ?? ""), t >= t0, t <= t1 else { continue }
            let c = pixel(x(t))
            var entry = byColumn[c] ?? (t, [], 0)
            entry.count += 1
            if entry.labels.count < 5 { entry.labels.append("\(k["app"] ?? "") (\(k["reason"] ?? "")) at \(k["time"] ?? "") s") }
            byColumn[c] = entry
        }
        for (_, m) in byColumn.sorted(by: { $0.key < $1.key }) {
            let more = m.count > m.labels.count ? "; \(m.count - m.labels.count) more" : ""
            svg += "<line class=\"kill\" x1=\"\(f(x(m.t)))\" y1=\"\(f(top))\" x2=\"\(f(x(m.t)))\" y2=\"\(f(height - bottom))\" stroke=\"#e15759\"><title>\(m.count) kill(s): \(esc(m.labels.joined(separator: "; ")))\(more)</title></line>"
        }
        return svg + "</svg>"
    }

    /// Cumulative launch-latency distribution per policy for one device.
    static func latency(rows: [Row], device: String, policies: [String]) -> String {
        let width = 760.0, height = 240.0, left = 50.0, bottom = 30.0, top = 30.0
        var svg = "<svg class=\"chart\" data-chart=\"latency\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\"><title>Launch latency</title>"
        svg += "<text x=\"\(f(left))\" y=\"18\" class=\"title\">Launch latency, cumulative share of launches — \(esc(device))</text>"
        let mine = rows.filter { $0["device"] == device }
        let maxLatency = max(mine.compactMap { Double($0["latency_ms"] ?? "") }.max() ?? 1, 1)
        func x(_ ms: Double) -> Double { left + (width - left - 10) * ms / maxLatency }
        func y(_ share: Double) -> Double { height - bottom - (height - bottom - top) * share }
        svg += "<line x1=\"\(f(left))\" y1=\"\(f(height - bottom))\" x2=\"\(f(width - 10))\" y2=\"\(f(height - bottom))\" class=\"axis\"/>"
        svg += "<text x=\"\(f(width - 10))\" y=\"\(f(height - bottom + 16))\" class=\"tick\" text-anchor=\"end\">\(f(maxLatency)) ms</text>"
        for (k, p) in policies.enumerated() {
            var byLatency: [Double: Double] = [:]
            for r in mine where r["policy"] == p {
                if let ms = Double(r["latency_ms"] ?? ""), let n = Double(r["launches"] ?? "") { byLatency[ms, default: 0] += n }
            }
            let total = byLatency.values.reduce(0, +)
            guard total > 0 else { continue }
            var acc = 0.0, points = ["\(f(x(0))),\(f(y(0)))"]
            for (ms, n) in byLatency.sorted(by: { $0.key < $1.key }) {
                points.append("\(f(x(ms))),\(f(y(acc / total)))")
                acc += n
                points.append("\(f(x(ms))),\(f(y(acc / total)))")
            }
            svg += "<polyline class=\"series\" fill=\"none\" stroke=\"\(palette[k % palette.count])\" points=\"\(points.joined(separator: " "))\"><title>\(esc(p))</title></polyline>"
        }
        return svg + "</svg>"
    }

    /// The page for the compare directory `directory`.
    public static func html(directory: String) throws(InputError) -> String {
        let timeseries = try table(in: directory, "chart-timeseries.csv")
        let kills = try table(in: directory, "chart-kills.csv")
        return try html(directory: directory, memoryChart: memoryChart(timeseries: timeseries, kills: kills))
    }

    /// The page from the four tables' bytes in memory, named as the files of `directory` in messages; reads and
    /// writes no file.
    public static func html(summary: [UInt8], latency: [UInt8], timeseries: [UInt8], kills: [UInt8], directory: String) throws(InputError) -> String {
        func load(_ bytes: [UInt8], _ kind: String) throws(InputError) -> [Row] {
            try checked(table(bytes: bytes, name: directory + "/" + kind), kind: kind, file: directory + "/" + kind)
        }
        let chart = memoryChart(timeseries: try load(timeseries, "chart-timeseries.csv"), kills: try load(kills, "chart-kills.csv"))
        return page(summary: try load(summary, "summary.csv"), latency: try load(latency, "latency.csv"), memoryChart: chart)
    }

    /// The page from one table in memory, the others empty: which table is told by the start of `name`'s last
    /// component (`summary`, `latency`, `chart-timeseries` or `chart-kills`, e.g. `summary-inf.csv`). For replaying
    /// single files (fuzzing corpora); reads and writes no file.
    public static func html(csv bytes: [UInt8], name: String) throws(InputError) -> String {
        let base = name.split(separator: "/").last.map(String.init) ?? name
        let kinds = ["chart-timeseries", "chart-kills", "summary", "latency"]
        guard let kind = kinds.first(where: { base.hasPrefix($0) }) else {
            throw InputError(file: name, message: "cannot tell which table this is: its name must start with \(kinds.joined(separator: ", "))",
                             exitCode: InputError.usage)
        }
        func load(_ table: String) throws(InputError) -> [Row] {
            table == kind ? try checked(self.table(bytes: bytes, name: name), kind: table + ".csv", file: name) : []
        }
        let chart = memoryChart(timeseries: try load("chart-timeseries"), kills: try load("chart-kills"))
        return page(summary: try load("summary"), latency: try load("latency"), memoryChart: chart)
    }

    /// The memory chart of the charted cell from the rows of `chart-timeseries.csv` and `chart-kills.csv` (compare
    /// draws it as soon as that cell is done, while the other cells still run).
    public static func memoryChart(timeseries: [Row], kills: [Row]) -> String {
        let cell = kills.first.map { "\($0["device"] ?? "") · \($0["policy"] ?? "") · seed \($0["seed"] ?? "")" }
            ?? timeseries.first.map { "\($0["device"] ?? "") · \($0["policy"] ?? "")" } ?? ""
        return memory(timeseries: timeseries, kills: kills, cell: cell)
    }

    /// The page for `directory`, whose `summary.csv` and `latency.csv` are read, with the memory chart given.
    public static func html(directory: String, memoryChart: String) throws(InputError) -> String {
        page(summary: try table(in: directory, "summary.csv"), latency: try table(in: directory, "latency.csv"), memoryChart: memoryChart)
    }

    /// The page from the rows of `summary.csv` and `latency.csv`, with the memory chart given.
    static func page(summary: [Row], latency latencyRows: [Row], memoryChart: String) -> String {
        var devices: [String] = [], policies: [String] = []
        for r in summary {
            if let d = r["device"], !devices.contains(d) { devices.append(d) }
            if let p = r["policy"], !policies.contains(p) { policies.append(p) }
        }
        var legend = "<p class=\"legend\">"
        for (k, p) in policies.enumerated() { legend += "<span><i style=\"background:\(palette[k % palette.count])\"></i>\(esc(p))</span> " }
        legend += "</p>"
        var body = "<h1>Jetsim comparison</h1><p>\(summary.count) runs: \(devices.count) device(s) × \(policies.count) polic(ies). Data: summary.csv, latency.csv, chart-timeseries.csv, chart-kills.csv (redraw with <code>jetsim plot</code>).</p>"
        body += legend
        body += bars(title: "Cold launches (mean over seeds)", metric: "cold_launches", summary: summary, devices: devices, policies: policies)
        body += bars(title: "User-visible kills (mean over seeds)", metric: "user_visible_kills", summary: summary, devices: devices, policies: policies)
        body += memoryChart
        for d in devices { body += latency(rows: latencyRows, device: d, policies: policies) }
        return """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>Jetsim comparison</title>
        <style>body{font:14px system-ui,sans-serif;margin:24px;color:#222}svg{display:block;margin:18px 0;background:#fafafa}
        .title{font-weight:600;font-size:13px}.tick{font-size:11px;fill:#555}.axis{stroke:#888}.series{stroke-width:1.5}
        .kill{stroke-width:1;opacity:.6}.legend span{margin-right:14px}.legend i{display:inline-block;width:10px;height:10px;margin-right:4px}</style>
        </head><body>\(body)</body></html>

        """
    }
}
