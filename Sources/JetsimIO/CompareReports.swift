#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import JetsimCore

/// The reports of a `jetsim compare` grid: summary.csv (one row per cell), compare.csv (the pivot a reader wants,
/// with deltas and, across seeds and generated workloads, 95 % confidence intervals), intervals.csv and manifest.json.
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
        Metric(name: "mean_launch_ms", decimals: 1) { $0.launches == 0 ? 0 : Double($0.totalLaunchMillis) / Double($0.launches) },
        Metric(name: "p95_launch_ms", decimals: 1) { Double($0.p95LaunchMillis) },
    ]

    /// Two-sided 95 % Student t quantiles, t(0.975; df), for 1…30 degrees of freedom.
    static let t95: [Double] = [12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281, 2.2010, 2.1788,
                                2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860, 2.0796, 2.0739, 2.0687, 2.0639,
                                2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423]
    /// Beyond 30: (df, quantile) at the classic table's anchors, the last the normal quantile (df = ∞ as 1/df = 0).
    static let t95Anchors: [(df: Double, t: Double)] = [(30, 2.0423), (40, 2.0211), (60, 2.0003), (120, 1.9799), (.infinity, 1.959964)]

    /// The two-sided 95 % Student t quantile for `degreesOfFreedom` ≥ 1: exact to four decimals up to 30, then
    /// interpolated linearly in 1/df between the anchors (the quantile is nearly linear in 1/df there: within 1e-4 of
    /// the true value for every df).
    public static func studentT95(degreesOfFreedom df: Int) -> Double {
        precondition(df >= 1, "a confidence interval needs at least two samples")
        if df <= t95.count { return t95[df - 1] }
        let x = 1 / Double(df)
        for (upper, lower) in zip(t95Anchors, t95Anchors.dropFirst()) where Double(df) <= lower.df {
            let xUpper = 1 / upper.df, xLower = 1 / lower.df   // xUpper > x ≥ xLower
            return lower.t + (upper.t - lower.t) * (x - xLower) / (xUpper - xLower)
        }
        return t95Anchors[t95Anchors.count - 1].t   // unreachable: the last anchor's df is infinite
    }

    /// Mean and the half-width of its 95 % confidence interval (0 for a single sample).
    public static func meanAndInterval(_ xs: [Double]) -> (mean: Double, halfWidth: Double) {
        guard !xs.isEmpty else { return (0, 0) }
        let n = Double(xs.count), mean = xs.reduce(0, +) / n
        guard xs.count > 1 else { return (mean, 0) }
        let variance = xs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1)
        return (mean, studentT95(degreesOfFreedom: xs.count - 1) * (variance / n).squareRoot())
    }

    /// Fixed-decimal rendering that never prints "-0.000".
    public static func format(_ v: Double, _ decimals: Int) -> String {
        let text = String(format: "%.\(decimals)f", v)
        return text.hasPrefix("-") && Double(text) == 0 ? String(text.dropFirst()) : text
    }

    /// Results by device, then policy (grid order), each with its runs: every seed on every workload.
    public struct Grid: Sendable {
        public var devices: [String]
        public var policies: [String]          // display names, in grid order
        public var runs: [String: [String: [SimulationResult]]]
        /// Policy seeds, and workloads (1 for a trace file; `--workload-seeds` generates several): each policy ran
        /// seeds × workloads times per device.
        public var seeds: Int
        public var workloads: Int
        /// The workloads are the users of `--per-user`: an interval across them is across users.
        public var workloadsAreUsers = false
        public init(devices: [String], policies: [String], runs: [String: [String: [SimulationResult]]], seeds: Int, workloads: Int = 1) {
            self.devices = devices
            self.policies = policies
            self.runs = runs
            self.seeds = seeds
            self.workloads = workloads
        }
    }

    /// What a policy is, for the `kind` column: the confidence interval and the meaning of "delta vs oracle" hang on it.
    public static func kind(_ capabilities: PolicyCapabilities) -> String {
        if capabilities.contains(.needsFuture) { return "offline-heuristic" }   // knows the future; no policy here is a bound
        return capabilities.contains(.randomized) ? "randomized" : "deterministic"
    }

    /// What varied between the runs a confidence interval is taken over (`ci95_over`): `seeds` (only a randomized
    /// policy draws from them), `workloads` (`users` with `--per-user`), `seeds+workloads`, or `none` — one run, or a deterministic policy over
    /// seeds alone, whose runs are identical so that its interval is 0 by construction.
    public static func varied(_ capabilities: PolicyCapabilities, seeds: Int, workloads: Int, users: Bool = false) -> String {
        let parts = (capabilities.contains(.randomized) && seeds > 1 ? ["seeds"] : []) + (workloads > 1 ? [users ? "users" : "workloads"] : [])
        return parts.isEmpty ? "none" : parts.joined(separator: "+")
    }

    public static func compareHeader(hasOracle: Bool) -> [String] {
        var h = ["device", "policy", "kind", "seeds", "workloads", "ci95_over"]
        for m in metrics { h += [m.name, m.name + "_ci95"] }
        for m in metrics { h.append("delta_\(m.name)_vs_baseline") }
        if hasOracle { for m in metrics { h.append("delta_\(m.name)_vs_oracle") } }
        return h
    }

    /// The rows of compare.csv: per device, every policy's means over its runs (and CI half-widths), with deltas
    /// against the baseline policy and, when `oracle` is in the grid, against it.
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
                let capabilities = grid.runs[device]?[policy]?.first?.policy.capabilities ?? []
                var row = [device, policy, kind(capabilities), String(grid.seeds), String(grid.workloads),
                           varied(capabilities, seeds: grid.seeds, workloads: grid.workloads, users: grid.workloadsAreUsers)]
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
                               "mean_launch_ms", "p95_launch_ms", "delta_cold_launches_vs_baseline", "delta_cold_launches_vs_oracle"]

    /// A console table of compare.csv (confidence intervals shown only when a policy ran more than once), then notes
    /// on what its intervals and its `oracle` mean.
    public static func table(_ rows: [[String]], header: [String], grid: Grid) -> String {
        let runs = grid.seeds * grid.workloads
        let keep = tableColumns.filter { runs > 1 || !$0.hasSuffix("_ci95") }.compactMap { header.firstIndex(of: $0) }
        var rows = rows
        if let p = header.firstIndex(of: "policy") {
            let short = shortLabels(rows.map { $0[p] })
            for r in rows.indices { rows[r][p] = short[rows[r][p]] ?? rows[r][p] }
        }
        return (ConsoleTable.lines([header] + rows, columns: keep, leftAligned: 2) + notes(grid: grid)).joined(separator: "\n") + "\n"
    }

    /// Policy labels for a narrow display: the name alone (`xnu`, `cost`) where one variant of it is in the grid, the
    /// full label with its parameters where several are (`cost(alpha=0.5,…)` and `cost(alpha=1,…)`); compare.csv keeps
    /// the full labels.
    public static func shortLabels(_ labels: [String]) -> [String: String] {
        func name(_ label: String) -> Substring { label.prefix { $0 != "(" } }
        var variants: [Substring: Set<String>] = [:]
        for label in labels { variants[name(label), default: []].insert(label) }
        var short: [String: String] = [:]
        for label in labels { short[label] = variants[name(label)]?.count == 1 ? String(name(label)) : label }
        return short
    }

    /// The console's notes under the table: which intervals are 0 by construction, and which rows are heuristics.
    static func notes(grid: Grid) -> [String] {
        let policies = grid.policies.compactMap { name in grid.devices.lazy.compactMap { grid.runs[$0]?[name]?.first?.policy }.first }
        var notes: [String] = []
        let fixed = policies.filter { varied($0.capabilities, seeds: grid.seeds, workloads: grid.workloads) == "none" }.map(\.name)
        if grid.seeds > 1 && grid.workloads == 1 && !fixed.isEmpty {
            notes.append("note: ci95 is over seeds, and seeds move only randomized policies: \(fixed.joined(separator: ", ")) ran "
                         + "identically for every seed (ci95 0 by construction, ci95_over none); --workload-seeds varies the workload")
        }
        let offline = policies.filter { kind($0.capabilities) == "offline-heuristic" }.map(\.name)
        if !offline.isEmpty {
            notes.append("note: \(offline.joined(separator: ", ")) know the future but are heuristics, not bounds: with footprints "
                         + "that differ, an online policy can beat them (a negative delta vs oracle)")
        }
        return notes
    }

    /// SHA-256 of bytes, hex.
    public static func sha256(bytes: [UInt8]) -> String {
        SHA256.hex(SHA256.hash(bytes))
    }

    /// SHA-256 of a file's bytes as stored (not decompressed: `sha256sum`'s), hex, streamed. What is not a regular file
    /// is refused as the readers refuse it (exit 66), a failed read too: `compare` hashes its trace while it reads it, so
    /// this may meet a bad path first.
    public static func sha256(path: String) throws(InputError) -> String {
        try InputLimits.checkReadable(path, file: path)
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw InputError(file: path, message: "cannot read: \(String(cString: strerror(errno)))", exitCode: InputError.noInput)
        }
        defer { close(fd) }
        var hasher = SHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = buffer.withUnsafeMutableBytes { readDescriptor(fd, $0.baseAddress, $0.count) }
            guard n >= 0 else {
                throw InputError(file: path, message: "read failed: \(String(cString: strerror(errno)))", exitCode: InputError.noInput)
            }
            if n == 0 { break }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        }
        return SHA256.hex(hasher.finalize())
    }
}

/// The version recorded in manifests (the CLI prints the same).
public enum JetsimVersionInfo {
    public static let version = "0.2.0"
}
