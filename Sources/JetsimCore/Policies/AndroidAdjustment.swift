/// Android's `oom_score_adj` for an iOS priority situation (android-lmkd.md): lower survives longer.
/// foreground 0; audio (perceptible) 200; a location, VoIP or other long-running mode (perceptible-low) 250;
/// a background task or wake (service) 500; the previous app 700; other suspended apps are cached, 900–999 in
/// ten sub-buckets by recency (older → higher).
public enum AndroidAdjustment {
    /// Adjustments of every candidate, in candidate order.
    public static func adjustments(_ candidates: [KillCandidate]) -> [Int] {
        // Recency rank among the cached (suspended) apps: 0 = most recent.
        let cached = candidates.indices.filter { candidates[$0].state == .suspended }
            .sorted { candidates[$0].lastUseSequence > candidates[$1].lastUseSequence }
        var adj = [Int](repeating: 0, count: candidates.count)
        for (rank, i) in cached.enumerated() {
            adj[i] = rank == 0 ? 700 : 900 + min(9, (rank - 1) * 10 / max(1, cached.count - 1)) * 10
        }
        for (i, c) in candidates.enumerated() where c.state != .suspended {
            if c.priorityClass == .foreground { adj[i] = 0 }
            else if c.backgroundActivity.contains(.audio) { adj[i] = 200 }
            else if c.backgroundActivity.contains(.otherMode) { adj[i] = 250 }
            else { adj[i] = 500 }
        }
        return adj
    }
}
