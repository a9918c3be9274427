#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import JetsimCore

/// `cachesim`'s reader computes `lfu`'s and `cost`'s decayed use counts ahead (`DecayedCountStage`), once a half-life, and
/// the replays store them instead of computing them. These check the counts against the arithmetic written out, and
/// replays given them against replays that compute their own: the same misses, evictions, cached objects and state.
@Suite struct DecayedCountStageTests {
    typealias Clock = DecayingReplayTests.Clock

    /// The stage's columns for `objects` at `times`, filled `batch` requests at a time.
    static func columns(halfLifeMicros: Double, objects: [Int32], times: [Int], batch: Int, log2: Bool = true) -> [DecayedCountColumn] {
        var stage = DecayedCountStage(halfLifeMicros: halfLifeMicros, log2: log2)
        var columns: [DecayedCountColumn] = []
        var column = DecayedCountColumn(halfLifeMicros: halfLifeMicros)   // reused, as the reader reuses its batches'
        for start in stride(from: 0, to: objects.count, by: batch) {
            let end = min(start + batch, objects.count)
            objects.withUnsafeBufferPointer { o in
                times.withUnsafeBufferPointer { t in
                    stage.fill(&column, objects: .init(rebasing: o[start..<end]), times: .init(rebasing: t[start..<end]))
                }
            }
            columns.append(column)
        }
        return columns
    }

    @Test(arguments: Clock.allCases)
    func theStageCountsEachOpenAsThePolicysArithmeticDoes(clock: Clock) {
        let reqs = CacheEquivalenceTests.requests(count: 3000, objects: 250, seed: 7, capacity: 20_000)
        let objects = reqs.map { Int32($0.object) }
        #expect(zip(objects, objects.dropFirst()).contains { $0 == $1 }, "no repeated request to check")
        for hours in [24.0, 0.001] {
            let halfLife = hours * 3600e6
            let times = DecayingReplayTests.times(clock, count: reqs.count, halfLifeMicros: halfLife, seed: 3)
            for batch in [1, 7, 3000] {
                let counts = Self.columns(halfLifeMicros: halfLife, objects: objects, times: times, batch: batch)
                #expect(counts.map(\.counts.count) == stride(from: 0, to: objects.count, by: batch).map { min(batch, objects.count - $0) })
                // A stage that computes no log2 (no cell of its half-life takes one): the same counts, every log2 NaN.
                let without = Self.columns(halfLifeMicros: halfLife, objects: objects, times: times, batch: batch, log2: false)
                #expect(without.map(\.counts) == counts.map(\.counts))
                #expect(without.allSatisfy { $0.log2Counts.count == $0.counts.count && $0.log2Counts.allSatisfy(\.isNaN) })
                let flat = counts.flatMap(\.counts), logs = counts.flatMap(\.log2Counts)
                // Written out: a request that repeats the one before opens nothing; an open decays the count to its time
                // (2^(−gap / half-life)) and adds 1.
                var state: [Int32: (count: Double, since: Int)] = [:]
                for k in objects.indices {
                    let o = objects[k], t = times[k]
                    if k == 0 || objects[k - 1] != o {
                        let (c, since) = state[o] ?? (0, 0)
                        state[o] = ((c == 0 ? 0 : t == since ? c : c * exp2(-Double(t - since) / halfLife)) + 1, t)
                    }
                    guard flat[k] == state[o]!.count, logs[k] == log2(flat[k]) else {
                        Issue.record("\(hours) h, \(clock), batches of \(batch): request \(k) counts \(flat[k]), not \(state[o]!.count)")
                        return
                    }
                }
            }
        }
    }

