/// `xnu` — the kernel's own rule (xnu-jetsam.md §2): bands are FIFO lists; the kill walk goes from the lowest
/// band upward and, inside a band, from the head, so **the oldest entrant of the lowest band dies first**.
///
/// Parameters (the band of each priority class; higher survives longer):
/// `foreground_band` 100, `audio_band` 120, `task_band` 40 (background work: a task, a non-audio mode, a wake),
/// `aging_band` 20, `idle_band` 0, `frozen_band` 75.
public struct XNUPolicy: EvictionPolicy {
    public var bands: BandTable

    public init(bands: BandTable = BandTable()) { self.bands = bands }

    public static let parameterNames = ["foreground_band", "audio_band", "task_band", "aging_band", "idle_band", "frozen_band"]

    /// Builds the policy from `name=value` parameters; unknown names and non-integers are errors.
    public init(parameters: [String: String]) throws(PolicySpecError) {
        let p = try PolicyParameters(policy: "xnu", values: parameters, known: XNUPolicy.parameterNames)
        let d = BandTable()
        var b = BandTable()
        b.foreground = try p.integer("foreground_band", default: d.foreground)
        b.audio = try p.integer("audio_band", default: d.audio)
        b.backgroundWork = try p.integer("task_band", default: d.backgroundWork)
        b.aging = try p.integer("aging_band", default: d.aging)
        b.idle = try p.integer("idle_band", default: d.idle)
        b.frozen = try p.integer("frozen_band", default: d.frozen)
        bands = b
    }

    public var descriptor: PolicyDescriptor {
        let values = [bands.foreground, bands.audio, bands.backgroundWork, bands.aging, bands.idle, bands.frozen]
        return PolicyDescriptor(name: "xnu", parameters: zip(XNUPolicy.parameterNames, values).map { ($0, String($1)) })
    }

    public func band(for priorityClass: PriorityClass) -> Int { bands.band(for: priorityClass) }

    public mutating func selectVictim(among candidates: [KillCandidate], context: KillContext) -> Int? {
        KillCandidate.best(candidates) { c, b in c.band != b.band ? c.band < b.band : c.bandEntrySequence < b.bandEntrySequence }
    }

    public func rankingKey(_ inputs: RankingInputs) -> RankingKey? { RankingKey(major: inputs.band, minor: inputs.bandEntrySequence) }

    /// Inside a band the key is the order of entry (a band is a FIFO list, xnu-jetsam.md §2).
    public var ranksBandByEntry: Bool { true }
}
