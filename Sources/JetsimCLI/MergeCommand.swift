import ArgumentParser
import Foundation
import JetsimExperiment
import JetsimIO

/// `jetsim merge` — the reports of a grid from its shards (`jetsim compare --shard K/N`), byte-identical to the grid run
/// at once.
public struct MergeCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the shard directories of one compare grid into its reports.",
        discussion: reflowed("""
        Reads the N shard directories that `jetsim compare … --shard K/N --out DIR/K` wrote (in any order), checks that
        they come from one grid (the same configuration, inputs and jetsim version: shard.json's grid hash) and that
        every cell is there exactly once, and writes summary.csv, compare.csv, latency.csv, intervals.csv, the chart
        files, report.html and manifest.json into --out: byte for byte what `jetsim compare` with the same options
        writes, except manifest.json's "invocation" (this command's line, time and shard directories). A missing shard
        is an error (exit 65) naming its cells and the command that reruns it; rerun it and merge again. Nothing is
        written unless all is well.

        Examples:
          jetsim merge /tmp/sweep/0 /tmp/sweep/1 /tmp/sweep/2 /tmp/sweep/3 --out /tmp/sweep-reports
          jetsim merge /tmp/sweep/* --out /tmp/sweep-reports --quiet
        """)
    )

    @Argument(help: "The shard directories (each written by `jetsim compare --shard K/N --out DIR`).") var shards: [String] = []
    @Option(help: "Output directory for the grid's reports.") var out: String
    @Flag(help: "Print nothing but errors.") var quiet = false

    public init() {}

    public func validate() throws {
        guard !shards.isEmpty else { throw ValidationError("name the shard directories to merge") }
    }

    public func run() throws {
        try reportingErrors {
            let started = Date()
            let merged = try ShardMerge.merge(shards)
            let table = try inReportDirectory(out, replaceable: OutputNames.compare) { staging in
                let reports = GridReports(configuration: merged.configuration, results: merged.results, workloads: merged.workloads,
                                          inputHashes: merged.inputHashes,
                                          invocation: GridManifest.Invocation(command: CommandLine.arguments, out: out, jobs: nil, shards: shards,
                                                                              started: started),
                                          chart: merged.chart, intervalRows: merged.intervalRows)
                return try reports.write(into: staging)
            }
            if !quiet { print(table, terminator: ""); print("reports: \(out)/ (\(shards.count) shards, \(merged.results.count) cells; charts: report.html)") }
        }
    }
}
