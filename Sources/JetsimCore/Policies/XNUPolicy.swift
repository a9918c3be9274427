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
        var b = BandTable()
        for (key, text) in parameters {
            guard let value = Int(text) else { throw .badValue(policy: "xnu", parameter: key, value: text, expected: "an integer band") }
            switch key {
            case "foreground_band": b.foreground = value
            case "audio_band": b.audio = value
            case "task_band": b.backgroundWork = value
            case "aging_band": b.aging = value
            case "idle_band": b.idle = value
            case "frozen_band": b.frozen = value
            default: throw .unknownParameter(policy: "xnu", parameter: key, known: XNUPolicy.parameterNames)
            }
        }
        bands = b
    }

    public var descriptor: PolicyDescriptor {
        let values = [bands.foreground, bands.audio, bands.backgroundWork, bands.aging, bands.idle, bands.frozen]
        return PolicyDescriptor(name: "xnu", parameters: zip(XNUPolicy.parameterNames, values).map { ($0, String($1)) })
    }

    public func band(for priorityClass: PriorityClass) -> Int { bands.band(for: priorityClass) }

    public mutating func selectVictim(among candidates: [KillCandidate], context: KillContext) -> Int? {
        var best = 0
        for i in 1..<candidates.count {
            let c = candidates[i], b = candidates[best]
            if c.band < b.band || (c.band == b.band && c.bandEntrySequence < b.bandEntrySequence) { best = i }
        }
        return best
    }
}
