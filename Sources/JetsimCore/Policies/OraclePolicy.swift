/// `oracle` — Belady's rule by count: the app whose next foreground use is farthest in the future dies first; apps
/// never used again go before all others. Optimal only when every app has the same footprint (Belady's setting);
/// with footprints that differ it is an offline *heuristic*, not a bound — `largest` beats it on the bundled day.
/// It needs the whole trace: next-use positions are computed once in a backward pass (`NextUseTable`), never by
/// rescanning. Ties go to the least recently used. No parameters.
public struct OraclePolicy: EvictionPolicy {
    public init() {}
    public var descriptor: PolicyDescriptor { PolicyDescriptor(name: "oracle", capabilities: .needsFuture) }
    public func band(for priorityClass: PriorityClass) -> Int { BandTable().band(for: priorityClass) }
    public mutating func selectVictim(among candidates: [KillCandidate], context: KillContext) -> Int? {
        KillCandidate.best(candidates) { c, b in c.nextUse != b.nextUse ? c.nextUse > b.nextUse : c.lastUseSequence < b.lastUseSequence }
    }
}

/// `belady-size` — the size-aware offline heuristic of cache research (Belady-Size: libCacheSim's `BeladySize`; Berger
/// et al., "Practical Bounds on Optimal Caching with Variable Object Sizes", SIGMETRICS 2018): the app with the largest
/// footprint × distance (in trace events) to its next open dies first, so a large app not needed for a while goes
/// before a small one needed a little later. Apps never used again go first, the largest of them first. A heuristic,
/// not a bound (finding the optimum with variable sizes is NP-hard). Equals `oracle` when footprints are equal. Ties
/// go to the least recently used. No parameters.
public struct BeladySizePolicy: EvictionPolicy {
    public init() {}
    public var descriptor: PolicyDescriptor { PolicyDescriptor(name: "belady-size", capabilities: [.needsFuture, .sizeAware]) }
    public func band(for priorityClass: PriorityClass) -> Int { BandTable().band(for: priorityClass) }
    public mutating func selectVictim(among candidates: [KillCandidate], context: KillContext) -> Int? {
        // footprint × distance exceeds 64 bits on long traces: compare the full-width products.
        func cost(_ c: KillCandidate) -> (never: Bool, high: Int, low: UInt) {
            let footprint = max(0, c.footprintBytes)
            guard c.nextUse != Int.max else { return (true, 0, UInt(footprint)) }
            let product = footprint.multipliedFullWidth(by: max(0, c.nextUse - context.eventIndex))
            return (false, product.high, product.low)
        }
        return KillCandidate.best(candidates) { c, b in
            let x = cost(c), y = cost(b)
            if x.never != y.never { return x.never }
            if (x.high, x.low) != (y.high, y.low) { return (x.high, x.low) > (y.high, y.low) }
            return c.lastUseSequence < b.lastUseSequence
        }
    }
}
