/// `linux-oom` — the Linux kernel OOM killer's badness (android-lmkd.md): RSS + swap + `oom_score_adj` × RAM / 1000,
/// highest first. RSS + swap is the footprint (compressed and frozen pages are the swap); adjustments are
/// `AndroidAdjustment`'s. No parameters.
public struct LinuxOOMPolicy: EvictionPolicy {
    let physicalBytes: Int

    public init(physicalBytes: Int) { self.physicalBytes = physicalBytes }

    public var descriptor: PolicyDescriptor { PolicyDescriptor(name: "linux-oom", capabilities: .sizeAware) }
    public func band(for priorityClass: PriorityClass) -> Int { BandTable().band(for: priorityClass) }

    public mutating func selectVictim(among candidates: [KillCandidate], context: KillContext) -> Int? {
        let adj = AndroidAdjustment.adjustments(candidates)
        let perMille = physicalBytes / 1000
        var best = 0, bestScore = Int.min
        for (i, c) in candidates.enumerated() {
            let score = c.footprintBytes + adj[i] * perMille
            if score > bestScore || (score == bestScore && c.lastUseSequence < candidates[best].lastUseSequence) {
                best = i
                bestScore = score
            }
        }
        return best
    }
}
