@testable import JetsimCore
import Testing

/// The kernel's response in order: purge, warnings, kills (xnu-jetsam.md §2, §3, §6).
@Suite struct PressureResponseTests {
    func harness(_ apps: [AppProfile], device: Device = testDevice(limitMB: 2000)) throws -> Harness<XNUPolicy> {
        try Harness(device: device, apps: apps, policy: XNUPolicy())
    }

    /// Compressor on (so purging raises available memory) but with no room, so only purges and kills help.
    func purgingDevice() -> Device {
        var d = testDevice(limitMB: 2000)
        d.compressor = .init(enabled: true, ratioMilli: 2000, poolLimitBytes: 0)
        return d
    }

    @Test func purgingTheVictimAvoidsTheKill() throws {
        var h = try harness([bareApp("v", dirtyMB: 100) { $0.purgeableBytes = mb(100) }, bareApp("big", dirtyMB: 720)],
                            device: purgingDevice())
        h.open("v", at: 0)
        h.home(at: 10)
        h.open("big", at: 20)   // available 80 MB < idle 100: v is the idle-exit victim, but its unripe
                                // volatile 100 MB, purged first, lifts available to 180 ≥ soft 150
        #expect(h.state("v") == .suspended)
        let r = h.finish()
        #expect(r.killsAvoidedByPurge == 1)
        #expect(r.totalKills == 0)
        #expect(r.purgedBytes == mb(100))
    }

    @Test func withoutPurgeableMemoryTheVictimIsKilled() throws {
        var h = try harness([bareApp("v", dirtyMB: 200), bareApp("big", dirtyMB: 720)], device: purgingDevice())
        h.open("v", at: 0)
        h.home(at: 10)
        h.open("big", at: 20)
        #expect(h.state("v") == .notRunning)
        let r = h.finish()
        #expect(r.killsByReason[.idleExit] == 1 && r.killsAvoidedByPurge == 0)
    }

    @Test func ripeVolatileMemoryIsPurgedBeforeAnyKillDecision() throws {
        var h = try harness([bareApp("v", dirtyMB: 100) { $0.purgeableBytes = mb(100) }, bareApp("big", dirtyMB: 720)],
                            device: purgingDevice())
        h.open("v", at: 0)
        h.home(at: 10)
        h.open("big", at: 100)   // v's volatile memory has ripened: the pressure purge takes it
        let r = h.finish()
        #expect(r.purgedBytes == mb(100) && r.killsAvoidedByPurge == 0 && r.totalKills == 0)
    }

    @Test func belowTheSoftThresholdVolatileMemoryIsPurgedWhenItRipensWithoutAnEventThen() throws {
        var options = SimulationOptions()
        options.sampleIntervalMicros = sec(1)
        var h = try Harness(device: purgingDevice(),
                            apps: [bareApp("v", dirtyMB: 100) { $0.purgeableBytes = mb(100) }, bareApp("big", dirtyMB: 670)],
                            policy: XNUPolicy(), options: options)
        h.open("v", at: 0)
        h.home(at: 10)          // v's 100 MB of purgeable memory is volatile from 10 s, ripe from 40 s
        h.open("big", at: 20)   // available 130 MB: below soft (150), above idle (100); nothing to compress
        h.event(45, .alloc, "big", value: 0)
        let r = h.finish()
        let sample = { (s: Int) in r.samples.first { $0.time == sec(s) } }
        // The compressor is on (if empty): the level follows its share, not available memory (vm_pageout.c:10020).
        #expect(sample(39)?.availableBytes == mb(130) && sample(39)?.pressure == .normal)
        #expect(sample(40)?.availableBytes == mb(230) && sample(40)?.pressure == .normal)
        #expect(r.purgedBytes == mb(100) && r.totalKills == 0)
    }

    @Test func idleExitTakesOnlyTheIdleBand() throws {
        var h = try harness([bareApp("worker", dirtyMB: 150), bareApp("big", dirtyMB: 770)])
        h.open("worker", at: 0)
        h.bgTask("worker", seconds: 25, at: 1)
        h.open("big", at: 2)     // available 80 MB: below idle, above critical (50)
        #expect(h.state("worker") == .background)   // band 40: not an idle-exit candidate
        #expect(h.finish().totalKills == 0)
    }

