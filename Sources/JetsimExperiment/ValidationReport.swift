import JetsimCore
import JetsimIO

/// validation.csv and its console table (`jetsim validate`): one row per user × device × policy, its columns a table
/// of names beside their renderers.
public enum ValidationReport {
    public struct Row: Sendable {
        public var user: String
        public var trace: String
        public var result: SimulationResult
        public var score: ResidencyScore
        public init(user: String, trace: String, result: SimulationResult, score: ResidencyScore) {
            (self.user, self.trace, self.result, self.score) = (user, trace, result, score)
        }
    }

    static let microsPerDay = 86_400 * Units.microsPerSecond

    /// `count` per day of the snapshots' span, three decimals.
    static func perDay(_ count: Int, _ span: Int) -> String {
        FixedPoint.format(Int(Int128(count) * Int128(microsPerDay) * 1000 / Int128(max(span, 1))), over: 1000, decimals: 3)
    }

    public static let columns: [ReportFiles.Column<Row>] = [
        .init("user") { $0.user },
        .init("trace") { $0.trace },
        .init("device") { $0.result.device.name },
        .init("policy") { $0.result.policy.displayName },
        .init("days") { FixedPoint.format($0.score.spanMicros, over: microsPerDay, decimals: 3) },
        .init("snapshots") { String($0.score.snapshots) },
        .init("background_tasks") { String($0.score.tasks) },
        .init("unmodelled_tasks") { String($0.score.unmodelledTasks) },
        .init("measured_dead_share") { FixedPoint.format($0.score.measuredDead, over: $0.score.tasks, decimals: 4) },
        .init("simulated_dead_share") { FixedPoint.format($0.score.simulatedDead, over: $0.score.tasks, decimals: 4) },
        .init("accuracy") { FixedPoint.format($0.score.agreeing, over: $0.score.tasks, decimals: 4) },
        .init("all_alive_accuracy") { FixedPoint.format($0.score.tasks - $0.score.measuredDead, over: $0.score.tasks, decimals: 4) },
        .init("precision_dead") { FixedPoint.format($0.score.bothDead, over: $0.score.simulatedDead, decimals: 4) },
        .init("recall_dead") { FixedPoint.format($0.score.bothDead, over: $0.score.measuredDead, decimals: 4) },
        .init("kills_per_day") { perDay($0.result.totalKills, $0.score.spanMicros) },
        .init("relaunches_after_kill_per_day") { perDay($0.result.relaunchesAfterKill, $0.score.spanMicros) },
        .init("measured_dead_to_alive_per_day") { perDay($0.score.measuredDeadToAlive, $0.score.spanMicros) },
    ]

    public static func csv(_ rows: [Row]) -> String {
        CSVLine.of(columns.map(\.name)) + rows.map { r in CSVLine.of(columns.map { $0.value(r) }) }.joined()
    }

    /// The console's columns.
    static let shown = ["user", "device", "policy", "measured_dead_share", "simulated_dead_share", "accuracy", "all_alive_accuracy",
                        "precision_dead", "recall_dead", "relaunches_after_kill_per_day", "measured_dead_to_alive_per_day"]

    public static func table(_ rows: [Row]) -> String {
        let picked = shown.compactMap { name in columns.first { $0.name == name } }
        let cells = [picked.map(\.name)] + rows.map { r in picked.map { $0.value(r) } }
        return ConsoleTable.lines(cells, leftAligned: 3).joined(separator: "\n") + "\n"
    }
}
