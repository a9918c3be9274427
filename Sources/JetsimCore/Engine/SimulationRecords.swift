/// Why a lifecycle transition happened, as shown in `events.csv`.
public enum TransitionCause: Sendable, Equatable {
    case user
    case system
    case kill(KillReason)
    case forceQuit
    case exitsOnSuspend

    public var reportName: String {
        switch self {
        case .user: "user"
        case .system: "system"
        case let .kill(reason): "kill:" + reason.reportName
        case .forceQuit: "force-quit"
        case .exitsOnSuspend: "exits-on-suspend"
        }
    }
}

/// One lifecycle step: a state transition and/or a delegate callback, in the order they happen.
public struct LifecycleRecord: Sendable, Equatable {
    public var time: Int
    public var app: Int32
    public var from: AppState
    public var to: AppState
    public var callback: LifecycleCallback
    public var footprintBytes: Int
    /// The callback's deadline (µs), 0 when it has none.
    public var deadlineMicros: Int
    public var cause: TransitionCause
}

/// One kill, as written to `kills.csv`.
public struct KillRecord: Sendable, Equatable {
    public var time: Int
    public var app: Int32
    public var reason: KillReason
    public var state: AppState
    public var priorityClass: PriorityClass
    public var band: Int
    public var footprintBytes: Int
    /// Time since the app was last in the foreground (0 for the foreground app).
    public var idleMicros: Int
    public var availableBefore: Int
    public var availableAfter: Int
    /// A kill the user notices: the foreground app, audio, or an app doing background work.
    public var userVisible: Bool
}

/// One row of `timeseries.csv`.
public struct MemorySample: Sendable, Equatable {
    public var time: Int
    public var availableBytes: Int
    public var freeBytes: Int
    public var pressure: PressureLevel
    public var residentApps: Int
    public var suspendedApps: Int
    public var compressorBytes: Int
    public var footprintBytes: Int
}

/// Receives lifecycle records as they happen (for `events.csv`), so they need not be kept in memory.
public protocol SimulationObserver {
    /// When false the engine does not build records at all.
    var recordsLifecycle: Bool { get }
    mutating func record(_ record: LifecycleRecord)
}

/// Records nothing.
public struct NullObserver: SimulationObserver {
    public init() {}
    public var recordsLifecycle: Bool { false }
    public mutating func record(_ record: LifecycleRecord) {}
}

/// Keeps every record in memory (tests, small runs).
public struct RecordingObserver: SimulationObserver {
    public private(set) var records: [LifecycleRecord] = []
    public init() {}
    public var recordsLifecycle: Bool { true }
    public mutating func record(_ record: LifecycleRecord) { records.append(record) }
}
