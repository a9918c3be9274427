#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import JetsimCore

/// The core's SplitMix64 with helpers for the distributions the workload model draws from. One generator per
/// stream, all derived from the one `--seed`, so the same command gives the same bytes on every platform.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var generator: SplitMix64

    public init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    /// An independent stream for `label` (users, days), derived from this one's seed without consuming it.
    public func stream(_ label: UInt64) -> SeededRandom {
        var copy = SeededRandom(seed: generator.state ^ (label &* 0xD1B5_4A32_D192_ED03))
        _ = copy.next()
        return copy
    }

    public mutating func next() -> UInt64 { generator.next() }

    /// Uniform in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// Uniform integer in `range` (unbiased: Lemire's method).
    public mutating func integer(in range: ClosedRange<Int>) -> Int {
        let bound = UInt64(range.upperBound - range.lowerBound) &+ 1
        if bound == 0 { return Int(truncatingIfNeeded: next()) }
        return range.lowerBound + Int(generator.below(bound))
    }

    public mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// Standard normal (Box–Muller).
    public mutating func normal() -> Double {
        let u1 = max(unit(), 1e-300), u2 = unit()
        return sqrt(-2 * log(u1)) * cos(2 * Double.pi * u2)
    }

    /// Log-normal with the given median and σ of the underlying normal.
    public mutating func logNormal(median: Double, sigma: Double) -> Double { median * exp(sigma * normal()) }

    public mutating func exponential(mean: Double) -> Double { -mean * log(max(1 - unit(), 1e-300)) }

    /// Poisson draw (Knuth for small means, normal approximation above 50).
    public mutating func poisson(mean: Double) -> Int {
        if mean > 50 { return max(0, Int((mean + sqrt(mean) * normal()).rounded())) }
        let limit = exp(-mean)
        var k = 0, p = 1.0
        repeat { k += 1; p *= unit() } while p > limit
        return k - 1
    }

    /// An index drawn with probability proportional to `cumulative` weights (a running sum, last = total).
    public mutating func pick(cumulative: [Double]) -> Int {
        let u = unit() * (cumulative.last ?? 0)
        var lo = 0, hi = cumulative.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if cumulative[mid] <= u { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    public mutating func shuffle<T>(_ array: inout [T]) {
        guard array.count > 1 else { return }
        for i in stride(from: array.count - 1, to: 0, by: -1) { array.swapAt(i, integer(in: 0...i)) }
    }
}

/// Running sums of `weights`, for `SeededRandom.pick(cumulative:)`.
public func cumulativeSums(_ weights: [Double]) -> [Double] {
    var acc = 0.0
    return weights.map { acc += $0; return acc }
}
