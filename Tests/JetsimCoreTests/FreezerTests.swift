@testable import JetsimCore
import Testing

/// The freezer (xnu-jetsam.md §8).
@Suite struct FreezerTests {
    func freezerDevice(maxFrozen: Int = 20, dailyMB: Int = 2048) -> Device {
        var d = testDevice(limitMB: 2000)
        d.compressor = .init(enabled: true, ratioMilli: 2000, poolLimitBytes: mb(200))
        d.freezer.enabled = true
        d.freezer.suspendedThreshold = 0   // these scenarios keep few apps suspended; the threshold has its own test
        d.freezer.maxFrozen = maxFrozen
        d.freezer.dailyWriteBudgetBytes = mb(dailyMB)
        return d
    }

    @Test func idleAppsAreFrozenOutOfRamKeepingTheirFootprint() throws {
        var h = try Harness(device: freezerDevice(), apps: [bareApp("a", dirtyMB: 200), bareApp("fg", dirtyMB: 400)], policy: XNUPolicy())
        h.open("a", at: 0)
        h.open("fg", at: 10)          // available 400 < 50 %; "a" is aging until 12 s; its suspension woke the
                                      // freezer (nothing to take yet), which holds off its next wake-up for 10 s
        #expect(h.sim.priorityClass(of: h.id("a")) == .aging)
        h.event(19.9, .alloc, "fg", value: 0)
        #expect(h.sim.priorityClass(of: h.id("a")) == .idle)
        h.event(21, .alloc, "fg", value: 0)
        #expect(h.sim.priorityClass(of: h.id("a")) == .frozen)
        #expect(h.sim.band(of: h.id("a")) == 75)
        #expect(h.footprint("a") == mb(200))
        #expect(h.sim.freeBytes == mb(600))
        let r = h.finish()
        #expect(r.freezes == 1 && r.frozenWrittenBytes == mb(100))
    }

    /// A sample's footprint comes from the memory ledger, not from a walk over the apps; frozen bytes are in it.
    @Test func samplesCountFrozenBytesAndTheLedgerCheckCatchesTheirDrift() throws {
        var h = try Harness(device: freezerDevice(), apps: [bareApp("a", dirtyMB: 200), bareApp("fg", dirtyMB: 400)], policy: XNUPolicy())
        h.open("a", at: 0)
        h.open("fg", at: 10)
        h.event(21, .alloc, "fg", value: 0)
        #expect(h.sim.priorityClass(of: h.id("a")) == .frozen)
        h.event(61, .alloc, "fg", value: 0)
        #expect(h.sim.invariantViolations().isEmpty)
        h.sim.memory.frozen += 16 * 1024
        #expect(h.sim.invariantViolations().contains("frozen ledger drifted"))
        h.sim.memory.frozen -= 16 * 1024
        let r = h.finish()
        #expect(r.samples.map(\.time) == [0, sec(60)])
        #expect(r.samples.map(\.footprintBytes) == [0, mb(600)])   // the first sample precedes the first event
    }

    @Test func aResumeThawsAndCostsExtraLatency() throws {
        var h = try Harness(device: freezerDevice(), apps: [bareApp("a", dirtyMB: 200), bareApp("fg", dirtyMB: 400)], policy: XNUPolicy())
        h.open("a", at: 0)
        h.open("fg", at: 10)
        h.event(13, .alloc, "fg", value: 0)
        h.open("a", at: 20)
        #expect(h.sim.priorityClass(of: h.id("a")) == .foreground)
        #expect(h.footprint("a") == mb(200))
        let r = h.finish()
        #expect(r.thaws == 1)
        // launches: a cold (1000), fg cold (1000), a resume 100 + 200 MB × 2 ms = 500
        #expect(r.totalLaunchMillis == 1000 + 1000 + 500)
        #expect(r.p95LaunchMillis == 1000)
    }

    @Test func frozenAppsOutliveIdleOnes() throws {
        var h = try Harness(device: freezerDevice(maxFrozen: 1),
                            apps: [bareApp("old", dirtyMB: 200), bareApp("newer", dirtyMB: 150), bareApp("fg", dirtyMB: 450), bareApp("big", dirtyMB: 420)],
                            policy: XNUPolicy())
        h.open("old", at: 0)
        h.open("newer", at: 10)
        h.open("fg", at: 20)
        h.event(23, .alloc, "fg", value: 0)        // "old" frozen (LRU); only one may be
        #expect(h.sim.priorityClass(of: h.id("old")) == .frozen)
        #expect(h.sim.priorityClass(of: h.id("newer")) == .idle)
        h.open("big", at: 30)                       // compression is not enough: the idle band goes before the frozen one
        #expect(h.state("newer") == .notRunning)
        #expect(h.state("old") == .suspended)
    }

    @Test func theDailyWriteBudgetLimitsFreezing() throws {
        var h = try Harness(device: freezerDevice(dailyMB: 120),
                            apps: [bareApp("a", dirtyMB: 200), bareApp("b", dirtyMB: 200), bareApp("fg", dirtyMB: 300)], policy: XNUPolicy())
        h.open("a", at: 0)
        h.open("b", at: 5)
        h.open("fg", at: 10)
        h.event(13, .alloc, "fg", value: 0)
        #expect(h.finish().freezes == 1)            // 100 MB written; a second would exceed 120 MB
    }

