import ArgumentParser
import Foundation
import JetsimIO

/// `jetsim plot` — (re)draw report.html from the CSVs of a compare directory.
public struct PlotCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "plot",
        abstract: "Redraw report.html and the chart-*.svg files (no network) from the CSVs of a `jetsim compare` directory.",
        discussion: reflowed("""
        Reads summary.csv, latency.csv, chart-timeseries.csv and chart-kills.csv in DIR (and intervals.csv,
        chart-devices.csv and chart-apps.csv where present) and writes DIR/report.html and every chart as
        DIR/chart-NAME.svg.

        Examples:
          jetsim plot Reports/out/experiment
        """)
    )

    @Argument(help: "A directory written by `jetsim compare`.") var directory: String

    public init() {}

    public func run() throws {
        try reportingErrors {
            try Self.checkCompareDirectory(directory)
            // Everything is read and drawn before anything is written.
            try GridReports.writeCharts(into: directory, memoryChart: try ChartReport.memoryChart(directory: directory))
            print("\(directory)/report.html")
        }
    }

    /// The tables `plot` reads, all written by `jetsim compare`.
    static let tables = ["summary.csv", "latency.csv", "chart-timeseries.csv", "chart-kills.csv"]

    /// Refuses, exit 66, a directory that does not exist or lacks a table, naming what is missing: a `jetsim run` or
    /// `cachesim` directory, or a mistyped path, is told as such instead of failing on its first absent file.
    static func checkCompareDirectory(_ directory: String) throws(InputError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw InputError(file: directory, message: "no such directory (expected one written by `jetsim compare`)", exitCode: InputError.noInput)
        }
        let missing = tables.filter { !FileManager.default.fileExists(atPath: directory + "/" + $0) }
        guard missing.isEmpty else {
            throw InputError(file: directory, message: "is not a directory written by `jetsim compare`: \(missing.joined(separator: ", ")) "
                             + "\(missing.count == 1 ? "is" : "are") missing (plot reads \(tables.joined(separator: ", ")))", exitCode: InputError.noInput)
        }
    }
}
