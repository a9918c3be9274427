import ArgumentParser
import JetsimWorkloads

/// The synthetic user model's knobs: `generate`'s options, and the keys of `compare --generate` (one definition).
public struct WorkloadModelOptions: ParsableArguments {
    @Option(help: "Number of users.") var users = 1
    @Option(help: "Days of use per user.") var days = 1
    @Option(help: "Number of apps in the catalog.") var apps = 30
    @Option(help: "Zipf exponent of app popularity.") var zipf = 1.0
    @Option(help: "Mean sessions per day.") var sessionsPerDay = 50.0
    @Option(help: "Mean apps used per session.") var appsPerSession = 2.0
    @Option(help: "Median engagement length, seconds.") var engagementMedian = 30.0
    @Option(help: "90th-percentile engagement length, seconds.") var engagementP90 = 240.0
    @Option(help: "Incoming calls (interruptions) per day.") var callsPerDay = 2.0
    @Option(help: "Push and fetch background wakes per hour.") var pushesPerHour = 1.5
    @Option(help: "Probability that a session ends with a force-quit.") var forceQuit = 0.02

    public init() {}

    /// The generator's options with `seed`.
    func options(seed: UInt64) -> WorkloadOptions {
        var options = WorkloadOptions()
        (options.users, options.days, options.apps, options.seed) = (users, days, apps, seed)
        (options.zipfExponent, options.sessionsPerDay, options.appsPerSession) = (zipf, sessionsPerDay, appsPerSession)
        (options.engagementMedianSeconds, options.engagementP90Seconds) = (engagementMedian, engagementP90)
        (options.callsPerDay, options.pushesPerHour, options.forceQuitProbability) = (callsPerDay, pushesPerHour, forceQuit)
        return options
    }

    /// The limits live with the generator they protect (README, "Limits").
    public func validate() throws {
        if let problem = options(seed: 1).problem { throw ValidationError(problem) }
    }

    /// The model of `compare --generate 'days=7,apps=40'`: each key is one of `generate`'s options without its dashes.
    static func parse(keyValues text: String) throws -> WorkloadModelOptions {
        var arguments: [String] = []
        for item in commaSeparated(text) {
            let kv = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard kv.count == 2, !kv[0].isEmpty, !kv[1].isEmpty, !kv[0].hasPrefix("-") else {
                throw ValidationError("--generate takes key=value pairs such as days=7,apps=40, found '\(item)'")
            }
            arguments += ["--" + kv[0], String(kv[1])]
        }
        do {
            return try parse(arguments)
        } catch {
            throw ValidationError("--generate: " + message(for: error).replacingOccurrences(of: "'--", with: "'"))
        }
    }

    /// `key=value,…` of every knob, as `--generate` takes them (recorded in reports, so a workload can be regenerated).
    var keyValues: String {
        "users=\(users),days=\(days),apps=\(apps),zipf=\(zipf),sessions-per-day=\(sessionsPerDay),apps-per-session=\(appsPerSession),"
            + "engagement-median=\(engagementMedian),engagement-p90=\(engagementP90),calls-per-day=\(callsPerDay),"
            + "pushes-per-hour=\(pushesPerHour),force-quit=\(forceQuit)"
    }
}
