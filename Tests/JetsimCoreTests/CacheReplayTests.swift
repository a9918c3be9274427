import Testing
@testable import JetsimCore

/// The fast cache replay against the full engine on a cache-equivalent device: same misses, same evictions.
@Suite struct CacheReplayTests {
    typealias Request = CacheEquivalenceTests.Request

    static func time(_ t: Int) -> Int { t / 10 * 1_000_000 }

    static func replay<P: EvictionPolicy>(_ reqs: [Request], capacity: Int, policy: P) -> CacheCounters {
        var replay = CacheReplay(capacityBytes: capacity, policy: policy)
        for (t, r) in reqs.enumerated() { replay.request(Int32(r.object), size: r.size, time: time(t)) }
        return replay.counters
    }

    static func engine<P: EvictionPolicy>(_ reqs: [Request], capacity: Int, policy: P) throws -> SimulationResult {
        let objects = (reqs.map(\.object).max() ?? 0) + 1
        var sizeOf = [Int](repeating: 1, count: objects)
        for r in reqs.reversed() { sizeOf[r.object] = r.size }
        let catalog = try AppCatalog((0..<objects).map { k in
            var p = AppProfile(name: String(k), dirtyBytes: sizeOf[k])
            p.maxDirtyBytes = sizeOf[k]
            p.cacheDropOnBackground = .zero
            return p
        })
        var sim = Simulator(device: .cache(capacityBytes: capacity), catalog: catalog, policy: policy, observer: CountersOnlyObserver())
        for (t, r) in reqs.enumerated() { sim.process(TraceEvent(time: time(t), app: Int32(r.object), kind: .open)) }
        return sim.finish()
    }

    @Test(arguments: [20_000, 150_000, 1_000_000])
    func everyStreamablePolicyMissesAndEvictsAsTheFullEngine(capacity: Int) throws {
        let reqs = CacheEquivalenceTests.requests(count: 3000, objects: 250, seed: UInt64(capacity) + 5, capacity: capacity)
        let env = PolicyEnvironment(seed: 3, device: .cache(capacityBytes: capacity))
        let tooLarge = Set(reqs.filter { $0.size > capacity }.map(\.object))
        for entry in PolicyRegistry.builtIns where !entry.capabilities.contains(.needsFuture) {
            let counters = Self.replay(reqs, capacity: capacity, policy: AnyPolicy(try entry.make([:], env)))
            let full = try Self.engine(reqs, capacity: capacity, policy: AnyPolicy(try entry.make([:], env)))
            #expect(counters.misses == full.coldLaunches, "\(entry.name) at \(capacity)")
            // The engine kills an object larger than the cache at once (per-process limit); the replay never admits it.
            let oversizeMisses = reqs.filter { tooLarge.contains($0.object) }.count
            #expect(counters.notAdmitted == oversizeMisses, "\(entry.name) at \(capacity)")
            #expect(counters.evictions + counters.notAdmitted == full.totalKills, "\(entry.name) at \(capacity)")
            #expect(counters.requests == reqs.count && counters.hits + counters.misses == reqs.count)
        }
    }

    /// `random` picks by position (`selectIndex`): the replay takes that position of its resident set without building
    /// the candidates, and evicts exactly what the full engine's scan evicts with the same seed.
    @Test(arguments: [20_000, 150_000])
    func randomByPositionEvictsAsTheFullEnginesScan(capacity: Int) throws {
        let reqs = CacheEquivalenceTests.requests(count: 3000, objects: 250, seed: UInt64(capacity) + 9, capacity: capacity)
        for seed in [UInt64(1), 7, 42] {
            var replay = CacheReplay(capacityBytes: capacity, policy: RandomPolicy(seed: seed))
            #expect(replay.byIndex)
            for (t, r) in reqs.enumerated() { replay.request(Int32(r.object), size: r.size, time: Self.time(t)) }
            let full = try Self.engine(reqs, capacity: capacity, policy: RandomPolicy(seed: seed))
            #expect(replay.counters.misses == full.coldLaunches, "seed \(seed)")
            #expect(replay.counters.evictions + replay.counters.notAdmitted == full.totalKills, "seed \(seed)")
            #expect(replay.counters.evictions > 100)
        }
    }

