import ArgumentParser
import JetsimIO

/// `jetsim plot` — (re)draw report.html from the CSVs of a compare directory.
public struct PlotCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "plot",
        abstract: "Redraw report.html (inline SVG, no network) from the CSVs of a `jetsim compare` directory.",
        discussion: """
        Reads summary.csv, latency.csv, chart-timeseries.csv and chart-kills.csv in DIR and writes DIR/report.html.

        Examples:
          jetsim plot Reports/out/experiment
        """
    )

    @Argument(help: "A directory written by `jetsim compare`.") var directory: String

    public init() {}

    public func run() throws {
        try reportingErrors {
            let html = try ChartReport.html(directory: directory)   // read everything before writing anything
            let page = try AtomicFile(path: directory + "/report.html")
            try page.write(html)
            try page.commit()
            print("\(directory)/report.html")
        }
    }
}
