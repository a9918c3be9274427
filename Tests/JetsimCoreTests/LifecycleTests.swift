@testable import JetsimCore
import Testing

/// Every row of ios-app-lifecycle.md's transition table, with its callbacks in order and their deadlines.
@Suite struct LifecycleTests {
    func harness(_ apps: [AppProfile], device: Device = testDevice()) throws -> Harness<XNUPolicy> {
        try Harness(device: device, apps: apps, policy: XNUPolicy())
    }

    @Test func coldLaunchGoesThroughInactiveToActiveWithLaunchCallbacks() throws {
        var h = try harness([bareApp("a", dirtyMB: 50)])
        h.open("a", at: 0)
        #expect(h.steps("a") == [
            Step(.notRunning, .inactive, .willFinishLaunching),
            Step(.inactive, .inactive, .didFinishLaunching),
            Step(.inactive, .active, .didBecomeActive),
        ])
        // The launch callbacks carry the watchdog's deadline.
        #expect(h.records("a").prefix(2).map(\.deadlineMicros) == [sec(20), sec(20)])
        #expect(h.state("a") == .active)
        #expect(h.sim.priorityClass(of: h.id("a")) == .foreground)
    }

    @Test func leavingTheForegroundResignsEntersBackgroundAndIsSuspendedWithoutNotice() throws {
        var h = try harness([bareApp("a", dirtyMB: 50)])
        h.open("a", at: 0)
        h.home(at: 10)
        #expect(Array(h.steps("a").dropFirst(3)) == [
            Step(.active, .inactive, .willResignActive),
            Step(.inactive, .background, .didEnterBackground),
            Step(.background, .suspended, .none),
        ])
        let enter = h.records("a").first { $0.callback == .didEnterBackground }
        #expect(enter?.deadlineMicros == sec(5))
        #expect(h.state("a") == .suspended)
    }

    @Test func openingAnotherAppMakesThePreviousOneLeave() throws {
        var h = try harness([bareApp("a", dirtyMB: 50), bareApp("b", dirtyMB: 50)])
        h.open("a", at: 0)
        h.open("b", at: 5)
        #expect(h.state("a") == .suspended)
        #expect(h.state("b") == .active)
        // a leaves before b launches.
        let order = h.sim.observer.records.filter { $0.time == sec(5) }.map { h.catalog.profiles[Int($0.app)].name }
        #expect(order.first == "a" && order.last == "b")
    }

    @Test func returnToForegroundFromSuspendedIsAResume() throws {
        var h = try harness([bareApp("a", dirtyMB: 50)])
        h.open("a", at: 0)
        h.home(at: 10)
        h.open("a", at: 20)
        #expect(Array(h.steps("a").suffix(2)) == [
            Step(.suspended, .inactive, .willEnterForeground),
            Step(.inactive, .active, .didBecomeActive),
        ])
        let r = h.finish()
        #expect(r.coldLaunches == 1 && r.resumes == 1 && r.launches == 2)
    }

    @Test func interruptionMakesTheAppInactiveThenActiveAgain() throws {
        var h = try harness([bareApp("a", dirtyMB: 50)])
        h.open("a", at: 0)
        h.event(10, .interrupt, "a", value: sec(30))
        #expect(h.state("a") == .inactive)
        h.event(39, .alloc, "a", value: 0)
        #expect(h.state("a") == .inactive)
        h.event(41, .alloc, "a", value: 0)
        #expect(h.state("a") == .active)
        #expect(Array(h.steps("a").suffix(2)) == [
            Step(.active, .inactive, .willResignActive),
            Step(.inactive, .active, .didBecomeActive),
        ])
    }

    @Test func interruptedAppThatLeavesGoesStraightToBackground() throws {
        var h = try harness([bareApp("a", dirtyMB: 50)])
        h.open("a", at: 0)
        h.event(10, .interrupt, "a", value: sec(30))
        h.home(at: 20)
        h.event(60, .alloc, "a", value: 0)   // the interruption's end must not reactivate it
        #expect(Array(h.steps("a").suffix(3)) == [
            Step(.active, .inactive, .willResignActive),
            Step(.inactive, .background, .didEnterBackground),
            Step(.background, .suspended, .none),
        ])
    }

    @Test func backgroundLaunchSkipsInactiveAndEndsSuspended() throws {
        var h = try harness([bareApp("a", dirtyMB: 50) { $0.backgroundModes = [.fetch] }])
        h.bgLaunch("a", seconds: 20, at: 0)
        #expect(h.state("a") == .background)
        #expect(h.steps("a") == [
            Step(.notRunning, .background, .willFinishLaunching),
            Step(.background, .background, .didFinishLaunching),
        ])
        h.event(21, .alloc, "a", value: 0)
        #expect(h.state("a") == .suspended)
        let r = h.finish()
        #expect(r.backgroundLaunches == 1 && r.launches == 0)
    }

    @Test func backgroundWakeOfASuspendedAppRunsThenSuspendsAgain() throws {
        var h = try harness([bareApp("a", dirtyMB: 50)])
        h.open("a", at: 0)
        h.home(at: 5)
        h.bgLaunch("a", seconds: 10, at: 100)
        #expect(h.steps("a").last == Step(.suspended, .background, .performBackgroundWake))
        #expect(h.sim.priorityClass(of: h.id("a")) == .backgroundWork)
        h.event(111, .alloc, "a", value: 0)
        #expect(h.state("a") == .suspended)
    }

    @Test func backgroundTaskKeepsTheAppRunningUntilItsWorkEnds() throws {
        var h = try harness([bareApp("a", dirtyMB: 50)])
        h.open("a", at: 0)
        h.bgTask("a", seconds: 20, at: 5)
        h.home(at: 10)
        #expect(h.state("a") == .background)
        #expect(h.sim.priorityClass(of: h.id("a")) == .backgroundWork)
        h.event(24, .alloc, "a", value: 0)
        #expect(h.state("a") == .background)
        h.event(26, .alloc, "a", value: 0)   // work ended at 25 s
        #expect(h.state("a") == .suspended)
    }

    @Test func aSuspendedAppCannotBeginABackgroundTask() throws {
        var h = try harness([bareApp("a", dirtyMB: 50)])
        h.open("a", at: 0)
        h.home(at: 10)
        h.bgTask("a", seconds: 100, at: 11)
        #expect(h.state("a") == .suspended)
        #expect(h.finish().ignoredEvents == 1)
    }

    @Test func catalogBackgroundTaskStartsOnLeaving() throws {
        var h = try harness([bareApp("a", dirtyMB: 50) { $0.backgroundTaskMicros = sec(8) }])
        h.open("a", at: 0)
        h.home(at: 10)
        #expect(h.state("a") == .background)
        h.event(18.5, .alloc, "a", value: 0)
        #expect(h.state("a") == .suspended)
        #expect(h.records("a").last?.time == sec(18))
    }

    @Test func expiredTaskOfAWellBehavedAppIsEndedAndTheAppSuspended() throws {
        var h = try harness([bareApp("a", dirtyMB: 50) { $0.endsTaskOnExpiry = true }])
        h.open("a", at: 0)
        h.bgTask("a", seconds: 100, at: 9)
        h.home(at: 10)
        h.event(39, .alloc, "a", value: 0)
        #expect(h.state("a") == .background)
        h.event(41, .alloc, "a", value: 0)   // 30 s budget from 10 s
        #expect(h.state("a") == .suspended)
        let expiry = h.records("a").first { $0.callback == .backgroundTaskExpiration }
        #expect(expiry?.time == sec(40))
        #expect(h.finish().totalKills == 0)
    }

    @Test func expiredTaskOfAnAppThatDoesNotEndItIsTerminatedWithoutWillTerminate() throws {
        var h = try harness([bareApp("a", dirtyMB: 50) { $0.endsTaskOnExpiry = false }])
        h.open("a", at: 0)
        h.bgTask("a", seconds: 100, at: 9)
        h.home(at: 10)
        h.event(41, .alloc, "a", value: 0)
        #expect(h.state("a") == .notRunning)
        #expect(!h.steps("a").contains { $0.callback == .willTerminate })
        let r = h.finish()
        #expect(r.killsByReason[.backgroundTaskExpired] == 1)
        #expect(r.kills.first?.userVisible == true)
    }

    @Test func afterAnExpiryNoNewTaskIsGrantedUntilTheForegroundAgain() throws {
        var h = try harness([bareApp("a", dirtyMB: 50)])
        h.open("a", at: 0)
        h.bgTask("a", seconds: 100, at: 9)
        h.home(at: 10)
        h.event(41, .alloc, "a", value: 0)        // expired, suspended
        h.bgLaunch("a", seconds: 5, at: 50)       // woken …
        h.bgTask("a", seconds: 60, at: 51)        // … asks again: refused (the tutorial's bug)
        h.event(56, .alloc, "a", value: 0)
        #expect(h.state("a") == .suspended)
        h.open("a", at: 60)
        h.bgTask("a", seconds: 20, at: 61)
        h.home(at: 62)
        #expect(h.state("a") == .background)     // granted again after the foreground
    }

    @Test func osEraSetsTheBackgroundTaskBudget() throws {
        var device = testDevice()
        device.backgroundTaskBudgetMicros = Device.OSEra.ios7.backgroundTaskBudgetMicros
        var h = try harness([bareApp("a", dirtyMB: 50) { $0.endsTaskOnExpiry = false }], device: device)
        h.open("a", at: 0)
        h.bgTask("a", seconds: 150, at: 10)
        h.home(at: 10)
        h.event(100, .alloc, "a", value: 0)
        #expect(h.state("a") == .background)       // 180 s budget: still running at 90 s
        h.event(165, .alloc, "a", value: 0)
        #expect(h.state("a") == .suspended)        // work done at 160 s, before the budget
        #expect(Device.OSEra.ios6.backgroundTaskBudgetMicros == sec(600))
        #expect(Device.OSEra.ios13.backgroundTaskBudgetMicros == sec(30))
    }

    @Test func declaredLongRunningModeKeepsTheAppRunningInItsBand() throws {
        var h = try harness([bareApp("music", dirtyMB: 50) { $0.backgroundModes = [.audio] },
                             bareApp("maps", dirtyMB: 50) { $0.backgroundModes = [.location] }])
        h.open("music", at: 0)
        h.mode("music", .audio, start: true, at: 1)
        h.open("maps", at: 5)
        h.mode("maps", .location, start: true, at: 6)
        h.home(at: 10)
        #expect(h.state("music") == .background && h.state("maps") == .background)
        #expect(h.sim.band(of: h.id("music")) == 120)
        #expect(h.sim.band(of: h.id("maps")) == 40)
        h.mode("music", .audio, start: false, at: 20)
        #expect(h.state("music") == .suspended)
    }

    @Test func undeclaredModeDoesNotKeepTheAppRunning() throws {
        var h = try harness([bareApp("a", dirtyMB: 50)])
        h.open("a", at: 0)
        h.mode("a", .audio, start: true, at: 1)
        h.home(at: 10)
        #expect(h.state("a") == .suspended)
        #expect(h.finish().ignoredEvents == 1)
    }

    @Test func exitsOnSuspendAppTerminatesWithWillTerminate() throws {
        var h = try harness([bareApp("bank", dirtyMB: 50) { $0.exitsOnSuspend = true }])
        h.open("bank", at: 0)
        h.home(at: 10)
        #expect(Array(h.steps("bank").suffix(2)) == [
            Step(.active, .inactive, .willResignActive),
            Step(.inactive, .notRunning, .willTerminate),
        ])
        #expect(h.records("bank").last?.deadlineMicros == sec(5))
        #expect(!h.steps("bank").contains { $0.to == .background })
        let r = h.finish()
        #expect(r.terminations == 1 && r.totalKills == 0)
        #expect(h.sim.freeBytes == mb(1000))
    }

    @Test func forceQuitCallsWillTerminateOnlyForRunningApps() throws {
        var h = try harness([bareApp("running", dirtyMB: 50) { $0.backgroundModes = [.audio] },
                             bareApp("suspended", dirtyMB: 50)])
        h.open("running", at: 0)
        h.mode("running", .audio, start: true, at: 1)
        h.open("suspended", at: 2)
        h.home(at: 3)
        h.event(10, .quit, "running")
        h.event(11, .quit, "suspended")
        #expect(h.steps("running").last == Step(.background, .notRunning, .willTerminate))
        #expect(h.steps("suspended").last == Step(.suspended, .notRunning, .none))
        #expect(h.records("suspended").last?.cause == .forceQuit)
    }

    @Test func launchWatchdogKillsALaunchLongerThanTwentySeconds() throws {
        var h = try harness([bareApp("slow", dirtyMB: 50) { $0.coldLaunchMillis = 25_000 }])
        h.open("slow", at: 0)
        #expect(h.state("slow") == .inactive)   // never becomes active
        h.event(19, .alloc, "slow", value: 0)
        #expect(h.state("slow") == .inactive)
        h.event(21, .alloc, "slow", value: 0)
        #expect(h.state("slow") == .notRunning)
        let r = h.finish()
        #expect(r.killsByReason[.launchWatchdog] == 1)
        #expect(r.kills.first?.time == sec(20))
        #expect(r.p95LaunchMillis == 20_000)    // the user waited for the watchdog
    }

    @Test func launchWithinTheWatchdogIsNotKilled() throws {
        var h = try harness([bareApp("ok", dirtyMB: 50) { $0.coldLaunchMillis = 19_000 }])
        h.open("ok", at: 0)
        h.event(30, .alloc, "ok", value: 0)
        #expect(h.state("ok") == .active)
    }

    @Test func jetsamKillOfASuspendedAppHasNoCallback() throws {
        var h = try harness([bareApp("victim", dirtyMB: 300), bareApp("big", dirtyMB: 600)])
        h.open("victim", at: 0)
        h.home(at: 10)
        h.open("big", at: 20)       // 900 MB of 1000: available 100 < idle 100 MB? (10 % = 100 MB)
        h.alloc("big", mb: 10, at: 21)
        #expect(h.state("victim") == .notRunning)
        #expect(h.steps("victim").last == Step(.suspended, .notRunning, .none))
        #expect(!h.steps("victim").contains { $0.callback == .willTerminate })
    }

    @Test func everyRecordedTransitionIsLegal() throws {
        var h = try harness([
            bareApp("a", dirtyMB: 200) { $0.backgroundModes = [.audio]; $0.backgroundTaskMicros = sec(40) },
            bareApp("b", dirtyMB: 300) { $0.exitsOnSuspend = false; $0.endsTaskOnExpiry = false },
            bareApp("c", dirtyMB: 400) { $0.coldLaunchMillis = 30_000 },
        ])
        var t = 0.0
        let names = ["a", "b", "c"]
        for round in 0..<60 {
            let app = names[round % 3]
            t += 7
            switch round % 7 {
            case 0: h.open(app, at: t)
            case 1: h.home(at: t)
            case 2: h.bgTask(app, seconds: 50, at: t)
            case 3: h.bgLaunch(app, seconds: 15, at: t)
            case 4: h.alloc(app, mb: 30, at: t)
            case 5: h.mode(app, .audio, start: round % 2 == 0, at: t)
            default: h.event(t, .interrupt, app, value: sec(5))
            }
        }
        for r in h.sim.observer.records where r.from != r.to {
            #expect(LifecycleTransitions.isLegal(from: r.from, to: r.to, cause: r.cause), "\(r)")
        }
        // Active is never entered except from Inactive.
        #expect(!h.sim.observer.records.contains { $0.to == .active && $0.from != .inactive && $0.from != .active })
    }

    @Test func transitionTableRejectsShortcuts() {
        #expect(!LifecycleTransitions.isLegal(from: .notRunning, to: .active, cause: .user))
        #expect(!LifecycleTransitions.isLegal(from: .suspended, to: .active, cause: .user))
        #expect(!LifecycleTransitions.isLegal(from: .active, to: .background, cause: .user))
        #expect(!LifecycleTransitions.isLegal(from: .active, to: .notRunning, cause: .user))
        #expect(LifecycleTransitions.isLegal(from: .active, to: .notRunning, cause: .kill(.vmPageShortage)))
        #expect(LifecycleTransitions.isLegal(from: .notRunning, to: .background, cause: .system))
    }

    /// `applicationDidEnterBackground` has about 5 s (ios-app-lifecycle.md, the seed articles): the app stays in the
    /// Background while its handler runs and is suspended when it returns; one that overruns the deadline is
    /// terminated at it (`enter-background-watchdog`), not suspended.
    @Test func theEnterBackgroundHandlerDelaysSuspensionAndAnOverrunIsTerminated() throws {
        var h = try harness([bareApp("quick", dirtyMB: 50) { $0.enterBackgroundMicros = sec(3) },
                             bareApp("slow", dirtyMB: 50) { $0.enterBackgroundMicros = sec(7) },
                             bareApp("other", dirtyMB: 50)])
        h.open("quick", at: 0)
        h.home(at: 10)
        #expect(h.state("quick") == .background)
        h.open("slow", at: 12.9)
        #expect(h.state("quick") == .background)
        h.open("other", at: 20)              // slow's handler: 20 s … 25 s deadline, still running then
        #expect(h.state("quick") == .suspended)
        #expect(h.records("quick").first { $0.to == .suspended }?.time == sec(13))
        h.event(24.9, .alloc, "other", value: 0)
        #expect(h.state("slow") == .background)
        h.event(25.1, .alloc, "other", value: 0)
        #expect(h.state("slow") == .notRunning)
        let r = h.finish()
        #expect(r.kills.map(\.reason) == [.enterBackgroundWatchdog])
        #expect(r.kills.first?.time == sec(25))
        #expect(r.killsByReason[.enterBackgroundWatchdog] == 1 && r.jetsamKills == 0)
    }

    /// `applicationWillTerminate` has the same 5 s (the seed articles; ios-app-lifecycle.md): where a termination calls
    /// it, the process stays in the Background with its memory until the handler returns, then ends (a termination,
    /// not a kill); one that overruns the deadline is killed at it (`will-terminate-watchdog`).
    @Test func theWillTerminateHandlerHoldsTheProcessAndAnOverrunIsKilled() throws {
        var h = try harness([bareApp("bank", dirtyMB: 50) { $0.exitsOnSuspend = true; $0.willTerminateMicros = sec(2) },
                             bareApp("game", dirtyMB: 80) { $0.willTerminateMicros = sec(9) },
                             bareApp("other", dirtyMB: 50)])
        h.open("bank", at: 0)
        h.home(at: 10)                       // exits on suspend: willTerminate runs 10 s … 12 s
        #expect(h.state("bank") == .background)
        #expect(h.steps("bank").last == Step(.inactive, .background, .willTerminate))
        #expect(h.records("bank").last?.deadlineMicros == sec(5))
        #expect(h.sim.freeBytes == mb(1000 - 50))
        h.event(11.9, .alloc, "bank", value: 0)
        #expect(h.state("bank") == .background)
        h.open("game", at: 12.1)
        #expect(h.state("bank") == .notRunning)
        #expect(h.records("bank").last?.cause == .exitsOnSuspend && h.records("bank").last?.time == sec(12))
        h.event(21, .quit, "game")           // force-quit of the foreground app: 21 s … the 26 s deadline
        #expect(h.steps("game").last == Step(.inactive, .background, .willTerminate))
        #expect(h.state("game") == .background)
        h.event(25.9, .alloc, "other", value: 0)
        #expect(h.state("game") == .background)
        h.event(26.1, .alloc, "other", value: 0)
        #expect(h.state("game") == .notRunning)
        let r = h.finish()
        #expect(r.terminations == 1)
        #expect(r.kills.map(\.reason) == [.willTerminateWatchdog] && r.kills.first?.time == sec(26))
        #expect(r.killsByReason[.willTerminateWatchdog] == 1 && r.jetsamKills == 0)
    }

    /// Reopened while its `willTerminate` runs, an app gets a new process: the old one ends then, and the open is a
    /// cold launch; the terminating app starts no background work meanwhile.
    @Test func anAppReopenedDuringItsWillTerminateLaunchesAnew() throws {
        var h = try harness([bareApp("bank", dirtyMB: 50) { $0.exitsOnSuspend = true; $0.willTerminateMicros = sec(4)
                                                            $0.backgroundModes = [.audio] },
                             bareApp("other", dirtyMB: 50)])
        h.open("bank", at: 0)
        h.home(at: 10)
        h.mode("bank", .audio, start: true, at: 11)
        h.bgTask("bank", seconds: 20, at: 11)
        #expect(h.sim.priorityClass(of: h.id("bank")) == .backgroundWork)
        h.open("bank", at: 12)
        #expect(h.state("bank") == .active)
        let r = h.finish()
        #expect(r.terminations == 1 && r.totalKills == 0)
        #expect(r.coldLaunches == 2 && r.ignoredEvents == 2)
    }

    /// An app quit while its launch is still pending (past the watchdog) has no `willTerminate` to run: it ends at once,
    /// a termination, and the launch watchdog that was pending kills nothing.
    @Test func anAppQuitWhileLaunchingEndsAtOnceWhateverItsWillTerminate() throws {
        var h = try harness([bareApp("slow", dirtyMB: 50) { $0.coldLaunchMillis = 25_000; $0.willTerminateMicros = sec(3) },
                             bareApp("other", dirtyMB: 50)])
        h.open("slow", at: 0)
        h.event(18, .quit, "slow")
        #expect(h.state("slow") == .notRunning)
        h.event(30, .alloc, "other", value: 0)
        let r = h.finish()
        #expect(r.terminations == 1 && r.totalKills == 0)
    }
}
