/// Per-app use counts that decay exponentially with a half-life: each open adds 1, and a count halves every
/// `halfLifeMicros`. Ranking data only (accounting never sees it), so Double is fine and deterministic.
///
/// Stored densely by app id (ids are dense in both drivers): `uses[app]` is the count as of the app's last open and
/// that open's time, together so that reading an app's count touches one cache line; (0, 0) for an app never opened
/// (a recorded count is at least 1). In place (`UncheckedArray`), behind one copy-on-write check for both arrays
/// (`copyToken`), which a cache replay makes once a batch of requests (`recordInPlace`).
///
/// Inlinable, as the policies' methods that read it: the cache replay, specialised for its policy in another module, calls
/// them at every request.
///
/// Invariants: `decays` is empty or has `decayMemoSize` entries, each a gap and exp2(−gap / halfLifeMicros) as libm
/// computes it (at first the gap 0 and 1, which exp2(−0) is exactly); `uses` and `decays` are written only while
/// `copyToken` is uniquely referenced (`makeUnique()`), so a copy of the counts never sees another's writes.
@usableFromInline
struct DecayedFrequency: @unchecked Sendable {   // (written only while unique: see the invariants)
    @usableFromInline let halfLifeMicros: Double
    @usableFromInline var uses = UncheckedArray<(count: Double, since: Int)>(capacity: 0)
    /// The decay factors of recent gaps between an app's opens, direct-mapped by gap (`decay(overGap:)`).
    @usableFromInline var decays = UncheckedArray<(gap: Int, factor: Double)>(capacity: 0)

    /// Entries of `decays`. Traces repeat gaps (times are often whole seconds or a fixed tick): at the CI gate's trace
    /// (ten requests a second) 71 % of the opens find their gap here with 1 024 entries (52 % with 256), 41–56 % on the
    /// 10 M-request binary trace, each a call to exp2 (some forty instructions) saved for a lookup of a few.
    @inlinable static var decayMemoSize: Int { 1 << decayMemoBits }
    @inlinable static var decayMemoBits: Int { 10 }

    /// Shared with copies of these counts only (`makeUnique()`: one check for both arrays, as `Simulator`'s).
    @usableFromInline var copyToken = CopyToken()

    @usableFromInline init(halfLifeMicros: Double) { self.halfLifeMicros = halfLifeMicros }

    /// Copies the storage when a copy of the counts shares it.
    @inlinable @inline(__always) mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&copyToken) { copyStorage() }
    }

    @inlinable @inline(never) mutating func copyStorage() {
        copyToken = CopyToken()
        uses.makeUnique()
        decays.makeUnique()
    }

    /// An open of `app` at `time`: its count decayed to `time`, plus 1.
    @inlinable @inline(__always) mutating func record(_ app: Int32, at time: Int) {
        makeUnique()
        recordInPlace(app, at: time)
    }

    /// `record` without the copy-on-write check, a runtime call (about 10 instructions a request of `lfu`'s cache replay
    /// at the CI gate, where `lru`'s whole request takes 243): only while the storage is known to be unique
    /// (`makeUnique()` since the last copy; `EvictionPolicy.didOpenInPlace`). The double is `value(app, at: time) + 1`
    /// bit for bit (the decay factor is exp2's, from the memo or from a call).
    @inlinable @inline(__always) mutating func recordInPlace(_ app: Int32, at time: Int) {
        let i = Int(app)
        if i >= uses.count { uses.extend(to: i + 1, with: (count: 0, since: 0)) }
        let u = DecayingScore(count: uses[i].count, since: uses[i].since, halfLifeMicros: halfLifeMicros)
        let v = u.decayedCount(at: time) { decay(overGap: $0) } + 1
        uses[i] = (count: v, since: time)
    }

    /// `recordInPlace` with its result known: `count` is what it would store (`DecayedCountStage` computes it ahead, on the
    /// reader's thread, with this type's own `recordInPlace`; debug builds recompute it here and require the same double).
    @inlinable @inline(__always) mutating func setInPlace(_ app: Int32, count: Double, at time: Int) {
        let i = Int(app)
        if i >= uses.count { uses.extend(to: i + 1, with: (count: 0, since: 0)) }
        #if DEBUG
        let u = DecayingScore(count: uses[i].count, since: uses[i].since, halfLifeMicros: halfLifeMicros)
        let own = u.decayedCount(at: time) + 1
        precondition(own == count, "DecayedFrequency: app \(app)'s count at \(time) is \(own), not the \(count) computed ahead")
        #endif
        uses[i] = (count: count, since: time)
    }

    /// The count as of `app`'s last open, read after `recordInPlace(app, …)` by `DecayedCountStage` (unchecked: `app`
    /// must have been recorded).
    @inlinable @inline(__always) func lastCount(_ app: Int32) -> Double { uses[Int(app)].count }

    /// `DecayingScore.decayFactor(overGap: gap, halfLifeMicros:)`, from the memo when it holds the gap.
    @inlinable @inline(__always) mutating func decay(overGap gap: Int) -> Double {
        if decays.count == 0 { decays.extend(to: Self.decayMemoSize, with: (gap: 0, factor: 1)) }
        // Fibonacci hashing: the top bits of gap · 2^64/φ, so gaps that are multiples of a tick spread over the entries.
        let h = Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(gap)) &* 0x9E37_79B9_7F4A_7C15) >> (64 - Self.decayMemoBits))
        if decays[h].gap == gap { return decays[h].factor }
        let factor = DecayingScore.decayFactor(overGap: gap, halfLifeMicros: halfLifeMicros)
        decays[h] = (gap: gap, factor: factor)
        return factor
    }

    /// Makes room for the counts of app ids below `count` (`EvictionPolicy.reserveState`), each (0, 0) as for an app never
    /// opened, so that the first open of each id does not extend the array (a call a new object, 4 instructions a request
    /// in `cost`'s replay at the CI gate).
    @inlinable mutating func reserve(_ count: Int) {
        makeUnique()
        uses.extend(to: count, with: (count: 0, since: 0))
    }

    /// Starts loading `app`'s count into the cache (`EvictionPolicy.prefetchState`).
    @inlinable func prefetch(_ app: Int32) { uses.prefetch(Int(app)) }

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
