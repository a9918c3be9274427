/// SplitMix64 (Steele, Lea & Flood 2014): a tiny, fast, well-mixed seeded generator. Every random draw in Jetsim
/// goes through it, so the same seed gives the same numbers on every platform and Swift version.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in 0..<bound, unbiased (Lemire 2019); `bound` > 0.
    public mutating func below(_ bound: UInt64) -> UInt64 {
        var (high, low) = next().multipliedFullWidth(by: bound)
        if low < bound {
            let threshold = (0 &- bound) % bound
            while low < threshold { (high, low) = next().multipliedFullWidth(by: bound) }
        }
        return high
    }
}
