import CPrefetch

/// What one cache replay counted. Integers only; ratios are formed when reporting.
public struct CacheCounters: Sendable, Equatable {
    public var requests = 0
    /// Distinct objects requested.
    public var objects = 0
    public var hits = 0
    public var misses = 0
    /// Σ object size over requests, and over misses.
    public var requestedBytes = 0
    public var missedBytes = 0
    public var evictions = 0
    public var evictedBytes = 0
    /// Misses that were not admitted: the object is larger than the cache (or the policy refused every victim).
    public var notAdmitted = 0
    /// Bytes cached when the replay ended.
    public var usedBytes = 0
    /// The requested bytes passed `Int.max` (8 EiB): the byte totals stopped there and must not be reported.
    public var byteTotalsOverflowed = false
    public init() {}
}

/// What a cache replay keeps per object: 64 bytes, one cache line's worth (outside the generic type, so its layout
/// is known without metadata). The band entry time a candidate shows is `lastForegroundTime`: an object enters the
/// idle band exactly when it leaves the foreground resident, and only resident objects are ranked.
@usableFromInline
struct CachedObject: BitwiseCopyable {
    @usableFromInline var size = 0
    /// User launches, saturating (a candidate's `launchCount`).
    @usableFromInline var launches: UInt32 = 0
    @usableFromInline var resident = false
    /// Its `CrossingScoreIndex` or `DecayingCountHeap` entry holds an earlier score than its policy's
    /// (`CacheReplay.keepsStoredScore`), or its `FixedScoreHeap` key its score with an earlier sequence (`CacheReplay.leave`).
    @usableFromInline var staleScore = false
    @usableFromInline var firstUseTime = Int.max
    @usableFromInline var launchTime = 0
    @usableFromInline var lastForegroundTime = 0
    @usableFromInline var lastUseSequence: UInt64 = 0
    @usableFromInline var launchSequence: UInt64 = 0
    @usableFromInline var bandEntrySequence: UInt64 = 0

    @inlinable init() {}
}

/// The cache-equivalent model (`Device.cache`, `Device.cacheEquivalent`) on its own, at cache-simulator speed:
/// each request either hits (the object is resident) or misses; a missed object is admitted when it fits the
/// cache at all, after evicting victims in the policy's order until it fits. An object keeps the size of its
/// first request (libCacheSim's rule). No lifecycle, timers or per-eviction records: the full `Simulator` on a
/// `cache:` device applies the same rules and is the reference (`CacheReplayTests` checks equal misses and
/// evictions for every built-in policy but `oracle`).
///
/// Like `Simulator`, this driver owns every byte of accounting and the policy only ranks: through its
/// `rankingKey` when it has one (kept in a `RankedList`: O(1) a request for recency and arrival orders), through its
/// `decayingScore` when it has one (`cost`'s, whose lines cross: kept in a `CrossingScoreIndex`, a heap of floors or a
/// kinetic tournament, O(log n) a request and an eviction, the scan's victims exactly; a plain decaying count, as all of
/// `lfu`'s, whose order never changes, in a `DecayingCountHeap`, O(log n) with no floors; a score that never changes, as
/// all of `largest`'s, in a `FixedScoreHeap`, O(log n) as well), otherwise by `selectVictim` over every resident object
/// but the one requested.
/// Candidates carry exactly what the full engine shows on a cache device: suspended, idle band, sequences and times
/// of use, launch and band entry.
///
/// Invariant: `usedBytes` is the sum of the sizes of resident objects and never exceeds `capacityBytes`.
public struct CacheReplay<Policy: EvictionPolicy> {
    public let capacityBytes: Int
    public var policy: Policy { _policy }
    @usableFromInline var _policy: Policy
    public var counters: CacheCounters { _counters }
    @usableFromInline var _counters = CacheCounters()
    /// By object id, in place: made unique once a batch with the indexes, as `UncheckedArray` asks; an id is checked as
    /// it enters (`uniqueRequest`: at least 0, and the array grows to it).
    @usableFromInline var objects = UncheckedArray<CachedObject>(capacity: 0)
    /// Resident objects but the current one, by ranking key (policies with a key).
    @usableFromInline var ranked = RankedList()
    /// Resident objects but the current one, by decaying score, for scores that may cross (`cost`'s; empty, eleven small
    /// arrays, until the first such candidate: 22 allocations a replay). Not an optional as the other indexes are: a
    /// test of its tag was a call (an outlined value witness: its nil is one of 4 096 values of the first word), which
    /// `cost`'s paths made several times a request (35 instructions a request at 15.1 MB of the binary's first million
    /// requests, 18 at the gate).
    @usableFromInline var scored = CrossingScoreIndex()
    /// Whether `scored` has had a candidate: its calls are skipped before (and its storage not grown).
    @usableFromInline var scoring = false
    /// `scoring`, and neither other index made (`fixed`, `counts`): `cost`'s replays, whose departures and evictions then
    /// ask no other index. A flag of its own: the test of an optional index's tag is an outlined call, which this test
    /// made twice at each departure and eviction (15 instructions a request of `cost`'s at the gate's 0.1 %).
    @usableFromInline var onlyCrossingScores = false
    /// The same for candidates whose score is constant (`DecayingScore.isConstant`: all of `largest`'s), whose index
    /// needs no certificates.
    @usableFromInline var fixed: FixedScoreHeap?
    /// The same for candidates whose score is a plain decaying count (`DecayingCountHeap.accepts`: all of `lfu`'s), whose
    /// order never changes: a heap, not a tournament. A victim is the best of the three indexes' first; each is made when
    /// its first candidate comes (`lfu`, `cost` and `largest` make one each), so a replay checks no storage it does not use.
    @usableFromInline var counts: DecayingCountHeap?
    /// Scores `place` moved between `scored` and `counts` (a rescore in `firstScored` may, in principle).
    @usableFromInline var indexMoves = 0
    /// Until this time every stale entry of `scored` and `counts` (`CachedObject.staleScore`) provably ranks its object no later than
    /// its current score does (`keepsStoredScore`); a query at or after it rescores them all first. `Int.max`: none.
    @usableFromInline var staleHorizon = Int.max
    /// Resident objects in the full engine's order (policies that scan).
    @usableFromInline var resident = ResidentSet(count: 0)
    @usableFromInline let keyed: Bool
    @usableFromInline let decaying: Bool
    /// The policy picks by position among the candidates (`random`): the resident set answers in O(1).
    @usableFromInline let byIndex: Bool
    @usableFromInline let idleBand: Int
    @usableFromInline let relaunchCostMillis: Int
    /// The object requested last (the engine's foreground app), or -1.
    @usableFromInline var current: Int32 = -1
    @usableFromInline var useSequence: UInt64 = 0
    @usableFromInline var launchSequence: UInt64 = 0
    @usableFromInline var entrySequence: UInt64 = 0
    @usableFromInline var candidates: [KillCandidate] = []
    /// log2 of the current object's decayed count when the reader computed it (`DecayedCountColumn.log2Counts`), for
    /// the heap's key as it leaves the foreground; NaN otherwise (the heap computes it).
    @usableFromInline var currentLog2Count = Double.nan

