/// Why a lifecycle transition happened, as shown in `events.csv`.
public enum TransitionCause: Sendable, Equatable {
    case user
    case system
    case kill(KillReason)
    case forceQuit
    case exitsOnSuspend

    public var reportName: String {
        let (name, reason) = staticReportName
        return name.description + reason.description
    }

    /// `reportName` as static bytes, in two parts (a kill's reason follows "kill:"), which an events.csv row copies.
    public var staticReportName: (name: StaticString, reason: StaticString) {
        switch self {
        case .user: ("user", "")
        case .system: ("system", "")
        case let .kill(reason): ("kill:", reason.staticReportName)
        case .forceQuit: ("force-quit", "")
        case .exitsOnSuspend: ("exits-on-suspend", "")
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

/// One started app's state at a probe time, as written to `residency.csv` (`Simulator.probeResidency`).
public struct ResidencyRecord: Sendable, Equatable, Codable {
    public var time: Int
    public var app: Int32
    /// Not running: the app was started by then and has been killed (or quit) since.
    public var state: AppState
    /// Its jetsam band, or oom_adj on Android.
    public var band: Int
    public var footprintBytes: Int
    public init(time: Int, app: Int32, state: AppState, band: Int, footprintBytes: Int) {
        (self.time, self.app, self.state, self.band, self.footprintBytes) = (time, app, state, band, footprintBytes)
    }
}

/// One kill, as written to `kills.csv`.
public struct KillRecord: Sendable, Equatable, Codable {
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
public struct MemorySample: Sendable, Equatable, Codable {
    public var time: Int
    public var availableBytes: Int
    public var freeBytes: Int
    public var pressure: PressureLevel
    public var residentApps: Int
    public var suspendedApps: Int
    public var compressorBytes: Int
    public var footprintBytes: Int

    /// Calls `body` with this sample, then `count - 1` copies, each `interval` µs after the one before.
    @inlinable
    public func repeated(_ count: Int, every interval: Int, _ body: (MemorySample) -> Void) {
        var s = self
        for k in 0..<count {
            s.time = time + k * interval
            body(s)
        }
    }

    /// Whether the two samples describe the same state, taken at different times or not.
    public func differsOnlyInTime(from other: MemorySample) -> Bool {
        var same = other
        same.time = time
        return self == same
    }
}

/// Receives records as they happen — lifecycle steps (for `events.csv`), kills and samples — so that a long
/// run need not keep them in memory.
public protocol SimulationObserver {
    /// When false the engine does not build lifecycle records at all (read once, when the simulator is made).
    var recordsLifecycle: Bool { get }
    mutating func record(_ record: LifecycleRecord)
    /// When false, kills and samples reach only `record(kill:)` and `record(sample:)`: the result's `kills` and
    /// `samples` stay empty and the engine's memory stays flat however long the trace (default true).
    var retainsKillsAndSamples: Bool { get }
    /// Every kill, as it happens (warm-up included).
    mutating func record(kill: KillRecord)
    /// Every `--sample-interval` sample, as it is taken.
    mutating func record(sample: MemorySample)
    /// `count` samples of a state that does not change between them: `sample`, then one every `interval` µs (the
    /// engine takes an idle stretch's samples at once). Default: each through `record(sample:)`.
    mutating func record(sample: MemorySample, repeated count: Int, every interval: Int)
    /// `count` samples of a stretch in which only the foreground app's growth changes the state: from the state's time,
    /// one every `interval` µs (`GrowingSamples.samples`). Default: each through `record(sample:)`.
    mutating func record(growing: GrowingSamples, count: Int, every interval: Int)
}

extension SimulationObserver {
    public var retainsKillsAndSamples: Bool { true }
    public mutating func record(kill: KillRecord) {}
    public mutating func record(sample: MemorySample) {}
    public mutating func record(sample: MemorySample, repeated count: Int, every interval: Int) {
        sample.repeated(count, every: interval) { record(sample: $0) }
    }
    public mutating func record(growing: GrowingSamples, count: Int, every interval: Int) {
        growing.samples(count, every: interval) { record(sample: $0) }
    }
}

/// Records nothing and keeps neither kills nor samples: only the result's counters (compare cells, benchmarks).
public struct CountersOnlyObserver: SimulationObserver {
    public init() {}
    public var recordsLifecycle: Bool { false }
    public mutating func record(_ record: LifecycleRecord) {}
    public var retainsKillsAndSamples: Bool { false }
}

/// Records no lifecycle steps; the result keeps kills and samples (small runs, the charted compare cell).
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

/// Where `SinkObserver` sends records: an object, so that what it writes to (JetsimIO's report files) can live
/// outside JetsimCore.
public protocol SimulationRecordSink: AnyObject {
    /// When false the engine builds no lifecycle records (read once, when the simulator is made).
    var recordsLifecycle: Bool { get }
    func record(_ record: LifecycleRecord)
    func record(kill: KillRecord)
    func record(sample: MemorySample)
    /// `SimulationObserver.record(sample:repeated:every:)`; the same default.
    func record(sample: MemorySample, repeated count: Int, every interval: Int)
    /// `SimulationObserver.record(growing:count:every:)`; the same default.
    func record(growing: GrowingSamples, count: Int, every interval: Int)
}

extension SimulationRecordSink {
    public func record(sample: MemorySample, repeated count: Int, every interval: Int) {
        sample.repeated(count, every: interval) { record(sample: $0) }
    }
    public func record(growing: GrowingSamples, count: Int, every interval: Int) {
        growing.samples(count, every: interval) { record(sample: $0) }
    }
}

/// Streams every record to a sink and keeps neither kills nor samples (`jetsim run`). A type of JetsimCore's own,
/// so the engine can be specialised for it ahead of time (`Simulator.process`): a generic engine loop costs about
/// a tenth more time per event.
public struct SinkObserver: SimulationObserver {
    public let sink: any SimulationRecordSink
    public let recordsLifecycle: Bool
    public init(_ sink: any SimulationRecordSink) {
        self.sink = sink
        recordsLifecycle = sink.recordsLifecycle
    }
    public var retainsKillsAndSamples: Bool { false }
    public func record(_ record: LifecycleRecord) { sink.record(record) }
    public func record(kill: KillRecord) { sink.record(kill: kill) }
    public func record(sample: MemorySample) { sink.record(sample: sample) }
    public func record(sample: MemorySample, repeated count: Int, every interval: Int) { sink.record(sample: sample, repeated: count, every: interval) }
    public func record(growing: GrowingSamples, count: Int, every interval: Int) { sink.record(growing: growing, count: count, every: interval) }
}
