/// `lfu` — least frequently used first, with exponential decay so old popularity fades. Classic (LFU with aging).
/// Ties go to the least recently used.
///
/// Parameters: `half_life_h` (24) — hours for a use to count half.
public struct LFUPolicy: EvictionPolicy {
    public let halfLifeHours: Double
    @usableFromInline var frequency: DecayedFrequency

    public init(halfLifeHours: Double = 24) {
        self.halfLifeHours = halfLifeHours
        frequency = DecayedFrequency(halfLifeMicros: halfLifeHours * 3600e6)
    }

    public init(parameters: [String: String]) throws(PolicySpecError) {
        let p = try PolicyParameters(policy: "lfu", values: parameters, known: ["half_life_h"])
        self.init(halfLifeHours: try p.number("half_life_h", default: 24, in: 0.001...1e6))
    }

    public var descriptor: PolicyDescriptor {
        PolicyDescriptor(name: "lfu", parameters: [("half_life_h", formatParameter(halfLifeHours))])
    }

    public func band(for priorityClass: PriorityClass) -> Int { BandTable().band(for: priorityClass) }

    @inlinable @inline(__always) public mutating func didOpen(_ app: Int32, at time: Int) { frequency.record(app, at: time) }

    @inlinable public func prefetchState(of app: Int32) { frequency.prefetch(app) }

    @inlinable public mutating func reserveState(forApps count: Int) { frequency.reserve(count) }

    @inlinable @inline(__always) public mutating func makeStateUnique() { frequency.makeUnique() }

    @inlinable @inline(__always) public mutating func didOpenInPlace(_ app: Int32, at time: Int) { frequency.recordInPlace(app, at: time) }

    @inlinable public var decayedCountHalfLifeMicros: Double? { frequency.halfLifeMicros }

    public var decayingScoreIsItsCount: Bool { true }

    @inlinable @inline(__always) public mutating func didOpenInPlace(_ app: Int32, at time: Int, count: Double) {
        frequency.setInPlace(app, count: count, at: time)
    }

    public mutating func selectVictim(among candidates: [KillCandidate], context: KillContext) -> Int? {
        let f = candidates.map { frequency.value($0.app, at: context.now) }
        var best = 0
        for i in 1..<candidates.count where f[i] < f[best] || (f[i] == f[best] && candidates[i].lastUseSequence < candidates[best].lastUseSequence) {
            best = i
        }
        return best
    }

    /// The decayed use count itself (`value(at:)` is `frequency.value` bit for bit: `(f + 0) · 1 / 1`).
    @inlinable @inline(__always) public func decayingScore(_ candidate: KillCandidate) -> DecayingScore? { frequency.score(candidate.app) }
}
