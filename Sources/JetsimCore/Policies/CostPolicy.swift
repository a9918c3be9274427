#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `cost` — lowest expected relaunch cost per byte freed first (SmartLMK, ACM TECS 2016; SWAM, MobiCom 2023):
/// value = usage frequency × cold-launch time ÷ footprint^alpha, where usage frequency is the app's decayed
/// open count (+1, so a never-used app still costs its launch). Ties go to the least recently used.
///
/// Parameters: `alpha` (1) — how much freeing more bytes excuses a costlier kill (0: ignore size);
/// `half_life_h` (24) — decay of the usage frequency.
public struct CostPolicy: EvictionPolicy {
    public let alpha: Double
    public let halfLifeHours: Double
    @usableFromInline var frequency: DecayedFrequency

    public init(alpha: Double = 1, halfLifeHours: Double = 24) {
        self.alpha = alpha
        self.halfLifeHours = halfLifeHours
        frequency = DecayedFrequency(halfLifeMicros: halfLifeHours * 3600e6)
    }

    public init(parameters: [String: String]) throws(PolicySpecError) {
        let p = try PolicyParameters(policy: "cost", values: parameters, known: ["alpha", "half_life_h"])
        self.init(alpha: try p.number("alpha", default: 1, in: 0...4), halfLifeHours: try p.number("half_life_h", default: 24, in: 0.001...1e6))
    }

    public var descriptor: PolicyDescriptor {
        PolicyDescriptor(name: "cost", parameters: [("alpha", formatParameter(alpha)), ("half_life_h", formatParameter(halfLifeHours))],
                         capabilities: .sizeAware)
    }

    public func band(for priorityClass: PriorityClass) -> Int { BandTable().band(for: priorityClass) }

    @inlinable @inline(__always) public mutating func didOpen(_ app: Int32, at time: Int) { frequency.record(app, at: time) }

    @inlinable public func prefetchState(of app: Int32) { frequency.prefetch(app) }

    @inlinable public mutating func reserveState(forApps count: Int) { frequency.reserve(count) }

    @inlinable @inline(__always) public mutating func makeStateUnique() { frequency.makeUnique() }

    @inlinable @inline(__always) public mutating func didOpenInPlace(_ app: Int32, at time: Int) { frequency.recordInPlace(app, at: time) }

    @inlinable public var decayedCountHalfLifeMicros: Double? { frequency.halfLifeMicros }

    @inlinable @inline(__always) public mutating func didOpenInPlace(_ app: Int32, at time: Int, count: Double) {
        frequency.setInPlace(app, count: count, at: time)
    }

    /// Expected relaunch cost per (byte^alpha) freed.
    public func value(_ c: KillCandidate, at time: Int) -> Double {
        (frequency.value(c.app, at: time) + 1) * Double(c.relaunchCostMillis) / freedWeight(c.footprintBytes)
    }

    /// footprint^alpha: the footprint itself at the default alpha 1, which is what `pow` returns there (the exact
    /// result is a double, and libm's pow is within an ulp), without its some hundred instructions per candidate.
    @inlinable @inline(__always) func freedWeight(_ footprintBytes: Int) -> Double {
        let bytes = Double(max(footprintBytes, 1))
        return alpha == 1 ? bytes : pow(bytes, alpha)
    }

    public mutating func selectVictim(among candidates: [KillCandidate], context: KillContext) -> Int? {
        let v = candidates.map { value($0, at: context.now) }
        var best = 0
        for i in 1..<candidates.count where v[i] < v[best] || (v[i] == v[best] && candidates[i].lastUseSequence < candidates[best].lastUseSequence) {
            best = i
        }
        return best
    }

    /// `value(_:at:)` as a function of time: the same operations in the same order (`(f + 1) · cost / footprint^alpha`).
    @inlinable @inline(__always) public func decayingScore(_ c: KillCandidate) -> DecayingScore? {
        frequency.score(c.app, offset: 1, numerator: Double(c.relaunchCostMillis), divisor: freedWeight(c.footprintBytes))
    }
}
