/// The read-only view a policy gets of one app it may kill. Policies rank these; they never see or touch
/// the engine's accounting, so every policy is charged identically.
public struct KillCandidate: Sendable, Equatable {
    public var app: Int32
    public var state: AppState
    public var priorityClass: PriorityClass
    /// The band the policy assigned to `priorityClass`.
    public var band: Int
    /// Order of entry into the current band: smaller entered earlier (ties in time are broken by arrival).
    public var bandEntrySequence: UInt64
    public var bandEntryTime: Int
    /// Footprint in bytes (xnu-jetsam.md §5).
    public var footprintBytes: Int
    /// When the app was last in the foreground (µs), or when it was launched into the background.
    public var lastForegroundTime: Int
    /// When the current instance was launched (µs).
    public var launchTime: Int
    /// User launches (cold and resume) so far.
    public var launchCount: Int
    /// Whether the app runs in the background: an open task, an active long-running mode, a wake.
    public var backgroundActivity: BackgroundActivity
    /// What killing it costs the user on the next open: its cold-launch latency (ms).
    public var relaunchCostMillis: Int

    public struct BackgroundActivity: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let task = BackgroundActivity(rawValue: 1)
        public static let audio = BackgroundActivity(rawValue: 2)
        public static let otherMode = BackgroundActivity(rawValue: 4)
        public static let wake = BackgroundActivity(rawValue: 8)
    }
}

/// Why the engine asks for a victim, and the situation it is in.
public struct KillContext: Sendable {
    public var now: Int
    public var reason: KillReason
    public var availableBytes: Int
    public init(now: Int, reason: KillReason, availableBytes: Int) {
        self.now = now
        self.reason = reason
        self.availableBytes = availableBytes
    }
}
