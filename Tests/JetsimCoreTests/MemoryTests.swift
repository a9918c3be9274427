@testable import JetsimCore
import Testing

/// Footprint and accounting (xnu-jetsam.md §5) and what the system discards on backgrounding
/// (ios-app-lifecycle.md "Memory on the way to the background").
@Suite struct MemoryTests {
    func harness(_ apps: [AppProfile], device: Device = testDevice()) throws -> Harness<XNUPolicy> {
        try Harness(device: device, apps: apps, policy: XNUPolicy())
    }

    /// Opens the app, sends it home, and returns (footprint before, footprint after, free before, free after).
    func backgrounding(_ profile: AppProfile) throws -> (Int, Int, Int, Int) {
        var h = try harness([profile])
        h.open(profile.name, at: 0)
        let before = h.footprint(profile.name), freeBefore = h.sim.freeBytes
        h.home(at: 10)
        return (before, h.footprint(profile.name), freeBefore, h.sim.freeBytes)
    }

    @Test func backingStoresAreDiscardedOnBackgrounding() throws {
        let (before, after, freeBefore, freeAfter) = try backgrounding(bareApp("a", dirtyMB: 100) { $0.backingStoreBytes = mb(24) })
        #expect(before - after == mb(24))
        #expect(freeAfter - freeBefore == mb(24))
    }

    @Test func imageCachesAreDiscardedOnBackgrounding() throws {
        let (before, after, freeBefore, freeAfter) = try backgrounding(bareApp("a", dirtyMB: 100) { $0.imageCacheBytes = mb(40) })
        #expect(before - after == mb(40))
        #expect(freeAfter - freeBefore == mb(40))
    }

    @Test func theAppDropsItsShareOfCachesOnBackgrounding() throws {
        let (before, after, freeBefore, freeAfter) = try backgrounding(bareApp("a", dirtyMB: 100) {
            $0.cacheBytes = mb(60)
            $0.cacheDropOnBackground = Share(partsPerMillion: 250_000)
        })
        #expect(before - after == mb(15))
        #expect(freeAfter - freeBefore == mb(15))
    }

    @Test func purgeableDataBecomesVolatileLeavingTheFootprintButNotMemory() throws {
        let (before, after, freeBefore, freeAfter) = try backgrounding(bareApp("a", dirtyMB: 100) { $0.purgeableBytes = mb(30) })
        #expect(before - after == mb(30))     // volatile purgeable memory is not footprint …
        #expect(freeAfter == freeBefore)      // … but stays resident until purged
    }

    @Test func fileBackedPagesAreNeverFootprintButAreAvailable() throws {
        var h = try harness([bareApp("a", dirtyMB: 100) { $0.fileBackedBytes = mb(50) }])
        h.open("a", at: 0)
        #expect(h.footprint("a") == mb(100))
        #expect(h.sim.freeBytes == mb(850))
        #expect(h.sim.availableBytes == mb(900))
    }

    @Test func everythingDiscardedIsRebuiltOnResume() throws {
        var h = try harness([bareApp("a", dirtyMB: 100) {
            $0.backingStoreBytes = mb(24); $0.imageCacheBytes = mb(16); $0.cacheBytes = mb(40)
            $0.cacheDropOnBackground = .all; $0.purgeableBytes = mb(20)
        }])
        h.open("a", at: 0)
        let launched = h.footprint("a")
        #expect(launched == mb(200))
        h.home(at: 10)
        #expect(h.footprint("a") == mb(100))
        h.open("a", at: 20)
        #expect(h.footprint("a") == launched)
    }

    @Test func dirtyMemoryGrowsInTheForegroundUpToItsCap() throws {
        var h = try harness([bareApp("a", dirtyMB: 100) { $0.growthBytesPerMinute = mb(6); $0.maxDirtyBytes = mb(112) }])
        h.open("a", at: 0)
        h.event(60, .alloc, "a", value: 0)
        #expect(h.footprint("a") == mb(106))
        h.event(90, .alloc, "a", value: 0)
        #expect(h.footprint("a") == mb(109))
        h.event(600, .alloc, "a", value: 0)
        #expect(h.footprint("a") == mb(112))   // capped
    }

