#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Per-app use counts that decay exponentially with a half-life: each open adds 1, and a count halves every
/// `halfLifeMicros`. Ranking data only (accounting never sees it), so Double is fine and deterministic.
struct DecayedFrequency: Sendable {
    let halfLifeMicros: Double
    private var value: [Int32: Double] = [:]
    private var updated: [Int32: Int] = [:]

    init(halfLifeMicros: Double) { self.halfLifeMicros = halfLifeMicros }

    mutating func record(_ app: Int32, at time: Int) {
        value[app] = self.value(app, at: time) + 1
        updated[app] = time
    }

    /// The decayed count at `time`.
    func value(_ app: Int32, at time: Int) -> Double {
        guard let v = value[app], let t = updated[app] else { return 0 }
        return v * exp2(-Double(time - t) / halfLifeMicros)
    }
}
