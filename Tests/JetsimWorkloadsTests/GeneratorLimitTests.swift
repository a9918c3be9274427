import JetsimCore
@testable import JetsimWorkloads
import Testing

@Suite struct GeneratorLimitTests {
    @Test func everyOptionOutsideItsLimitsIsNamed() {
        let cases: [(String, (inout WorkloadOptions) -> Void)] = [
            ("--users", { $0.users = 4_611_686_018_427_387_904 }), ("--users", { $0.users = 0 }), ("--days", { $0.days = 3651 }),
            ("--users × --days", { $0.users = 1000; $0.days = 1001 }), ("--apps", { $0.apps = 100_001 }),
            ("--zipf", { $0.zipfExponent = .infinity }), ("--zipf", { $0.zipfExponent = -1 }),
            ("--sessions-per-day", { $0.sessionsPerDay = .nan }), ("--sessions-per-day", { $0.sessionsPerDay = 0 }),
            ("--apps-per-session", { $0.appsPerSession = 1e300 }),
            ("--engagement-median", { $0.engagementMedianSeconds = 7201 }),
            ("--engagement-p90", { $0.engagementP90Seconds = .infinity }), ("--engagement-p90", { $0.engagementP90Seconds = 30 }),
            ("--calls-per-day", { $0.callsPerDay = 1e9 }), ("--pushes-per-hour", { $0.pushesPerHour = 1e300 }),
            ("--pushes-per-hour", { $0.pushesPerHour = -.nan }), ("--force-quit", { $0.forceQuitProbability = .nan }),
        ]
        #expect(WorkloadOptions().problem == nil)
        for (option, change) in cases {
            var o = WorkloadOptions()
            change(&o)
            #expect(o.problem?.hasPrefix(option + " must") == true, "\(option): \(o.problem ?? "accepted")")
        }
    }

    /// The largest accepted values, and the latest day the largest grid reaches: every time stays within the
    /// user's days, and nothing traps.
    @Test func theLimitsThemselvesGenerate() {
        var o = WorkloadOptions()
        (o.users, o.days, o.apps) = (WorkloadOptions.maxUsers, 10, 200)
        (o.zipfExponent, o.appsPerSession, o.callsPerDay, o.pushesPerHour) = (WorkloadOptions.maxZipfExponent, 100, 1000, 100)
        (o.engagementMedianSeconds, o.engagementP90Seconds, o.forceQuitProbability) = (7200, 86_400, 1)
        o.sessionsPerDay = WorkloadOptions.maxSessionsPerDay
        #expect(o.problem?.contains("app opens per user") == true, "10 days of the most sessions: 10 000 000 opens in memory")
        o.days = 1
        #expect(o.problem == nil)
        let g = WorkloadGenerator(options: o)
        let lastDay = WorkloadOptions.maxUserDays - 1
        let events = g.events(user: WorkloadOptions.maxUsers - 1, startDay: lastDay)
        #expect(!events.isEmpty)
        #expect(events.allSatisfy { $0.timeMillis >= lastDay * 86_400_000 && $0.timeMillis < (lastDay + 1) * 86_400_000 })
        #expect(events.filter { $0.kind == .bgLaunch }.count > 1000)    // 100 pushes an hour
        // The smallest engagements and the steepest popularity too.
        (o.engagementMedianSeconds, o.engagementP90Seconds, o.zipfExponent, o.sessionsPerDay) = (1e-9, 86_400, 0, 1e-9)
        #expect(o.problem == nil)
        #expect(WorkloadGenerator(options: o).events(user: 0, startDay: 0).allSatisfy { $0.timeMillis < 86_400_000 })
    }
}
