import JetsimCore

/// When a run looks at its apps (`--residency`, and `jetsim validate`'s snapshots) and what it saw there.
///
/// The rule, in one place: a probe at time t sees every event at or before t, with the timers due by t fired
/// (`Simulator.probeResidency`) — so a probe at a snapshot's time sees the switch an importer wrote at that time.
/// Probes decide nothing: a run's reports are the same with or without them (ResidencyOutputTests).
///
/// Invariants: `.at`'s times are sorted; `records` are in probe order, then app order; no probe starts once `limit`
/// records are kept.
public struct ResidencyProbes: Sendable {
    public enum Schedule: Sendable, Equatable {
        /// Every `micros` of trace time, at its multiples, from the first event to the last.
        case every(Int)
        /// At these trace times (µs, sorted), after the last event too.
        case at([Int])
    }

    /// The most records one run keeps (10 M: 320 MB); the probes after that are not taken, and `truncated` says so.
    public static let limit = 10_000_000

    public let schedule: Schedule
    public private(set) var records: [ResidencyRecord] = []
    public private(set) var truncated = false
    /// The next probe: an index into `.at`'s times, or `.every`'s next time (nil until the first event is seen).
    private var nextIndex = 0
    private var nextTime: Int?

    public init(_ schedule: Schedule) {
        self.schedule = schedule
    }

    /// The next probe time, if any is left.
    private mutating func upcoming(firstEvent: Int?) -> Int? {
        switch schedule {
        case .at(let times):
            return nextIndex < times.count ? times[nextIndex] : nil
        case .every(let micros):
            if nextTime == nil, let first = firstEvent {
                // The first multiple of the interval at or after the first event.
                let (rounded, overflow) = first.addingReportingOverflow(micros - 1)
                nextTime = overflow ? nil : rounded / micros * micros
            }
            return nextTime
        }
    }

    private mutating func advance() {
        switch schedule {
        case .at: nextIndex += 1
        case .every(let micros):
            let (t, overflow) = (nextTime ?? 0).addingReportingOverflow(micros)
            nextTime = overflow ? Int.max : t
        }
    }

    /// Takes every probe before `time` (the next event's), or, with nil at the end of the trace, the rest: all of `.at`'s,
    /// `.every`'s up to the last event.
    public mutating func probe<P: EvictionPolicy, O: SimulationObserver>(before time: Int?, _ simulator: inout Simulator<P, O>) {
        while let t = upcoming(firstEvent: time), time.map({ t < $0 }) ?? true {
            if time == nil, case .every = schedule, t > simulator.now { return }
            guard records.count < Self.limit else { truncated = true; return }
            simulator.probeResidency(at: t, into: &records)
            advance()
        }
    }
}
