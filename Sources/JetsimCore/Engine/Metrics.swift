/// Counters the engine keeps while it runs. All integers; ratios are formed only when reporting.
struct MetricsCollector {
    var events = 0
    var backgroundLaunches = 0
    var relaunchesAfterKill = 0
    var killsByReason = [Int](repeating: 0, count: KillReason.allCases.count)
    var userVisibleKills = 0
    var killsAvoidedByPurge = 0
    var purgedBytes = 0
    var memoryWarnings = 0
    var oomEvents = 0
    var terminations = 0
    var ignoredEvents = 0
    var compressedBytes = 0
    var peakCompressorBytes = 0
    var microsAtLevel = [0, 0, 0]
    var freezes = 0
    var thaws = 0
    var frozenWrittenBytes = 0
    /// Latencies of resumes that thawed frozen memory: latency (ms) → count.
    var thawedResumeLatencies: [Int: Int] = [:]
    /// Σ resident apps × µs.
    var residentAppMicros: Int128 = 0
}

/// Per-app results (`apps.csv`).
public struct AppSummary: Sendable, Equatable, Codable {
    public var name: String
    public var launches: Int
    public var coldLaunches: Int
    public var resumes: Int
    public var backgroundLaunches: Int
    public var kills: Int
    /// Time-weighted mean footprint while resident, bytes (rounded down).
    public var meanFootprintBytes: Int
    public var peakFootprintBytes: Int
    public var residentMicros: Int
}

/// Everything one run produced, ready for the report writers.
public struct SimulationResult: Sendable, Codable {
    public var policy: PolicyDescriptor
    public var device: Device
    public var seed: UInt64
    public var events: Int
    public var startTime: Int
    public var endTime: Int
    public var launches: Int
    public var coldLaunches: Int
    public var resumes: Int
    public var relaunchesAfterKill: Int
    public var backgroundLaunches: Int
    public var killsByReason: [KillReason: Int]
    public var userVisibleKills: Int
    public var killsAvoidedByPurge: Int
    public var purgedBytes: Int
    public var memoryWarnings: Int
    public var oomEvents: Int
    public var terminations: Int
    public var ignoredEvents: Int
    public var compressedBytes: Int
    public var peakCompressorBytes: Int
    public var freezes: Int
    public var thaws: Int
    public var frozenWrittenBytes: Int
    /// Σ launch latencies (ms) and the p95 by nearest rank.
    public var totalLaunchMillis: Int
    public var p95LaunchMillis: Int
    public var microsAtWarning: Int
    public var microsAtCritical: Int
    public var residentAppMicros: Int128
    public var kills: [KillRecord]
    /// Kept only when the observer retains them (`SimulationObserver.retainsKillsAndSamples`).
    public var samples: [MemorySample]
    /// Samples taken, whether kept or streamed.
    public var sampleCount: Int
    /// The run outlasted `SimulationOptions.maxSamples` samples; later ones were not taken.
    public var samplesTruncated: Bool
    public var apps: [AppSummary]
    /// Metrics per `SimulationOptions.intervalMicros` window, from the first event (empty without intervals).
    public var intervals: [MetricsSnapshot]
    /// The measured window (after the warm-up) as one snapshot difference; the fields above are read from it.
    public var measured: MetricsSnapshot
    /// Real-memory mode: how far real memory diverged from the model (set by whoever ran the backing).
    public var backing: BackingSummary?

    public var simulatedMicros: Int { endTime - startTime }
    public var totalKills: Int { killsByReason.values.reduce(0, +) }
    public var jetsamKills: Int { killsByReason.filter { $0.key.isJetsam }.map(\.value).reduce(0, +) }
}

/// Nearest-rank percentile over (value, count) pairs: the smallest value with at least `percent` % of the
/// observations at or below it. 0 when there are no observations.
func nearestRankPercentile(_ pairs: [(value: Int, count: Int)], percent: Int) -> Int {
    let total = pairs.reduce(0) { $0 + $1.count }
    guard total > 0 else { return 0 }
    let rank = (percent * total + 99) / 100
    var seen = 0
    for p in pairs.sorted(by: { $0.value < $1.value }) {
        seen += p.count
        if seen >= rank { return p.value }
    }
    return pairs.map(\.value).max() ?? 0
}
