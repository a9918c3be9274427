#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import JetsimCore

/// The knobs of the synthetic user model (README "Workloads" documents each and its source).
public struct WorkloadOptions: Sendable, Equatable {
    public var users = 1
    public var days = 1
    public var apps = 30
    public var seed: UInt64 = 1
    /// Zipf exponent of each user's app popularity.
    public var zipfExponent = 1.0
    /// Mean sessions (unlock → home) per day.
    public var sessionsPerDay = 50.0
    /// Mean apps used per session.
    public var appsPerSession = 2.0
    /// Engagement length: median and 90th percentile, seconds (LiveLab: 50 % under 30 s, 90 % under 4 min).
    public var engagementMedianSeconds = 30.0
    public var engagementP90Seconds = 240.0
    /// Weight of an app's two "partner" apps in the switch chain (the rest follows popularity).
    public var switchAffinity = 0.3
    public var callsPerDay = 2.0
    public var pushesPerHour = 1.5
    /// Probability that a session ends with a force-quit of one of its apps.
    public var forceQuitProbability = 0.02
    public init() {}

    /// Limits `jetsim generate` enforces (README, "Limits"). Within them no arithmetic of the generator overflows
    /// (the latest time is 1 000 000 user-days of 86 400 000 ms, about 2^46) and no draw is infinite or not a number.
    public static let maxUsers = 100_000, maxDays = 3_650, maxUserDays = 1_000_000, maxApps = 100_000
    public static let maxZipfExponent = 10.0, maxSessionsPerDay = 10_000.0, maxAppsPerSession = 100.0
    public static let maxEngagementMedianSeconds = 7_200.0, maxEngagementP90Seconds = 86_400.0
    public static let maxCallsPerDay = 1_000.0, maxPushesPerHour = 100.0
    /// Each user's events are built in memory before they are written: at most this many app opens a user
    /// (--days × --sessions-per-day × --apps-per-session), a few hundred MB.
    public static let maxOpensPerUser = 2_000_000.0

    /// The first option outside its limits, worded with `jetsim generate`'s option names; nil when all are within.
    public var problem: String? {
        func range(_ name: String, _ value: Double, _ low: Double, _ high: Double, lowOpen: Bool = false) -> String? {
            let inside = lowOpen ? value > low && value <= high : value >= low && value <= high   // false for NaN
            return inside ? nil : "--\(name) must be \(lowOpen ? "above" : "at least") \(low.formatted) and at most \(high.formatted), found \(value)"
        }
        if users < 1 || users > Self.maxUsers { return "--users must be between 1 and 100 000, found \(users)" }
        if days < 1 || days > Self.maxDays { return "--days must be between 1 and 3 650, found \(days)" }
        if users * days > Self.maxUserDays { return "--users × --days must be at most 1 000 000, found \(users * days)" }
        if apps < 1 || apps > Self.maxApps { return "--apps must be between 1 and 100 000, found \(apps)" }
        return range("zipf", zipfExponent, 0, Self.maxZipfExponent)
            ?? range("sessions-per-day", sessionsPerDay, 0, Self.maxSessionsPerDay, lowOpen: true)
            ?? range("apps-per-session", appsPerSession, 1, Self.maxAppsPerSession)
            ?? range("engagement-median", engagementMedianSeconds, 0, Self.maxEngagementMedianSeconds, lowOpen: true)
            ?? range("engagement-p90", engagementP90Seconds, engagementMedianSeconds, Self.maxEngagementP90Seconds, lowOpen: true)
            ?? range("calls-per-day", callsPerDay, 0, Self.maxCallsPerDay)
            ?? range("pushes-per-hour", pushesPerHour, 0, Self.maxPushesPerHour)
            ?? range("force-quit", forceQuitProbability, 0, 1)
            ?? range("switch-affinity", switchAffinity, 0, 1)
            ?? opensPerUserProblem
    }

    private var opensPerUserProblem: String? {
        let opens: Double = Double(days) * sessionsPerDay * appsPerSession
        if opens <= Self.maxOpensPerUser { return nil }
        return "--days × --sessions-per-day × --apps-per-session must be at most 2 000 000 app opens per user (each user's "
            + "events are built in memory), found \(opens.formatted)"
    }
}

private extension Double {
    /// `10` rather than `10.0`; other values as Swift prints them.
    var formatted: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}

/// One generated trace row (times in milliseconds so the written trace is exact).
public struct WorkloadEvent: Sendable, Equatable {
    public var timeMillis: Int
    public var app: Int32
    public var kind: TraceEventKind
    /// Milliseconds for durations, MB for `alloc`, a `BackgroundModes` raw value for modes, 0 otherwise.
    public var value: Int
    public var user: Int
}

/// Seeded synthetic users (android-lmkd.md's published numbers): Zipf app popularity, a Markov chain of
/// app-to-app switches, sessions on a daily rhythm, log-normal engagement lengths, calls, background tasks on
/// leaving, push and fetch wakes, music and navigation sessions, occasional force-quits and memory growth in long
/// foreground use. Everything derives from `options.seed`: the same options give the same events.
public struct WorkloadGenerator: Sendable {
    public let options: WorkloadOptions
    public let catalog: [AppProfile]
    private let root: SeededRandom
    private let categoryOf: [String]

    /// Session starts by hour of day (a waking-day rhythm: quiet nights, peaks at 8, 12–13 and 18–22 h).
    public static let hourlyRhythm: [Double] = [0.3, 0.15, 0.1, 0.1, 0.1, 0.3, 1.0, 2.5, 4.0, 3.5, 3.0, 3.5,
                                                4.5, 4.5, 3.5, 3.0, 3.0, 3.5, 4.5, 5.0, 5.5, 5.5, 4.0, 1.5]

