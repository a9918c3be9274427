import Foundation
import JetsimCore
@testable import JetsimExperiment
import JetsimIO
import Testing

/// Issue 21: a grid's cells have stable ids, and shards partition them.
@Suite struct GridPartitionTests {
    func configuration(traces: Int, devices: Int, policies: Int, seeds: Int) -> GridConfiguration {
        GridConfiguration(traces: (0..<traces).map { "t\($0).csv" }, apps: "apps.csv", format: "jetsim", csvFields: nil, workloadSeeds: nil,
                          generate: nil, policies: (0..<policies).map { "p\($0)" }, deviceNames: (0..<devices).map { "d\($0)" },
                          devices: (0..<devices).map { _ in DevicePresets.all[0] }, deviceAdjustments: [], seeds: (0..<seeds).map { UInt64(10 + $0) },
                          warmupMicros: 0, intervalMicros: 0, sampleIntervalMicros: 60_000_000, baselinePolicy: 0, chartCell: 0, policiesDirectory: nil)
    }

    @Test func cellIdsCountWorkloadsOutermostThenDevicesPoliciesAndSeeds() {
        let c = configuration(traces: 3, devices: 2, policies: 4, seeds: 5)
        #expect(c.cellCount == 120)
        var id = 0
        for w in 0..<3 { for d in 0..<2 { for p in 0..<4 { for s in 0..<5 {
            #expect(c.cell(id) == GridConfiguration.Cell(workload: w, device: d, policy: p, seed: UInt64(10 + s)))
            id += 1
        } } } }
        #expect(c.describe(37) == "cell 37 (trace t0.csv, d1, p3, seed 12)")
    }

    @Test(arguments: [(1, 1), (5, 1), (5, 5), (5, 8), (32, 3), (120, 7), (1000, 64), (7, 100)])
    func shardsCoverEveryCellOnceInRunsThatDifferByAtMostOne(cells: Int, shards: Int) {
        let c = configuration(traces: cells, devices: 1, policies: 1, seeds: 1)
        var next = 0
        var sizes: [Int] = []
        for k in 0..<shards {
            let range = c.shard(k, of: shards)
            #expect(range.lowerBound == next)
            next = range.upperBound
            sizes.append(range.count)
        }
        #expect(next == cells)
        #expect((sizes.max() ?? 0) - (sizes.min() ?? 0) <= 1)
    }

    @Test func theRerunCommandNamesTheMissingShardAndItsDirectory() throws {
        let c = configuration(traces: 1, devices: 1, policies: 2, seeds: 2)
        let m = try ShardFiles.Manifest(configuration: c, shard: 2, of: 4, workloads: [], inputHashes: [:], hasChart: false,
                                        command: ["jetsim", "compare", "--trace", "my trace.csv", "--shard", "2/4", "--out", "/runs/sweep/2"],
                                        out: "/runs/sweep/2")
        #expect(ShardMerge.rerunCommand(m, shard: 0) == "jetsim compare --trace 'my trace.csv' --shard 0/4 --out /runs/sweep/0")
        var other = m
        other.command = ["jetsim", "compare", "--shard=2/4", "--out=/elsewhere"]
        other.out = "/elsewhere"
        #expect(ShardMerge.rerunCommand(other, shard: 1) == "jetsim compare --shard=1/4 --out=/elsewhere # with --out naming shard 1's directory")
    }

    @Test func theConfigurationHashChangesWithWhatDecidesResultsOnly() throws {
        let a = configuration(traces: 1, devices: 1, policies: 2, seeds: 2)
        var b = a
        #expect(try a.sha256 == b.sha256)
        b.devices[0].freezer.enabled.toggle()
        #expect(try a.sha256 != b.sha256)
        var c = a
        c.seeds = [10, 12]
        #expect(try a.sha256 != c.sha256)
    }
}

/// `jetsim validate`'s probes read the state at snapshot times and change no result.
@Suite struct ResidencyProbeTests {
    @Test func probingARunChangesNothingInIt() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let catalog = try CatalogFile.read(path: root + "/Examples/day/apps.csv")
        let events = try TraceReader.readAll(path: root + "/Examples/day/trace.csv", catalog: catalog, threads: 1)
        let device = try DeviceSource.resolve("iphone-x")
        // A probe of every app every 7 minutes, and one between each pair of events.
        var tasks: [SnapshotsFile.Task] = []
        for t in stride(from: events[0].time, through: events[events.count - 1].time, by: 420_000_000) {
            for app in 0..<Int32(catalog.count) { tasks.append(.init(time: t, app: app, rank: Int(app) + 1, alive: true, task: "\(app)")) }
        }
        let options = SimulationOptions()
        let (score, probed) = ResidencyValidation.score(policy: LRUPolicy(), device: device, catalog: catalog, events: events, tasks: tasks,
                                                        options: options)
        let plain = runCell(LRUPolicy(), device: device, catalog: catalog, events: events, options: options, future: nil, keepKillsAndSamples: false)
        // Apps not yet opened at a probe are unmodelled, not scored.
        #expect(score.tasks + score.unmodelledTasks == tasks.count && score.unmodelledTasks > 0 && score.tasks > tasks.count / 2)
        #expect(score.simulatedDead > 0 && score.simulatedDead < score.tasks)
        let labels = RunLabels(trace: "t", appNames: [])
        #expect(ReportFiles.summaryRow(probed, labels: labels) == ReportFiles.summaryRow(plain, labels: labels))
        #expect(probed.apps == plain.apps)
    }
}