    /// - Parameter relaunchCostMillis: what a candidate's `relaunchCostMillis` says (the catalog default for
    ///   libCacheSim traces).
    /// Policies that need the future (`oracle`) cannot replay a stream (they would see no next uses).
    public init(capacityBytes: Int, policy: Policy, relaunchCostMillis: Int = AppProfile.defaultColdLaunchMillis) {
        self.capacityBytes = max(0, capacityBytes)
        self._policy = policy
        self.relaunchCostMillis = relaunchCostMillis
        keyed = _policy.hasRankingKey
        decaying = !keyed && _policy.hasDecayingScore
        byIndex = !keyed && !decaying && _policy.selectsByIndex
        idleBand = _policy.band(for: .idle)
    }

    /// Makes room for object ids below `count` at once, in the replay and in its policy's state: what a reader that
    /// counted the trace's objects first (`cachesim`'s working-set pass) knows, so that no storage is copied as ids come.
    /// Changes no result.
    public mutating func reserve(objects count: Int) {
        makeIndexesUnique()
        if count > objects.count { grow(to: count) }
        _policy.reserveState(forApps: count)
    }

    /// One request of `object` of `size` bytes (> 0) at `time` µs (non-decreasing). Object ids are dense numbers
    /// from 0 (the readers number ids in order of first appearance); the replay grows past the largest seen
    /// (`growthSlack`), or to what `reserve(objects:)` asked.
    @inlinable
    public mutating func request(_ object: Int32, size: Int, time: Int) {
        makeIndexesUnique()
        currentLog2Count = .nan
        uniqueRequest(object, size: size, time: time)
    }

    /// `request(_:size:time:)` for each request of a batch in order (`objects[k]`, `sizes[k]`, `times[k]`), with the
    /// indexes' storage made unique once for the batch instead of once a request.
    @inlinable
    public mutating func requests(objects: UnsafeBufferPointer<Int32>, sizes: UnsafeBufferPointer<Int>, times: UnsafeBufferPointer<Int>) {
        requests(objects: objects, sizes: sizes, times: times, counted: nil)
    }

    /// `requests(objects:sizes:times:)` with the decayed counts the requests leave, computed ahead for the policy's
    /// half-life (`DecayedCountStage`, nil when the reader computed none): the policy stores each count
    /// (`EvictionPolicy.didOpenInPlace(_:at:count:)`) instead of computing it, and the heap of counts takes the log2 of
    /// it, for objects that fit the cache (the stage's rule of opens holds for those). The same results, provided the
    /// stage has seen exactly the requests this replay has, in order (`cachesim`'s reader feeds both the same stream;
    /// debug builds check every count against the policy's own arithmetic).
    @inlinable
    public mutating func requests(objects: UnsafeBufferPointer<Int32>, sizes: UnsafeBufferPointer<Int>, times: UnsafeBufferPointer<Int>,
                                  counted: DecayedCountColumn.Buffers?) {
        precondition(sizes.count == objects.count && times.count == objects.count, "CacheReplay: a batch's columns differ in length")
        precondition(counted.map { $0.counts.count == objects.count && $0.log2Counts.count == objects.count } ?? true,
                     "CacheReplay: the decayed counts are not the batch's")
        precondition(counted == nil || _policy.decayedCountHalfLifeMicros != nil, "CacheReplay: counts for a policy that keeps none")
        makeIndexesUnique()
        // Each case with its own copy of the loops, so that a replay given no counts tests none a request (10 instructions
        // a request of `lru`'s at the gate, `Benchmarks/instructions-per-request.sh`).
        if let counted {
            if !_policy.decayingScoreIsItsCount { currentLog2Count = .nan }   // (`uniqueRequest` sets none then)
            replay(objects: objects, sizes: sizes, times: times, counted: counted)
        } else {
            currentLog2Count = .nan   // (no open of this batch sets it)
            replay(objects: objects, sizes: sizes, times: times, counted: nil)
        }
    }