    @Test func aSpentBudgetFreezesAgainWhenTheNextDayStartsWithoutAnEventThen() throws {
        var options = SimulationOptions()
        options.sampleIntervalMicros = sec(3600)
        var h = try Harness(device: freezerDevice(dailyMB: 120),
                            apps: [bareApp("a", dirtyMB: 200), bareApp("b", dirtyMB: 200), bareApp("fg", dirtyMB: 400)],
                            policy: XNUPolicy(), options: options)
        h.open("a", at: 0)
        h.open("b", at: 5)
        h.open("fg", at: 10)
        h.event(13, .alloc, "fg", value: 0)        // "a" frozen (100 MB written); "b" would exceed the day's 120 MB
        h.event(2 * 86_400, .alloc, "fg", value: 0)
        let r = h.finish()
        let available = { (hour: Int) in r.samples.first { $0.time == sec(hour * 3600) }?.availableBytes }
        #expect(available(23) == mb(400))
        #expect(available(24) == mb(600))          // the new day's budget froze "b" at midnight, with no event then
        #expect(r.freezes == 2)
    }

    @Test func cleanPagesDoNotMakeAnAppWorthFreezing() throws {
        // 4 MB of footprint and 40 MB of clean file-backed pages: 44 MB resident, but under the 8 MB minimum,
        // which XNU counts in footprint pages (the VM may take the clean ones at any moment).
        var h = try Harness(device: freezerDevice(),
                            apps: [bareApp("tiny", dirtyMB: 4) { $0.fileBackedBytes = mb(40) }, bareApp("fg", dirtyMB: 600)],
                            policy: XNUPolicy())
        h.open("tiny", at: 0)
        h.open("fg", at: 10)                        // available 356 MB < 50 %
        h.event(13, .alloc, "fg", value: 0)         // "tiny" is idle now
        #expect(h.sim.priorityClass(of: h.id("tiny")) == .idle)
        #expect(h.finish().freezes == 0)
    }

    /// On by default on every iOS preset (an Android phone has none), as iOS's kernel builds it (`FREEZE_ENABLED_DEFAULT`,
    /// kern_memorystatus_freeze.c:124–129), with the kernel's parameters; never on a cache-equivalent device (no
    /// lifecycle) nor where the compressor, whose segments it writes, is off.
    @Test func theFreezerIsOnByDefaultWithTheKernelsParameters() throws {
        #expect(DevicePresets.all.allSatisfy { $0.freezer.enabled == ($0.platform == .ios) })
        #expect(!Device.cache(capacityBytes: 1 << 30).freezer.enabled)
        #expect(DevicePresets.all.allSatisfy { $0.freezer.suspendedThreshold == 4 && $0.freezer.wakeIntervalMicros == sec(10) })
        var noCompressor = DevicePresets.all[0]
        noCompressor.compressor.enabled = false
        #expect(noCompressor.validationProblems().contains { $0.contains("needs the compressor") })
        #expect(!noCompressor.normalized().freezer.enabled)   // the engine runs a device built in code without one
    }

    /// Six apps of 60 MB left one after the other, the freezer on with the kernel's threshold: it freezes only while
    /// more than four suspended apps are unfrozen (kern_memorystatus_freeze.c:2222–2242), one app per wake-up, the
    /// page-driven ones at least 10 s apart (freeze.c:2903–2960; kern_memorystatus_policy.c:784–801), oldest
    /// entrant of band 0 first (policy.c:652–729).
    @Test func theFreezerNeedsFiveUnfrozenSuspendedAppsAndTakesOnePerWakeUp() throws {
        var d = freezerDevice()
        d.freezer.suspendedThreshold = 4
        let names = (0..<6).map { "s\($0)" }
        var h = try Harness(device: d, apps: names.map { bareApp($0, dirtyMB: 60) } + [bareApp("fg", dirtyMB: 300)], policy: XNUPolicy())
        for (k, n) in names.enumerated() { h.open(n, at: Double(k)) }
        h.open("fg", at: 6)         // 660 MB used: below 50 % available; six suspended, none frozen
        h.event(100, .alloc, "fg", value: 0)
        let r = h.finish()
        // Six unfrozen: s0 (the oldest in band 0) at the first wake-up after the hold-off of fg's suspension of s5;
        // then five unfrozen: s1 ten seconds later; then four: no more.
        #expect(r.freezes == 2)
        #expect(h.sim.priorityClass(of: h.id("s0")) == .frozen && h.sim.priorityClass(of: h.id("s1")) == .frozen)
        #expect(h.sim.priorityClass(of: h.id("s2")) == .idle)
    }

    /// A thawed app stays frozen for the kernel (`P_MEMSTAT_FROZEN` kept, kern_memorystatus.c:3771–3830): it still
    /// counts as frozen, and when it is suspended again it goes straight back to band 75, not through aging to 0
    /// (kern_memorystatus.c:2868–2881).
    @Test func aThawedAppStaysFrozenAndReturnsToItsBand() throws {
        var h = try Harness(device: freezerDevice(), apps: [bareApp("a", dirtyMB: 200), bareApp("fg", dirtyMB: 400)], policy: XNUPolicy())
        h.open("a", at: 0)
        h.open("fg", at: 10)
        h.event(21, .alloc, "fg", value: 0)       // a frozen
        h.open("a", at: 30)                        // thawed in front
        #expect(h.sim.priorityClass(of: h.id("a")) == .foreground)
        h.open("fg", at: 40)                       // a suspended again: band 75 at once
        #expect(h.sim.priorityClass(of: h.id("a")) == .frozen)
        #expect(h.sim.band(of: h.id("a")) == 75)
        let r = h.finish()
        #expect(r.freezes == 1 && r.thaws == 1)
    }
}
