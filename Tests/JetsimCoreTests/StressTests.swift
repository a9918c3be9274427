@testable import JetsimCore
import Testing

/// Random event streams, extreme values included, never break an invariant or trap.
@Suite struct StressTests {
    static func devices() -> [Device] {
        var small = testDevice(ramMB: 1000, limitMB: 600)
        small.compressor = .init(enabled: true, ratioMilli: 2500, poolLimitBytes: mb(150))
        small.freezer.enabled = true
        small.freezer.maxFrozen = 2
        var soft = testDevice(ramMB: 2000, limitMB: 500)
        soft.appLimitFatal = false
        soft.compressor = .init(enabled: true, ratioMilli: 1500, poolLimitBytes: mb(400))
        var plain = testDevice()
        plain.pageSize = 12 * 1024      // not a power of two
        return [small, soft, plain, DevicePresets.named("iphone-6")!]
    }

    static func apps() -> [AppProfile] {
        (0..<9).map { k in
            var p = AppProfile(name: "app\(k)", dirtyBytes: mb(20 + 40 * k))
            p.growthBytesPerMinute = mb(k)
            p.cacheBytes = mb(5 * k)
            p.purgeableBytes = mb(3 * k)
            p.backingStoreBytes = mb(10)
            p.imageCacheBytes = mb(k)
            p.fileBackedBytes = mb(15)
            p.backgroundModes = k % 3 == 0 ? [.audio] : k % 3 == 1 ? [.location, .fetch] : []
            p.exitsOnSuspend = k == 8
            p.backgroundTaskMicros = k % 2 == 0 ? sec(10 * k) : 0
            p.endsTaskOnExpiry = k % 4 != 1
            p.coldLaunchMillis = k == 7 ? 25_000 : 300 * (k + 1)
            p.compressRatioMilli = k == 5 ? 1000 : nil
            return p
        }
    }

    @Test(arguments: 0..<4)
    func randomTracesKeepEveryInvariant(deviceIndex: Int) throws {
        var rng = SplitMix64(seed: UInt64(deviceIndex + 1) * 7919)
        var options = SimulationOptions()
        options.maxSamples = 5_000
        var h = try Harness(device: Self.devices()[deviceIndex], apps: Self.apps(), policy: XNUPolicy(), options: options)
        var t = 0
        let kinds = TraceEventKind.allCases
        for step in 0..<4000 {
            // Mostly small steps, sometimes long gaps, once an enormous one.
            t += step == 3000 ? 1 << 59 : Int.random(in: 0...(rng.next() % 10 == 0 ? sec(900) : sec(20)), using: &rng)
            let kind = kinds[Int(rng.next() % UInt64(kinds.count))]
            let app = Int32(rng.next() % 9)
            var value = 0
            switch kind.valueKind {
            case .none: break
            case .seconds: value = rng.next() % 50 == 0 ? 1 << 60 : Int.random(in: 0...sec(400), using: &rng)
            case .mode: value = Int([BackgroundModes.audio, .location, .voip][Int(rng.next() % 3)].rawValue)
            case .signedMebibytes: value = rng.next() % 100 == 0 ? 1 << 50 : Int.random(in: -mb(300)...mb(300), using: &rng)
            }
            h.sim.process(TraceEvent(time: t, app: kind == .home && rng.next() % 2 == 0 ? TraceEvent.noApp : app, kind: kind, value: value))
            let problems = h.sim.invariantViolations()
            #expect(problems.isEmpty, "step \(step): \(problems)")
            if !problems.isEmpty { break }
        }
        let r = h.finish()
        #expect(r.events == 4000)
        #expect(r.samplesTruncated && r.samples.count == 5_000)   // the 2^59 µs gap outlasts the sample cap
        #expect(r.launches == r.coldLaunches + r.resumes)
        #expect(r.kills.count == r.totalKills)
    }

