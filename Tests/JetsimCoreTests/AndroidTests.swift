@testable import JetsimCore
import Testing

/// Android 4.x as a platform (README, "Android 4.x"): ProcessList's minfree levels, ActivityManager's oom_adj
/// assignment and caps, and the kernel's lowmemorykiller walk. The sources each rule follows are cited in
/// `AndroidDevice.swift` and `Simulator+Android.swift`; the same rules run as files in Tests/Scenarios/android-*.
@Suite struct AndroidTests {
    /// 1000 MB, no OS reserve, minfree levels (oom_adj ≥ 0, 1, 2, 3, 9, 15) at 50 … 300 MB, or as given.
    func device(minfreeMB: [Int] = [50, 100, 150, 200, 250, 300], processLimit: Int = 24) -> Device {
        var d = Device.androidPhone(name: "android-test", physicalBytes: mb(1000), release: .kitKat)
        d.reserveBytes = 0
        for (k, m) in minfreeMB.enumerated() { d.android.levels[k].minfreeBytes = mb(m) }
        d.android.processLimit = processLimit
        return d
    }

    func adj(_ h: Harness<XNUPolicy>, _ app: String) -> Int { h.sim.oomAdj(of: h.id(app)) }

    // MARK: ProcessList's levels

    /// `updateOomLevels`: from 700 MB on, the high table in 4 KiB pages — the Nexus 4's Jelly Bean levels and the
    /// Nexus 5's KitKat ones; at 512 MB, 53 % of the way from the low table (8192 + 40960 × 0.53 = 29900 KiB).
    @Test func processListScalesTheMinfreeLevelsByRAM() throws {
        func pages(_ d: Device) -> [Int] { d.android.levels.map { $0.minfreeBytes / 4096 } }
        let nexus4 = try #require(DevicePresets.named("nexus-4")), nexus5 = try #require(DevicePresets.named("Nexus-5"))
        #expect(pages(nexus4) == [8192, 10240, 12288, 14336, 16384, 20480])
        #expect(nexus4.android.levels.map(\.oomAdj) == [0, 1, 2, 4, 9, 15])
        #expect(pages(nexus5) == [12288, 15360, 18432, 21504, 24576, 30720])
        #expect(nexus5.android.levels.map(\.oomAdj) == [0, 1, 2, 3, 9, 15])
        #expect(nexus5.platform == .android && nexus5.pageSize == 4096 && !nexus5.compressor.enabled && !nexus5.freezer.enabled
                && !nexus5.reaper.enabled && nexus5.validationProblems().isEmpty)
        let small = Device.AndroidRelease.kitKat.levels(totalBytes: mb(512))
        #expect(small.first?.minfreeBytes == 29900 / 4 * 4096)
        #expect(Device.AndroidRelease.kitKat.levels(totalBytes: mb(256)).map { $0.minfreeBytes / 1024 } == [8192, 12288, 16384, 24576, 28672, 32768])
        #expect(DevicePresets.names.contains("nexus-4") && DevicePresets.all.contains { $0.name == "nexus-5" })
        #expect(DevicePresets.named("iphone-x")?.platform == .ios)
    }

    @Test func anAndroidDeviceRefusesXNUsMachinery() {
        var d = device()
        d.compressor.enabled = true
        d.reaper.enabled = true
        d.android.levels.swapAt(0, 5)
        let problems = d.validationProblems()
        #expect(problems.contains { $0.contains("no memory compressor") } && problems.contains { $0.contains("reaper") }
                && problems.contains { $0.contains("ascending") })
    }

    // MARK: ActivityManager's oom_adj

    /// computeOomAdjLocked: the top app 0, covered by an interruption 1, audio (a foreground service) 2, a background task
    /// (a started service) 5, the previous app 7; the rest cached.
    @Test func activityManagerGivesEachStateItsAdjustment() throws {
        let apps = ["fg", "music", "worker", "prev", "old"].map { bareApp($0, dirtyMB: 10) { $0.backgroundModes = [.audio] } }
        var h = try Harness(device: device(), apps: apps, policy: XNUPolicy())
        h.open("old", at: 0)
        h.open("music", at: 1)
        h.mode("music", .audio, start: true, at: 2)
        h.open("worker", at: 3)
        h.bgTask("worker", seconds: 1000, at: 4)
        h.open("prev", at: 5)
        h.open("fg", at: 6)
        #expect(adj(h, "fg") == 0 && adj(h, "music") == 2 && adj(h, "worker") == 5 && adj(h, "prev") == 7 && adj(h, "old") == 9)
        h.event(7, .interrupt, "fg", value: sec(10))
        #expect(adj(h, "fg") == 1)
        // To the home screen: the app left is the previous one; from there into another app, the launcher is.
        h.home(at: 20)
        #expect(adj(h, "fg") == 7 && adj(h, "prev") == 9)
        h.open("old", at: 21)
        #expect(adj(h, "old") == 0 && adj(h, "fg") == 9 && adj(h, "prev") == 10)
    }

    /// updateOomAdjLocked: cached processes holding activities step 9, 10, 12, 14, 15, `cached / 3` to a step, most
    /// recent first; empty ones (started for a background wake, never opened) 9, 11, 13, 15.
    @Test func cachedProcessesSpreadOverTheCachedRangeByRecency() throws {
        let names = (0..<9).map { "a\($0)" } + ["e0", "e1", "e2"]
        var h = try Harness(device: device(minfreeMB: [1, 2, 3, 4, 5, 6]), apps: names.map { bareApp($0, dirtyMB: 10) }, policy: XNUPolicy())
        for k in 0..<9 { h.open("a\(k)", at: Double(k)) }   // a8 on top, a7 previous, a6 … a0 cached (7)
        #expect((0...6).reversed().map { adj(h, "a\($0)") } == [9, 9, 10, 10, 12, 12, 14])
        for k in 0..<3 { h.bgLaunch("e\(k)", seconds: 1, at: 10 + Double(k)) }
        #expect(adj(h, "e2") == 5)   // running its wake: a service
        h.event(20, .alloc, "a8", value: 0)
        #expect([2, 1, 0].map { adj(h, "e\($0)") } == [9, 11, 13])
    }

    /// Beyond `cachedProcessLimit` (24 − 24 × 2 / 3 = 8 by default) ActivityManager kills the oldest cached processes.
    @Test func theCachedCapKillsTheOldestBeyondIt() throws {
        let names = (0..<11).map { "a\($0)" }
        var h = try Harness(device: device(minfreeMB: [1, 2, 3, 4, 5, 6]), apps: names.map { bareApp($0, dirtyMB: 10) }, policy: XNUPolicy())
        for k in 0..<11 { h.open("a\(k)", at: Double(k)) }   // 9 cached after a10 opens: a0 is the ninth
        let r = h.finish()
        #expect(r.kills.map { h.catalog.profiles[Int($0.app)].name } == ["a0"])
        #expect(r.kills.first?.reason == .cachedProcessLimit && r.kills.first?.time == sec(10))
        #expect(Device.AndroidSettings().cachedProcessLimit == 8 && Device.AndroidSettings().emptyProcessLimit == 16)
    }

    /// `finish` (Back from the root activity): the process lives on without an activity, so it counts against the
    /// empty-process cap (16), not the cached one (8). Eleven apps opened then finished one by one: none is killed,
    /// where eleven left with `open` lose a0 (`theCachedCapKillsTheOldestBeyondIt`); they take the empty slots 9, 11, 13.
    @Test func aFinishedAppIsAnEmptyProcessUnderTheEmptyCap() throws {
        let names = (0..<11).map { "a\($0)" }
        var h = try Harness(device: device(minfreeMB: [1, 2, 3, 4, 5, 6]), apps: names.map { bareApp($0, dirtyMB: 10) }, policy: XNUPolicy())
        for k in 0..<11 {
            h.open("a\(k)", at: Double(k))
            h.event(Double(k) + 0.5, .finish, "a\(k)")
        }
        #expect(h.sim.foreground == -1)   // Back from the last one: the home screen
        #expect(adj(h, "a10") == 9 && adj(h, "a0") >= 13)
        #expect(h.finish().kills.isEmpty)
    }

    /// `updateOomAdjLocked`'s idle rule: an empty process idle more than `MAX_EMPTY_TIME` (30 min) is killed ("empty
    /// for Ns") once more than `TRIM_EMPTY_APPS` (0 here) more recent empty ones have been counted — at that moment,
    /// with no event to wake the model: a recheck is kept for it. The most recent empty process is spared however long
    /// it idles (the check precedes the count).
    @Test func anEmptyProcessIdleForThirtyMinutesBeyondTheTrimCountIsKilled() throws {
        var d = device(minfreeMB: [1, 2, 3, 4, 5, 6])
        d.android.emptyProcessTrimCount = 0
        var h = try Harness(device: d, apps: ["a", "b", "c"].map { bareApp($0, dirtyMB: 10) }, policy: XNUPolicy())
        h.open("a", at: 0)
        h.event(10, .finish, "a")   // a: empty, idle since 10 s
        h.open("b", at: 20)
        h.event(30, .finish, "b")   // b: the most recent empty one; a is the second
        h.open("c", at: 40)         // the trace goes on with c in front
        h.event(4000, .alloc, "c", value: 0)
        let r = h.finish()
        #expect(r.kills.map { h.catalog.profiles[Int($0.app)].name } == ["a"])
        #expect(r.kills.first?.reason == .emptyProcessIdle && r.kills.first?.time == sec(10) + 30 * 60 * 1_000_000 + 1)
        #expect(Device.androidPhone(name: "jb", physicalBytes: mb(2048), release: .jellyBean).android.emptyProcessTrimCount == 3)
        #expect(Device.androidPhone(name: "kk", physicalBytes: mb(2048), release: .kitKat).android.emptyProcessTrimCount == 8)
    }

    /// On iOS there is no Back: `finish` of the foreground app is `home`, of a background one nothing (ignored).
    @Test func finishOnIOSIsHomeForTheForegroundAppAndNothingElse() throws {
        var h = try Harness(device: Device(name: "ios", physicalBytes: mb(1000), appLimitBytes: mb(500)),
                            apps: ["a", "b"].map { bareApp($0, dirtyMB: 10) }, policy: XNUPolicy())
        h.open("a", at: 0)
        h.open("b", at: 1)
        h.event(2, .finish, "a")
        h.event(3, .finish, "b")
        #expect(h.sim.foreground == -1 && h.state("a") == .suspended && h.state("b") != .active)
        #expect(h.finish().ignoredEvents == 1)
    }

    // MARK: The lowmemorykiller

    /// lowmem_shrink's walk: the first level (ascending minfree) with free memory *and* file cache below it; file cache
    /// above every minfree holds every kill off however little is free.
    @Test func aLevelNeedsBothFreeMemoryAndFileCacheBelowItsMinfree() throws {
        let apps = [bareApp("files", dirtyMB: 100) { $0.fileBackedBytes = mb(400) }, bareApp("fg", dirtyMB: 400) { $0.maxDirtyBytes = mb(2000) }]
        var h = try Harness(device: device(), apps: apps, policy: XNUPolicy())
        h.open("files", at: 0)
        h.open("fg", at: 1)                  // 100 MB free, 400 MB of file cache: no level
        #expect(h.sim.lowMemoryKillerLevel() == nil)
        h.alloc("fg", mb: 150, at: 2)        // free runs out; the VM takes 50 MB of file pages: 0 free, 350 file
        #expect(h.sim.freeBytes == 0 && h.sim.lowMemoryKillerLevel() == nil && h.state("files") == .suspended)
        h.alloc("fg", mb: 100, at: 3)        // 250 MB of file cache left: below level 5's 300 (adj ≥ 15): nobody there
        #expect(h.sim.lowMemoryKillerLevel() == 5 && h.state("files") == .suspended)
        h.alloc("fg", mb: 100, at: 4)        // 150 MB: below level 3's 200 (adj ≥ 3): the previous app goes
        let r = h.finish()
        #expect(r.kills.map(\.reason) == [.lmkLevel3] && r.kills.first?.band == 7)
        #expect(r.memoryWarnings == 0 && r.compressedBytes == 0 && r.microsAtWarning == 0)
    }

    /// The victim: the highest oom_adj at or above the level's, the largest RSS within it; one at a time, each kill
    /// seen before the next level is found.
    @Test func theVictimIsTheHighestAdjustmentThenTheLargest() throws {
        let apps = [bareApp("w1", dirtyMB: 100), bareApp("w2", dirtyMB: 150), bareApp("cached", dirtyMB: 50),
                    bareApp("fg", dirtyMB: 550) { $0.maxDirtyBytes = mb(2000) }]
        var h = try Harness(device: device(), apps: apps, policy: XNUPolicy())
        h.open("cached", at: 0)
        h.open("w1", at: 1)
        h.bgTask("w1", seconds: 1000, at: 2)
        h.open("w2", at: 3)
        h.bgTask("w2", seconds: 1000, at: 4)
        h.open("fg", at: 5)                  // 150 MB free: level 3 (adj ≥ 3): cached (9, 50 MB) before the services
        h.alloc("fg", mb: 50, at: 6)         // 150 MB free again: level 3: the larger service, w2 (150 MB)
        let r = h.finish()
        #expect(r.kills.map { h.catalog.profiles[Int($0.app)].name } == ["cached", "w2"])
        #expect(r.kills.map(\.band) == [9, 5] && r.kills.allSatisfy { $0.reason == .lmkLevel3 })
        #expect(r.kills.map(\.availableBefore) == [mb(150), mb(150)])
    }

    /// The same workload on an iOS device and on an Android one kills differently: the platform, not the policy,
    /// decides (the complaint of issue 22: `lmkd` and `xnu` gave identical kills).
    @Test func theAndroidPlatformIsNotXNUWithAnotherRanking() throws {
        let apps = [bareApp("a", dirtyMB: 300), bareApp("b", dirtyMB: 300), bareApp("fg", dirtyMB: 310)]
        func kills(_ device: Device) throws -> [KillReason] {
            var h = try Harness(device: device, apps: apps, policy: XNUPolicy())
            h.open("a", at: 0)
            h.open("b", at: 1)
            h.open("fg", at: 2)
            h.event(10, .alloc, "fg", value: 0)
            return h.finish().kills.map(\.reason)
        }
        // 90 MB free: level 1 (adj ≥ 1) at once on Android; below XNU's idle threshold (100 MB) on iOS, once a is idle.
        #expect(try kills(device()) == [.lmkLevel1])
        #expect(try kills(testDevice()) == [.idleExit])
    }
}
