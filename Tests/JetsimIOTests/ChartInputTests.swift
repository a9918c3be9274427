import Foundation
@testable import JetsimIO
import Testing

@Suite struct ChartInputTests {
    static let summary = "device,policy,seed,cold_launches,user_visible_kills\niphone-x,xnu,1,12,3\niphone-x,lru,1,15,4\n"
    static let latency = "device,policy,seed,latency_ms,launches\niphone-x,xnu,1,150,10\niphone-x,xnu,1,1400,2\niphone-x,lru,1,150,9\n"
    static let timeseries = "device,policy,seed,time,available_mb,pressure\niphone-x,xnu,1,0.000,900.5,normal\niphone-x,xnu,1,60.000,120.25,warning\n"
        + "iphone-x,xnu,1,120.000,-3.5,critical\n"
    static let kills = "device,policy,seed,time,app,reason\niphone-x,xnu,1,61.500,Maps,vm-pageshortage\n"

    func page(summary: String = summary, latency: String = latency, timeseries: String = timeseries, kills: String = kills) throws(InputError) -> String {
        try ChartReport.html(summary: Array(summary.utf8), latency: Array(latency.utf8), timeseries: Array(timeseries.utf8),
                             kills: Array(kills.utf8), directory: "cmp")
    }

    @Test func theTablesInMemoryDrawThePageTheFilesDraw() throws {
        let s = try Scratch()
        for (name, text) in [("summary.csv", Self.summary), ("latency.csv", Self.latency), ("chart-timeseries.csv", Self.timeseries),
                             ("chart-kills.csv", Self.kills)] {
            _ = try s.write(name, text)
        }
        let fromFiles = try ChartReport.html(directory: s.path)
        #expect(try page() == fromFiles)
        #expect(fromFiles.contains("data-chart=\"memory\"") && fromFiles.contains("class=\"kill\""))
        // A byte-order mark does not hide the header.
        #expect(try page(summary: "\u{FEFF}" + Self.summary) == fromFiles)
    }

    /// Swift's Double parses `inf`, `nan` and `1e300`; converted to pixels they trapped. Now each is refused where it is.
    @Test func numbersThatAreNotFiniteOrTooLargeNameTheirFileLineAndColumn() {
        let cases: [(table: String, column: String, value: String)] = [
            ("summary", "cold_launches", "inf"), ("summary", "user_visible_kills", "nan"), ("summary", "cold_launches", "1e300"),
            ("latency", "latency_ms", "-inf"), ("latency", "launches", "1e16"), ("chart-timeseries", "time", "nan"),
            ("chart-timeseries", "available_mb", "-1e300"), ("chart-kills", "time", "infinity"), ("summary", "cold_launches", "twelve"),
        ]
        for c in cases {
            let original: String
            switch c.table {
            case "summary": original = Self.summary
            case "latency": original = Self.latency
            case "chart-timeseries": original = Self.timeseries
            default: original = Self.kills
            }
            var lines = original.split(separator: "\n").map(String.init)
            var fields = lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let k = lines[0].split(separator: ",").firstIndex { $0 == c.column } ?? 0
            fields[k] = c.value
            lines[1] = fields.joined(separator: ",")
            let text = lines.joined(separator: "\n") + "\n"
            let e = caught {
                switch c.table {
                case "summary": _ = try page(summary: text)
                case "latency": _ = try page(latency: text)
                case "chart-timeseries": _ = try page(timeseries: text)
                default: _ = try page(kills: text)
                }
            }
            expectLocated(e, line: 2, field: c.column, message: "finite number", input: "\(c)")
            #expect(e?.file == "cmp/\(c.table).csv")
            // The single-table entry (for corpora) names the table by its file name and finds the same.
            let single = caught { _ = try ChartReport.html(csv: Array(text.utf8), name: "corpus/\(c.table)-bad.csv") }
            expectLocated(single, line: 2, field: c.column, message: "finite number", input: "\(c) alone")
        }
        #expect(throws: Never.self) { _ = try page(summary: Self.summary + "iphone-x,cost,1,,\n") }   // empty cells: not drawn
        #expect(throws: InputError.self) { _ = try ChartReport.html(csv: [], name: "report.csv") }   // which table is it?
    }