    /// One walk over every band (`memorystatus_kill_top_process`, kern_memorystatus.c:6452; max band
    /// `JETSAM_PRIORITY_MAX` for page shortage, 4665–4666): the foreground app (band 100) goes before an audio app
    /// (band 120). The engine used to offer the foreground app only when nothing else could go.
    @Test func belowCriticalOneWalkOverEveryBandTakesTheForegroundBeforeAudio() throws {
        var h = try harness([
            bareApp("audio", dirtyMB: 100) { $0.backgroundModes = [.audio] },
            bareApp("worker", dirtyMB: 100),
            bareApp("fg", dirtyMB: 600),
        ])
        h.open("audio", at: 0)
        h.mode("audio", .audio, start: true, at: 1)
        h.open("worker", at: 2)
        h.bgTask("worker", seconds: 100, at: 3)
        h.open("fg", at: 4)           // 800 MB used, available 200 MB
        h.alloc("fg", mb: 180, at: 5) // available 20 MB < critical 50 MB: the band-40 worker goes first
        #expect(h.state("worker") == .notRunning)
        #expect(h.state("audio") == .background)
        h.alloc("fg", mb: 100, at: 6) // again: band 100 comes before band 120
        #expect(h.state("fg") == .notRunning)
        #expect(h.state("audio") == .background)
        let r = h.finish()
        #expect(r.kills.map { h.catalog.profiles[Int($0.app)].name } == ["worker", "fg"])
        #expect(r.kills.allSatisfy { $0.reason == .vmPageShortage })
        #expect(r.userVisibleKills == 2)
        #expect(r.oomEvents == 0)
    }

    @Test func nothingKillableIsAnOutOfMemoryEventNotACrash() throws {
        struct Refuses: EvictionPolicy {
            var descriptor: PolicyDescriptor { PolicyDescriptor(name: "refuses") }
            func band(for priorityClass: PriorityClass) -> Int { BandTable().band(for: priorityClass) }
            mutating func selectVictim(among candidates: [KillCandidate], context: KillContext) -> Int? { nil }
        }
        var h = try Harness(device: testDevice(limitMB: 2000), apps: [bareApp("fg", dirtyMB: 900)], policy: Refuses())
        h.open("fg", at: 0)
        h.alloc("fg", mb: 80, at: 1)
        h.alloc("fg", mb: 10, at: 2)     // the same episode: counted once
        #expect(h.state("fg") == .active)
        let r = h.finish()
        #expect(r.oomEvents == 1 && r.totalKills == 0)
    }

    @Test func pressureLevelsUseHysteresisOnAvailableMemory() throws {
        var h = try harness([bareApp("fg", dirtyMB: 860)])
        h.open("fg", at: 0)                       // available 140 < soft 150
        #expect(h.sim.pressureLevel == .warning)
        h.event(1, .alloc, "fg", value: -mb(20))  // 160: above soft, but not by 20 %
        #expect(h.sim.pressureLevel == .warning)
        h.event(2, .alloc, "fg", value: -mb(30))  // 190 ≥ 180
        #expect(h.sim.pressureLevel == .normal)
        let r = h.finish()
        #expect(r.microsAtWarning == sec(2))
    }

    /// With the compressor on, the level follows the share of non-compressed pages in `AVAILABLE_MEMORY`, the
    /// compressor counted by the pages it *occupies* (vm_pageout.c:10000–10064, vm_page.h:165, 1270–1271): warning
    /// below 50 %, normal above 60 %. Available memory below the soft threshold does not set it. (The engine used to
    /// weigh the compressor's uncompressed bytes and also enter warning below the soft threshold: critical here.)
    @Test func pressureLevelsFollowTheNonCompressedShareWithHysteresis() throws {
        var device = testDevice(limitMB: 2000)
        device.compressor = .init(enabled: true, ratioMilli: 2000, poolLimitBytes: mb(1000))
        device.reaper.enabled = false
        let names = ["a", "b", "c", "d", "e", "f"]
        var h = try harness(names.map { bareApp($0, dirtyMB: 250) }, device: device)
        for (k, n) in names.enumerated() { h.open(n, at: Double(k * 10)) }
        // five apps compressed 2 : 1 into 625 MB: non-compressed 375 of 1000 pages' worth (37.5 %)
        #expect(h.sim.compressorBytes == mb(625))
        #expect(h.sim.availableBytes == mb(125))          // below soft (150), above idle (100): no kill
        #expect(h.sim.pressureLevel == .warning)
        h.event(60, .quit, "a")                          // 500 of 1000 (50 %): not above 60 %
        #expect(h.sim.pressureLevel == .warning)
        h.event(61, .quit, "b")                          // 625 of 1000 (62.5 %) > 60 %
        #expect(h.sim.pressureLevel == .normal)
        let r = h.finish()
        #expect(r.totalKills == 0)
        #expect(r.microsAtCritical == 0)
    }

