import ArgumentParser
import Foundation
import JetsimCore
import JetsimExperiment
import JetsimIO

/// `jetsim validate` — how close the simulator's kills are to a real phone's: residency at measured snapshots.
public struct ValidateCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Score simulated residency against measured snapshots (jetsim import studentlife's snapshots.csv).",
        discussion: reflowed("""
        Replays each user's trace on a fresh device under each policy and, at every snapshot time of snapshots.csv,
        compares each background task's simulated residency (its app running or not) with the measured one. Writes
        validation.csv (columns: Reports/README.md) and prints a table per user: measured and simulated dead share,
        per-task accuracy against the all-alive baseline's, precision and recall for "dead", and kills and cold
        relaunches after a kill per day against the measured dead → alive transitions per day. A trace belongs to the
        user its file is named after (trace-user-USER.csv, as the importer writes it), or, with one user in the
        snapshots and one trace, to that user.

        Examples:
          jetsim import studentlife running_app.csv.gz --out /tmp/sl
          jetsim validate --snapshots /tmp/sl/snapshots.csv --apps /tmp/sl/apps.csv --traces /tmp/sl --devices nexus-5 --policies xnu,lmkd --out /tmp/val
        """)
    )

    @Option(help: "Measured residency: snapshots.csv (user,time,app,rank,alive, and task when present).") var snapshots: String
    @Option(help: "App catalog CSV.") var apps: String
    @Option(help: "A user's trace; repeat for several users.") var trace: [String] = []
    @Option(help: "A directory of per-user traces (trace-user-USER.csv), as jetsim import writes them.") var traces: String?
    @Option(name: [.customLong("devices"), .customLong("device")], help: "Comma-separated devices (presets, device files).") var devices: String
    @Option(name: [.customLong("policies"), .customLong("policy")], help: "Comma-separated policies.") var policies: String = "xnu"
    @Option(help: "Seed for randomised policies.") var seed: UInt64 = 1
    @Option(help: "Output directory for validation.csv.") var out: String
    @Flag(help: "Split each trace by its user column (one file holding several users), matching its users to the snapshots' users.")
    var perUser = false
    @OptionGroup var policyDirectory: PolicyDirectoryOption
    @OptionGroup var deviceAdjustments: DeviceAdjustmentOptions
    @Flag(help: "Print nothing but errors.") var quiet = false

    public init() {}

    public func run() throws {
        try reportingErrors { try execute() }
    }

    /// The user a trace file stands for: `trace-user-USER.csv` (any compression suffix), else nil.
    static func user(ofTrace path: String) -> String? {
        var name = baseName(path)
        for ext in [".gz", ".zst", ".csv"] where name.hasSuffix(ext) { name.removeLast(ext.count) }
        return name.hasPrefix("trace-user-") ? String(name.dropFirst("trace-user-".count)) : nil
    }

    private func execute() throws {
        if !trace.isEmpty && traces != nil { throw ValidationError("give the traces either as --trace (repeated) or as --traces DIR, not both") }
        let files = try traces.map { try CompareCommand.traceFiles(in: $0, apps: apps) } ?? trace
        guard !files.isEmpty else { throw ValidationError("a trace is required (--trace or --traces)") }
        let catalog = try CatalogFile.read(path: apps)
        let measured = try SnapshotsFile.read(path: snapshots, catalog: catalog)
        // Each user's events: split by the user column (--per-user), or one trace file per user.
        var replays: [(user: String, trace: String, events: [TraceEvent])] = []
        for file in files {
            if perUser {
                for (user, events) in try TraceReader.readAllByUser(path: file, catalog: catalog) {
                    guard measured[user] != nil else {
                        throw InputError(file: file, field: "user", message: "names user '\(InputError.excerpt(user))', who has no snapshot in \(snapshots)")
                    }
                    replays.append((user, baseName(file), events))
                }
                continue
            }
            let user: String
            if let u = Self.user(ofTrace: file), measured[u] != nil {
                user = u
            } else if files.count == 1, measured.count == 1, let only = measured.keys.first {
                user = only
            } else {
                throw InputError(file: file, message: "names no user of \(snapshots) (name per-user traces trace-user-USER.csv, or split a trace "
                                 + "by its user column with --per-user; users there: " + measured.keys.sorted().prefix(8).joined(separator: ", ") + ")",
                                 exitCode: InputError.usage)
            }
            replays.append((user, baseName(file), try TraceReader.readAll(path: file, catalog: catalog, threads: 1)))
        }
        let deviceValues = try commaSeparated(devices).map { try deviceAdjustments.apply(to: try DeviceSource.resolve($0)) }
        let policyNames = PolicySpec.list(policies)
        guard !policyNames.isEmpty else { throw ValidationError("--policies needs at least one policy") }
        var rows: [ValidationReport.Row] = []
        for (user, traceName, events) in replays {
            for device in deviceValues {
                for name in policyNames {
                    let policy = try PolicySource.make(name, environment: PolicyEnvironment(seed: seed, device: device),
                                                       policiesDirectory: try policyDirectory.path())
                    var options = SimulationOptions()
                    options.seed = seed
                    options.sampleIntervalMicros = 3_600 * Units.microsPerSecond
                    let (score, result) = ResidencyValidation.score(policy: policy, device: device, catalog: catalog, events: events,
                                                                    tasks: measured[user] ?? [], options: options)
                    rows.append(ValidationReport.Row(user: user, trace: traceName, result: result, score: score))
                }
            }
        }
        try inReportDirectory(out, replaceable: ["validation.csv"]) { staging in
            let f = try AtomicFile(path: staging + "/validation.csv")
            try f.write(ValidationReport.csv(rows))
            try f.commit()
        }
        if !quiet { print(ValidationReport.table(rows), terminator: ""); print("report: \(out)/validation.csv") }
    }
}