    @Test func lruEqualsTheReferenceAndKeepsExactBytes() {
        let capacity = 150_000
        let reqs = CacheEquivalenceTests.requests(count: 3000, objects: 250, seed: 11, capacity: capacity)
        let reference = CacheEquivalenceTests.referenceMisses(reqs, capacity: capacity) { cached, _ in
            cached.min { $0.value.lastUse < $1.value.lastUse }!.key
        }
        var replay = CacheReplay(capacityBytes: capacity, policy: LRUPolicy())
        var bytes = 0
        for (t, r) in reqs.enumerated() {
            replay.request(Int32(r.object), size: r.size, time: Self.time(t))
            bytes += r.size
            #expect(replay.counters.usedBytes <= capacity)
        }
        #expect(replay.counters.misses == reference)
        #expect(replay.counters.requestedBytes == bytes)
        #expect(replay.counters.objects == Set(reqs.map(\.object)).count)
    }

    @Test func aCopiedReplayGoesOnIndependently() {
        var first = CacheReplay(capacityBytes: 3, policy: LRUPolicy())
        for k in 0..<3 { first.request(Int32(k), size: 1, time: k) }
        var second = first
        first.request(3, size: 1, time: 3)    // evicts 0, the least recently used
        second.request(1, size: 1, time: 3)   // a hit: evicts nothing
        second.request(4, size: 1, time: 4)   // evicts 0 in this copy too, not what `first` did to its list
        second.request(2, size: 1, time: 5)
        #expect(first.counters.evictions == 1 && second.counters.evictions == 1)
        first.request(1, size: 1, time: 4)    // still resident in `first`
        #expect(first.counters.misses == 4 && first.counters.hits == 1)
        #expect(second.counters.misses == 4 && second.counters.hits == 2)
    }

    /// `requests(objects:sizes:times:)` makes the indexes' storage unique once a batch: it counts as one request at a
    /// time does, and a copy taken before a batch keeps its own indexes (for each kind: a key, a decaying score, a scan).
    @Test func aBatchCountsAsItsRequestsAndLeavesACopyAlone() {
        let capacity = 150_000
        let reqs = CacheEquivalenceTests.requests(count: 3000, objects: 250, seed: 13, capacity: capacity)
        let objects = reqs.map { Int32($0.object) }, sizes = reqs.map(\.size), times = reqs.indices.map(Self.time)
        func check<P: EvictionPolicy>(_ policy: P) {
            let oneByOne = Self.replay(reqs, capacity: capacity, policy: policy)
            var batched = CacheReplay(capacityBytes: capacity, policy: policy)
            var copy = batched
            let half = reqs.count / 2
            objects.withUnsafeBufferPointer { o in
                sizes.withUnsafeBufferPointer { s in
                    times.withUnsafeBufferPointer { t in
                        batched.requests(objects: .init(rebasing: o[..<half]), sizes: .init(rebasing: s[..<half]), times: .init(rebasing: t[..<half]))
                        copy = batched   // shares the indexes' storage until one of them writes
                        batched.requests(objects: .init(rebasing: o[half...]), sizes: .init(rebasing: s[half...]), times: .init(rebasing: t[half...]))
                    }
                }
            }
            #expect(batched.counters == oneByOne, "\(P.self)")
            #expect(batched.counters.evictions > 100, "\(P.self)")
            for k in half..<reqs.count { copy.request(objects[k], size: sizes[k], time: times[k]) }
            #expect(copy.counters == oneByOne, "\(P.self): the copy went on from its own state")
        }
        check(LRUPolicy())
        check(LFUPolicy())
        check(CostPolicy())
        check(LargestPolicy())
        check(RandomPolicy(seed: 5))
    }