    /// Replays `reqs` three ways in batches of `batch`: computing its own counts, given the stage's for every batch, and
    /// given them for the first batches only (the reader stops its stages when it is the slower side).
    func sameReplays<P: EvictionPolicy>(_ policy: P, frequency: (P) -> DecayedFrequency, _ reqs: [CacheEquivalenceTests.Request],
                                        times: [Int], capacity: Int, batch: Int, _ label: String) {
        let objects = reqs.map { Int32($0.object) }, sizes = reqs.map(\.size)
        let columns = Self.columns(halfLifeMicros: policy.decayedCountHalfLifeMicros!, objects: objects, times: times, batch: batch)
        let withoutLog2 = Self.columns(halfLifeMicros: policy.decayedCountHalfLifeMicros!, objects: objects, times: times, batch: batch, log2: false)
        var own = CacheReplay(capacityBytes: capacity, policy: policy)
        var given = own, givenAtFirst = own, givenNoLog2 = own
        for (b, start) in stride(from: 0, to: objects.count, by: batch).enumerated() {
            let end = min(start + batch, objects.count)
            objects.withUnsafeBufferPointer { o in
                sizes.withUnsafeBufferPointer { s in
                    times.withUnsafeBufferPointer { t in
                        columns[b].counts.withUnsafeBufferPointer { c in
                            columns[b].log2Counts.withUnsafeBufferPointer { l in
                                let (o, s, t) = (UnsafeBufferPointer(rebasing: o[start..<end]), UnsafeBufferPointer(rebasing: s[start..<end]),
                                                 UnsafeBufferPointer(rebasing: t[start..<end]))
                                own.requests(objects: o, sizes: s, times: t)
                                given.requests(objects: o, sizes: s, times: t, counted: (c, l))
                                givenAtFirst.requests(objects: o, sizes: s, times: t, counted: b < 3 ? (c, l) : nil)
                                withoutLog2[b].log2Counts.withUnsafeBufferPointer { nan in
                                    givenNoLog2.requests(objects: o, sizes: s, times: t, counted: (c, nan))
                                }
                            }
                        }
                    }
                }
            }
        }
        #expect(own.counters.evictions > 100 && own.counters.notAdmitted > 0, "\(label): too few evictions or large objects to tell")
        for (other, how) in [(given, "given every count"), (givenAtFirst, "given the first batches' counts"),
                             (givenNoLog2, "given every count without its log2")] {
            #expect(other.counters == own.counters, "\(label), \(how)")
            #expect(other.objects.map(\.resident) == own.objects.map(\.resident), "\(label), \(how)")
            // Every stored count the same, those of objects too large to cache (the replay counts these itself) included.
            let mine = frequency(other.policy).uses, theirs = frequency(own.policy).uses
            #expect(mine.count == theirs.count && mine.indices.allSatisfy { mine[$0] == theirs[$0] }, "\(label), \(how)")
        }
    }

    @Test(arguments: Clock.allCases)
    func aReplayGivenTheCountsEvictsAsOneThatComputesThem(clock: Clock) {
        for capacity in [20_000, 150_000] {
            let reqs = CacheEquivalenceTests.requests(count: 2000, objects: 250, seed: UInt64(capacity), capacity: capacity)
            for hours in [24.0, 0.001] {
                let times = DecayingReplayTests.times(clock, count: reqs.count, halfLifeMicros: hours * 3600e6, seed: 5)
                for batch in [97] {
                    let label = "\(hours) h, \(clock), \(capacity) B, batches of \(batch)"
                    sameReplays(LFUPolicy(halfLifeHours: hours), frequency: \.frequency, reqs, times: times, capacity: capacity, batch: batch, "lfu " + label)
                    sameReplays(CostPolicy(halfLifeHours: hours), frequency: \.frequency, reqs, times: times, capacity: capacity, batch: batch, "cost " + label)
                }
            }
        }
    }

    @Test func onlyPoliciesThatKeepADecayedCountAskForOne() {
        #expect(LFUPolicy(halfLifeHours: 2).decayedCountHalfLifeMicros == 2 * 3600e6)
        #expect(CostPolicy(halfLifeHours: 3).decayedCountHalfLifeMicros == 3 * 3600e6)
        #expect(LRUPolicy().decayedCountHalfLifeMicros == nil && LargestPolicy().decayedCountHalfLifeMicros == nil
                && XNUPolicy().decayedCountHalfLifeMicros == nil && FIFOPolicy().decayedCountHalfLifeMicros == nil)
    }

    /// The reader computes the log2 of a half-life's counts only for a policy that says its score is the count
    /// (`decayingScoreIsItsCount`): `lfu`'s, whose every score the heap of counts takes (keyed by that log2); never `cost`'s,
    /// whose scores (offset 1) it never takes.
    @Test func theLog2IsAskedForExactlyWhereTheHeapOfCountsTakesTheScores() {
        var lfu = LFUPolicy(halfLifeHours: 2), cost = CostPolicy(halfLifeHours: 2)
        #expect(lfu.decayingScoreIsItsCount && !cost.decayingScoreIsItsCount)
        #expect(!LRUPolicy().decayingScoreIsItsCount && !LargestPolicy().decayingScoreIsItsCount)
        for (k, time) in [0, 1_000, 7_200_000_000, 7_200_000_000, 90_000_000_000].enumerated() {
            let app = Int32(k % 2)
            lfu.didOpen(app, at: time)
            cost.didOpen(app, at: time)
            let candidate = KillCandidate(app: app)
            let h = 2 * 3600e6
            #expect(lfu.decayingScore(candidate).map { DecayingCountHeap.accepts($0, halfLife: h) } == true, "lfu, open \(k)")
            #expect(cost.decayingScore(candidate).map { DecayingCountHeap.accepts($0, halfLife: h) } == false, "cost, open \(k)")
        }
    }
}
