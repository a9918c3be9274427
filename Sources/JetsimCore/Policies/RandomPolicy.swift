/// `random` — a uniformly random candidate, drawn from the run's seed (SplitMix64 with Lemire's unbiased
/// bounded draw, so the same seed gives the same victims on every platform). The baseline. No parameters.
public struct RandomPolicy: EvictionPolicy {
    private var random: SplitMix64

    public init(seed: UInt64) { random = SplitMix64(seed: seed) }

    public var descriptor: PolicyDescriptor { PolicyDescriptor(name: "random", capabilities: .randomized) }
    public func band(for priorityClass: PriorityClass) -> Int { BandTable().band(for: priorityClass) }

    public mutating func selectVictim(among candidates: [KillCandidate], context: KillContext) -> Int? {
        selectIndex(count: candidates.count)
    }

    public mutating func selectIndex(count: Int) -> Int? { Int(random.below(UInt64(count))) }
    public var selectsByIndex: Bool { true }
}
