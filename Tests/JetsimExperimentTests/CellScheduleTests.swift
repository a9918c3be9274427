@testable import JetsimExperiment
@testable import JetsimIO
import JetsimCore
import Testing

/// Issue 23: a one-pass grid's cells are split over the threads by the time each takes, not in contiguous groups.
@Suite struct CellScheduleTests {
    static func loads(_ groups: [[Int]], _ costs: [UInt64]) -> [UInt64] { groups.map { $0.reduce(0) { $0 + costs[$1] } } }

    static func checkPartition(_ groups: [[Int]], cells: Int, threads: Int) {
        #expect(groups.count == threads)
        #expect(groups.flatMap { $0 }.sorted() == Array(0..<cells), "every cell exactly once")
        #expect(groups.allSatisfy { $0 == $0.sorted() }, "each group in cell order")
    }

    @Test func aPolicyByPolicyGridsHeavyCellsAreSpreadOverTheThreads() {
        // cachesim's order: lru, fifo, lfu, random, largest, each at three capacities; lfu and largest cost the most.
        let costs: [UInt64] = [2, 2, 2, 2, 2, 2, 14, 14, 14, 1, 1, 1, 12, 12, 12]
        let contiguous = CellSchedule(cells: costs.count, threads: 2).groups
        let split = CellSchedule.split(costs: costs, threads: 2)
        Self.checkPartition(split, cells: costs.count, threads: 2)
        let (before, after) = (Self.loads(contiguous, costs), Self.loads(split, costs))
        #expect(before.max()! == 67)
        #expect(after.max()! <= 47, "\(split): \(after)")   // total 93: the best split is 47 / 46
        #expect(after.max()! - after.min()! <= costs.max()!)
    }

    @Test func cellsOfNoMeasurableCostAreDealtRoundTheThreads() {
        #expect(CellSchedule.split(costs: Array(repeating: 0, count: 7), threads: 3) == [[0, 3, 6], [1, 4], [2, 5]])
        #expect(CellSchedule.split(costs: [0, 5, 0, 0], threads: 2) == [[1], [0, 2, 3]])
    }

    @Test func everySplitIsAPartitionWithinOneCellOfEven() {
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<500 {
            x = x &* 6364136223846793005 &+ 1442695040888963407
            let cells = Int(x >> 59) + 1, threads = Int((x >> 40) % 5) + 1
            let costs = (0..<cells).map { c -> UInt64 in (x >> UInt64(c % 40)) % (c % 3 == 0 ? 1000 : 30) }
            let split = CellSchedule.split(costs: costs, threads: threads)
            Self.checkPartition(split, cells: cells, threads: threads)
            let loads = Self.loads(split, costs)
            // Graham's bound for longest-first: the last cell placed on the fullest thread went to the emptiest one.
            #expect(loads.max()! - loads.min()! <= costs.max()!, "\(costs) over \(threads): \(split)")
            #expect(split == CellSchedule.split(costs: costs, threads: threads), "the same costs give the same split")
        }
    }

    @Test func theCellsAreSplitAgainAfterBatchesOneTwoFourAndEightFromTheTimeSoFar() {
        var schedule = CellSchedule(cells: 4, threads: 2)
        #expect(schedule.groups == [[0, 1], [2, 3]])
        func record(_ times: [UInt64]) { times.withUnsafeBufferPointer { schedule.record(batch: $0) } }
        record([9, 8, 1, 1])                        // batch 1: split (9; 8, then 1 on the emptier, then 1 on the first of two equal)
        #expect(schedule.groups == [[0, 3], [1, 2]])
        record([0, 0, 20, 0])                       // batch 2: split by the sums 9, 8, 21, 1
        #expect(schedule.groups == [[2], [0, 1, 3]])
        record([0, 100, 0, 0])                      // batch 3: kept
        #expect(schedule.groups == [[2], [0, 1, 3]])
        record([0, 0, 0, 0])                        // batch 4: split by 9, 108, 21, 1
        #expect(schedule.groups == [[1], [0, 2, 3]])
        for _ in 5...7 { record([50, 0, 0, 0]) }    // batches 5 to 7: kept
        #expect(schedule.groups == [[1], [0, 2, 3]])
        record([0, 0, 0, 0])                        // batch 8: split by 159, 108, 21, 1
        #expect(schedule.groups == [[0], [1, 2, 3]])
        #expect(schedule.batches == 8 && schedule.nanoseconds == [159, 108, 21, 1])
    }
}