    @Test func growthCrossesTheLimitAtTheExactMicrosecond() throws {
        // 1 MiB/s from 100 MB: above the warning level (80 % of 400 MB, less 1 KiB as the ledger truncates it) at
        // 220 s, the 400 MB limit exceeded by one page (16 KiB more) at 300 s + 16384 / 2^20 s.
        var h = try harness([bareApp("a", dirtyMB: 100) { $0.growthBytesPerMinute = mb(60); $0.maxDirtyBytes = mb(1000) }],
                            device: testDevice(limitMB: 400))
        h.open("a", at: 0)
        h.event(10_000, .alloc, "a", value: 0)
        let r = h.finish()
        #expect(h.records("a").first { $0.callback == .didReceiveMemoryWarning }?.time == sec(220))
        #expect(r.kills.map(\.reason) == [.perProcessLimit])
        #expect(r.kills.first?.time == 300_015_625)
        #expect(r.kills.first?.footprintBytes == mb(400) + 16 * 1024)
    }

    @Test func aLongForegroundSessionCostsOnlyAFewTimers() throws {
        var h = try harness([bareApp("a", dirtyMB: 100) { $0.growthBytesPerMinute = 1; $0.maxDirtyBytes = mb(200) }])
        h.open("a", at: 0)
        h.event(Double(365 * 86_400), .alloc, "a", value: 0)   // a year in front, growing one byte a minute
        #expect(h.sim.timers.count < 10)
        #expect(h.footprint("a") == mb(100) + Units.roundDown(365 * 1440, to: 16 * 1024))
    }

    @Test func dirtyMemoryDoesNotGrowOutsideTheForeground() throws {
        var h = try harness([bareApp("a", dirtyMB: 100) { $0.growthBytesPerMinute = mb(6) }, bareApp("b", dirtyMB: 10)])
        h.open("a", at: 0)
        h.home(at: 60)
        let left = h.footprint("a")
        h.open("b", at: 600)
        #expect(h.footprint("a") == left)
    }

    @Test func allocAddsAndFreesDirtyMemoryInWholePages() throws {
        var h = try harness([bareApp("a", dirtyMB: 100)])
        h.open("a", at: 0)
        h.alloc("a", mb: 50, at: 1)
        #expect(h.footprint("a") == mb(150))
        h.event(2, .alloc, "a", value: -mb(70))
        #expect(h.footprint("a") == mb(80))
        h.event(3, .alloc, "a", value: 1)   // one byte costs a page
        #expect(h.footprint("a") == mb(80) + 16 * 1024)
        h.event(4, .alloc, "a", value: -mb(500))
        #expect(h.footprint("a") == 0)
    }

    @Test func compressionKeepsTheFootprintButFreesMemory() throws {
        var device = testDevice()
        device.compressor = .init(enabled: true, ratioMilli: 2000, poolLimitBytes: mb(500))
        var h = try harness([bareApp("old", dirtyMB: 200), bareApp("big", dirtyMB: 660)], device: device)
        h.open("old", at: 0)
        h.home(at: 10)
        h.open("big", at: 20)   // available 140 MB: above idle (100) but below soft (150)
        #expect(h.state("old") == .suspended)
        #expect(h.footprint("old") == mb(200))          // compressed pages count at their uncompressed size
        #expect(h.sim.compressorBytes == mb(100))       // … and at their compressed size in the system
        #expect(h.sim.freeBytes == mb(1000 - 660 - 100))
        h.open("old", at: 30)                           // resuming decompresses
        #expect(h.sim.apps[Int(h.id("old"))].dirtyCompressed == 0)
        #expect(h.sim.apps[Int(h.id("old"))].dirtyResident == mb(200))
        #expect(h.footprint("old") == mb(200))
    }

    @Test func appCompressionRatioOverridesTheDevice() throws {
        var device = testDevice()
        device.compressor = .init(enabled: true, ratioMilli: 2000, poolLimitBytes: mb(500))
        var h = try harness([bareApp("old", dirtyMB: 200) { $0.compressRatioMilli = 4000 }, bareApp("big", dirtyMB: 660)], device: device)
        h.open("old", at: 0)
        h.home(at: 10)
        h.open("big", at: 20)
        #expect(h.sim.compressorBytes == mb(50))
    }

