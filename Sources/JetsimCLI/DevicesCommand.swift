import ArgumentParser
import JetsimCore
import JetsimIO

/// `jetsim devices` — the built-in device presets and their numbers.
public struct DevicesCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the device presets with their memory, limits, thresholds and background-task budget.",
        discussion: reflowed("""
        Sizes in MB (MiB). Thresholds are on *available* memory (free + clean file-backed pages); reaper_mb is empty
        where the long-idle reaper is off. The compressor pool is the kernel's: RAM's size. Android 4.x phones
        (platform android) kill by their lowmemorykiller's minfree levels instead (minfree_mb, for oom_adj 0, 1, 2,
        3 or 4, 9, 15) and have no background-task budget. A custom device is a YAML or JSON file (keys:
        Reports/README.md), e.g. `base: iphone-xs` or `platform: android` plus the keys to change.

        Examples:
          jetsim devices
          jetsim devices --csv > devices.csv
        """)
    )

    @Flag(help: "Write CSV instead of a table.")
    var csv = false

    public init() {}

    static let header = ["device", "ram_mb", "reserve_mb", "app_limit_mb", "critical_mb", "idle_mb", "soft_mb", "reaper_mb",
                         "compressor_pool_mb", "bg_task_budget_s", "kernel", "platform", "minfree_mb", "source"]

    static func row(_ d: Device) -> [String] {
        [d.name, FixedPoint.format(d.physicalBytes, over: Units.mebibyte, decimals: 0),
         FixedPoint.format(d.reserveBytes, over: Units.mebibyte, decimals: 0),
         FixedPoint.format(d.appLimitActiveBytes, over: Units.mebibyte, decimals: 0),
         FixedPoint.format(d.criticalBytes, over: Units.mebibyte, decimals: 0),
         FixedPoint.format(d.idleBytes, over: Units.mebibyte, decimals: 0),
         FixedPoint.format(d.softBytes, over: Units.mebibyte, decimals: 0),
         d.reaper.enabled ? FixedPoint.format(d.reaperBytes, over: Units.mebibyte, decimals: 0) : "",
         FixedPoint.format(d.compressor.poolLimitBytes, over: Units.mebibyte, decimals: 0),
         d.platform == .android ? "" : FixedPoint.format(d.backgroundTaskBudgetMicros, over: Units.microsPerSecond, decimals: 0),
         d.kernelName, d.platform.rawValue,
         d.android.levels.map { FixedPoint.format($0.minfreeBytes, over: Units.mebibyte, decimals: 0) }.joined(separator: "/"), d.source]
    }

    public func run() throws {
        let rows = DevicePresets.all.map(Self.row)
        if csv {
            print(CSVLine.of(Self.header) + rows.map(CSVLine.of).joined(), terminator: "")
            return
        }
        let widths = Self.header.indices.map { c in ([Self.header[c]] + rows.map { $0[c] }).map(\.count).max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { c, s in
                c == cells.count - 1 ? s : c == 0 ? s.padding(toLength: widths[c], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[c] - s.count) + s
            }.joined(separator: "  ")
        }
        print(line(Self.header))
        for r in rows { print(line(r)) }
    }
}
