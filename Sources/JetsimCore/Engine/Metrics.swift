/// What the engine keeps while it runs: the additive counters (`RunCounters`, declared there once), the compressor's
/// peak and the latencies of resumes that thawed frozen memory (the other latencies follow from per-app counts when a
/// snapshot is taken).
struct MetricsCollector {
    var counters = RunCounters()
    var peakCompressorBytes = 0
    /// Latencies of resumes that thawed frozen memory: latency (ms) → count.
    var thawedResumeLatencies: [Int: Int] = [:]
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

/// Everything one run produced, ready for the report writers. The run's counters are declared once, in `RunCounters`
/// (held by `MetricsSnapshot`): the measured window is `measured`, and the figures below read it.
public struct SimulationResult: Sendable, Codable {
    public var policy: PolicyDescriptor
    public var device: Device
    public var seed: UInt64
    /// The measured window's start (the first event, or the end of the warm-up) and the run's end.
    public var startTime: Int
    public var endTime: Int
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
    /// The measured window (after the warm-up) as one snapshot difference: every counter of the run.
    public var measured: MetricsSnapshot
    /// Real-memory mode: how far real memory diverged from the model (set by whoever ran the backing).
    public var backing: BackingSummary?
    /// The apps' states at the run's residency probes (`--residency`; set by whoever drove the probes).
    public var residency: [ResidencyRecord] = []
    /// The run outlasted `ResidencyProbes.limit` probes; later ones were not taken.
    public var residencyTruncated = false

    public var simulatedMicros: Int { endTime - startTime }
    public var events: Int { measured.events }
    public var launches: Int { measured.launches }
    public var coldLaunches: Int { measured.coldLaunches }
    public var resumes: Int { measured.resumes }
    public var relaunchesAfterKill: Int { measured.relaunchesAfterKill }
    public var backgroundLaunches: Int { measured.backgroundLaunches }
    public var killsByReason: [KillReason: Int] {
        Dictionary(uniqueKeysWithValues: KillReason.allCases.map { ($0, measured.killsByReason[Int($0.rawValue)]) })
    }
    public var userVisibleKills: Int { measured.userVisibleKills }
    public var killsAvoidedByPurge: Int { measured.killsAvoidedByPurge }
    public var purgedBytes: Int { measured.purgedBytes }
    public var memoryWarnings: Int { measured.memoryWarnings }
    public var oomEvents: Int { measured.oomEvents }
    public var terminations: Int { measured.terminations }
    public var ignoredEvents: Int { measured.ignoredEvents }
    public var compressedBytes: Int { measured.compressedBytes }
    public var peakCompressorBytes: Int { measured.peakCompressorBytes }
    public var freezes: Int { measured.freezes }
    public var thaws: Int { measured.thaws }
    public var frozenWrittenBytes: Int { measured.frozenWrittenBytes }
    /// Σ launch latencies (ms) and the p95 by nearest rank.
    public var totalLaunchMillis: Int { measured.totalLaunchMillis }
    public var p95LaunchMillis: Int { measured.p95LaunchMillis }
    public var microsAtWarning: Int { measured.microsAtLevel[1] }
    public var microsAtCritical: Int { measured.microsAtLevel[2] }
    public var residentAppMicros: Int128 { measured.residentAppMicros }
    public var totalKills: Int { measured.totalKills }
    public var jetsamKills: Int { KillReason.allCases.filter(\.isJetsam).map { measured.killsByReason[Int($0.rawValue)] }.reduce(0, +) }
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
