#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One candidate's victim score as a function of time, for the policies that kill the smallest decaying score first
/// (`lfu`, `cost`, `largest`): `(count · 2^(−(now − since) / halfLife) + offset) · numerator / divisor`, where `count` is the
/// app's decayed use count as of its last use at `since` (`DecayedFrequency`), `offset` 0 (`lfu`) or 1 (`cost`: a
/// never-used app still costs its launch), `numerator` / `divisor` a per-candidate weight (`cost`: relaunch
/// milliseconds over footprint^alpha; `lfu`: 1 / 1). `largest` uses it as a score that never decays (count 0, offset 1,
/// weight −footprint / 1).
///
/// `value(at:)` is the policy's own arithmetic, operation for operation in the same order (the scan in
/// `selectVictim` computes exactly these doubles), so an index that evaluates it picks exactly the scan's victim.
/// For `lfu`, `(f + 0) · 1 / 1` is `f` bit for bit.
///
/// Invariants: `count` ≥ 0 and finite, `offset` is 0 or 1, `numerator` ≥ 0 and `divisor` > 0 finite,
/// `halfLifeMicros` > 0 (`DecayedFrequency`'s).
public struct DecayingScore: Sendable, Equatable, BitwiseCopyable {
    public var count: Double
    public var since: Int
    public var halfLifeMicros: Double
    public var offset: Double
    public var numerator: Double
    public var divisor: Double

    @inlinable
    public init(count: Double, since: Int, halfLifeMicros: Double, offset: Double = 0, numerator: Double = 1, divisor: Double = 1) {
        self.count = count
        self.since = since
        self.halfLifeMicros = halfLifeMicros
        self.offset = offset
        self.numerator = numerator
        self.divisor = divisor
    }

    /// The decayed count at `time` (≥ `since`); 0 for an app never opened (`DecayedFrequency.value`). At `since` itself
    /// the count, without a call to exp2: 2^(−0 / halfLife) is exactly 1, so the double is the same.
    @inlinable
    public func decayedCount(at time: Int) -> Double {
        decayedCount(at: time) { Self.decayFactor(overGap: $0, halfLifeMicros: halfLifeMicros) }
    }

    /// `decayedCount(at:)` with the decay factor over the gap since `since` from `factor`, which must return
    /// `decayFactor(overGap:halfLifeMicros:)`'s double (`DecayedFrequency`'s memo of recent gaps does).
    @inlinable @inline(__always)
    func decayedCount(at time: Int, factor: (Int) -> Double) -> Double {
        count == 0 ? 0 : time == since ? count : count * factor(time - since)
    }

    /// 2^(−gap / halfLife): what a count keeps over `gap` µs.
    @inlinable @inline(__always)
    static func decayFactor(overGap gap: Int, halfLifeMicros: Double) -> Double { exp2(-Double(gap) / halfLifeMicros) }

    /// Whether the score is the same double at every time: with no count to decay, `value(at:)` is
    /// `(0 + offset) · numerator / divisor` whatever the time (`largest`'s always; an app never opened). The cache
    /// replay keeps such candidates in a `FixedScoreHeap`.
    @inlinable public var isConstant: Bool { count == 0 }

    /// The score at `time`, as the policy's scan computes it.
    @inlinable
    public func value(at time: Int) -> Double { (decayedCount(at: time) + offset) * numerator / divisor }
}
