/// Every additive counter of a run at one instant. A measurement window (after the warm-up, or one interval) is the
/// difference of two snapshots, so metrics can start later than the simulation without changing it.
public struct MetricsSnapshot: Sendable, Equatable, Codable {
    public var time = 0
    public var events = 0
    public var launches = 0
    public var coldLaunches = 0
    public var resumes = 0
    public var relaunchesAfterKill = 0
    public var backgroundLaunches = 0
    public var killsByReason = [Int](repeating: 0, count: KillReason.allCases.count)
    public var userVisibleKills = 0
    public var killsAvoidedByPurge = 0
    public var purgedBytes = 0
    public var memoryWarnings = 0
    public var oomEvents = 0
    public var terminations = 0
    public var ignoredEvents = 0
    public var compressedBytes = 0
    public var freezes = 0
    public var thaws = 0
    public var frozenWrittenBytes = 0
    public var microsAtLevel = [0, 0, 0]
    public var residentAppMicros: Int128 = 0
    /// User-launch latencies so far: milliseconds → count.
    public var launchLatencies: [Int: Int] = [:]
    /// Largest compressor pool since the previous snapshot (not additive: a window keeps its own).
    public var peakCompressorBytes = 0
    /// Per-app counters, when the snapshot was asked for them.
    public var apps: [AppCounters]?

    public struct AppCounters: Sendable, Equatable, Codable {
        public var launches = 0, coldLaunches = 0, resumes = 0, kills = 0, backgroundLaunches = 0, residentMicros = 0
        public var footprintIntegral: Int128 = 0
        public var peakFootprint = 0
    }

    public init() {}

    public var totalKills: Int { killsByReason.reduce(0, +) }
    public var totalLaunchMillis: Int { launchLatencies.reduce(0) { $0 + $1.key * $1.value } }
    public var p95LaunchMillis: Int { nearestRankPercentile(launchLatencies.map { ($0.key, $0.value) }, percent: 95) }

    /// The window from `base` to this snapshot.
    public func since(_ base: MetricsSnapshot) -> MetricsSnapshot {
        var d = self
        d.events -= base.events
        d.launches -= base.launches
        d.coldLaunches -= base.coldLaunches
        d.resumes -= base.resumes
        d.relaunchesAfterKill -= base.relaunchesAfterKill
        d.backgroundLaunches -= base.backgroundLaunches
        d.killsByReason = zip(killsByReason, base.killsByReason).map { $0 - $1 }
        d.userVisibleKills -= base.userVisibleKills
        d.killsAvoidedByPurge -= base.killsAvoidedByPurge
        d.purgedBytes -= base.purgedBytes
        d.memoryWarnings -= base.memoryWarnings
        d.oomEvents -= base.oomEvents
        d.terminations -= base.terminations
        d.ignoredEvents -= base.ignoredEvents
        d.compressedBytes -= base.compressedBytes
        d.freezes -= base.freezes
        d.thaws -= base.thaws
        d.frozenWrittenBytes -= base.frozenWrittenBytes
        d.microsAtLevel = zip(microsAtLevel, base.microsAtLevel).map { $0 - $1 }
        d.residentAppMicros -= base.residentAppMicros
        for (latency, count) in base.launchLatencies {
            let left = (d.launchLatencies[latency] ?? 0) - count
            d.launchLatencies[latency] = left == 0 ? nil : left
        }
        if let mine = apps, let theirs = base.apps {
            d.apps = zip(mine, theirs).map { a, b in
                var c = a
                c.launches -= b.launches
                c.coldLaunches -= b.coldLaunches
                c.resumes -= b.resumes
                c.kills -= b.kills
                c.backgroundLaunches -= b.backgroundLaunches
                c.residentMicros -= b.residentMicros
                c.footprintIntegral -= b.footprintIntegral
                return c
            }
        }
        return d
    }
}
