@testable import JetsimCore
import Testing

/// Scenarios for the kernel rules of xnu-11417.101.15 (commit e3723e1f of apple-oss-distributions/xnu) that the
/// engine follows; each names the source lines it checks. `PressureResponseTests` holds the kill walk, the compressor's
/// pressure level and space shortage, and the sustained-pressure chain's end.
@Suite struct KernelRulesTests {
    /// 1 000 MB, no reserve, compressor off, thresholds 5 / 10 / 15 %, reaper at 20 % (200 MB).
    func device(reaper: Bool = true) -> Device {
        var d = testDevice(limitMB: 2000)
        d.reaper.enabled = reaper
        return d
    }

    // MARK: The long-idle reaper (kern_memorystatus.c)

    /// Below the reaper threshold (20 % of RAM at ≤ 3 GiB, kern_memorystatus.c:292–295, 2088–2097) a sweep starts once
    /// an app has sat in band 0 for 300 s (313, 4233–4246, 6697–6699), timed by the clock, and kills every app
    /// reapable then, one walk at a time, whatever available memory becomes (6594–6603): `long-idle-exit`
    /// (kern_memorystatus.h:290). The next sweep waits 300 s after one ends (315, 4121–4146); an app idle for less
    /// than 300 s stays.
    @Test func theReaperSweepsAppsIdleForFiveMinutesAndWaitsBetweenSweeps() throws {
        var h = try Harness(device: device(), apps: [bareApp("old1", dirtyMB: 30), bareApp("old2", dirtyMB: 30),
                                                     bareApp("young", dirtyMB: 30), bareApp("fg", dirtyMB: 760)],
                            policy: XNUPolicy())
        h.open("old1", at: 0)
        h.open("old2", at: 1)       // old1 in band 0 from 3 s
        h.open("fg", at: 100)       // old2 from 102 s; available 180 MB: below the reaper's 200, above idle (100)
        h.event(302, .alloc, "fg", value: 0)
        #expect(h.state("old1") == .suspended)                 // 299 s in band 0
        h.open("young", at: 350)
        h.open("fg", at: 351)       // young in band 0 from 353 s; available 180 MB again
        h.event(1_000, .alloc, "fg", value: 0)
        #expect(h.state("young") == .suspended)                // 250 s in band 0 at the second sweep
        let r = h.finish()
        #expect(r.kills.map { h.catalog.profiles[Int($0.app)].name } == ["old1", "old2"])
        #expect(r.kills.allSatisfy { $0.reason == .longIdleExit })
        // old1 at 303 s (the sweep ends: old2 only 201 s idle); old2, reapable from 402 s, at the first moment after
        // the rescan interval (603 s).
        #expect(r.kills.map(\.time) == [sec(303), sec(603) + 1])
    }

    /// Above the reaper threshold nothing is reaped, however long an app has been idle.
    @Test func aboveItsThresholdTheReaperWaits() throws {
        var h = try Harness(device: device(), apps: [bareApp("a", dirtyMB: 100), bareApp("fg", dirtyMB: 600)], policy: XNUPolicy())
        h.open("a", at: 0)
        h.open("fg", at: 10)        // available 300 MB ≥ 200
        h.event(5_000, .alloc, "fg", value: 0)
        #expect(h.state("a") == .suspended)
        #expect(h.finish().totalKills == 0)
    }

    /// xnu-10063 (and xnu-11215) have no reaper: the same day reaps under xnu-11417 only.
    @Test func theOlderKernelHasNoReaper() throws {
        var kills: [Device.Kernel: Int] = [:]
        for kernel in Device.Kernel.allCases {
            var d = device()
            d.setKernel(kernel)
            #expect(d.validationProblems().isEmpty)
            var h = try Harness(device: d, apps: [bareApp("a", dirtyMB: 100), bareApp("fg", dirtyMB: 750)], policy: XNUPolicy())
            h.open("a", at: 0)
            h.open("fg", at: 10)    // available 150 MB: below the reaper's threshold, above idle
            h.event(5_000, .alloc, "fg", value: 0)
            kills[kernel] = h.finish().killsByReason[.longIdleExit]
        }
        #expect(kills == [.xnu11417: 1, .xnu10063: 0])
        var contradiction = device()
        contradiction.setKernel(.xnu10063)
        contradiction.reaper.enabled = true
        #expect(!contradiction.validationProblems().isEmpty)
    }

    // MARK: The purge before a kill (kern_memorystatus.c:6270–6311)

