import Foundation
import JetsimCore

/// Everything that decides a grid's results: its workloads, devices (as resolved, adjustments applied), policies, seeds
/// and the options every cell shares. Recorded in manifest.json; every shard of a grid carries the same one, and `jetsim
/// merge` refuses shards whose configurations differ (`sha256`).
///
/// Cells have stable ids in one order, workloads outermost: id = ((workload × devices + device) × policies + policy) ×
/// seeds + seed index, the order of summary.csv's rows. Invariants: `baselinePolicy` indexes `policies`, `chartCell`
/// is a cell of the first workload, and there is at least one workload, device, policy and seed.
public struct GridConfiguration: Codable, Sendable, Equatable {
    /// The trace files as given, in grid order; nil when the workloads are generated.
    public var traces: [String]?
    public var apps: String?
    /// `jetsim` or `libcachesim`.
    public var format: String
    /// libCacheSim CSV field numbers as given (`time=1,obj-id=2,obj-size=3`), when not the default.
    public var csvFields: String?
    /// Generated workloads: one per seed, from the model `generate` (`jetsim generate`'s options as key=value).
    public var workloadSeeds: [UInt64]?
    public var generate: String?
    /// Policies as given (built-ins with parameters, policy files).
    public var policies: [String]
    /// Devices as given, and as resolved with `deviceAdjustments` applied.
    public var deviceNames: [String]
    public var devices: [Device]
    /// The options that changed every device (`--kernel`, `--freezer`, `--no-freezer`, `--os-era`), as given.
    public var deviceAdjustments: [String]
    public var seeds: [UInt64]
    public var warmupMicros: Int
    public var intervalMicros: Int
    public var sampleIntervalMicros: Int
    public var baselinePolicy: Int
    /// The cell whose memory and kills report.html charts.
    public var chartCell: Int
    /// Where policy files named without a path are looked up.
    public var policiesDirectory: String?
    /// With `--per-user`, each trace's users in order of first appearance: every (trace, user) is a workload of its own,
    /// replayed on a fresh device (workloads trace-major, then user). Nil: each trace is one workload, one phone life.
    public var users: [[String]]?

    public init(traces: [String]?, apps: String?, format: String, csvFields: String?, workloadSeeds: [UInt64]?, generate: String?,
                policies: [String], deviceNames: [String], devices: [Device], deviceAdjustments: [String], seeds: [UInt64],
                warmupMicros: Int, intervalMicros: Int, sampleIntervalMicros: Int, baselinePolicy: Int, chartCell: Int, policiesDirectory: String?, users: [[String]]? = nil) {
        (self.traces, self.apps, self.format, self.csvFields) = (traces, apps, format, csvFields)
        (self.workloadSeeds, self.generate, self.policies, self.deviceNames, self.devices) = (workloadSeeds, generate, policies, deviceNames, devices)
        (self.deviceAdjustments, self.seeds, self.warmupMicros, self.intervalMicros) = (deviceAdjustments, seeds, warmupMicros, intervalMicros)
        (self.sampleIntervalMicros, self.baselinePolicy, self.chartCell, self.policiesDirectory) = (sampleIntervalMicros, baselinePolicy, chartCell, policiesDirectory)
        self.users = users
    }

    public var workloadCount: Int { users.map { $0.reduce(0) { $0 + $1.count } } ?? traces?.count ?? workloadSeeds?.count ?? 0 }

    /// Workload `w`'s trace (an index into `traces`) and, with `users`, its user.
    public func workload(_ w: Int) -> (trace: Int, user: String?) {
        guard let users else { return (w, nil) }
        var rest = w
        for (t, names) in users.enumerated() {
            if rest < names.count { return (t, names[rest]) }
            rest -= names.count
        }
        return (users.count, nil)
    }

    /// The trace file workload `w` reads ("" for generated workloads).
    public func tracePath(ofWorkload w: Int) -> String {
        let t = workload(w).trace
        guard let traces, traces.indices.contains(t) else { return "" }
        return traces[t]
    }
    public var cellsPerWorkload: Int { devices.count * policies.count * seeds.count }
    public var cellCount: Int { workloadCount * cellsPerWorkload }

    /// One cell: indices into the workloads, devices and policies, and the seed itself.
    public struct Cell: Sendable, Equatable {
        public var workload: Int, device: Int, policy: Int, seed: UInt64
        public init(workload: Int, device: Int, policy: Int, seed: UInt64) {
            (self.workload, self.device, self.policy, self.seed) = (workload, device, policy, seed)
        }
    }