    @Test func theFatalPerProcessLimitKillsAtOnce() throws {
        var h = try harness([bareApp("a", dirtyMB: 100)], device: testDevice(limitMB: 400))
        h.open("a", at: 0)
        h.alloc("a", mb: 290, at: 1)
        #expect(h.state("a") == .active)
        h.alloc("a", mb: 20, at: 2)
        #expect(h.state("a") == .notRunning)
        let r = h.finish()
        #expect(r.killsByReason[.perProcessLimit] == 1)
        #expect(r.kills.first?.footprintBytes == mb(410))
        #expect(r.kills.first?.userVisible == true)
    }

    @Test func nearTheLimitTheAppIsWarnedAndDropsCaches() throws {
        var h = try harness([bareApp("a", dirtyMB: 100) { $0.cacheBytes = mb(50); $0.cacheDropOnWarning = .all }],
                            device: testDevice(limitMB: 400))
        h.open("a", at: 0)
        h.alloc("a", mb: 210, at: 1)   // 360 MB: above the warning level (80 % of the 400 MB limit)
        #expect(h.footprint("a") == mb(310))
        #expect(h.steps("a").last?.callback == .didReceiveMemoryWarning)
        #expect(h.finish().memoryWarnings == 1)
    }

    @Test func anAppBackBelowItsWarningLevelIsWarnedAgainAtTheNextCrossing() throws {
        // 1 MiB/s from 150 MB (50 of them cache, all dropped on a warning): above the level (320 MB less 1 KiB) at
        // 170 s, the warning takes it back to 270 MB, growth passes the level again at 220 s. No event in between.
        var h = try harness([bareApp("a", dirtyMB: 100) {
            $0.cacheBytes = mb(50); $0.cacheDropOnWarning = .all; $0.growthBytesPerMinute = mb(60); $0.maxDirtyBytes = mb(1000)
        }], device: testDevice(limitMB: 400))
        h.open("a", at: 0)
        h.event(250, .alloc, "a", value: 0)
        #expect(h.records("a").filter { $0.callback == .didReceiveMemoryWarning }.map(\.time) == [sec(170), sec(220)])
    }

    @Test func growthTakesCleanPagesTheMomentFreePagesRunOut() throws {
        var d = testDevice()
        d.killThresholds = .init(criticalPercent: 1, idlePercent: 2, softPercent: 3)
        var h = try harness([bareApp("c", dirtyMB: 100) { $0.fileBackedBytes = mb(100) },
                             bareApp("f", dirtyMB: 700) { $0.growthBytesPerMinute = mb(60); $0.maxDirtyBytes = mb(1000) }],
                            device: d)
        h.open("c", at: 0)
        h.open("f", at: 1)                  // free 100 MB, available 200 MB; f grows 1 MiB/s
        // An event the engine ignores applies growth but runs no pressure response: 130 MB grown, so 30 MB of
        // c's clean pages are already gone.
        h.event(131, .modeStop, "c", value: Int(BackgroundModes.voip.rawValue))
        #expect(h.sim.freeBytes == 0)
        #expect(h.sim.apps[Int(h.id("c"))].fileBacked == mb(70))
        #expect(h.sim.availableBytes == mb(70))
    }

    /// The ledger's warning level (task.c:430–431; ledger.c:793, 1375): 80 % of the limit, kept scaled by 65 536 and
    /// truncated, for the preset's limit as for an explicit one (memorystatus writes both as MB values,
    /// kern_memorystatus.c:3135–3160, 262–264). The engine used to warn 100 MB below a preset's limit.
    @Test func appsAreWarnedAboveEightyPercentOfTheirLimit() {
        func level(_ limit: Int) -> Int { limit / 65_536 * (80 * 65_536 / 100) }
        let d = testDevice(limitMB: 500)
        #expect(d.warningLevel(forLimit: mb(500)) == level(mb(500)))
        #expect(d.warningLevel(forLimit: mb(1000)) == level(mb(1000)))
        #expect(level(mb(1000)) < mb(800) && level(mb(1000)) > mb(800) - 16 * 1024)
    }