    /// A highwater victim is spared by its purge only when its footprint is then within its limit, whatever available
    /// memory says; here the purge lifts available memory above the soft threshold (which spares the victims of
    /// every other reason), but volatile memory is no footprint, so the app stays over its limit and dies.
    @Test func aHighwaterVictimIsSparedOnlyWithinItsLimit() throws {
        var d = device(reaper: false)
        d.compressor.enabled = true   // so volatile memory is not available memory
        d.appLimitActiveBytes = mb(300)
        d.appLimitInactiveBytes = mb(300)
        d.appLimitFatal = false
        var h = try Harness(device: d, apps: [bareApp("hog", dirtyMB: 350) { $0.purgeableBytes = mb(100) },
                                              bareApp("fg", dirtyMB: 420)], policy: XNUPolicy())
        h.open("hog", at: 0)
        h.bgTask("hog", seconds: 600, at: 1)
        h.open("fg", at: 2)         // hog runs on in the background at 350 MB, over its 300 MB soft limit, with 100 MB
                                    // volatile; available 130 MB < soft: highwater. The purge makes it 230 MB.
        let r = h.finish()
        #expect(r.kills.map(\.reason) == [.highwater])
        #expect(r.killsAvoidedByPurge == 0)
    }

    // MARK: Sustained pressure (kern_memorystatus_notify.c)

    /// A chain kills at most 2 × the apps in band 0 at its start (notify.c:1309), one every 500 ms (1313): one idle
    /// app at the start allows two kills, and a third app reaching band 0 after that lives.
    @Test func aSustainedChainKillsAtMostTwiceTheIdleBandItStartedWith() throws {
        var h = try Harness(device: device(reaper: false),
                            apps: [bareApp("a", dirtyMB: 20), bareApp("b", dirtyMB: 10), bareApp("c", dirtyMB: 10),
                                   bareApp("fg", dirtyMB: 840)], policy: XNUPolicy())
        h.open("a", at: 0)
        h.open("fg", at: 1)         // available 140 < soft: warning; a in band 0 from 3 s; the chain is due at 601 s
        h.open("b", at: 599.0)
        h.open("fg", at: 599.3)     // b in band 0 from 601.3 s
        h.open("c", at: 599.6)
        h.open("fg", at: 599.9)     // c in band 0 from 601.9 s; available 120 MB, above idle
        h.event(700, .alloc, "fg", value: 0)
        #expect(h.state("c") == .suspended)
        let r = h.finish()
        #expect(r.kills.map { h.catalog.profiles[Int($0.app)].name } == ["a", "b"])
        #expect(r.kills.allSatisfy { $0.reason == .sustainedMemoryPressure })
        #expect(r.kills.map(\.time) == [sec(601), sec(601) + 500_000])
    }

    // MARK: Pressure levels without the compressor (vm_pageout.c:10001–10060)

    /// Compressor off: warning below the soft threshold, normal again only above 115 % of it (vm_pageout.c:10041–10049);
    /// the engine used to ask for 120 %.
    @Test func withoutTheCompressorWarningEndsAbove115PercentOfSoft() throws {
        var h = try Harness(device: device(reaper: false), apps: [bareApp("fg", dirtyMB: 820)], policy: XNUPolicy())
        h.open("fg", at: 0)
        h.alloc("fg", mb: 40, at: 1)               // available 140 < 150: warning
        #expect(h.sim.pressureLevel == .warning)
        h.alloc("fg", mb: -30, at: 2)              // 170: above soft, not above 172.5
        #expect(h.sim.pressureLevel == .warning)
        h.alloc("fg", mb: -5, at: 3)               // 175 > 172.5: normal
        #expect(h.sim.pressureLevel == .normal)
    }

    /// Compressor off, the kernel built with the freezer (as iOS's is): no warning below the soft threshold while
    /// four or more apps are suspended (`MEMORYSTATUS_SUSPENDED_THRESHOLD`, vm_pageout.c:148, 10007–10013): they
    /// are there to be killed.
    @Test func withoutTheCompressorFourSuspendedAppsHoldOffTheWarning() throws {
        var h = try Harness(device: device(reaper: false),
                            apps: ["a", "b", "c", "d"].map { bareApp($0, dirtyMB: 10) } + [bareApp("fg", dirtyMB: 830)],
                            policy: XNUPolicy())
        for (k, n) in ["a", "b", "c", "d"].enumerated() { h.open(n, at: Double(k)) }
        h.open("fg", at: 4)                        // four suspended; available 130 < soft
        #expect(h.sim.availableBytes == mb(130))
        #expect(h.sim.pressureLevel == .normal)
        h.event(5, .quit, "a")                     // three suspended; available 140
        #expect(h.sim.pressureLevel == .warning)
    }
}

/// Rule 10 of issue 18: a page fault waits while the VM makes room, so kills come before the grant.
@Suite struct PageFaultTests {
    /// An 800 MB cold launch with 700 MB free: the idle app is killed *before* the launch's pages are granted, with
    /// no free pages left but none owed either (the engine used to grant first and report −100 MB available), and
    /// the app being launched is no candidate.
    @Test func aColdLaunchIsGrantedOnlyAfterTheKillsItNeeds() throws {
        var d = testDevice(limitMB: 2000)
        d.reaper.enabled = false
        var h = try Harness(device: d, apps: [bareApp("idle", dirtyMB: 300), bareApp("big", dirtyMB: 800)], policy: XNUPolicy())
        h.open("idle", at: 0)
        h.home(at: 1)
        h.open("big", at: 10)
        #expect(h.state("idle") == .notRunning && h.state("big") == .active)
        let r = h.finish()
        #expect(r.kills.count == 1)
        #expect(r.kills.allSatisfy { $0.availableBefore >= 0 && $0.app == h.id("idle") })
        #expect(r.kills.first?.reason == .vmPageShortage)   // no free pages: below critical
    }

