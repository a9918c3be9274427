/// Every additive counter of a run at one instant. A measurement window (after the warm-up, or one interval) is the
/// difference of two snapshots, so metrics can start later than the simulation without changing it.
@dynamicMemberLookup
public struct MetricsSnapshot: Sendable, Equatable, Codable {
    public var time = 0
    /// The engine's counters at this instant; read through the snapshot (`snapshot.events`).
    public var counters = RunCounters()
    /// Launches, cold launches and resumes of every app so far (summed from the per-app counts).
    public var launches = 0
    public var coldLaunches = 0
    public var resumes = 0
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

    public subscript<T>(dynamicMember path: WritableKeyPath<RunCounters, T>) -> T {
        get { counters[keyPath: path] }
        set { counters[keyPath: path] = newValue }
    }

    public var totalKills: Int { counters.killsByReason.reduce(0, +) }
    public var totalLaunchMillis: Int { launchLatencies.reduce(0) { $0 + $1.key * $1.value } }
    public var p95LaunchMillis: Int { nearestRankPercentile(launchLatencies.map { ($0.key, $0.value) }, percent: 95) }

    /// The window from `base` to this snapshot.
    public func since(_ base: MetricsSnapshot) -> MetricsSnapshot {
        var d = self
        d.counters = counters.since(base.counters)
        d.launches -= base.launches
        d.coldLaunches -= base.coldLaunches
        d.resumes -= base.resumes
        for (latency, count) in base.launchLatencies {
            let left = (d.launchLatencies[latency] ?? 0) - count
            d.launchLatencies[latency] = left == 0 ? nil : left
        }
        if let mine = apps, let theirs = base.apps {
            // App by app (as `zip`: the apps of both), in a loop rather than through generic iterators, which an
            // unoptimised build runs slowly.
            var apps = mine
            if apps.count > theirs.count { apps.removeLast(apps.count - theirs.count) }
            for k in apps.indices {
                let b = theirs[k]
                apps[k].launches -= b.launches
                apps[k].coldLaunches -= b.coldLaunches
                apps[k].resumes -= b.resumes
                apps[k].kills -= b.kills
                apps[k].backgroundLaunches -= b.backgroundLaunches
                apps[k].residentMicros -= b.residentMicros
                apps[k].footprintIntegral -= b.footprintIntegral
            }
            d.apps = apps
        }
        return d
    }
}
