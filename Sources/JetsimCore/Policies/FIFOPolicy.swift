/// `fifo` — earliest launched first, whatever the use since. Classic; equals libCacheSim's FIFO on a
/// cache-equivalent device. No parameters.
public struct FIFOPolicy: EvictionPolicy {
    public init() {}
    public var descriptor: PolicyDescriptor { PolicyDescriptor(name: "fifo") }
    public func band(for priorityClass: PriorityClass) -> Int { BandTable().band(for: priorityClass) }
    public mutating func selectVictim(among candidates: [KillCandidate], context: KillContext) -> Int? {
        KillCandidate.best(candidates) { $0.launchSequence < $1.launchSequence }
    }

    public func rankingKey(_ inputs: RankingInputs) -> RankingKey? { RankingKey(major: 0, minor: inputs.launchSequence) }
}