    /// An `alloc` beyond the free pages likewise: the suspended app goes first, and available memory is never
    /// negative in a kill record.
    @Test func anAllocationBeyondTheFreePagesWaitsForKills() throws {
        var d = testDevice(limitMB: 2000)
        d.reaper.enabled = false
        var h = try Harness(device: d, apps: [bareApp("a", dirtyMB: 200), bareApp("b", dirtyMB: 200), bareApp("fg", dirtyMB: 400)],
                            policy: XNUPolicy())
        h.open("a", at: 0)
        h.open("b", at: 1)
        h.open("fg", at: 2)              // 800 used, 200 free
        h.alloc("fg", mb: 350, at: 10)   // 150 MB more than is free
        let r = h.finish()
        #expect(!r.kills.isEmpty)
        #expect(r.kills.allSatisfy { $0.availableBefore >= 0 && $0.app != h.id("fg") })
        #expect(h.state("fg") == .active)
    }

    /// The app asking can itself be the walk's victim (here in band 40, below the foreground's 100 and audio's 120):
    /// once it is gone, nothing more is killed for its pages.
    @Test func whenTheAppAskingDiesNothingMoreIsKilledForIt() throws {
        var d = testDevice(limitMB: 2000)
        d.reaper.enabled = false
        var h = try Harness(device: d, apps: [bareApp("music", dirtyMB: 100) { $0.backgroundModes = [.audio] },
                                              bareApp("worker", dirtyMB: 100), bareApp("fg", dirtyMB: 300)], policy: XNUPolicy())
        h.open("music", at: 0)
        h.mode("music", .audio, start: true, at: 1)
        h.open("worker", at: 2)
        h.bgTask("worker", seconds: 600, at: 3)
        h.open("fg", at: 4)              // 500 MB used
        h.alloc("worker", mb: 600, at: 5)   // 100 MB more than is free: the walk reaches band 40 first
        #expect(h.state("worker") == .notRunning)
        #expect(h.state("fg") == .active && h.state("music") == .background)
        let r = h.finish()
        #expect(r.kills.map { h.catalog.profiles[Int($0.app)].name } == ["worker"])
        #expect(r.oomEvents == 0)
    }

    /// A resume is a page fault too: the app is put in front (band 100) first, then what it rebuilds comes back once
    /// the VM has made room, so the idle app goes with no free pages left, not on credit (the engine used to rebuild
    /// first and kill at −50 MB available).
    @Test func aResumeWaitsForRoomInTheForegroundBand() throws {
        var d = testDevice(limitMB: 2000)
        d.reaper.enabled = false
        var h = try Harness(device: d, apps: [bareApp("back", dirtyMB: 300) { $0.backingStoreBytes = mb(350) },
                                              bareApp("idle", dirtyMB: 100), bareApp("fg", dirtyMB: 300)], policy: XNUPolicy())
        h.open("back", at: 0)
        h.open("idle", at: 10)          // back suspended, its 350 MB of backing stores discarded
        h.open("fg", at: 20)            // 700 MB used, 300 MB free
        h.open("back", at: 30)          // 350 MB to rebuild: 50 MB more than is free
        #expect(h.state("back") == .active)
        let r = h.finish()
        #expect(r.kills.map { h.catalog.profiles[Int($0.app)].name } == ["idle"])
        #expect(r.kills.allSatisfy { $0.availableBefore >= 0 })
    }
}

/// Highwater takes any app over its current limit, fatal or not (kern_memorystatus.c:7010–7016): a suspended app
/// whose limit fell under its footprint (the inactive limit, only set) is the first to go once memory is short.
@Suite struct HighwaterTests {
    @Test func aSuspendedAppOverItsLoweredFatalLimitIsTheFirstHighwaterVictim() throws {
        var d = testDevice(limitMB: 600)
        d.appLimitInactiveBytes = mb(150)
        d.reaper.enabled = false
        var h = try Harness(device: d, apps: [bareApp("old", dirtyMB: 100), bareApp("over", dirtyMB: 200),
                                              bareApp("fg", dirtyMB: 560)], policy: XNUPolicy())
        h.open("old", at: 0)
        h.open("over", at: 10)          // old suspended (100 MB, under 150)
        h.open("fg", at: 20)            // over suspended at 200 MB, over its 150 MB inactive limit; 860 used:
                                        // available 140 < soft: over goes for highwater, though old is older
        #expect(h.state("over") == .notRunning && h.state("old") == .suspended)
        #expect(h.finish().kills.map(\.reason) == [.highwater])
    }
}
