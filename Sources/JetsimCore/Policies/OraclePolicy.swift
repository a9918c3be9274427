/// `oracle` — the offline optimum (Belady): the app whose next foreground use is farthest in the future dies
/// first; apps never used again go before all others. It needs the whole trace: next-use positions are computed
/// once in a backward pass (`NextUseTable`), never by rescanning. Ties go to the least recently used.
/// No parameters.
public struct OraclePolicy: EvictionPolicy {
    public init() {}
    public var descriptor: PolicyDescriptor { PolicyDescriptor(name: "oracle", capabilities: .needsFuture) }
    public func band(for priorityClass: PriorityClass) -> Int { BandTable().band(for: priorityClass) }
    public mutating func selectVictim(among candidates: [KillCandidate], context: KillContext) -> Int? {
        KillCandidate.best(candidates) { c, b in c.nextUse != b.nextUse ? c.nextUse > b.nextUse : c.lastUseSequence < b.lastUseSequence }
    }
}
