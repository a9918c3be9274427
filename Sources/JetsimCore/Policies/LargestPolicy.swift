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

    /// The scan's order as a score that never decays, so the cache replay (where an object's footprint is fixed) keeps
    /// its candidates in a `FixedScoreHeap` instead of scanning them all at every eviction: 1 / (footprint + 1),
    /// smallest first, ties to the least recently used — the scan's tie-break. The score is strictly decreasing in the
    /// footprint, so it orders exactly as the scan's integers: for whole numbers 0 ≤ a < b, 1/(a+1) and 1/(b+1) are at
    /// least 1/((a+1)(a+2)) apart, more than one unit in the last place of 1/(a+1) (≤ 2^-52/(a+1)) while a + 2 ≤ 2^52;
    /// footprints are at most 2^50 (`DecimalParser.maxBytes`). The full engine scans (footprints change there).
    @inlinable public func decayingScore(_ c: KillCandidate) -> DecayingScore? {
        assert(c.footprintBytes >= 0 && c.footprintBytes < 1 << 52, "largest: footprint \(c.footprintBytes) beyond the exact range")
        // The half-life is moot for a count of 0; the longest keeps an index's model from ever moving its time origin.
        return DecayingScore(count: 0, since: 0, halfLifeMicros: .greatestFiniteMagnitude, offset: 1, numerator: 1, divisor: Double(c.footprintBytes) + 1)
    }
}