    /// The loops of `requests`, the storage unique.
    @inlinable @inline(__always)
    mutating func replay(objects: UnsafeBufferPointer<Int32>, sizes: UnsafeBufferPointer<Int>, times: UnsafeBufferPointer<Int>,
                         counted: DecayedCountColumn.Buffers?) {
        let d = Self.prefetchDistance
        // One loop per set of indexes a replay may use, so that each asks a request's hints only of those (an index made
        // during the batch has its entries prefetched from the next batch on): `lfu`'s and `largest`'s replays would pay
        // for the crossing scores' hints for nothing, and `cost`'s and `lfu`'s one index alone (their replays' only case)
        // tests no other's optional a request (4 instructions a request of each at the gate's 0.1 %).
        if scoring && fixed == nil && counts == nil {   // `cost`'s: no other index's hints to test for
            for k in 0..<objects.count {
                let soon: Int32 = k + d < objects.count ? objects[k + d] : -1
                if soon >= 0 { prefetch(soon, entry: false) }
                scored.prefetch(entryOf: soon, slotOf: k + 2 * d < objects.count ? objects[k + 2 * d] : -1)
                uniqueRequest(k, of: objects, sizes, times, counted)
            }
        } else if scoring {
            for k in 0..<objects.count {
                let soon: Int32 = k + d < objects.count ? objects[k + d] : -1
                let later: Int32 = k + 2 * d < objects.count ? objects[k + 2 * d] : -1
                if soon >= 0 { prefetch(soon, entry: true) }
                scored.prefetch(entryOf: soon, slotOf: later)
                if later >= 0 { fixed?.prefetchSlot(of: later) }
                uniqueRequest(k, of: objects, sizes, times, counted)
            }
        } else if fixed == nil && counts != nil {   // `lfu`'s: the heap of counts alone
            for k in 0..<objects.count {
                if k + d < objects.count { prefetch(objects[k + d], entry: true) }
                uniqueRequest(k, of: objects, sizes, times, counted)
            }
        } else if fixed != nil || counts != nil {
            for k in 0..<objects.count {
                if k + d < objects.count { prefetch(objects[k + d], entry: true) }
                if k + 2 * d < objects.count { fixed?.prefetchSlot(of: objects[k + 2 * d]) }
                uniqueRequest(k, of: objects, sizes, times, counted)
            }
        } else if keyed {   // `lru`'s, `fifo`'s and `xnu`'s: the ranked list's node too
            for k in 0..<objects.count {
                if k + d < objects.count {
                    let soon = objects[k + d]
                    prefetch(soon, entry: false)
                    ranked.prefetchNode(of: soon)
                }
                uniqueRequest(k, of: objects, sizes, times, counted)
            }
        } else {
            for k in 0..<objects.count {
                if k + d < objects.count { prefetch(objects[k + d], entry: false) }
                uniqueRequest(k, of: objects, sizes, times, counted)
            }
        }
    }

    /// Request `k` of a batch: the entry with counts when it has them.
    @inlinable @inline(__always)
    mutating func uniqueRequest(_ k: Int, of objects: UnsafeBufferPointer<Int32>, _ sizes: UnsafeBufferPointer<Int>, _ times: UnsafeBufferPointer<Int>,
                                _ counted: DecayedCountColumn.Buffers?) {
        if let counted {
            uniqueRequest(objects[k], size: sizes[k], time: times[k], counted: (counted.counts[k], counted.log2Counts[k]))
        } else {
            uniqueRequest(objects[k], size: sizes[k], time: times[k])
        }
    }

    /// How many requests of a batch ahead the replay starts loading an object's state (`prefetch`): far enough for a
    /// load from memory to arrive in time, near enough that the lines are still in cache when the request comes.
    @inlinable static var prefetchDistance: Int { 12 }

    /// Starts loading what request of `object` will read first, its `CachedObject` and the policy's state for it
    /// (`EvictionPolicy.prefetchState`), and with `entry` its stored score in the heap of counts (`keepsStoredScore`; the
    /// heap of constant scores has its member's position asked for `prefetchDistance` requests before, and `requests` asks
    /// the index of crossing scores itself, when there is one): all are indexed by a random object id, so without the hint
    /// most requests wait for a cache miss there. A hint only; `requests` calls it `prefetchDistance` requests ahead.
    /// No hint of the heaps reads a line to find the next (a member's node or entry through its position or slot): such a
    /// hint waits on its first load and a branch on it, and cost `largest` 6 % and `cost` 3–7 % of their wall time at
    /// 0.1 % of the 10 M-request binary, where their heaps are small and stay in cache, and nothing measurable at 10 %.
    /// (The kinetic tournament's hint of an entry through its slot does, and pays: its members are many, out of cache.)
    /// (Mutating so that the generic replay is not copied to call it.)
    @inlinable @inline(__always) mutating func prefetch(_ object: Int32, entry: Bool) {
        let o = Int(object)
        objects.prefetchWhole(o)   // (64 bytes, on a cache line of their own: one hint)
        _policy.prefetchState(of: object)
        if entry { counts?.prefetchSlot(of: object) }
    }

    /// A copied replay stays a snapshot: the indexes and the policy's state are written in place, so each copies storage it shares.
    @inlinable mutating func makeIndexesUnique() {
        objects.makeUnique()
        ranked.makeUnique()
        scored.makeUnique()
        fixed?.makeUnique()
        counts?.makeUnique()
        _policy.makeStateUnique()
        resident.makeUnique()
    }

    /// One request, the indexes' storage already unique (`makeIndexesUnique`).
    @inlinable mutating func uniqueRequest(_ object: Int32, size: Int, time: Int) {
        uniqueRequest(object, size: size, time: time, counted: nil)
    }

    /// `uniqueRequest(_:size:time:)` with the decayed count its open leaves and its log2, when the reader computed them
    /// (`DecayedCountStage`). (Two entries to one body inlined in each, so that a replay given no counts tests none and
    /// stores no log2: 10 instructions a request of `lru`'s at the gate.)
    @inlinable mutating func uniqueRequest(_ object: Int32, size: Int, time: Int, counted: (count: Double, log2Count: Double)) {
        uniqueRequest(object, size: size, time: time, counted: Optional(counted))
    }

