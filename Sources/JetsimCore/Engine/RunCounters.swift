/// The engine's additive counters of a run, declared once: the simulator counts into them as it runs
/// (`MetricsCollector.counters`), a `MetricsSnapshot` holds a copy of them at one instant, and a measurement window is
/// the difference of two copies (`since`). All integers; ratios are formed only when reporting.
///
/// Invariant: every field is additive (a count or a sum that never decreases during a run), so that `since` of two
/// instants is the window's own count.
public struct RunCounters: Sendable, Equatable, Codable {
    public var events = 0
    public var relaunchesAfterKill = 0
    public var backgroundLaunches = 0
    /// Kills per `KillReason`, by raw value.
    public var killsByReason = [Int](repeating: 0, count: KillReason.allCases.count)
    public var userVisibleKills = 0
    public var killsAvoidedByPurge = 0
    public var purgedBytes = 0
    public var memoryWarnings = 0
    public var oomEvents = 0
    public var terminations = 0
    public var ignoredEvents = 0
    public var compressedBytes = 0
    public var freezes = 0
    public var thaws = 0
    public var frozenWrittenBytes = 0
    /// µs spent at each pressure level (normal, warning, critical).
    public var microsAtLevel = [0, 0, 0]
    /// Σ resident apps × µs.
    public var residentAppMicros: Int128 = 0

    public init() {}

    /// The counts from `base` to these.
    public func since(_ base: RunCounters) -> RunCounters {
        var d = self
        d.events -= base.events
        d.relaunchesAfterKill -= base.relaunchesAfterKill
        d.backgroundLaunches -= base.backgroundLaunches
        d.killsByReason = Self.difference(killsByReason, base.killsByReason)
        d.userVisibleKills -= base.userVisibleKills
        d.killsAvoidedByPurge -= base.killsAvoidedByPurge
        d.purgedBytes -= base.purgedBytes
        d.memoryWarnings -= base.memoryWarnings
        d.oomEvents -= base.oomEvents
        d.terminations -= base.terminations
        d.ignoredEvents -= base.ignoredEvents
        d.compressedBytes -= base.compressedBytes
        d.freezes -= base.freezes
        d.thaws -= base.thaws
        d.frozenWrittenBytes -= base.frozenWrittenBytes
        d.microsAtLevel = Self.difference(microsAtLevel, base.microsAtLevel)
        d.residentAppMicros -= base.residentAppMicros
        return d
    }

    /// `a[k] − b[k]` for each k of both (`zip(a, b).map(-)`, in a loop that an unoptimised build does not run through
    /// generic iterators: a run with many intervals takes a difference per interval).
    static func difference(_ a: [Int], _ b: [Int]) -> [Int] {
        let n = Swift.min(a.count, b.count)
        var d = [Int](repeating: 0, count: n)
        for k in 0..<n { d[k] = a[k] - b[k] }
        return d
    }
}
