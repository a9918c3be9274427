import Foundation
import JetsimCore

/// population.csv (`--per-user`): each user replayed on a fresh device, aggregated over users per device, policy and
/// seed — the sum over users, and the mean over users of each user's rate per day with its 95 % confidence interval
/// across users (users are the sampling unit: each weighs the same, however long their trace).
///
/// A user's days are their run's measured span (`sim_seconds` / 86 400); a user whose span is 0 (one event) has no
/// rate and is left out of the rates (`rated_users`), not out of the sums.
public enum PopulationReport {
    /// The counts aggregated, by summary.csv's column names.
    public static let metrics: [(name: String, value: @Sendable (SimulationResult) -> Int)] = [
        ("launches", { $0.launches }),
        ("cold_launches", { $0.coldLaunches }),
        ("resumes", { $0.resumes }),
        ("kills", { $0.totalKills }),
        ("user_visible_kills", { $0.userVisibleKills }),
        ("relaunches_after_kill", { $0.relaunchesAfterKill }),
        ("memory_warnings", { $0.memoryWarnings }),
    ]

    public static var header: [String] {
        ["device", "policy", "seed", "users", "rated_users", "user_days"]
            + metrics.flatMap { [$0.name + "_sum", $0.name + "_per_user_day", $0.name + "_per_user_day_ci95"] }
    }

    static let microsPerDay = 86_400 * Units.microsPerSecond

    /// One row: the runs of one device, policy and seed, one per user.
    public static func row(_ runs: [SimulationResult]) -> [String] {
        guard let first = runs.first else { return [] }
        let rated = runs.filter { $0.simulatedMicros > 0 }
        let span = runs.reduce(0) { $0 + $1.simulatedMicros }
        var row = [first.device.name, first.policy.displayName, String(first.seed), String(runs.count), String(rated.count),
                   FixedPoint.format(span, over: microsPerDay, decimals: 3)]
        for m in metrics {
            let rates = rated.map { Double(m.value($0)) * Double(microsPerDay) / Double($0.simulatedMicros) }
            let (mean, halfWidth) = CompareReports.meanAndInterval(rates)
            row += [String(runs.reduce(0) { $0 + m.value($1) }), CompareReports.format(mean, 3), CompareReports.format(halfWidth, 3)]
        }
        return row
    }

    /// The file for a grid's results in cell order, `perWorkload` cells per user (`GridConfiguration.cellsPerWorkload`):
    /// one row per device, policy and seed, in grid order.
    public static func csv(_ results: [SimulationResult], perWorkload: Int) -> String {
        var text = CSVLine.of(header)
        guard perWorkload > 0 else { return text }
        for k in 0..<perWorkload {
            text += CSVLine.of(row(stride(from: k, to: results.count, by: perWorkload).map { results[$0] }))
        }
        return text
    }

    /// The console's lines: users, user-days and the rates per user-day that matter most.
    public static func table(_ results: [SimulationResult], perWorkload: Int) -> String {
        let keep = ["device", "policy", "seed", "users", "user_days", "cold_launches_per_user_day", "cold_launches_per_user_day_ci95",
                    "kills_per_user_day", "kills_per_user_day_ci95", "relaunches_after_kill_per_user_day"]
        let columns = keep.compactMap { header.firstIndex(of: $0) }
        let short = CompareReports.shortLabels(results.map(\.policy.displayName))
        let rows = (0..<max(perWorkload, 0)).map { k in row(stride(from: k, to: results.count, by: perWorkload).map { results[$0] }) }
            .map { row in   // the policy's short label, as compare's table shows it
                var row = row
                if row.count > 1 { row[1] = short[row[1]] ?? row[1] }
                return row
            }
        return ConsoleTable.lines([header] + rows, columns: columns, leftAligned: 2).joined(separator: "\n") + "\n"
    }
}
