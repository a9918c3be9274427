import Foundation
import JetsimCore
import JetsimIO
@testable import JetsimWorkloads
import Testing

@Suite struct GeneratorTests {
    func options(users: Int = 1, days: Int = 1, apps: Int = 30, seed: UInt64 = 1) -> WorkloadOptions {
        var o = WorkloadOptions()
        o.users = users
        o.days = days
        o.apps = apps
        o.seed = seed
        return o
    }

    @Test func theSameSeedGivesTheSameWorkloadAndAnotherSeedAnother() {
        let a = WorkloadGenerator(options: options(seed: 5)), b = WorkloadGenerator(options: options(seed: 5))
        #expect(a.catalog == b.catalog)
        #expect(a.events(user: 0, startDay: 0) == b.events(user: 0, startDay: 0))
        let c = WorkloadGenerator(options: options(seed: 6))
        #expect(a.events(user: 0, startDay: 0) != c.events(user: 0, startDay: 0))
        #expect(a.events(user: 0, startDay: 0) != a.events(user: 1, startDay: 0))   // users differ
    }

    @Test func eventsAreInTimeOrderAndWellFormed() {
        let g = WorkloadGenerator(options: options(days: 3))
        let events = g.events(user: 0, startDay: 2)
        #expect(!events.isEmpty)
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.timeMillis <= $1.timeMillis })
        #expect(events.first.map { $0.timeMillis >= 2 * 86_400_000 } == true)
        #expect(events.allSatisfy { $0.kind == .home || ($0.app >= 0 && Int($0.app) < g.catalog.count) })
    }

    @Test func everyUserStaysWithinTheirDays() {
        for seed in 1...20 {
            let g = WorkloadGenerator(options: options(days: 2, seed: UInt64(seed)))
            let events = g.events(user: 0, startDay: 4)
            #expect(events.allSatisfy { $0.timeMillis >= 4 * 86_400_000 && $0.timeMillis < 6 * 86_400_000 }, "seed \(seed)")
        }
    }

    /// Engagements (an open until the next open or home) follow the LiveLab targets: 50 % under 30 s, 90 % under 4 min.
    @Test func engagementLengthsHitTheirTargetQuantiles() {
        let g = WorkloadGenerator(options: options(users: 4, days: 5))
        var lengths: [Int] = []
        for user in 0..<4 {
            var openedAt: Int?
            for e in g.events(user: user, startDay: 0) where e.kind == .open || e.kind == .home {
                if let t = openedAt { lengths.append(e.timeMillis - t) }
                openedAt = e.kind == .open ? e.timeMillis : nil
            }
        }
        lengths.sort()
        #expect(lengths.count > 1500)
        let median = Double(lengths[lengths.count / 2]) / 1000, p90 = Double(lengths[lengths.count * 9 / 10]) / 1000
        #expect(abs(median - 30) / 30 < 0.15, "median \(median) s")
        #expect(abs(p90 - 240) / 240 < 0.15, "p90 \(p90) s")
    }

    @Test func popularityIsSkewedAndNightsAreQuiet() {
        let g = WorkloadGenerator(options: options(days: 10))
        let events = g.events(user: 0, startDay: 0)
        var opens = [Int](repeating: 0, count: g.catalog.count)
        var byHour = [Int](repeating: 0, count: 24)
        for e in events where e.kind == .open {
            opens[Int(e.app)] += 1
            byHour[e.timeMillis / 3_600_000 % 24] += 1
        }
        let sorted = opens.sorted(by: >)
        #expect(sorted[0] > 3 * sorted[9])                                // Zipf: the favourite dwarfs the tenth
        let night: Int = byHour[1...4].reduce(0, +), evening: Int = byHour[18...21].reduce(0, +)
        #expect(night * 10 < evening)   // 1–5 h against 18–22 h
    }

    @Test func backgroundBehaviourAppears() {
        let events = WorkloadGenerator(options: options(days: 7, apps: 40)).events(user: 0, startDay: 0)
        // Not `alloc` (the catalog's growth stands for it) nor `finish` (Android's Back: importers of Android data write it).
        for kind in TraceEventKind.allCases where kind != .alloc && kind != .finish {
            #expect(events.contains { $0.kind == kind }, "no \(kind.traceName)")
        }
        // Every mode_start of audio is matched by a later stop.
        #expect(events.filter { $0.kind == .modeStart }.count == events.filter { $0.kind == .modeStop }.count)
    }

    @Test func catalogFollowsTheCategorySharesAndRoundTripsExactly() throws {
        var random = SeededRandom(seed: 3)
        let catalog = AppCategory.catalog(count: 100, random: &random)
        for category in AppCategory.all {
            let n = catalog.filter { $0.name.hasPrefix(category.name + "-") }.count
            #expect(n == Int((category.share * 100).rounded()), "\(category.name)")
        }
        let dir = NSTemporaryDirectory() + "jetsim-gen-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try WorkloadFiles.catalogCSV(catalog).write(toFile: dir + "/apps.csv", atomically: true, encoding: .utf8)
        #expect(try CatalogFile.read(path: dir + "/apps.csv").profiles == catalog)
    }
}

@Suite struct TraceStatisticsTests {
    @Test func knownAnswers() throws {
        // Opens A B A C B A (ids 0 1 0 2 1 0): reuse distances A→1 ({B}), B→2 ({A, C}), A→2 ({C, B}); three first opens.
        let t = 3_600_000_000
        let opens: [(Int, Int32)] = [(0, 0), (10, 1), (20, 0), (t + 5, 2), (t + 6, 1), (2 * t + 1, 0)]
        var s = TraceStatistics()
        for (time, app) in opens { s.add(TraceEvent(time: time, app: app, kind: .open), user: "u1") }
        s.add(TraceEvent(time: 2 * t + 2, app: -1, kind: .home), user: "u2")
        let openIndex = Int(TraceEventKind.open.rawValue), homeIndex = Int(TraceEventKind.home.rawValue)
        #expect(s.events == 7)
        #expect(s.eventsByKind[openIndex] == 6)
        #expect(s.eventsByKind[homeIndex] == 1)
        #expect(s.firstOpens == 3)
        #expect(s.reuseDistances == [1: 1, 2: 2])
        #expect(s.bucketCounts() == [0, 1, 2, 0, 0, 0, 0, 0, 0, 0])
        #expect(s.reuseDistancePercentile(50) == 2)
        #expect(s.hours.map(\.distinctApps) == [2, 2, 1])
        #expect(s.hours.map(\.opens) == [3, 2, 1])
        #expect(s.users == ["u1", "u2"])
        #expect(s.spanMicros == 2 * t + 2)
        #expect(s.topApps(2).map(\.app) == [0, 1])
    }

    @Test func reuseDistancesMatchABruteForceCount() {
        var random = SeededRandom(seed: 9)
        var s = TraceStatistics()
        var history: [Int32] = []
        var expected: [Int: Int] = [:]
        for k in 0..<3000 {                        // enough opens to grow the tree several times
            let app = Int32(random.integer(in: 0...40))
            if let last = history.lastIndex(of: app) {
                expected[Set(history[(last + 1)...]).count, default: 0] += 1
            }
            history.append(app)
            s.add(TraceEvent(time: k, app: app, kind: .open))
        }
        #expect(s.reuseDistances == expected)
    }
}
