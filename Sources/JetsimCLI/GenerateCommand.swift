import ArgumentParser
import JetsimCore
import JetsimIO
import JetsimWorkloads

/// `jetsim generate` — a seeded synthetic workload: an app catalog and a usage trace.
public struct GenerateCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate a seeded synthetic workload (apps.csv and trace.csv) from a published-numbers user model.",
        discussion: reflowed("""
        The model (README, "Workloads"): apps from ten category profiles; per user Zipf app popularity, a Markov
        chain of app-to-app switches, sessions on a daily rhythm, engagements of median 30 s (90 % under 4 min),
        calls, background tasks, push and fetch wakes, music and navigation sessions, force-quits, memory growth.
        The same options give the same bytes.

        Examples:
          jetsim generate --users 1 --days 7 --apps 40 --seed 1 --out /tmp/week
          jetsim generate --users 20 --days 3 --apps 60 --seed 7 --per-user --out /tmp/panel
          jetsim run --device iphone-x --apps /tmp/week/apps.csv --trace /tmp/week/trace.csv
        """)
    )

    @OptionGroup var model: WorkloadModelOptions
    @Option(help: "Seed: everything derives from it.") var seed: UInt64 = 1
    @Option(help: "Output directory.") var out: String
    @Flag(help: "One trace file per user (trace-user-N.csv), each starting at time 0, instead of one trace with users one after another.")
    var perUser = false

    public init() {}

    public func run() throws {
        try reportingErrors {
            let (users, days, apps) = (model.users, model.days, model.apps)
            let generator = WorkloadGenerator(options: model.options(seed: seed))
            let names = generator.catalog.map(\.name)
            let rows = try inReportDirectory(out, replaceable: OutputNames.workload) { staging in
                var files: [AtomicFile] = []
                let catalog = try AtomicFile(path: staging + "/apps.csv")
                try catalog.write(WorkloadFiles.catalogCSV(generator.catalog))
                files.append(catalog)
                var trace: AtomicFile?
                var rows = 0
                for user in 0..<users {
                    if perUser || trace == nil {
                        let file = try AtomicFile(path: staging + (perUser ? "/trace-user-\(user + 1).csv" : "/trace.csv"))
                        try file.write(WorkloadFiles.traceHeader)
                        files.append(file)
                        trace = file
                    }
                    for e in generator.events(user: user, startDay: perUser ? 0 : user * days) {
                        try trace?.write(WorkloadFiles.traceLine(e, names: names))
                        rows += 1
                    }
                    // A user's own file is complete: commit it within the staging directory now, so that 100 000 users
                    // never hold 100 000 descriptors (the set still appears only when the directory is published).
                    if perUser, let done = trace { try done.commit() }
                }
                for f in files where !f.isCommitted { try f.commit() }
                return rows
            }
            print("\(rows) events, \(users) user(s) × \(days) day(s), \(apps) apps → \(out)/")
        }
    }
}