    @inlinable @inline(__always)
    mutating func uniqueRequest(_ object: Int32, size: Int, time: Int, counted: (count: Double, log2Count: Double)?) {
        precondition(object >= 0, "CacheReplay: object ids are numbers from 0")   // (the readers number them so)
        let o = Int(object)
        if o >= objects.count { grow(to: o + 1 + min(Self.growthSlack, objects.count)) }
        // The counters wrap rather than trap (an overflow test a counter, `&+=`), where none can overflow: the request,
        // object, hit, miss and eviction counts count at most one a request or an eviction of an admitted object, and the
        // byte totals are bounded as each says.
        _counters.requests &+= 1
        if objects[o].size == 0 {
            objects[o].size = size
            _counters.objects &+= 1
        }
        let size = objects[o].size
        if !_counters.byteTotalsOverflowed {
            let (total, overflow) = _counters.requestedBytes.addingReportingOverflow(size)
            if overflow { _counters.byteTotalsOverflowed = true } else { _counters.requestedBytes = total }
        }
        if object == current && objects[o].resident {   // the engine ignores an open of the foreground app: a hit
            _counters.hits &+= 1
            return
        }
        if current >= 0 { leave(current, at: time) }
        current = object
        if objects[o].launches < .max { objects[o].launches += 1 }
        if objects[o].firstUseTime == Int.max { objects[o].firstUseTime = time }
        objects[o].lastUseSequence = useSequence
        useSequence &+= 1
        // (`makeIndexesUnique` made its state unique.) The stage's count holds for an object that fits (its rule of opens).
        if let counted {
            if size <= capacityBytes {
                _policy.didOpenInPlace(object, at: time, count: counted.count)
                // Only a plain count's heap reads the log2 (`place`); another policy's reader computes none (NaN, which the
                // batch set, `requests`).
                if _policy.decayingScoreIsItsCount { currentLog2Count = counted.log2Count }
            } else {
                _policy.didOpenInPlace(object, at: time)
                currentLog2Count = .nan
            }
        } else {
            _policy.didOpenInPlace(object, at: time)   // (`currentLog2Count` is NaN through a batch without counts)
        }
        entrySequence &+= 1             // into the foreground band
        if objects[o].resident {
            _counters.hits &+= 1
            // A keyed or scored object stays in its index: no eviction comes before it leaves the foreground (every
            // request makes the previous one leave before it evicts), and leaving re-keys or re-scores it in place, so
            // a key that did not change (`fifo`'s arrival) costs nothing instead of a walk back from the tail past
            // every later arrival, and a score costs one walk in its index instead of a removal and an insertion.
            return
        }
        _counters.misses &+= 1
        if !_counters.byteTotalsOverflowed { _counters.missedBytes &+= size }   // ≤ requested bytes: no overflow
        objects[o].launchTime = time
        objects[o].launchSequence = launchSequence
        launchSequence &+= 1
        // The engine's resident set takes the app as it launches, before the kills that make room (its order
        // decides ties and random draws).
        if scans { resident.insert(o) }
        guard size <= capacityBytes, makeRoom(for: size, at: time) else {
            // The stage's counts hold only while an object that fits is always admitted (`DecayedCountStage`).
            precondition(counted == nil || size > capacityBytes, "CacheReplay: a policy that keeps a decayed count refused every victim")
            _counters.notAdmitted &+= 1   // the engine kills it at once: no foreground app is left
            current = -1
            if scans { resident.remove(o) }
            return
        }
        objects[o].resident = true
        _counters.usedBytes &+= size   // (at most the capacity: `makeRoom`)
    }

    /// The most ids a growth makes room for beyond the one requested (as many as there are, up to this: a small replay
    /// at most doubles): the readers number ids in order of first appearance, so new ids come one at a time, and a
    /// growth to each (a call and a step of every index) cost `lfu`'s replay 8 of its 546 instructions a request at the
    /// gate (`Benchmarks/instructions-per-request.sh`). A few thousand ids' worth of unused entries at most.
    @inlinable static var growthSlack: Int { 4096 }

    @inlinable mutating func grow(to n: Int) {
        objects.extend(to: n, with: CachedObject())
        if keyed { ranked.grow(to: n) } else if decaying {
            if scoring { scored.grow(to: n) }
            fixed?.grow(to: n)
            counts?.grow(to: n)
        } else { resident.grow(to: n) }
    }

    /// Whether evictions scan every resident object (the policy has neither a key nor a decaying score).
    @inlinable var scans: Bool { !keyed && !decaying }

    /// The current object leaves the foreground: it becomes a suspended, idle-band candidate.
    @inlinable mutating func leave(_ object: Int32, at time: Int) {
        let o = Int(object)
        objects[o].lastForegroundTime = time
        guard objects[o].resident else { return }
        objects[o].bandEntrySequence = entrySequence
        entrySequence &+= 1
        if keyed {
            ranked.update(object, key: _policy.rankingKey(rankingInputs(o)))
        } else if decaying, let score = _policy.decayingScore(candidate(o)) {
            let sequence = objects[o].lastUseSequence
            if score.isConstant {
                if (scoring && scored.contains(object)) || counts?.contains(object) == true { removeFromDecayingIndexes(object, at: time) }
                if fixed == nil { makeFixedIndex() }
                let value = score.value(at: time)
                // A hit of an object whose score stays the same (every hit of `largest`: a cached object's footprint
                // does not change) keeps its stored key, which ranks it no later: the same score, an earlier sequence.
                // The heap's first among stored keys is then the scan's victim whenever its own key is current, and
                // `firstScored` refreshes a stale first and asks again: a hit costs no walk through the heap.
                if let stored = fixed?.storedKey(of: object), stored.score == value, stored.sequence < sequence {
                    objects[o].staleScore = true
                    return
                }
                objects[o].staleScore = false
                fixed?.set(object, score: value, sequence: sequence)
            } else {
                leaveWithDecayingScore(object, score: score, sequence: sequence, at: time)
            }
        }
    }

    /// `leave` for a score that decays (`lfu`'s and `cost`'s): a separate function inlined into `leave`, so that `place` is
    /// inlined into it first (the inliner gave up on `place` in `leave`'s whole body: its call and frame cost `lfu` and `cost`
    /// some 15 instructions a departure).
    @inlinable @inline(__always)
    mutating func leaveWithDecayingScore(_ object: Int32, score: DecayingScore, sequence: UInt64, at time: Int) {
        let o = Int(object)
        // `cost`'s replays: no other index to ask, and the score goes to the crossing scores' (the tests of the policy and
        // of `accepts` fold away for `lfu`'s and `cost`'s scores).
        assert(onlyCrossingScores == (scoring && fixed == nil && counts == nil), "CacheReplay: onlyCrossingScores is stale")
        let onlyCrossing = !_policy.decayingScoreIsItsCount && onlyCrossingScores && !DecayingCountHeap.accepts(score, halfLife: 0)
        if !onlyCrossing && fixed?.contains(object) == true {
            removeFromFixedIndex(object)
        } else if objects[o].staleScore && time < staleHorizon && score.count < Self.stillStaleCountLimit {
            // Stale already: its stored score stands in for this one too (`stillStaleCountLimit`), unread.
            _checkStillStale(object, score: score, sequence: sequence, at: time)
            return
        }
        // A hit: still there with its score from before, which may stand in for the new one (`keepsStoredScore`).
        // A missed object leaves the foreground in no index, most departures where most requests miss: a read of its
        // slot in the index of crossing scores (`cost`'s replays), or of its position in the heap of counts (`lfu`'s),
        // says so without the call, where its stored score is an optional of 56 bytes (44 instructions a request of
        // `cost`'s at 15.1 MB of the binary's first million requests; `lfu`'s call took 32 there, 10 with the read).
        let crossing = scoring && scored.contains(object)
        if (crossing || (!onlyCrossing && counts?.contains(object) == true))
            && keepsStoredScore(object, score: score, sequence: sequence, at: time) {
            objects[o].staleScore = true
            return
        }
        objects[o].staleScore = false
        if onlyCrossing {
            scored.set(object, score: score, sequence: sequence, at: time, isMember: crossing)
        } else {
            place(object, score: score, sequence: sequence, at: time, log2Count: currentLog2Count, inCrossing: crossing)
        }
    }