/// Issue 23: cells that move between threads from batch to batch count what they count on one thread.
@Suite struct CacheReplayRunnerThreadTests {
    static func rows(threads: Int, decayedCountsAhead: Bool = false) throws -> [CacheReport.Row] {
        let capacities = [5_000, 20_000, 60_000], policies = ["lru", "fifo", "lfu:half_life_h=0.001", "random", "largest", "cost"]
        let plan = ExperimentPlan(configuration: GridConfiguration(
            traces: ["t"], apps: nil, format: "libcachesim", csvFields: nil, workloadSeeds: nil, generate: nil, policies: policies,
            deviceNames: capacities.map { "cache:\($0)" }, devices: capacities.map { Device.cache(capacityBytes: $0) }, deviceAdjustments: [],
            seeds: [5], warmupMicros: 0, intervalMicros: 0, sampleIntervalMicros: 0, baselinePolicy: 0, chartCell: 0, policiesDirectory: nil),
            generator: nil)
        var runner = try CacheReplayRunner(plan: plan, cells: policies.indices.flatMap { p in capacities.indices.map { $0 * policies.count + p } })
        // 20 batches of 60 requests: the schedule splits the cells again after batches 1, 2, 4, 8 and 16.
        var x: UInt64 = 11, batches: [RequestBatch] = []
        for b in 0..<20 {
            var batch = RequestBatch(capacity: 60)
            for r in 0..<60 {
                x = x &* 6364136223846793005 &+ 1442695040888963407
                let object = Int32((x >> 33) % 30) * Int32((x >> 50) % 3 + 1) % 67
                batch.append(object, size: 500 + Int(object) * 41, time: (b * 60 + r) * 1_000_000)
            }
            batches.append(batch)
        }
        var requests = 0
        // `lfu`'s and `cost`'s half-lives (0.001 h and the default 24 h): their counts computed ahead once each, when asked,
        // the log2 for `lfu`'s heap only.
        #expect(runner.decayedCountNeeds == [.init(halfLifeMicros: 3.6e6, log2: true), .init(halfLifeMicros: 24 * 3600e6, log2: false)])
        try runner.replay(ReadAhead(kept: batches, decayedCounts: decayedCountsAhead ? runner.decayedCountNeeds : []), threads: threads) {
            requests += $0
        }
        #expect(requests == 1_200)
        return runner.rows
    }

    @Test func cellsMovingBetweenThreadsCountWhatOneThreadCounts() throws {
        let one = try Self.rows(threads: 1)
        #expect(one.count == 18 && one.allSatisfy { $0.counters.requests == 1_200 && $0.counters.misses > 0 })
        for threads in [2, 7] {
            let many = try Self.rows(threads: threads)
            #expect(many.map(\.policy) == one.map(\.policy) && many.map(\.capacityBytes) == one.map(\.capacityBytes))
            #expect(many.map(\.counters) == one.map(\.counters), "\(threads) threads")
        }
    }

    /// The reader's decayed counts (`ReadAhead(kept:decayedCounts:)`) change no cell's counts, on one thread or several.
    @Test func decayedCountsComputedAheadCountWhatEachCellCounts() throws {
        let own = try Self.rows(threads: 1)
        for threads in [1, 2] {
            #expect(try Self.rows(threads: threads, decayedCountsAhead: true).map(\.counters) == own.map(\.counters), "\(threads) threads")
        }
    }
}
