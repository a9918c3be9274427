import JetsimCore

/// `cache.csv`: one row per policy and capacity of a cache replay (`jetsim cachesim`). Columns: Reports/README.md.
public enum CacheReport {
    public struct Row {
        public var policy: String
        public var capacityBytes: Int
        public var counters: CacheCounters
        public init(policy: String, capacityBytes: Int, counters: CacheCounters) {
            self.policy = policy
            self.capacityBytes = capacityBytes
            self.counters = counters
        }
    }

    public static let header = ["trace", "policy", "capacity_bytes", "seed", "requests", "objects", "hits", "misses", "miss_ratio",
                                "requested_bytes", "missed_bytes", "byte_miss_ratio", "evictions", "evicted_bytes", "not_admitted",
                                "used_bytes"]

    public static func text(_ rows: [Row], trace: String, seed: UInt64) -> String {
        var out = CSVLine.of(header)
        for r in rows {
            let c = r.counters
            out += CSVLine.of([trace, r.policy, String(r.capacityBytes), String(seed), String(c.requests), String(c.objects),
                               String(c.hits), String(c.misses), FixedPoint.format(c.misses, over: c.requests, decimals: 6),
                               String(c.requestedBytes), String(c.missedBytes),
                               FixedPoint.format(c.missedBytes, over: c.requestedBytes, decimals: 6),
                               String(c.evictions), String(c.evictedBytes), String(c.notAdmitted), String(c.usedBytes)])
        }
        return out
    }

    /// Writes `cache.csv` into `directory` atomically.
    public static func write(_ rows: [Row], trace: String, seed: UInt64, to directory: String) throws(InputError) {
        let file = try AtomicFile(path: directory + "/cache.csv")
        try file.write(text(rows, trace: trace, seed: seed))
        try file.commit()
    }
}