    // What a departure rarely does, out of line, so that `leave` and `place` hold only their common paths (the inliner gives
    // up on a large caller, as it did on `place` in `leave`): an index's creation, once a replay each, and a score's move
    // between indexes.

    /// Takes `object`, whose score became constant, out of the indexes of decaying scores.
    @inlinable @inline(never) mutating func removeFromDecayingIndexes(_ object: Int32, at time: Int) {
        if scoring && scored.contains(object) { scored.remove(object, at: time) }
        if counts?.contains(object) == true { counts?.remove(object) }
        objects[Int(object)].staleScore = false
    }

    /// Takes `object`, whose score decays again, out of the heap of constant scores.
    @inlinable @inline(never) mutating func removeFromFixedIndex(_ object: Int32) {
        fixed?.remove(object)
        objects[Int(object)].staleScore = false   // (the flag spoke of that leaf)
    }

    /// Makes the heap of constant scores, its first candidate coming.
    @inlinable @inline(never) mutating func makeFixedIndex() {
        fixed = FixedScoreHeap()
        onlyCrossingScores = false
        fixed?.grow(to: objects.count)
    }

    /// Makes the heap of plain decaying counts, its first candidate coming.
    @inlinable @inline(never) mutating func makeCountsIndex() {
        counts = DecayingCountHeap()
        onlyCrossingScores = false
        counts?.grow(to: objects.count)
    }

    /// Starts the index of crossing scores, its first candidate coming.
    @inlinable @inline(never) mutating func startScoring() {
        scoring = true
        onlyCrossingScores = fixed == nil && counts == nil
        scored.grow(to: objects.count)
    }

    /// Stores a score that decays (not `isConstant`) in its index: the heap of plain decaying counts when it
    /// `accepts` it, the index of crossing scores otherwise; out of the other one if it was there.
    /// `log2Count`: log2(score.count) when known (`currentLog2Count`), NaN otherwise. `inCrossing`: whether `object` is a
    /// member of the index of crossing scores, when the caller has just asked (nil: not known).
    @inlinable @inline(__always)
    mutating func place(_ object: Int32, score: DecayingScore, sequence: UInt64, at time: Int, log2Count: Double = .nan,
                        inCrossing: Bool? = nil) {
        let crossing = inCrossing ?? (scoring && scored.contains(object))
        if DecayingCountHeap.accepts(score, halfLife: counts?.halfLife ?? 0) {
            if crossing {
                scored.remove(object, at: time)
                indexMoves &+= 1
            }
            if counts == nil { makeCountsIndex() }
            counts?.set(object, score: score, sequence: sequence, log2Count: log2Count)
        } else {
            if counts?.contains(object) == true {
                counts?.remove(object)
                indexMoves &+= 1
            }
            if !scoring { startScoring() }   // (then `object` is no member: `crossing` holds)
            scored.set(object, score: score, sequence: sequence, at: time, isMember: crossing)
        }
    }

    /// Evicts until `size` more bytes fit; false when the policy refuses every candidate. One loop per way of choosing
    /// victims, so that each loop keeps in registers only what its way reads (`lru`'s paid an instruction a request for the
    /// scored indexes' addresses set up before a shared loop).
    @inlinable mutating func makeRoom(for size: Int, at time: Int) -> Bool {
        if keyed {
            while lacksRoom(for: size) {
                guard ranked.head >= 0 else { return false }
                let victim = Int(ranked.head)
                ranked.remove(ranked.head)
                evicted(victim)
            }
        } else if decaying {
            assert(onlyCrossingScores == (scoring && fixed == nil && counts == nil), "CacheReplay: onlyCrossingScores is stale")
            countsAlone: if _policy.decayingScoreIsItsCount && !scoring && fixed == nil && time < staleHorizon {   // (`cost`: never)
                // `lfu`'s replays: the heap of counts' first, taken out in the same call, is the victim unless its entry is
                // stale; a stale one goes back in with its real score and the heap is asked again, as `firstScored` would
                // (a miss evicts five or six objects in a row at 0.1 % of the 10 M-request binary: each eviction asked the
                // three indexes' optionals and the victim's position again).
                while true {
                    if !lacksRoom(for: size) { return true }
                    guard let first = counts?.popFirst(at: time), first >= 0 else { return false }
                    if objects[Int(first)].staleScore {
                        rescore(first, at: time)
                        if !scoring && fixed == nil { continue } else { break countsAlone }   // (a rescore that made an index)
                    }
                    _checkScoredVictim(first, at: time, takenOut: true)
                    evicted(Int(first))
                }
            }
            crossingScores: if !_policy.decayingScoreIsItsCount && onlyCrossingScores && time < staleHorizon {   // (`lfu`: never)
                // `cost`'s replays: the crossing scores' first, taken out in the same call, is the victim unless its entry
                // is stale; a stale one goes back in with its real score and the index is asked again, as `firstScored`
                // would (the other indexes and the stale horizon asked once, not at each eviction).
                while true {
                    if !lacksRoom(for: size) { return true }
                    let first = scored.popFirst(at: time)
                    guard first >= 0 else { return false }
                    if objects[Int(first)].staleScore {
                        rescore(first, at: time)
                        if onlyCrossingScores { continue } else { break crossingScores }   // (a rescore that made an index)
                    }
                    _checkScoredVictim(first, at: time, takenOut: true)
                    evicted(Int(first))
                }
            }
            constantsAlone: if !scoring && counts == nil && time < staleHorizon {   // (`lfu`, `cost`: never)
                // `largest`'s replays: the heap of constant scores' first, taken out in the same call, is the victim unless
                // its key is stale (a hit kept it with an earlier sequence: `leave`); a stale one goes back in with its
                // current sequence and the heap is asked again, as `firstScored` would (each eviction of a miss's run asked
                // the three indexes' optionals, the victim's position and `settle` again).
                while true {
                    if !lacksRoom(for: size) { return true }
                    guard let key = fixed?.popFirst() else { break constantsAlone }   // (no heap yet, or an empty one)
                    let first = key.id
                    if objects[Int(first)].staleScore {
                        refreshFixedKey(first, score: key.score)
                        continue
                    }
                    _checkScoredVictim(first, at: time, takenOut: true)
                    evicted(Int(first))
                }
            }
            while lacksRoom(for: size) {
                guard let first = firstScored(at: time) else { return false }
                _checkScoredVictim(first, at: time)
                if fixed?.contains(first) == true {
                    fixed?.remove(first)
                } else if counts?.contains(first) == true {
                    counts?.removeFirst(first)
                } else {
                    scored.removeFirst(first, at: time)
                }
                objects[Int(first)].staleScore = false
                evicted(Int(first))
            }
        } else {
            while lacksRoom(for: size) {
                guard let victim = selectUnindexedVictim(for: size, at: time) else { return false }
                resident.remove(victim)
                evicted(victim)
            }
        }
        return true
    }