    @Test func risingPressureWarnsRunningAppsWhichDropCaches() throws {
        var h = try harness([bareApp("music", dirtyMB: 100) { $0.backgroundModes = [.audio]; $0.cacheBytes = mb(40) },
                             bareApp("sleeper", dirtyMB: 10) { $0.cacheBytes = mb(40) },
                             bareApp("fg", dirtyMB: 600) { $0.cacheBytes = mb(60); $0.cacheDropOnWarning = Share(partsPerMillion: 500_000) }])
        h.open("music", at: 0)
        h.mode("music", .audio, start: true, at: 1)
        h.open("sleeper", at: 2)
        h.open("fg", at: 3)           // used 140 + 50 + 660 = 850: available 150 … not below soft
        h.alloc("fg", mb: 10, at: 4)  // 140 < soft: warning
        #expect(h.steps("music").last?.callback == .didReceiveMemoryWarning)
        #expect(h.steps("fg").last?.callback == .didReceiveMemoryWarning)
        #expect(!h.steps("sleeper").contains { $0.callback == .didReceiveMemoryWarning })  // suspended: not running
        #expect(h.footprint("music") == mb(100))      // dropped all its caches
        #expect(h.footprint("fg") == mb(640))         // dropped half (610 + 30)
        // Order: lowest band first (foreground 100 before audio 120).
        let warned = h.sim.observer.records.filter { $0.callback == .didReceiveMemoryWarning }.map(\.app)
        #expect(warned == [h.id("fg"), h.id("music")])
    }

    @Test func sustainedPressureKillsIdleAppsAfterTenMinutes() throws {
        var device = testDevice(limitMB: 2000)
        device.reaper.enabled = false   // it would reap the idle app at 307 s
        var h = try harness([bareApp("idle", dirtyMB: 60), bareApp("fg", dirtyMB: 800)], device: device)
        h.open("idle", at: 0)
        h.home(at: 5)
        h.open("fg", at: 10)          // available 140: warning, above idle 100: no idle-exit
        #expect(h.sim.pressureLevel == .warning)
        h.event(609, .alloc, "fg", value: 0)
        #expect(h.state("idle") == .suspended)
        h.event(611, .alloc, "fg", value: 0)
        #expect(h.state("idle") == .notRunning)
        let r = h.finish()
        #expect(r.killsByReason[.sustainedMemoryPressure] == 1)
        #expect(r.kills.first?.time == sec(610))
    }

    /// A chain that finds band 0 empty ends, and is not armed again until the level has been normal
    /// (kern_memorystatus_notify.c:1318–1321, 1478–1496): an app entering band 0 later under the same pressure lives.
    /// (The engine used to resume the chain then.)
    @Test func aSustainedChainThatFindsNoIdleAppEndsUntilPressureIsNormalAgain() throws {
        var device = testDevice(limitMB: 2000)
        device.reaper.enabled = false
        var h = try harness([bareApp("late", dirtyMB: 30), bareApp("fg", dirtyMB: 860)], device: device)
        let month = Double(86_400 * 30)
        h.open("fg", at: 0)                         // warning from the start (available 140), nobody idle
        h.event(month, .alloc, "fg", value: 0)      // the chain fired at 600 s and ended: nothing in band 0
        #expect(h.sim.timers.count < 10)
        #expect(h.sim.pressureLevel == .warning)
        h.bgLaunch("late", seconds: 5, at: month + 1)   // available 110: still warning, above idle
        h.event(month + 8.1, .alloc, "fg", value: 0)    // idle since month + 8 s
        h.event(month + 700, .alloc, "fg", value: 0)
        #expect(h.state("late") == .suspended)
        h.event(month + 701, .alloc, "fg", value: -mb(100))   // available 210 > 115 % of soft: normal
        #expect(h.sim.pressureLevel == .normal)
        h.event(month + 702, .alloc, "fg", value: mb(100))    // warning again: a new chain, 600 s on
        h.event(month + 1301, .alloc, "fg", value: 0)
        #expect(h.state("late") == .suspended)
        h.event(month + 1303, .alloc, "fg", value: 0)
        #expect(h.state("late") == .notRunning)
        let r = h.finish()
        #expect(r.killsByReason[.sustainedMemoryPressure] == 1)
        #expect(r.kills.first?.time == sec(86_400 * 30 + 1302))
    }

