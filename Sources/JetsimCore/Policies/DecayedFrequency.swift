import CPrefetch

/// Per-app use counts that decay exponentially with a half-life: each open adds 1, and a count halves every
/// `halfLifeMicros`. Ranking data only (accounting never sees it), so Double is fine and deterministic.
///
/// Stored densely by app id (ids are dense in both drivers): `uses[app]` is the count as of the app's last open and
/// that open's time, together so that reading an app's count touches one cache line; (0, 0) for an app never opened
/// (a recorded count is at least 1).
///
/// Inlinable, as the policies' methods that read it: the cache replay, specialised for its policy in another module, calls
/// them at every request.
@usableFromInline
struct DecayedFrequency: Sendable {
    @usableFromInline let halfLifeMicros: Double
    @usableFromInline var uses: [(count: Double, since: Int)] = []

    @usableFromInline init(halfLifeMicros: Double) { self.halfLifeMicros = halfLifeMicros }

    @inlinable @inline(__always) mutating func record(_ app: Int32, at time: Int) {
        let v = value(app, at: time) + 1
        let i = Int(app)
        if i >= uses.count { uses.append(contentsOf: repeatElement((count: 0.0, since: 0), count: i + 1 - uses.count)) }
        uses[i] = (v, time)
    }

    /// Makes room for the counts of app ids below `count` (`EvictionPolicy.reserveState`).
    @inlinable mutating func reserve(_ count: Int) { uses.reserveCapacity(count) }

    /// Starts loading `app`'s count into the cache (`EvictionPolicy.prefetchState`).
    @inlinable func prefetch(_ app: Int32) {
        let i = Int(app)
        if i >= 0 && i < uses.count { uses.withUnsafeBufferPointer { if let base = $0.baseAddress { jetsim_prefetch(base + i) } } }
    }

    /// The decayed count at `time`.
    @inlinable @inline(__always) func value(_ app: Int32, at time: Int) -> Double { score(app).decayedCount(at: time) }

    /// The count as of the app's last open and that open's time; (0, 0) if never opened.
    @inlinable @inline(__always) func state(_ app: Int32) -> (count: Double, since: Int) {
        let i = Int(app)
        guard i >= 0 && i < uses.count else { return (0, 0) }
        return uses[i]
    }

    /// The app's count as a function of time, weighted: what `lfu` and `cost` rank.
    @inlinable @inline(__always) func score(_ app: Int32, offset: Double = 0, numerator: Double = 1, divisor: Double = 1) -> DecayingScore {
        let (v, t) = state(app)
        return DecayingScore(count: v, since: t, halfLifeMicros: halfLifeMicros, offset: offset, numerator: numerator, divisor: divisor)
    }
}
