import Foundation

/// A coordinate as the charts print it (one decimal, from integers).
private func f(_ v: Double) -> String { ChartReport.f(v) }

/// The parts every chart of report.html is made of: a frame with a title, axes with ticks, gridlines and titles, and a
/// legend. Every part carries a class (`chart-title`, `axis`, `grid`, `tick`, `tick-label`, `axis-title`, `legend`,
/// `legend-item`) so the style sheet draws it and a test can find it. Charts are 960 units wide in their viewBox and
/// fill the width of the page.
struct ChartFrame {
    static let width = 960.0
    let height: Double
    let left: Double, right: Double, top: Double, bottom: Double
    /// The plot area's edges.
    var plotLeft: Double { left }
    var plotRight: Double { Self.width - right }
    var plotTop: Double { top }
    var plotBottom: Double { height - bottom }
    /// Whole pixel columns of the plot area (what a time series is reduced to).
    var columns: Int { Int(plotRight - plotLeft) }

    init(height: Double, left: Double = 78, right: Double = 24, top: Double = 64, bottom: Double = 64) {
        self.height = height
        self.left = left
        self.right = right
        self.top = top
        self.bottom = bottom
    }

    /// The opening of a chart named `name` (its standalone file is chart-`name`.svg) with its title and an optional subtitle.
    func open(name: String, title: String, subtitle: String? = nil) -> String {
        let e = ChartReport.esc
        var svg = "<svg class=\"chart\" data-chart=\"\(e(name))\" width=\"\(Int(Self.width))\" height=\"\(Int(height))\" "
            + "viewBox=\"0 0 \(Int(Self.width)) \(Int(height))\" role=\"img\" aria-label=\"\(e(title))\"><title>\(e(title))</title>"
        svg += "<text class=\"chart-title\" x=\"\(f(left))\" y=\"22\">\(e(title))</text>"
        if let subtitle { svg += "<text class=\"subtitle\" x=\"\(f(left))\" y=\"40\">\(e(subtitle))</text>" }
        return svg
    }

    /// A vertical value axis: gridlines and labels at `ticks` (placed by `y`), the axis line, and its title turned upright.
    func yAxis(_ ticks: [ChartAxes.Tick], y: (Double) -> Double, title: String, top: Double? = nil, bottom: Double? = nil) -> String {
        let top = top ?? plotTop, bottom = bottom ?? plotBottom
        var svg = ""
        for t in ticks {
            let ty = y(t.value)
            svg += "<line class=\"grid\" x1=\"\(f(plotLeft))\" y1=\"\(f(ty))\" x2=\"\(f(plotRight))\" y2=\"\(f(ty))\"/>"
            svg += "<line class=\"tick\" x1=\"\(f(plotLeft - 5))\" y1=\"\(f(ty))\" x2=\"\(f(plotLeft))\" y2=\"\(f(ty))\"/>"
            svg += "<text class=\"tick-label y\" x=\"\(f(plotLeft - 8))\" y=\"\(f(ty + 4))\" text-anchor=\"end\">\(ChartReport.esc(t.label))</text>"
        }
        svg += "<line class=\"axis y-axis\" x1=\"\(f(plotLeft))\" y1=\"\(f(top))\" x2=\"\(f(plotLeft))\" y2=\"\(f(bottom))\"/>"
        let middle = (top + bottom) / 2
        svg += "<text class=\"axis-title y\" x=\"16\" y=\"\(f(middle))\" text-anchor=\"middle\" transform=\"rotate(-90 16 \(f(middle)))\">\(ChartReport.esc(title))</text>"
        return svg
    }

    /// A horizontal axis at the plot's bottom: labels at `ticks` (placed by `x`) and minor gridlines at `minor`.
    func xAxis(_ ticks: [ChartAxes.Tick], x: (Double) -> Double, title: String, minor: [Double] = [], grid: Bool = true) -> String {
        var svg = ""
        for m in minor {
            svg += "<line class=\"grid minor\" x1=\"\(f(x(m)))\" y1=\"\(f(plotTop))\" x2=\"\(f(x(m)))\" y2=\"\(f(plotBottom))\"/>"
        }
        for t in ticks {
            let tx = x(t.value)
            if grid { svg += "<line class=\"grid\" x1=\"\(f(tx))\" y1=\"\(f(plotTop))\" x2=\"\(f(tx))\" y2=\"\(f(plotBottom))\"/>" }
            svg += "<line class=\"tick\" x1=\"\(f(tx))\" y1=\"\(f(plotBottom))\" x2=\"\(f(tx))\" y2=\"\(f(plotBottom + 5))\"/>"
            svg += "<text class=\"tick-label x\" x=\"\(f(tx))\" y=\"\(f(plotBottom + 19))\" text-anchor=\"middle\">\(ChartReport.esc(t.label))</text>"
        }
        return svg + baseline() + xTitle(title)
    }

    /// The horizontal axis line at the plot's bottom (zero, where values start at zero).
    func baseline() -> String {
        "<line class=\"axis x-axis\" x1=\"\(f(plotLeft))\" y1=\"\(f(plotBottom))\" x2=\"\(f(plotRight))\" y2=\"\(f(plotBottom))\"/>"
    }

    /// The horizontal axis's title, centred under the plot.
    func xTitle(_ title: String) -> String {
        "<text class=\"axis-title x\" x=\"\(f((plotLeft + plotRight) / 2))\" y=\"\(f(height - 12))\" text-anchor=\"middle\">\(ChartReport.esc(title))</text>"
    }

    /// One legend entry: its short label, its colour, and the full name as a tooltip.
    struct Entry {
        var label: String
        var color: String
        var tooltip: String
    }

    /// Rows of legend entries from `y` on, wrapped at the chart's width (about 7 units per character).
    static func legend(_ entries: [Entry], x: Double, y: Double) -> (svg: String, height: Double) {
        var svg = "<g class=\"legend\">", cx = x, cy = y
        for e in entries {
            let w = 22 + 7 * Double(e.label.count)
            if cx + w > width - 12 && cx > x { cx = x; cy += 18 }
            svg += "<g class=\"legend-item\"><title>\(ChartReport.esc(e.tooltip))</title><rect x=\"\(f(cx))\" y=\"\(f(cy - 9))\" width=\"12\" height=\"12\" "
                + "fill=\"\(e.color)\"/><text class=\"legend-label\" x=\"\(f(cx + 16))\" y=\"\(f(cy + 1))\">\(ChartReport.esc(e.label))</text></g>"
            cx += w + 12
        }
        return (svg + "</g>", cy - y + 18)
    }

    /// The top margin a chart needs for its title, a subtitle line and `entries` in a legend.
    static func top(legend entries: [Entry], subtitle: Bool = true) -> Double {
        let legendTop = subtitle ? 60.0 : 44.0
        return legendTop + (entries.isEmpty ? 0 : legend(entries, x: 78, y: legendTop).height) + 8
    }
}
