/// What a timer does when it fires.
enum TimerKind: UInt8 {
    case agingEnd, interruptEnd, taskWorkEnd, taskExpiry, wakeEnd, launchWatchdog, growthStep, sustainedPressure, warmupEnd, intervalEnd
    /// The app's `applicationDidEnterBackground` handler returns, or its deadline passes.
    case handlerEnd
    /// The pressure response runs again because time alone changed what it may do (purgeable memory ripened,
    /// the freezer's write budget renewed).
    case pressureRecheck

    /// Timers that only observe the run (metric windows): they never change its state, so the engine neither applies
    /// growth nor responds to pressure after them. (Samples observe too, but keep their own clock beside the queue:
    /// `Simulator.nextSampleTime`.)
    var observesOnly: Bool { self == .warmupEnd || self == .intervalEnd }
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

    /// No timer: later than any (an empty slot).
    static let none = PendingTimer(time: .max, sequence: .max, kind: .pressureRecheck, app: -1, generation: 0, token: 0)
}

/// The engine's timer queue: a binary min-heap plus a slot for each kind of which at most one timer is current.
/// (swift-collections' `Heap` is a min-max heap: its pops compare grandchildren too, for a maximum this queue never
/// asks for; the plain heap here saves about 3 % of an event's instructions.)
///
/// Invariant: timers come out in (time, sequence) order, the order they would in one heap; a slot's timer is
/// replaced by the next one of its kind scheduled, which only drops timers that were stale (a third of all timers:
/// each foreground session leaves a growth check behind, each pressure episode a sustained-pressure tick). Samples are
/// not timers here: the engine keeps their clock, with a place in this queue's order (`reserveSequence`), and takes
/// them between the timers it pops (`Simulator.runDueTimers`), with no pop or slot to update for each.
struct TimerQueue {
    /// Heap-ordered by (time, sequence): every entry precedes its children.
    private var heap: UncheckedArray<PendingTimer>
    private var nextSequence: UInt64 = 0
    /// Kinds of which at most one timer is current at a time (the foreground app's growth check, the
    /// sustained-pressure tick, the pressure recheck) each have a slot: a new one makes the pending one stale, so it
    /// replaces it. An empty slot holds `PendingTimer.none` (time `Int.max`), so a pop compares plain values.
    private var growthCheck = PendingTimer.none
    private var sustainedTick = PendingTimer.none
    private var recheck = PendingTimer.none
    /// The earliest of the three slots, kept as they change, so a pop compares two timers, not four.
    private var earliestSlot = PendingTimer.none

    /// Room for `capacity` pending timers up front, so steady-state scheduling does not grow the storage.
    init(capacity: Int = 0) { heap = UncheckedArray(capacity: capacity) }

    /// Copies shared storage (`UncheckedArray`): called at every public mutating entry of the engine.
    @inline(__always)
    mutating func makeUnique() { heap.makeUnique() }

    mutating func schedule(_ kind: TimerKind, at time: Int, app: Int32 = -1, generation: UInt32 = 0, token: UInt32 = 0,
                           sequence reserved: UInt64? = nil) {
        let sequence = reserved ?? reserveSequence()
        let timer = PendingTimer(time: time, sequence: sequence, kind: kind, app: app, generation: generation, token: token)
        switch kind {
        case .growthStep, .sustainedPressure, .pressureRecheck: replaceSlot(of: kind, with: timer)
        default: insert(timer)
        }
    }

    /// Puts `timer` (`.none`: nothing) in the slot of `kind`. The earliest slot is recomputed only when the timer
    /// replaced was it; any other change compares once.
    @inline(__always)
    private mutating func replaceSlot(of kind: TimerKind, with timer: PendingTimer) {
        let old: PendingTimer
        switch kind {
        case .growthStep: (old, growthCheck) = (growthCheck, timer)
        case .sustainedPressure: (old, sustainedTick) = (sustainedTick, timer)
        default: (old, recheck) = (recheck, timer)
        }
        if old.time != Int.max && old.sequence == earliestSlot.sequence {
            refreshEarliestSlot()
        } else if timer < earliestSlot {
            earliestSlot = timer
        }
    }

    private mutating func refreshEarliestSlot() {
        earliestSlot = growthCheck
        if sustainedTick < earliestSlot { earliestSlot = sustainedTick }
        if recheck < earliestSlot { earliestSlot = recheck }
    }

    /// When the timer in the slot of `kind` is due (nil: none pending, or not a slot kind).
    func pendingTime(of kind: TimerKind) -> Int? {
        let slot: PendingTimer
        switch kind {
        case .growthStep: slot = growthCheck
        case .sustainedPressure: slot = sustainedTick
        case .pressureRecheck: slot = recheck
        default: return nil
        }
        return slot.time == Int.max ? nil : slot.time
    }

    /// Empties the slot of `kind` (a growth check, sustained-pressure tick or recheck that has just become stale, or has
    /// just come out).
    mutating func cancel(_ kind: TimerKind) {
        switch kind {
        case .growthStep, .sustainedPressure, .pressureRecheck: replaceSlot(of: kind, with: .none)
        default: return
        }
    }

    /// A place in the scheduling order for a timer that may be scheduled later (or never): it then comes out
    /// where it would had it been scheduled now.
    mutating func reserveSequence() -> UInt64 {
        defer { nextSequence &+= 1 }
        return nextSequence
    }

    /// When the earliest pending timer is due (`Int.max`: none).
    var earliestTime: Int {
        let slot = earliestSlot.time
        guard let first = heap.first else { return slot }
        return min(first.time, slot)
    }

    /// Removes and returns the earliest timer due at or before `time`, unless the caller's own event at (`otherTime`,
    /// `otherSequence`), a sequence it reserved (`reserveSequence`), comes before it: nil then, as when none is due.
    mutating func popDue(atOrBefore time: Int, unlessAfter otherTime: Int, _ otherSequence: UInt64) -> PendingTimer? {
        var earliest = heap.isEmpty ? .none : heap[0]
        if earliestSlot < earliest { earliest = earliestSlot }
        guard earliest.time <= time, earliest.time != Int.max,
              earliest.time < otherTime || (earliest.time == otherTime && earliest.sequence < otherSequence) else { return nil }
        // Sequences are unique, so the earliest timer's tells where it came from.
        if earliest.sequence == earliestSlot.sequence {
            cancel(earliest.kind)
        } else {
            removeMin()
        }
        return earliest
    }

    private mutating func insert(_ timer: PendingTimer) {
        var p = heap.count
        heap.append(timer)
        while p > 0 {
            let parent = (p - 1) / 2
            guard timer < heap[parent] else { break }
            heap[p] = heap[parent]
            p = parent
        }
        heap[p] = timer
    }

    private mutating func removeMin() {
        let last = heap.removeLast()
        let n = heap.count
        guard n > 0 else { return }
        var p = 0
        while true {
            var child = 2 * p + 1
            guard child < n else { break }
            if child + 1 < n && heap[child + 1] < heap[child] { child += 1 }
            guard heap[child] < last else { break }
            heap[p] = heap[child]
            p = child
        }
        heap[p] = last
    }

    var count: Int { heap.count + [growthCheck, sustainedTick, recheck].count { $0.time != Int.max } }
}