    public func cell(_ id: Int) -> Cell {
        let s = id % seeds.count, p = id / seeds.count % policies.count
        let d = id / (seeds.count * policies.count) % devices.count, w = id / cellsPerWorkload
        return Cell(workload: w, device: d, policy: p, seed: seeds[s])
    }

    /// A human name for a cell, for messages: `cell 7 (trace user2.csv, iphone-x, lru, seed 1)`.
    public func describe(_ id: Int) -> String {
        let c = cell(id)
        let user = workload(c.workload).user.map { ", user \($0)" } ?? ""
        let workload = traces != nil ? "trace \(tracePath(ofWorkload: c.workload))\(user)" : workloadSeeds.map { "workload seed \($0[c.workload])" } ?? ""
        return "cell \(id) (\(workload), \(deviceNames[c.device]), \(policies[c.policy]), seed \(c.seed))"
    }

    /// The cells of shard `k` of `n`: the `k`-th of `n` contiguous runs of ids whose sizes differ by at most one
    /// (ids ⌊k·C/n⌋ ..< ⌊(k+1)·C/n⌋ of C cells). Contiguous in the workload-major order, so a shard reads few traces.
    public func shard(_ k: Int, of n: Int) -> Range<Int> {
        precondition(n > 0 && k >= 0 && k < n, "a shard is k/n with 0 ≤ k < n")
        let c = cellCount
        return c * k / n ..< c * (k + 1) / n
    }

    /// The encoder of manifests and shard files: sorted keys, snake_case, so equal values give equal bytes.
    public static func encoder(pretty: Bool = true) -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        e.keyEncodingStrategy = .convertToSnakeCase
        return e
    }

    public static func decoder() -> JSONDecoder {
        let d = JSONDecoder()
        d.keyDecodingStrategy = .convertFromSnakeCase
        return d
    }

    /// SHA-256 of the configuration and the version of jetsim that ran it: shards of one grid share it.
    public var sha256: String {
        get throws {
            var data = try Self.encoder(pretty: false).encode(self)
            data.append(contentsOf: Array(JetsimVersionInfo.version.utf8))
            return CompareReports.sha256(bytes: Array(data))
        }
    }
}

/// manifest.json of a grid: its configuration and hash, the policies' self-descriptions, the inputs' hashes, and under
/// `invocation` how this process ran (the only part that differs between reruns, `--jobs`, and a merge of shards).
public struct GridManifest: Codable {
    public var jetsimVersion = JetsimVersionInfo.version
    public var gridSha256: String
    public var cells: Int
    public var config: GridConfiguration
    public var inputsSha256: [String: String]
    public var policies: [Policy]
    public var invocation: Invocation

    public struct Policy: Codable {
        public var name: String, displayName: String, parameters: [String: String], capabilities: [String]
        public init(_ d: PolicyDescriptor) {
            (name, displayName, capabilities) = (d.name, d.displayName, d.capabilities.names)
            parameters = Dictionary(d.parameters.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
        }
    }

    /// How this process ran: its command line, output directory and jobs, when it started and how long it took; for
    /// a merge, the shard directories it read.
    public struct Invocation: Codable, Sendable {
        public var command: [String]
        public var out: String
        public var jobs: Int?
        public var shards: [String]?
        public var startedAt: String
        public var wallSeconds: Double
        public init(command: [String], out: String, jobs: Int?, shards: [String]? = nil, started: Date) {
            (self.command, self.out, self.jobs, self.shards) = (command, out, jobs, shards)
            startedAt = ISO8601DateFormatter().string(from: started)
            wallSeconds = (Date().timeIntervalSince(started) * 1000).rounded() / 1000
        }
    }

    public init(configuration: GridConfiguration, inputHashes: [String: String], policies: [Policy], invocation: Invocation) throws {
        gridSha256 = try configuration.sha256
        cells = configuration.cellCount
        config = configuration
        inputsSha256 = inputHashes
        self.policies = policies
        self.invocation = invocation
    }

    func json() throws(InputError) -> String {
        do {
            return String(decoding: try GridConfiguration.encoder().encode(self), as: UTF8.self) + "\n"
        } catch {
            throw InputError(file: "manifest.json", message: "cannot encode the manifest: \(error)", exitCode: InputError.cannotCreate)
        }
    }
}