    /// The active limit applies while the app holds an assertion (here: playing audio in the background), whatever
    /// its band (kern_memorystatus.c:5078–5083); when it loses it, the lower inactive limit is only set, not checked
    /// (ledger.c:1328–1369, kern_memorystatus.c:2967–2971), so the suspended app over it lives. The engine used to
    /// switch to the inactive limit outside the foreground and kill at once.
    @Test func theActiveLimitHoldsWithAnAssertionAndALowerLimitIsOnlySet() throws {
        var device = testDevice(limitMB: 600)
        device.appLimitInactiveBytes = mb(150)
        device.reaper.enabled = false
        var h = try harness([bareApp("a", dirtyMB: 200) { $0.backgroundModes = [.audio] }], device: device)
        h.open("a", at: 0)
        h.mode("a", .audio, start: true, at: 1)
        h.home(at: 2)
        #expect(h.state("a") == .background)
        h.alloc("a", mb: 100, at: 3)       // 300 MB: over the inactive limit, under the active one
        #expect(h.state("a") == .background)
        h.mode("a", .audio, start: false, at: 4)
        h.event(10, .alloc, "a", value: 0)
        #expect(h.state("a") == .suspended)   // 300 MB over its 150 MB limit: nothing grows, nothing checks
        let r = h.finish()
        #expect(r.killsByReason[.perProcessLimit] == 0)
    }

    @Test func killedAppReturnsAllItsMemory() throws {
        var h = try harness([bareApp("a", dirtyMB: 100) { $0.fileBackedBytes = mb(20); $0.purgeableBytes = mb(10) }],
                            device: testDevice(limitMB: 150))
        h.open("a", at: 0)
        h.alloc("a", mb: 60, at: 1)
        #expect(h.state("a") == .notRunning)
        #expect(h.sim.freeBytes == mb(1000))
        #expect(h.sim.availableBytes == mb(1000))
    }

    @Test func sizesAreRoundedUpToWholePages() throws {
        var h = try harness([AppProfile(name: "odd", dirtyBytes: 1000)])
        h.open("odd", at: 0)
        #expect(h.footprint("odd") == 16 * 1024)
    }

    @Test func theInvariantCheckCatchesALeak() throws {
        var h = try harness([bareApp("a", dirtyMB: 100)])
        h.open("a", at: 0)
        #expect(h.sim.invariantViolations().isEmpty)
        h.sim.memory.free -= 16 * 1024    // a page that belongs to nobody
        #expect(h.sim.invariantViolations().contains { $0.hasPrefix("memory not conserved") })
    }

    /// The growth check's filter (a multiplication) skips a reschedule only when the exact time (a division) would not
    /// come before the pending check, and it does skip often.
    @Test(arguments: [1, 4096, 3 * 1_048_576 + 7, 900_000_000] as [Int])
    func theGrowthCheckFilterNeverSkipsAnEarlierCheck(rate: Int) throws {
        var h = try Harness(apps: [bareApp("a", dirtyMB: 10) { $0.growthBytesPerMinute = rate }], policy: XNUPolicy())
        var rng = SplitMix64(seed: UInt64(rate))
        var skipped = 0
        for _ in 0..<5000 {
            h.sim.now = Int(rng.next() % 1_000_000_000_000)
            h.sim.apps[0].growthStart = h.sim.now - Int(rng.next() % 100_000_000_000)
            let needed = Int(rng.next() % UInt64(rate * 4000)) - rate   // up to about 4 000 minutes of growth
            // At the exact time's boundary the filter is exact: a check pending then stays, one a microsecond later moves.
            if needed >= 0, let exact = h.sim.growthCheckTime(0, needed: needed), exact > h.sim.now + 1 {
                #expect(h.sim.growthReachesNoEarlier(0, needed: needed, than: exact))
                #expect(!h.sim.growthReachesNoEarlier(0, needed: needed, than: exact + 1))
            }
            let pending = h.sim.now + Int(rng.next() % 200_000_000_000) - 1_000
            guard h.sim.growthReachesNoEarlier(0, needed: needed, than: pending) else { continue }
            skipped += 1
            let at = h.sim.growthCheckTime(0, needed: needed)
            #expect(at == nil || at! >= pending, "needed \(needed), pending \(pending), at \(String(describing: at))")
        }
        #expect(skipped > 1000)
    }
}