    public init(options: WorkloadOptions) {
        self.options = options
        root = SeededRandom(seed: options.seed)
        var catalogRandom = root.stream(0xCA7A_1060)
        catalog = AppCategory.catalog(count: max(1, options.apps), random: &catalogRandom)
        categoryOf = catalog.map { String($0.name.split(separator: "-").first ?? "") }
    }

    /// σ of the log-normal engagement length with the configured median and 90th percentile.
    var engagementSigma: Double { log(options.engagementP90Seconds / options.engagementMedianSeconds) / 1.2815515655446004 }

    /// Every event of user `user` (0-based), starting `startDay` days after time 0, in time order.
    public func events(user: Int, startDay: Int) -> [WorkloadEvent] {
        var random = root.stream(UInt64(user) &+ 1)
        let n = catalog.count
        // Popularity: Zipf over this user's own order of the apps.
        var order = Array(0..<n)
        random.shuffle(&order)
        var popularity = [Double](repeating: 0, count: n)
        for (rank, app) in order.enumerated() { popularity[app] = 1 / pow(Double(rank + 1), options.zipfExponent) }
        let popular = cumulativeSums(popularity)
        let partners = (0..<n).map { _ in (random.integer(in: 0...(n - 1)), random.integer(in: 0...(n - 1))) }
        let wakeable = (0..<n).filter { !catalog[$0].backgroundModes.intersection([.fetch, .remoteNotification]).isEmpty }
        let wakeWeights = cumulativeSums(wakeable.map { popularity[$0] })
        let rhythm = cumulativeSums(WorkloadGenerator.hourlyRhythm)
        let sigma = engagementSigma
        let callChance = options.callsPerDay / max(1, options.sessionsPerDay * options.appsPerSession)

        func next(after app: Int) -> Int {
            guard n > 1 else { return app }
            for _ in 0..<8 {
                let candidate: Int
                if random.chance(options.switchAffinity) {
                    candidate = random.chance(0.5) ? partners[app].0 : partners[app].1
                } else {
                    candidate = random.pick(cumulative: popular)
                }
                if candidate != app { return candidate }
            }
            return (app + 1) % n
        }

        var events: [WorkloadEvent] = []
        func add(_ t: Int, _ app: Int, _ kind: TraceEventKind, _ value: Int = 0) {
            events.append(WorkloadEvent(timeMillis: t, app: Int32(app), kind: kind, value: value, user: user))
        }
        let dayMillis = 86_400_000
        for day in 0..<max(1, options.days) {
            let dayStart = (startDay + day) * dayMillis
            let sessions = random.poisson(mean: options.sessionsPerDay)
            let starts = (0..<sessions).map { _ in random.pick(cumulative: rhythm) * 3_600_000 + random.integer(in: 0...3_599_999) }.sorted()
            var cursor = dayStart
            for s in starts {
                var t = max(dayStart + s, cursor + 5_000)
                guard t < dayStart + dayMillis - 600_000 else { break }
                let count = 1 + Int(random.exponential(mean: max(0.01, options.appsPerSession - 1)).rounded(.down))
                var app = random.pick(cumulative: popular)
                var used: [Int] = []
                for _ in 0..<count {
                    add(t, app, .open)
                    used.append(app)
                    let seconds = min(max(random.logNormal(median: options.engagementMedianSeconds, sigma: sigma), 1), 7200)
                    let duration = Int(seconds * 1000)
                    switch categoryOf[app] {
                    case "music" where random.chance(0.5):
                        add(t + 1_000, app, .modeStart, Int(BackgroundModes.audio.rawValue))
                        add(t + duration + random.integer(in: 600_000...3_600_000), app, .modeStop, Int(BackgroundModes.audio.rawValue))
                    case "navigation" where random.chance(0.6):
                        add(t + 2_000, app, .modeStart, Int(BackgroundModes.location.rawValue))
                        add(t + duration + random.integer(in: 600_000...2_400_000), app, .modeStop, Int(BackgroundModes.location.rawValue))
                    case "game" where duration > 120_000 && random.chance(0.5):
                        add(t + duration / 2, app, .alloc, random.integer(in: 50...250))   // a level loads
                    case "browser", "camera", "social":
                        if duration > 2_000 && random.chance(0.15) {
                            add(t + duration - 1_000, app, .bgTask, random.integer(in: 20_000...120_000))   // an upload
                        }
                    default: break
                    }
                    if random.chance(callChance) {
                        add(t + random.integer(in: 0...max(0, duration - 1)), app, .interrupt, random.integer(in: 20_000...300_000))
                    }
                    t += duration
                    app = next(after: app)
                }
                add(t, -1, .home)
                if random.chance(options.forceQuitProbability), let victim = used.last {
                    add(t + 1_000, victim, .quit)
                }
                cursor = t
            }
            if !wakeable.isEmpty {
                for _ in 0..<random.poisson(mean: options.pushesPerHour * 24) {
                    add(dayStart + random.integer(in: 0...(dayMillis - 1)), wakeable[random.pick(cumulative: wakeWeights)], .bgLaunch,
                        random.integer(in: 10_000...30_000))
                }
            }
        }
        // Activity that would outlast the user's days (a long playlist, a drive) ends with them, so the next user's
        // trace can start on the next day. Then a stable sort by time: events of one instant keep their order.
        let windowEnd = (startDay + max(1, options.days)) * dayMillis - 1
        for k in events.indices where events[k].timeMillis > windowEnd { events[k].timeMillis = windowEnd }
        return events.enumerated().sorted { a, b in
            a.element.timeMillis != b.element.timeMillis ? a.element.timeMillis < b.element.timeMillis : a.offset < b.offset
        }.map(\.element)
    }
}
