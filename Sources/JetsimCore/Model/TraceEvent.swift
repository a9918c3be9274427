/// One row of a usage trace, with the app already mapped to its dense catalog id.
public struct TraceEvent: Sendable, Equatable {
    /// Simulated time in microseconds; non-decreasing along a trace.
    public var time: Int
    /// Dense catalog id of the app, or `TraceEvent.noApp` (only for `home`).
    public var app: Int32
    public var kind: TraceEventKind
    /// Kind-specific value: a duration in µs (`interrupt`, `bg_task`, `bg_launch`), signed bytes (`alloc`),
    /// or a `BackgroundModes` raw value (`mode_start`, `mode_stop`); 0 otherwise.
    public var value: Int

    public static let noApp: Int32 = -1

    public init(time: Int, app: Int32, kind: TraceEventKind, value: Int = 0) {
        self.time = time
        self.app = app
        self.kind = kind
        self.value = value
    }
}

/// The trace event vocabulary (`event` column of `trace.csv`).
public enum TraceEventKind: UInt8, Sendable, CaseIterable {
    case open, home, interrupt, bgTask, bgLaunch, modeStart, modeStop, alloc, quit
    /// The user leaves the app with Back (or it finishes its last activity): its task leaves the recent-task list
    /// while its process may live on (`Simulator.finishActivities`). Android's distinction; importers of Android data
    /// emit it.
    case finish

    /// The name in `trace.csv`.
    public var traceName: String {
        switch self {
        case .open: "open"
        case .home: "home"
        case .interrupt: "interrupt"
        case .bgTask: "bg_task"
        case .bgLaunch: "bg_launch"
        case .modeStart: "mode_start"
        case .modeStop: "mode_stop"
        case .alloc: "alloc"
        case .quit: "quit"
        case .finish: "finish"
        }
    }

    /// What the `value` column holds for this kind.
    public var valueKind: ValueKind {
        switch self {
        case .open, .home, .quit, .finish: .none
        case .interrupt, .bgTask, .bgLaunch: .seconds
        case .modeStart, .modeStop: .mode
        case .alloc: .signedMebibytes
        }
    }

    public enum ValueKind: Sendable { case none, seconds, mode, signedMebibytes }
}
