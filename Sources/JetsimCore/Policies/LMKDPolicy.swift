/// `lmkd` — Android's low-memory killer daemon (android-lmkd.md): walk `oom_score_adj` from the highest level
/// down; above 200 take the least recently used process of the level (or, with `kill_heaviest=true`, the largest);
/// at 200 and below always the largest. Adjustments: `AndroidAdjustment`.
///
/// Parameters: `kill_heaviest` (false) — lmkd's `kill_heaviest_task`.
public struct LMKDPolicy: EvictionPolicy {
    public var killHeaviest: Bool

    public init(killHeaviest: Bool = false) { self.killHeaviest = killHeaviest }

    public init(parameters: [String: String]) throws(PolicySpecError) {
        let p = try PolicyParameters(policy: "lmkd", values: parameters, known: ["kill_heaviest"])
        killHeaviest = try p.flag("kill_heaviest", default: false)
    }

    public var descriptor: PolicyDescriptor {
        PolicyDescriptor(name: "lmkd", parameters: [("kill_heaviest", String(killHeaviest))], capabilities: .sizeAware)
    }

    public func band(for priorityClass: PriorityClass) -> Int { BandTable().band(for: priorityClass) }

    public mutating func selectVictim(among candidates: [KillCandidate], context: KillContext) -> Int? {
        let adj = AndroidAdjustment.adjustments(candidates)
        var best = 0
        for i in 1..<candidates.count {
            let c = candidates[i], b = candidates[best]
            if adj[i] != adj[best] {
                if adj[i] > adj[best] { best = i }
                continue
            }
            let heaviest = killHeaviest || adj[i] <= 200
            if heaviest ? (c.footprintBytes > b.footprintBytes || (c.footprintBytes == b.footprintBytes && c.lastUseSequence < b.lastUseSequence))
                        : c.lastUseSequence < b.lastUseSequence {
                best = i
            }
        }
        return best
    }
}
