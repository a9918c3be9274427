/// `lru` — least recently used first: the app whose last use (in the foreground, or its launch into the
/// background) is oldest dies first. Classic; equals libCacheSim's LRU on a cache-equivalent device.
/// No parameters.
public struct LRUPolicy: EvictionPolicy {
    public init() {}
    public var descriptor: PolicyDescriptor { PolicyDescriptor(name: "lru") }
    public func band(for priorityClass: PriorityClass) -> Int { BandTable().band(for: priorityClass) }
    public mutating func selectVictim(among candidates: [KillCandidate], context: KillContext) -> Int? {
        KillCandidate.best(candidates) { $0.lastUseSequence < $1.lastUseSequence }
    }

    public func rankingKey(_ inputs: RankingInputs) -> RankingKey? { RankingKey(major: 0, minor: inputs.lastUseSequence) }
}
