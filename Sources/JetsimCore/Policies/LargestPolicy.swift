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
    /// its candidates in a `FixedScoreHeap` instead of scanning them all at every eviction: −footprint, smallest first,
    /// ties to the least recently used — the scan's tie-break. The footprint is a whole number below 2^53 (at most 2^50:
    /// `DecimalParser.maxBytes`), so its double and its negation are exact and order exactly as the scan's integers,
    /// ties included; `value(at:)`'s arithmetic is (0 + 1) · (−footprint) / 1, which is that double (and which the
    /// replay, seeing the constants, computes without a division: 1 / (footprint + 1), this score before, cost one at
    /// every departure). The full engine scans (footprints change there).
    @inlinable public func decayingScore(_ c: KillCandidate) -> DecayingScore? {
        assert(c.footprintBytes >= 0 && c.footprintBytes < 1 << 53, "largest: footprint \(c.footprintBytes) beyond the exact range")
        // The half-life is moot for a count of 0; the longest keeps an index's model from ever moving its time origin.
        return DecayingScore(count: 0, since: 0, halfLifeMicros: .greatestFiniteMagnitude, offset: 1, numerator: -Double(c.footprintBytes), divisor: 1)
    }
}
