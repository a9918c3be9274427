import ArgumentParser
import JetsimIO

/// `jetsim` — the root command. Each subcommand is one type in its own file.
public struct JetsimCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "jetsim",
        abstract: "Memory-pressure and jetsam policy simulator: which app should the system kill, and what does it cost the user?",
        discussion: """
        Replays app-usage traces on a modelled iOS device (memory, kernel thresholds, per-app limits, compressor,
        the app lifecycle) and reports launches, kills and their cost under an eviction policy.

        Examples:
          jetsim run --device iphone-xs --apps Examples/day/apps.csv --trace Examples/day/trace.csv
          jetsim devices
        """,
        version: JetsimVersionInfo.version,
        subcommands: [RunCommand.self, CompareCommand.self, CacheSimCommand.self, PlotCommand.self, GenerateCommand.self, ImportCommand.self, InspectCommand.self, DevicesCommand.self, PoliciesCommand.self]
    )

    public init() {}
}