    @Test func softLimitsMakeOverLimitAppsTheFirstHighwaterVictims() throws {
        var device = testDevice(limitMB: 300)
        device.appLimitFatal = false
        var h = try harness([bareApp("old", dirtyMB: 100), bareApp("hog", dirtyMB: 350), bareApp("fg", dirtyMB: 420)], device: device)
        h.open("old", at: 0)
        h.open("hog", at: 10)          // over its soft limit, but not fatal
        h.open("fg", at: 20)           // available 130 < soft: the hog goes first, though "old" is older
        #expect(h.state("hog") == .notRunning)
        #expect(h.state("old") == .suspended)
        #expect(h.finish().killsByReason[.highwater] == 1)
    }

    /// A compressor "low on space" (over 98 % of the uncompressed data it may hold, vm_compressor.c:565–569, 940–958)
    /// makes the system unhealthy, and the top process goes for it whatever available memory says
    /// (kern_memorystatus_policy.c:86–87, 162, 198–200). The engine used to use the reason only to relabel kills
    /// below the critical threshold.
    @Test func aCompressorLowOnSpaceKillsByItselfWithItsReason() throws {
        var device = testDevice(limitMB: 2000)
        device.compressor = .init(enabled: true, ratioMilli: 10_000, poolLimitBytes: mb(1000))
        device.reaper.enabled = false
        // RAM ≤ 2 GiB: the limit is 2 × 16 pages × 3 764 segments (1 000 MiB / 272 KiB), 1 882 MB; low on space above 1 844 MB.
        #expect(device.normalized().compressedLimitBytes == 2 * 16 * 3_764 * 16_384)
        var h = try harness((0..<5).map { bareApp("a\($0)", dirtyMB: 470) }, device: device)
        for k in 0..<5 { h.open("a\(k)", at: Double(k * 10)) }
        // a0…a3 compressed (1 880 MB of data in 188 MB) when a4 opened: low on space, available 342 MB
        let r = h.finish()
        #expect(r.kills.map(\.reason) == [.vmCompressorSpaceShortage])
        #expect(r.kills.first.map { $0.availableBefore >= mb(150) } == true)
        #expect(r.kills.first?.app == h.id("a0"))
    }

    @Test func anAppAgingIntoTheIdleBandBelowTheIdleThresholdIsKilledThen() throws {
        var h = try harness([bareApp("b", dirtyMB: 300), bareApp("fg", dirtyMB: 620)])
        h.open("b", at: 5)
        h.open("fg", at: 10)      // available 80 < idle 100, but "b" is aging (band 20) until 12 s: no idle victim
        #expect(h.state("b") == .suspended)
        h.event(12.5, .alloc, "b", value: 1)   // ignored ("b" is suspended): no response of its own
        #expect(h.state("b") == .notRunning)
        let r = h.finish()
        #expect(r.kills.map(\.reason) == [.idleExit])
        #expect(r.kills.first?.time == sec(12))   // at its aging end, not at the next event
    }

    @Test func anAppAgingIntoTheIdleBandBelowTheFreezerThresholdIsFrozenThen() throws {
        var d = testDevice(limitMB: 2000)
        d.compressor = .init(enabled: true, ratioMilli: 2000, poolLimitBytes: mb(200))
        d.freezer.enabled = true
        d.freezer.suspendedThreshold = 0
        var h = try harness([bareApp("a", dirtyMB: 200), bareApp("fg", dirtyMB: 400)], device: d)
        h.open("a", at: 0)
        h.open("fg", at: 10)      // available 400 < 50 %: the freezer would take "a", aging until 12 s, once its
                                  // wake-ups are no longer held off (20 s: 10 s after the one at a's suspension)
        h.event(20.5, .alloc, "a", value: 1)   // ignored: no response of its own
        #expect(h.sim.priorityClass(of: h.id("a")) == .frozen)
    }
}