    /// Rows given in memory (compare draws its memory chart from them) are not checked: drawing clamps instead.
    @Test func drawingClampsWhatItConvertsToPixels() throws {
        let series = "device,policy,seed,time,available_mb\nd,p,1,0,1\nd,p,1,1e-300,nan\nd,p,1,inf,1e300\nd,p,1,-1e300,-inf\nd,p,1,2,5\n"
        let kills = "device,policy,seed,time,app,reason\nd,p,1,1e-310,a,r\nd,p,1,nan,b,r\n"
        let svg = ChartReport.memoryChart(timeseries: try ChartReport.table(text: series, name: "ts.csv"),
                                          kills: try ChartReport.table(text: kills, name: "k.csv"))
        #expect(svg.hasPrefix("<svg") && svg.hasSuffix("</svg>"))
        #expect(ChartReport.f(.nan) == "0.0" && ChartReport.f(.infinity) == "10000000000000000.0" && ChartReport.f(-1e300) == "-10000000000000000.0")
        #expect(ChartReport.pixel(.nan) == 0 && ChartReport.pixel(1e300) == 1_000_000_000 && ChartReport.pixel(12.7) == 12)
    }
}

@Suite struct ChartTablesTests {
    static let summary = "device,policy,seed,cold_launches,user_visible_kills,kills_idle_exit\nsmall,xnu,1,12,3,2\nsmall,lru,1,15,4,1\n"
        + "big,xnu,1,6,1,0\nbig,lru,1,7,2,1\n"

    func page(intervals: String = "", devices: String = "", apps: String = "") throws(InputError) -> String {
        try ChartReport.html(summary: Array(Self.summary.utf8), latency: [], timeseries: [], kills: [], intervals: Array(intervals.utf8),
                             devices: Array(devices.utf8), apps: Array(apps.utf8), directory: "cmp")
    }

    /// The optional tables add their charts; devices are ordered by RAM, not by the grid.
    @Test func intervalsDevicesAndAppsAddTheirCharts() throws {
        let bare = try page()
        #expect(!bare.contains("data-chart=\"cold-launches-vs-ram\"") && !bare.contains("data-chart=\"intervals-") && !bare.contains("data-chart=\"apps-"))
        let full = try page(intervals: "policy,device,seed,interval_start_s,interval_end_s,cold_launches\nxnu,small,1,0,3600,4\nxnu,small,1,3600,7200,2\n",
                            devices: "device,physical_bytes\nsmall,2147483648\nbig,4294967296\n",
                            apps: "device,policy,app,cold_launches\nsmall,xnu,Maps,3.0\nsmall,lru,Maps,2.5\n")
        #expect(full.contains("data-chart=\"intervals-small\"") && full.contains("data-chart=\"apps-small\"") && full.contains(">Maps</text>"))
        let ram = try #require(full.range(of: "data-chart=\"cold-launches-vs-ram\"")).upperBound
        let rest = full[ram...]
        #expect(try #require(rest.range(of: ">small</text>")).lowerBound < #require(rest.range(of: ">big</text>")).lowerBound)
        #expect(rest.contains(">2 GiB</text>") && rest.contains(">4 GiB</text>"))
        #expect(full.contains(">Time since start (min)</text>"))   // two hours
        // Their numbers are checked like the others.
        let e = caught { _ = try page(devices: "device,physical_bytes\nsmall,inf\n") }
        expectLocated(e, line: 2, field: "physical_bytes", message: "finite number", input: "devices")
        let k = caught { _ = try ChartReport.html(summary: Array("device,policy,seed,kills_idle_exit\nd,p,1,nan\n".utf8), latency: [], timeseries: [],
                                                  kills: [], directory: "cmp") }
        expectLocated(k, line: 2, field: "kills_idle_exit", message: "finite number", input: "kills")
    }
}
