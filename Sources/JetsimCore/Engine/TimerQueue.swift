import HeapModule

/// What a timer does when it fires.
enum TimerKind: UInt8 {
    case agingEnd, interruptEnd, taskWorkEnd, taskExpiry, wakeEnd, launchWatchdog, growthStep, sample, sustainedPressure, warmupEnd, intervalEnd
    /// The pressure response runs again because time alone changed what it may do (purgeable memory ripened,
    /// the freezer's write budget renewed).
    case pressureRecheck

    /// Timers that only observe the run (samples, metric windows): they never change its state, so the
    /// engine neither applies growth nor responds to pressure after them.
    var observesOnly: Bool { self == .sample || self == .warmupEnd || self == .intervalEnd }
}

/// A pending timer. Ordered by time, then by scheduling order, so runs are deterministic.
/// Stale timers are not removed: each carries the app's generation and a kind-specific token, and is
/// ignored when they no longer match (lazy invalidation).
struct PendingTimer: Comparable {
    var time: Int
    var sequence: UInt64
    var kind: TimerKind
    var app: Int32
    var generation: UInt32
    var token: UInt32

    static func < (a: PendingTimer, b: PendingTimer) -> Bool {
        a.time != b.time ? a.time < b.time : a.sequence < b.sequence
    }
    static func == (a: PendingTimer, b: PendingTimer) -> Bool { a.time == b.time && a.sequence == b.sequence }
}

/// The engine's timer queue: a binary min-heap (swift-collections `Heap`).
struct TimerQueue {
    private var heap = Heap<PendingTimer>()
    private var nextSequence: UInt64 = 0

    /// Room for `capacity` pending timers up front, so steady-state scheduling does not grow the storage.
    init(capacity: Int = 0) { heap.reserveCapacity(capacity) }

    mutating func schedule(_ kind: TimerKind, at time: Int, app: Int32 = -1, generation: UInt32 = 0, token: UInt32 = 0) {
        heap.insert(PendingTimer(time: time, sequence: nextSequence, kind: kind, app: app, generation: generation, token: token))
        nextSequence &+= 1
    }

    /// Removes and returns the earliest timer due at or before `time`.
    mutating func popDue(atOrBefore time: Int) -> PendingTimer? {
        guard let first = heap.min, first.time <= time else { return nil }
        return heap.removeMin()
    }

    var count: Int { heap.count }
}
