/// `largest` — largest footprint first: "apps that consume large amounts of memory while in the background are
/// the first apps to be terminated" (the seed articles); Linux's badness without `oom_score_adj`.
/// Ties go to the least recently used. No parameters.
public struct LargestPolicy: EvictionPolicy {
    public init() {}
    public var descriptor: PolicyDescriptor { PolicyDescriptor(name: "largest", capabilities: .sizeAware) }
    public func band(for priorityClass: PriorityClass) -> Int { BandTable().band(for: priorityClass) }
    public mutating func selectVictim(among candidates: [KillCandidate], context: KillContext) -> Int? {
        KillCandidate.best(candidates) { c, b in
            c.footprintBytes != b.footprintBytes ? c.footprintBytes > b.footprintBytes : c.lastUseSequence < b.lastUseSequence
        }
    }
}