    /// Whether `size` more bytes overflow the capacity: `usedBytes + size > capacityBytes`, in a form that cannot overflow
    /// (`usedBytes` is at most the capacity), whatever capacity the user gave.
    @inlinable @inline(__always) func lacksRoom(for size: Int) -> Bool { size > capacityBytes &- _counters.usedBytes }

    /// The accounting of an eviction: `victim` leaves the cache, its bytes freed.
    @inlinable @inline(__always) mutating func evicted(_ victim: Int) {
        objects[victim].resident = false
        _counters.usedBytes &-= objects[victim].size   // (a resident object's bytes, counted in)
        _counters.evictions &+= 1
        if !_counters.byteTotalsOverflowed { _counters.evictedBytes &+= objects[victim].size }   // ≤ missed bytes
    }

    /// The victim of a policy without a ranking key or a decaying score, from the resident set: by position (`random`) or by
    /// the policy's scan over every resident object but the current one; nil when it refuses every candidate.
    @inlinable @inline(__always) mutating func selectUnindexedVictim(for size: Int, at time: Int) -> Int? {
        if byIndex {
            // The candidates the scan below would build are the resident set's members in order, the current
            // object left out: position k of that list, without building it.
            let skipped = current >= 0 && resident.contains(Int(current)) ? Int(resident.position[Int(current)]) : -1
            let count = resident.members.count - (skipped >= 0 ? 1 : 0)
            guard count > 0, let k = _policy.selectIndex(count: count), k >= 0, k < count else { return nil }
            let at = skipped >= 0 && k >= skipped ? k + 1 : k
            let victim = Int(resident.members[at])
            _checkIndexedVictim(victim, position: k, skipped: skipped)
            return victim
        }
        candidates.removeAll(keepingCapacity: true)
        for app in resident.members where app != current { candidates.append(candidate(Int(app))) }
        let context = KillContext(now: time, reason: .idleExit, availableBytes: capacityBytes - _counters.usedBytes - size,
                                  eventIndex: _counters.requests - 1)
        guard !candidates.isEmpty, let k = _policy.selectVictim(among: candidates, context: context),
              candidates.indices.contains(k) else { return nil }
        return Int(candidates[k].app)
    }

    /// The scored candidate that dies first at `time`: the best of the three indexes' first, by the scan's comparison
    /// (the smaller double at `time`, then the smaller sequence), so exactly the scan's victim over all of them.
    /// Inline, the common case of a replay with one index, `lfu`'s, `cost`'s or `largest`'s: its first is the victim when its
    /// entry is not stale (nothing to rescore, so no index changes); a stale first is rescored, as the general case would
    /// first, and the rest is out of line (`firstScoredInGeneral`), whose frame of some 500 bytes and six saved registers cost
    /// `lfu` some 20 instructions an eviction at 15.1 MB of the binary's first million requests, where most requests evict
    /// (`largest`'s general case there, its loop over the three indexes: 612 → 527 instructions a request inline).
    @inlinable @inline(__always) mutating func firstScored(at time: Int) -> Int32? {
        if time < staleHorizon, let only = firstOfTheOnlyIndex(at: time) {
            if !objects[Int(only)].staleScore { return only }
            rescore(only, at: time)
        }
        return firstScoredInGeneral(at: time)
    }

    /// The first of the replay's one index as stored, or nil when it has none, more than one, or an empty one.
    @inlinable @inline(__always) mutating func firstOfTheOnlyIndex(at time: Int) -> Int32? {
        switch (scoring, counts != nil, fixed != nil) {
        case (false, true, false):   // (inline for `lfu`, whose scores are all plain counts, where `makeRoom`'s own loop is not taken)
            return _policy.decayingScoreIsItsCount ? counts?.first(at: time) : counts?.firstByCall(at: time)
        case (true, false, false): return scored.first(at: time)
        case (false, false, true): return fixed?.first()
        default: return nil
        }
    }

    /// `firstScored(at:)` in every case: stale entries rescored first, any of the three indexes.
    @inlinable @inline(never) mutating func firstScoredInGeneral(at time: Int) -> Int32? {
        if time >= staleHorizon { rescoreStale(at: time) }
        // The heap alone (`lfu`'s replays): its first is the victim. A rescore that moves a score to the crossing scores' index leaves
        // for the general case below, which asks every index again.
        if !scoring && fixed == nil {
            let counted = firstCounted(at: time)
            if !scoring { return counted }
        }
        // The index of crossing scores alone (`cost`'s replays): its first is the victim once its score is current. A rescore
        // that makes another index leaves for the general case, which asks every index again. (The general case's
        // bookkeeping cost `cost` 23 instructions a request at 15.1 MB of the binary's first million requests, where most
        // requests evict.)
        if fixed == nil && counts == nil {
            let decaying = firstCrossing(at: time)
            if fixed == nil && counts == nil { return decaying }
        }
        return firstOfEveryIndex(at: time)
    }

