#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Crypto
import Foundation
import JetsimCore

/// The reports of a `jetsim compare` grid: summary.csv (one row per cell), compare.csv (the pivot a reader wants,
/// with deltas and, across seeds, 95 % confidence intervals), intervals.csv and manifest.json.
public enum CompareReports {
    /// One metric of `compare.csv`, read from a run.
    public struct Metric: Sendable {
        public var name: String
        public var decimals: Int
        public var value: @Sendable (SimulationResult) -> Double
    }

    public static let metrics: [Metric] = [
        Metric(name: "cold_launches", decimals: 1) { Double($0.coldLaunches) },
        Metric(name: "hot_launch_ratio", decimals: 4) { $0.launches == 0 ? 0 : Double($0.resumes) / Double($0.launches) },
        Metric(name: "user_visible_kills", decimals: 1) { Double($0.userVisibleKills) },
        Metric(name: "p95_launch_ms", decimals: 1) { Double($0.p95LaunchMillis) },
    ]

    /// Two-sided 95 % Student t quantiles for 1…30 degrees of freedom; 1.96 beyond.
    static let t95: [Double] = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
                                2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
                                2.052, 2.048, 2.045, 2.042]

    /// Mean and the half-width of its 95 % confidence interval (0 for a single sample).
    public static func meanAndInterval(_ xs: [Double]) -> (mean: Double, halfWidth: Double) {
        guard !xs.isEmpty else { return (0, 0) }
        let n = Double(xs.count), mean = xs.reduce(0, +) / n
        guard xs.count > 1 else { return (mean, 0) }
        let variance = xs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1)
        let t = xs.count - 1 <= t95.count ? t95[xs.count - 2] : 1.96
        return (mean, t * (variance / n).squareRoot())
    }

    /// Fixed-decimal rendering that never prints "-0.000".
    public static func format(_ v: Double, _ decimals: Int) -> String {
        let text = String(format: "%.\(decimals)f", v)
        return text.hasPrefix("-") && Double(text) == 0 ? String(text.dropFirst()) : text
    }

    /// Results by device, then policy (grid order), each with its seeds' runs.
    public struct Grid: Sendable {
        public var devices: [String]
        public var policies: [String]          // display names, in grid order
        public var runs: [String: [String: [SimulationResult]]]
        public init(devices: [String], policies: [String], runs: [String: [String: [SimulationResult]]]) {
            self.devices = devices
            self.policies = policies
            self.runs = runs
        }
    }

    public static func compareHeader(hasOracle: Bool) -> [String] {
        var h = ["device", "policy", "seeds"]
        for m in metrics { h += [m.name, m.name + "_ci95"] }
        for m in metrics { h.append("delta_\(m.name)_vs_baseline") }
        if hasOracle { for m in metrics { h.append("delta_\(m.name)_vs_oracle") } }
        return h
    }

    /// The rows of compare.csv: per device, every policy's means (and CI half-widths), with deltas against the
    /// baseline policy and, when `oracle` is in the grid, against it.
    public static func compareRows(_ grid: Grid, baseline: String, oracle: String?) -> [[String]] {
        var rows: [[String]] = []
        for device in grid.devices {
            func stats(_ policy: String) -> [(mean: Double, halfWidth: Double)] {
                let runs = grid.runs[device]?[policy] ?? []
                return metrics.map { m in meanAndInterval(runs.map(m.value)) }
            }
            let base = stats(baseline), best = oracle.map(stats)
            for policy in grid.policies {
                let s = stats(policy)
                var row = [device, policy, String(grid.runs[device]?[policy]?.count ?? 0)]
                for (m, v) in zip(metrics, s) { row += [format(v.mean, m.decimals), format(v.halfWidth, m.decimals)] }
                for (k, m) in metrics.enumerated() { row.append(format(s[k].mean - base[k].mean, m.decimals)) }
                if let best { for (k, m) in metrics.enumerated() { row.append(format(s[k].mean - best[k].mean, m.decimals)) } }
                rows.append(row)
            }
        }
        return rows
    }

    /// The columns of compare.csv shown on the console.
    static let tableColumns = ["device", "policy", "cold_launches", "cold_launches_ci95", "hot_launch_ratio", "user_visible_kills",
                               "p95_launch_ms", "delta_cold_launches_vs_baseline", "delta_cold_launches_vs_oracle"]

    /// A console table of compare.csv (confidence intervals shown only with several seeds).
    public static func table(_ rows: [[String]], header: [String], seeds: Int) -> String {
        let keep = tableColumns.filter { seeds > 1 || !$0.hasSuffix("_ci95") }.compactMap { header.firstIndex(of: $0) }
        let widths = keep.map { c in ([header[c]] + rows.map { $0[c] }).map(\.count).max() ?? 0 }
        func line(_ cells: [String]) -> String {
            zip(keep, widths).map { c, w in
                c < 2 ? cells[c].padding(toLength: w, withPad: " ", startingAt: 0) : String(repeating: " ", count: w - cells[c].count) + cells[c]
            }.joined(separator: "  ")
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n") + "\n"
    }

    /// SHA-256 of a file, hex, streamed.
    public static func sha256(path: String) throws(InputError) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw InputError(file: path, message: "cannot read", exitCode: InputError.noInput)
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        while true {
            let chunk = handle.readData(ofLength: 1 << 20)
            if chunk.isEmpty { break }
            hasher.update(data: chunk)
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// manifest.json: everything needed to reproduce the run. Keys are sorted; only the times differ between reruns.
    /// - Parameter inputs: every file the run read (trace, catalog, config, device and policy files), by the name the user
    ///   gave and the path its bytes are read from (the same, or a private copy of a pipe: `ReadOnceInput`).
    public static func manifest(command: [String], config: [String: Any], inputs: [(name: String, path: String)], policies: [PolicyDescriptor],
                                seeds: [UInt64], started: Date, wallSeconds: Double) throws(InputError) -> String {
        var hashes: [String: String] = [:]
        for input in inputs { hashes[input.name] = try sha256(path: input.path) }
        let document: [String: Any] = [
            "jetsim_version": JetsimVersionInfo.version,
            "command": command,
            "config": config,
            "seeds": seeds.map { NSNumber(value: $0) },
            "inputs_sha256": hashes,
            "policies": policies.map { ["name": $0.name, "display_name": $0.displayName,
                                        "parameters": Dictionary(uniqueKeysWithValues: $0.parameters.map { ($0.name, $0.value) }),
                                        "capabilities": $0.capabilities.names] as [String: Any] },
            "started_at": ISO8601DateFormatter().string(from: started),
            "wall_seconds": (wallSeconds * 1000).rounded() / 1000,
        ]
        do {
            let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            return String(decoding: data, as: UTF8.self) + "\n"
        } catch {
            throw InputError(file: "manifest.json", message: "cannot encode the manifest", exitCode: InputError.cannotCreate)
        }
    }
}

/// The version recorded in manifests (the CLI prints the same).
public enum JetsimVersionInfo {
    public static let version = "0.2.0"
}