    /// Room made ahead for the trace's objects (`cachesim`'s working-set pass counts them) changes no count, whether it
    /// covers every id, only some or many more, before the first request or midway (the indexes made by then); a copy
    /// made before it goes on from its own state even when the room fits in the storage the two share (no reallocation
    /// to separate them: debug builds trap on a write to shared storage).
    @Test func roomMadeAheadChangesNoResult() {
        let capacity = 150_000
        let reqs = CacheEquivalenceTests.requests(count: 1500, objects: 250, seed: 17, capacity: capacity)
        let ids = (reqs.map(\.object).max() ?? 0) + 1
        let half = reqs.count / 2
        func request<P: EvictionPolicy>(_ replay: inout CacheReplay<P>, _ k: Int) {
            replay.request(Int32(reqs[k].object), size: reqs[k].size, time: Self.time(k))
        }
        func check<P: EvictionPolicy>(_ policy: P) {
            let grown = Self.replay(reqs, capacity: capacity, policy: policy)
            for room in [ids, ids / 2, 10 * ids] {
                var reserved = CacheReplay(capacityBytes: capacity, policy: policy)
                reserved.reserve(objects: room)
                #expect(reserved.objects.count == room, "\(P.self): room for \(room) ids")
                for k in reqs.indices { request(&reserved, k) }
                #expect(reserved.counters == grown, "\(P.self), room for \(room) of \(ids) ids")
            }
            var replay = CacheReplay(capacityBytes: capacity, policy: policy)
            for k in 0..<half { request(&replay, k) }
            var copy = replay
            let room = 1000
            #expect(replay.objects.count < room && room <= replay.objects.storage.capacity, "\(P.self): the room fits the shared storage")
            replay.reserve(objects: room)
            #expect(replay.objects.count == room && copy.objects.count < room, "\(P.self)")
            for k in half..<reqs.count {
                request(&replay, k)
                request(&copy, k)
            }
            #expect(replay.counters == grown && copy.counters == grown, "\(P.self): room made midway")
        }
        check(LRUPolicy())
        check(FIFOPolicy())
        check(LFUPolicy())
        check(CostPolicy())
        check(LargestPolicy())
        check(RandomPolicy(seed: 5))
    }

    @Test func anObjectKeepsItsFirstSize() {
        var replay = CacheReplay(capacityBytes: 100, policy: LRUPolicy())
        replay.request(0, size: 60, time: 0)
        replay.request(1, size: 30, time: 1)
        replay.request(0, size: 90, time: 2)   // still 60 bytes: a hit, nothing evicted
        #expect(replay.counters.hits == 1 && replay.counters.evictions == 0 && replay.counters.usedBytes == 90)
        replay.request(2, size: 20, time: 3)   // 110 > 100: the least recent (1) goes
        #expect(replay.counters.evictions == 1 && replay.counters.evictedBytes == 30 && replay.counters.usedBytes == 80)
    }

    /// A capacity past half of `Int.max` (the replay's own API; `cachesim`'s sizes stop at 2^50): the bytes used and an
    /// object's size add beyond it, which the test of room must not compute (it trapped), for each way of choosing victims
    /// (`largest` aside: its scores are exact for footprints below 2^52).
    @Test func roomIsFoundNearTheLargestCapacity() {
        func check<P: EvictionPolicy>(_ policy: P) {
            let half = Int.max / 2 + 1
            var replay = CacheReplay(capacityBytes: .max, policy: policy)
            replay.request(0, size: half, time: 0)
            replay.request(1, size: half, time: 1_000_000)   // used + size > Int.max: the first goes
            #expect(replay.counters.evictions == 1 && replay.counters.usedBytes == half && replay.counters.byteTotalsOverflowed,
                    "\(P.self)")
        }
        check(LRUPolicy())
        check(LFUPolicy())
        check(CostPolicy())
        check(RandomPolicy(seed: 3))
    }

    @Test func byteTotalsPastEightExbibytesAreFlaggedNotTrapped() {
        var replay = CacheReplay(capacityBytes: 1 << 52, policy: LRUPolicy())
        for k in 0..<9000 { replay.request(Int32(k % 2), size: 1 << 50, time: k) }   // 9 000 PiB requested
        #expect(replay.counters.byteTotalsOverflowed)
        #expect(replay.counters.requests == 9000 && replay.counters.misses == 2)
    }
}
