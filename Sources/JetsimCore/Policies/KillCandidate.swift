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
    /// User launches (cold and resume) of this app since the run began, across instances.
    public var launchCount: Int
    /// When the user first opened the app in this run (µs); `Int.max` if never.
    public var firstUseTime: Int
    /// Global order of the app's last use (an open, or a launch into the background): smaller is less recent.
    /// Exact where times tie.
    public var lastUseSequence: UInt64
    /// Global order of the current instance's launch: smaller launched earlier.
    public var launchSequence: UInt64
    /// Dirty memory held compressed or frozen (uncompressed size): the "swap" part of the footprint.
    public var compressedBytes: Int
    /// Trace position of the app's next open, when the whole trace is known (`Int.max`: never again, or unknown).
    public var nextUse: Int
    /// Whether the app runs in the background: an open task, an active long-running mode, a wake.
    public var backgroundActivity: BackgroundActivity
    /// What killing it costs the user on the next open: its cold-launch latency (ms).
    public var relaunchCostMillis: Int

    @inlinable
    public init(app: Int32, state: AppState = .suspended, priorityClass: PriorityClass = .idle, band: Int = 0,
                bandEntrySequence: UInt64 = 0, bandEntryTime: Int = 0, footprintBytes: Int = 0,
                lastForegroundTime: Int = 0, launchTime: Int = 0, launchCount: Int = 0, firstUseTime: Int = Int.max,
                lastUseSequence: UInt64 = 0, launchSequence: UInt64 = 0, compressedBytes: Int = 0, nextUse: Int = Int.max,
                backgroundActivity: BackgroundActivity = [], relaunchCostMillis: Int = 0) {
        self.app = app
        self.state = state
        self.priorityClass = priorityClass
        self.band = band
        self.bandEntrySequence = bandEntrySequence
        self.bandEntryTime = bandEntryTime
        self.footprintBytes = footprintBytes
        self.lastForegroundTime = lastForegroundTime
        self.launchTime = launchTime
        self.launchCount = launchCount
        self.firstUseTime = firstUseTime
        self.lastUseSequence = lastUseSequence
        self.launchSequence = launchSequence
        self.compressedBytes = compressedBytes
        self.nextUse = nextUse
        self.backgroundActivity = backgroundActivity
        self.relaunchCostMillis = relaunchCostMillis
    }

    /// The first index whose candidate `better` prefers over every other (ties keep the earlier one).
    public static func best(_ candidates: [KillCandidate], _ better: (KillCandidate, KillCandidate) -> Bool) -> Int {
        var best = 0
        for i in 1..<candidates.count where better(candidates[i], candidates[best]) { best = i }
        return best
    }

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
    /// Position in the trace of the event being handled (for policies that know the future).
    public var eventIndex: Int
    public init(now: Int, reason: KillReason, availableBytes: Int, eventIndex: Int = 0) {
        self.now = now
        self.reason = reason
        self.availableBytes = availableBytes
        self.eventIndex = eventIndex
    }
}