    /// `firstScored(at:)` when more than one index may hold candidates.
    @inlinable @inline(__always) mutating func firstOfEveryIndex(at time: Int) -> Int32? {
        // A lower bound won (or an earlier sequence, in `fixed`): its real score takes its place, and the index answers
        // again. A rescored score that moves to an index asked before (`indexMoves`) has that one asked again too.
        var decaying: Int32?, counted: Int32?, constant: Int32?
        var moves = indexMoves
        repeat {
            moves = indexMoves
            decaying = scoring ? firstCrossing(at: time) : nil
            counted = firstCounted(at: time)
            constant = fixed?.first()
            while let top = constant, objects[Int(top)].staleScore {
                rescore(top, at: time)
                constant = fixed?.first()
            }
        } while moves != indexMoves
        // Most replays use one index (`lfu`, `cost`, `largest` one each): its first is the victim.
        switch (decaying, counted, constant) {
        case (nil, nil, _): return constant
        case (nil, _, nil): return counted
        case (_, nil, nil): return decaying
        default: break
        }
        var best = constant, bestValue = 0.0, bestSequence: UInt64 = 0
        if constant != nil, let key = fixed?.firstKey() { (bestValue, bestSequence) = (key.score, key.sequence) }
        if let id = decaying, let stored = scored.storedScore(of: id) {
            Self.weigh(id, stored, at: time, against: &best, &bestValue, &bestSequence)
        }
        if let id = counted, let stored = counts?.storedScore(of: id) {
            Self.weigh(id, stored, at: time, against: &best, &bestValue, &bestSequence)
        }
        return best
    }

    /// The crossing scores' first at `time` once the stale entries that win it have their real scores (a rescore may move
    /// a score to another index: `indexMoves`).
    @inlinable @inline(__always) mutating func firstCrossing(at time: Int) -> Int32? {
        var decaying = scored.first(at: time)
        while let top = decaying, objects[Int(top)].staleScore {
            rescore(top, at: time)
            decaying = scored.first(at: time)
        }
        return decaying
    }

    /// The heap's first at `time` once the stale entries that win it have their real scores (a rescore may move a score
    /// to the crossing scores' index: `indexMoves`).
    @inlinable @inline(__always) mutating func firstCounted(at time: Int) -> Int32? {
        var counted = counts?.firstByCall(at: time)
        while let top = counted, objects[Int(top)].staleScore {
            rescore(top, at: time)
            counted = counts?.firstByCall(at: time)
        }
        return counted
    }

    /// Makes `id` the best so far if its stored score dies first at `time` by the scan's comparison.
    @inlinable @inline(__always)
    static func weigh(_ id: Int32, _ stored: (score: DecayingScore, sequence: UInt64), at time: Int,
                      against best: inout Int32?, _ bestValue: inout Double, _ bestSequence: inout UInt64) {
        let value = stored.score.value(at: time)
        if best == nil || value < bestValue || (value == bestValue && stored.sequence < bestSequence) {
            (best, bestValue, bestSequence) = (id, value, stored.sequence)
        }
    }

    /// Whether member `object` of `scored` or `counts` may keep its stored score (and tie-break) while its policy's is `score`: when
    /// the stored one ranks it no later than the new one at every time up to `staleHorizon`, the index's first
    /// among stored scores is the scan's victim whenever its own score is current (every other stored score being at
    /// most its real one), and `firstScored` rescores a stale winner and asks again. A hit's re-score then costs no
    /// walk in the index, most hits of `lfu` and `cost`; a stale entry is rescored only if it wins.
    ///
    /// Why the doubles agree. Both scores are (count · 2^(−(t − since)/halfLife) + offset) · numerator / divisor with the
    /// same half-life and constants, a non-decreasing function of the decayed count (rounding is monotone) when the
    /// constants are finite and numerator / divisor ≥ 0. The ratio of the two decayed counts is the same at every time:
    /// new count / stored count decayed to the new `since`. When that is at least 1 + 2^-19, the doubles keep the order
    /// at every time t where both decayed counts are normal and computed within 10^-12 (relative) of their true values:
    /// counts ≥ 1 and t within 500 half-lives of the stored `since` (the exp2 argument's rounding, the only error that
    /// grows with time, is then below 500 · 2^-52). `staleHorizon` is the earliest such bound of the stale entries.
    /// Ties of the doubles go to the smaller sequence, which is the stored one (an open raises it). `lfu`'s and
    /// `cost`'s counts gain 1 an open, which is the ratio's bound while the decayed count is below 2^19; otherwise, and
    /// for a score that falls, the hit re-scores at once.
    /// (Mutating: it moves `staleHorizon`, and the generic replay is not copied to call it.)
    @inlinable mutating func keepsStoredScore(_ object: Int32, score new: DecayingScore, sequence: UInt64, at time: Int) -> Bool {
        var stored = scoring ? scored.storedScore(of: object) : nil
        if stored == nil {
            stored = counts?.storedScore(of: object)
            // A new score the heap would not take moves to the crossing scores' index: rescored now.
            if let old = stored, !DecayingCountHeap.accepts(new, halfLife: old.score.halfLifeMicros) { return false }
        }
        guard let stored else { return false }
        let old = stored.score
        guard stored.sequence < sequence, old.count >= 1, new.count >= 1, old.since <= new.since,
              old.halfLifeMicros == new.halfLifeMicros, old.offset == new.offset, old.numerator == new.numerator,
              old.divisor == new.divisor, old.offset.isFinite, old.numerator.isFinite, old.numerator >= 0,
              old.divisor.isFinite, old.divisor > 0 else { return false }
        let horizon = KineticTournament.time(old.since, plus: 500 * old.halfLifeMicros, roundingUp: false)   // saturating
        guard time < horizon, new.since < horizon else { return false }
        // The stored count decayed to the new `since` is at most the stored count: most hits pass without exp2.
        guard new.count >= old.count * (1 + 0x1p-19) || new.count >= old.decayedCount(at: new.since) * (1 + 0x1p-19) else { return false }
        if horizon < staleHorizon { staleHorizon = horizon }
        return true
    }