    /// The idle band's order (`idleOrder`, which gives the reaper its oldest app, the freezer its candidate, and
    /// idle-exit and sustained pressure whether anyone is idle) stays exactly the resident idle apps in band-entry order,
    /// its first the earliest entrant, through random traces with the reaper and the freezer on; also with a policy
    /// whose aging band is the idle band, where an app turns idle without a new band entry (keeping its place).
    @Test(arguments: [false, true])
    func theIdleOrderIsTheIdleBandInEntryOrder(agingInIdleBand: Bool) throws {
        var rng = SplitMix64(seed: agingInIdleBand ? 31 : 17)
        var bands = BandTable()
        if agingInIdleBand { bands.aging = bands.idle }
        var device = Self.devices()[0]   // compressor, freezer (at most two frozen), reaper
        device.reaper.minIdleAgeMicros = sec(60)
        var h = try Harness(device: device, apps: Self.apps(), policy: XNUPolicy(bands: bands))
        var t = 0, longestOrder = 0, joinsWithoutEntry = 0
        for _ in 0..<3000 {
            t += Int.random(in: 0...(rng.next() % 10 == 0 ? sec(600) : sec(20)), using: &rng)
            let app = Int32(rng.next() % 9)
            let kind: TraceEventKind = [.open, .open, .home, .bgLaunch, .quit][Int(rng.next() % 5)]
            let before = members(of: h.sim.idleOrder), sequenceBefore = h.sim.entrySequence
            h.sim.process(TraceEvent(time: t, app: app, kind: kind, value: kind == .bgLaunch ? sec(30) : 0))
            let listed = members(of: h.sim.idleOrder)
            let idle = (0..<9).filter { h.sim.apps[$0].priorityClass == .idle }
                .sorted { h.sim.apps[$0].bandEntrySequence < h.sim.apps[$1].bandEntrySequence }
            #expect(listed.map(Int.init) == idle)
            #expect(idle.allSatisfy { h.sim.apps[$0].state == .suspended })
            #expect(h.sim.oldestIdleEntry == (idle.map { h.sim.apps[$0].bandEntryTime }.min() ?? .max))
            longestOrder = max(longestOrder, listed.count)
            // A newcomer numbered before this step turned idle without entering a band anew.
            joinsWithoutEntry += listed.filter { !before.contains($0) && h.sim.apps[Int($0)].bandEntrySequence < sequenceBefore }.count
        }
        let r = h.finish()
        #expect(longestOrder >= 3, "the trace should keep several apps idle at once")
        #expect(r.killsByReason[.longIdleExit, default: 0] > 0 && r.killsByReason[.idleExit, default: 0] > 0 && r.freezes > 0)
        // With its own aging band every app enters the idle band anew; sharing it, an aging app turns idle in place.
        #expect(agingInIdleBand ? joinsWithoutEntry > 0 : joinsWithoutEntry == 0)
    }

    /// The ranked candidates are brought up to date only when a kill decision reads them (`rankPending`); bringing them
    /// up to date after every event instead changes no decision, and each time they are exactly the resident candidates
    /// in key order. Random traces on a loaded device with the freezer and the reaper, for `xnu` and `lru`.
    @Test(arguments: [false, true])
    func rankedCandidatesUpdatedLazilyDecideAsEagerly(lru: Bool) throws {
        func run<P: EvictionPolicy>(_ policy: P, eager: Bool) throws -> (SimulationResult, sawPending: Bool) {
            var rng = SplitMix64(seed: lru ? 5 : 3)
            var h = try Harness(device: Self.devices()[0], apps: Self.apps(), policy: policy)
            var t = 0, sawPending = false
            for _ in 0..<3000 {
                t += Int.random(in: 0...(rng.next() % 10 == 0 ? sec(600) : sec(20)), using: &rng)
                let app = Int32(rng.next() % 9)
                let kind: TraceEventKind = [.open, .open, .home, .bgLaunch, .bgTask, .quit][Int(rng.next() % 6)]
                h.sim.process(TraceEvent(time: t, app: app, kind: kind, value: kind == .bgLaunch || kind == .bgTask ? sec(30) : 0))
                sawPending = sawPending || h.sim.rankPending.count > 0
                guard eager else { continue }
                h.sim.updateRankedCandidates()
                var keyed: [(app: Int32, key: RankingKey)] = []
                for i in 0..<9 where h.sim.apps[i].state.isResident && (Int32(i) != h.sim.foreground || h.sim.foregroundIsCandidate) {
                    keyed.append((Int32(i), policy.rankingKey(h.sim.rankingInputs(i))!))
                }
                keyed.sort { a, b in a.key != b.key ? a.key < b.key : a.app < b.app }
                #expect(members(of: h.sim.rankedCandidates!) == keyed.map(\.app))
            }
            return (h.finish(), sawPending)
        }
        let (lazy, pending) = lru ? try run(LRUPolicy(), eager: false) : try run(XNUPolicy(), eager: false)
        let (eager, _) = lru ? try run(LRUPolicy(), eager: true) : try run(XNUPolicy(), eager: true)
        #expect(pending, "some changes should wait for a decision")
        #expect(lazy.totalKills > 100 && lazy.kills == eager.kills && lazy.killsByReason == eager.killsByReason)
        #expect(lazy.coldLaunches == eager.coldLaunches && lazy.freezes == eager.freezes)
    }

    @Test func theSameEventsGiveTheSameResult() throws {
        func run() throws -> SimulationResult {
            var rng = SplitMix64(seed: 42)
            var h = try Harness(device: Self.devices()[0], apps: Self.apps(), policy: XNUPolicy())
            var t = 0
            for _ in 0..<2000 {
                t += Int.random(in: 0...sec(30), using: &rng)
                let kind = [TraceEventKind.open, .open, .home, .alloc, .bgTask, .bgLaunch][Int(rng.next() % 6)]
                let value = kind == .alloc ? Int.random(in: -mb(50)...mb(80), using: &rng) : Int.random(in: 0...sec(60), using: &rng)
                h.sim.process(TraceEvent(time: t, app: Int32(rng.next() % 9), kind: kind, value: value))
            }
            return h.finish()
        }
        let a = try run(), b = try run()
        #expect(a.kills == b.kills && a.samples == b.samples && a.apps == b.apps)
        #expect(a.totalLaunchMillis == b.totalLaunchMillis && a.residentAppMicros == b.residentAppMicros)
    }
}
