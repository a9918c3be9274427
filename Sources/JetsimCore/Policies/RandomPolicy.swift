/// `random` — a uniformly random candidate, drawn from the run's seed (SplitMix64 with Lemire's unbiased
/// bounded draw, so the same seed gives the same victims on every platform). The baseline. No parameters.
public struct RandomPolicy: EvictionPolicy {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public var descriptor: PolicyDescriptor { PolicyDescriptor(name: "random", capabilities: .randomized) }
    public func band(for priorityClass: PriorityClass) -> Int { BandTable().band(for: priorityClass) }

    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in 0..<n (Lemire 2019).
    mutating func draw(below n: Int) -> Int {
        let bound = UInt64(n)
        var (high, low) = next().multipliedFullWidth(by: bound)
        if low < bound {
            let threshold = (0 &- bound) % bound
            while low < threshold { (high, low) = next().multipliedFullWidth(by: bound) }
        }
        return Int(high)
    }

    public mutating func selectVictim(among candidates: [KillCandidate], context: KillContext) -> Int? {
        draw(below: candidates.count)
    }
}