    /// Below this count a stale entry stays stale at its object's next departure without `keepsStoredScore` reading it
    /// again, while `staleHorizon` has not come. Why that is what the check would find: the entry became stale when the
    /// policy's score P passed it against the stored S, P.count ≥ S's count decayed to P.since, times (1 + 2^-19) (the
    /// first form of the check implies this one: a decayed double never exceeds its count). Between two departures the
    /// object is opened once (a repeated open of the foreground object is ignored before the policy hears of it), so the
    /// new count N = P.count · 2^(−(N.since − P.since)/halfLife) + 1, and in exact arithmetic N.count ≥ S's count
    /// decayed to N.since, times (1 + 2^-19), plus 1. The doubles of both sides are within a few units in the last
    /// place, 2^-50 relative, of those values, so the added 1 covers them while the counts are below 2^40. The constants
    /// (offset, weight, half-life) are those of S: a built-in's depend on the object's size and relaunch cost alone, which
    /// a cache replay never changes (`EvictionPolicy.decayingScore`); and `time` < `staleHorizon` ≤ this entry's own
    /// horizon, so N.since is within it too. Debug builds run the full check and require the same answer.
    @usableFromInline static var stillStaleCountLimit: Double { 0x1p40 }

    /// Debug builds: `keepsStoredScore` keeps a stale entry that the shortcut in `leave` kept unread. (It changes nothing
    /// here: this entry's horizon is at least `staleHorizon`, the earliest of the stale ones.)
    @inlinable mutating func _checkStillStale(_ object: Int32, score: DecayingScore, sequence: UInt64, at time: Int) {
        #if DEBUG
        let horizon = staleHorizon
        precondition(keepsStoredScore(object, score: score, sequence: sequence, at: time) && staleHorizon == horizon,
                     "CacheReplay: object \(object)'s stale entry no longer stands in for its score at \(time)")
        #endif
    }

    /// Gives stale member `object` its policy's score (the one its last departure from the foreground computed: a score
    /// changes only at an open of its object, and a cached object's footprint and relaunch cost do not change); in
    /// `fixed`, its stored score with its current sequence (`leave` kept the key only when the score was the same).
    @inlinable mutating func rescore(_ object: Int32, at time: Int) {
        let o = Int(object)
        objects[o].staleScore = false
        if let stored = fixed?.storedKey(of: object) { return refreshFixedKey(object, score: stored.score) }
        guard let score = _policy.decayingScore(candidate(o)), !score.isConstant else {
            preconditionFailure("CacheReplay: a scored object lost its decaying score")
        }
        place(object, score: score, sequence: objects[o].lastUseSequence, at: time)
    }

    /// Gives `object`, stale in `fixed` or just taken out of it, its key again with its current sequence: `score` is its
    /// stored one (`leave` keeps a key only while the score is the same).
    @inlinable @inline(__always) mutating func refreshFixedKey(_ object: Int32, score: Double) {
        objects[Int(object)].staleScore = false
        let sequence = objects[Int(object)].lastUseSequence
        fixed?.set(object, score: score, sequence: sequence)
    }

    /// Rescores every stale member (their horizon has come).
    @inlinable mutating func rescoreStale(at time: Int) {
        staleHorizon = Int.max
        for o in 0..<objects.count where objects[o].staleScore { rescore(Int32(o), at: time) }
    }

    /// Debug builds: the position drawn names the candidate the scan would have listed there.
    @inlinable func _checkIndexedVictim(_ victim: Int, position k: Int, skipped: Int) {
        #if DEBUG
        let listed = resident.members.filter { $0 != current }
        precondition(listed.indices.contains(k) && Int(listed[k]) == victim, "CacheReplay: position \(k) is not \(victim)")
        #endif
    }

    /// Debug builds: the indexes' victim is the one the policy's scan picks among the same candidates.
    /// `takenOut`: the victim has left its index already (`CrossingScoreIndex.popFirst`), and is weighed beside its members.
    @inlinable func _checkScoredVictim(_ victim: Int32, at time: Int, takenOut: Bool = false) {
        #if DEBUG
        let members = (scoring ? scored.memberIDs() : []) + (fixed?.memberIDs() ?? []) + (counts?.memberIDs() ?? [])
            + (takenOut ? [victim] : [])
        var policy = _policy
        let candidates = members.map { candidate(Int($0)) }
        let context = KillContext(now: time, reason: .idleExit, availableBytes: 0, eventIndex: _counters.requests - 1)
        let k = policy.selectVictim(among: candidates, context: context)
        precondition(k.map { candidates[$0].app } == victim, "CacheReplay: the indexes pick \(victim), the scan \(k.map { candidates[$0].app } ?? -1)")
        #endif
    }

    /// What a ranking key is built from for a suspended object: the part of `candidate(_:)` a key may see.
    @inlinable func rankingInputs(_ o: Int) -> RankingInputs {
        RankingInputs(band: idleBand, bandEntrySequence: objects[o].bandEntrySequence, launchSequence: objects[o].launchSequence,
                      lastUseSequence: objects[o].lastUseSequence)
    }

    /// What the full engine shows a policy for a suspended object on a cache device.
    @inlinable func candidate(_ o: Int) -> KillCandidate {
        let c = objects[o]
        return KillCandidate(
            app: Int32(o), state: .suspended, priorityClass: .idle, band: idleBand, bandEntrySequence: c.bandEntrySequence,
            bandEntryTime: c.lastForegroundTime, footprintBytes: c.size, lastForegroundTime: c.lastForegroundTime,
            launchTime: c.launchTime, launchCount: Int(c.launches), firstUseTime: c.firstUseTime, lastUseSequence: c.lastUseSequence,
            launchSequence: c.launchSequence, relaunchCostMillis: relaunchCostMillis)
    }
}

