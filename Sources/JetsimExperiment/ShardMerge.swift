import JetsimCore
import JetsimIO

/// The reduction of a grid's shards (`jetsim compare --shard K/N`) to the grid's results, refusing anything that would
/// make the merged reports differ from the grid run at once: shards of different grids (configuration, inputs or
/// jetsim version), a cell held twice, a cell missing (named, with the command that reruns its shard), a damaged file.
public enum ShardMerge {
    /// The grid's results, ready for `GridReports`.
    public struct Merged {
        public var configuration: GridConfiguration
        public var results: [SimulationResult]
        public var workloads: [RunLabels]
        public var inputHashes: [String: String]
        public var chart: ChartFiles
        /// intervals.csv's rows, the shards' joined in cell order.
        public var intervalRows: String
    }

    /// Reads and checks the shard directories `directories`.
    /// A directory that does not exist is a shard that failed before writing (`merge sweep/0 … sweep/3` after task 2
    /// failed): its cells are reported missing with the others, not as an unreadable input.
    public static func merge(_ given: [String]) throws(InputError) -> Merged {
        let absent = given.filter { !ShardFiles.exists($0) }
        let directories = given.filter(ShardFiles.exists)
        guard let first = directories.first else {
            throw InputError(file: given.first ?? "merge", message: given.isEmpty ? "name the shard directories to merge"
                             : "does not exist, nor does any other shard directory given", exitCode: given.isEmpty ? InputError.usage : InputError.noInput)
        }
        let manifests = try directories.map { d throws(InputError) in try ShardFiles.manifest(in: d) }
        let reference = manifests[0]
        for (d, m) in zip(directories, manifests).dropFirst() {
            guard m.shards == reference.shards else {
                throw InputError(file: d + "/shard.json", message: "is shard \(m.shard)/\(m.shards), but \(first) is \(reference.shard)/\(reference.shards): "
                                 + "the shards of one grid share N")
            }
            guard m.gridSha256 == reference.gridSha256, m.jetsimVersion == reference.jetsimVersion else {
                throw InputError(file: d + "/shard.json", message: "belongs to another grid than \(first) (configuration hash "
                                 + "\(m.gridSha256.prefix(12)) against \(reference.gridSha256.prefix(12)), jetsim \(m.jetsimVersion) against "
                                 + "\(reference.jetsimVersion)): merge the shards of one `jetsim compare` command line")
            }
        }
        let configuration = reference.config
        // Which directory holds each shard; every cell then comes from exactly one.
        var holder = [Int?](repeating: nil, count: reference.shards)
        for (k, m) in manifests.enumerated() {
            if let other = holder[m.shard] {
                throw InputError(file: directories[k], message: "holds shard \(m.shard)/\(m.shards), as \(directories[other]) does: give each shard once")
            }
            guard m.cells == configuration.shard(m.shard, of: m.shards) else {
                throw InputError(file: directories[k] + "/shard.json", message: "holds cells \(m.firstCell)..<\(m.endCell), not shard \(m.shard)/\(m.shards)'s")
            }
            holder[m.shard] = k
        }
        let missing = holder.indices.filter { holder[$0] == nil && !configuration.shard($0, of: reference.shards).isEmpty }
        if !missing.isEmpty {
            let lines = missing.map { k in
                let cells = configuration.shard(k, of: reference.shards)
                return "  shard \(k)/\(reference.shards): cells \(cells.lowerBound)..<\(cells.upperBound), from \(configuration.describe(cells.lowerBound)) "
                    + "to \(configuration.describe(cells.upperBound - 1)); rerun: \(rerunCommand(reference, shard: k))"
            }
            let notFound = absent.isEmpty ? "" : " (not found: \(absent.joined(separator: ", ")))"
            throw InputError(file: "merge", message: "\(missing.count) of \(reference.shards) shards are missing (\(missing.map(String.init).joined(separator: ", ")))\(notFound), "
                             + "so are their cells:\n" + lines.joined(separator: "\n") + "\nthen merge again", exitCode: InputError.dataError)
        }
        var results: [SimulationResult] = []
        results.reserveCapacity(configuration.cellCount)
        var hashes: [String: String] = [:]
        var labels = [RunLabels?](repeating: nil, count: configuration.workloadCount)
        var chart: ChartFiles?
        var intervalRows = ""
        for k in holder.indices {
            guard let index = holder[k] else { continue }
            let directory = directories[index], m = manifests[index]
            let shardResults = try ShardFiles.results(in: directory, manifest: m)
            for (id, r) in zip(m.cells, shardResults) {
                let cell = configuration.cell(id)
                guard r.device.name == configuration.devices[cell.device].name, r.seed == cell.seed else {
                    throw InputError(file: directory + "/results.json", message: "run \(id - m.firstCell) is not \(configuration.describe(id))")
                }
                // The shapes the report writers index by (a file is trusted as jetsim's own once its hash matches).
                let windows = [r.measured] + r.intervals
                guard windows.allSatisfy({ $0.killsByReason.count == KillReason.allCases.count && $0.microsAtLevel.count == 3 }) else {
                    throw InputError(file: directory + "/results.json", message: "run \(id - m.firstCell) is not a run of this jetsim (its counters differ in shape)")
                }
            }
            results += shardResults
            intervalRows += try ShardFiles.intervalRows(in: directory, manifest: m)
            for (name, hash) in m.inputsSha256 {
                if let seen = hashes[name], seen != hash {
                    throw InputError(file: directory + "/shard.json", message: "read '\(InputError.excerpt(name))' with other contents than an earlier "
                                     + "shard (SHA-256 \(hash.prefix(12)) against \(seen.prefix(12))): the input changed between shards; rerun them all")
                }
                hashes[name] = hash
            }
            for w in m.workloads where labels.indices.contains(w.index) { labels[w.index] = w.labels }
            if m.hasChart { chart = try ShardFiles.chart(in: directory) }
        }
        guard let chart else {
            throw InputError(file: "merge", message: "no shard holds the charted cell \(configuration.describe(configuration.chartCell))")
        }
        let workloads = try labels.enumerated().map { w, l throws(InputError) in
            guard let l else { throw InputError(file: "merge", message: "no shard names workload \(w)") }
            return l
        }
        return Merged(configuration: configuration, results: results, workloads: workloads, inputHashes: hashes, chart: chart,
                      intervalRows: intervalRows)
    }

    /// The command that wrote `manifest`'s shard, made to write shard `k` instead: `--shard` changed, and `--out`
    /// changed too where it ended in the shard's number (DIR/2 → DIR/5).
    static func rerunCommand(_ manifest: ShardFiles.Manifest, shard k: Int) -> String {
        var args = manifest.command
        let out = manifest.out.hasSuffix("/\(manifest.shard)") ? String(manifest.out.dropLast("\(manifest.shard)".count)) + "\(k)" : nil
        var i = 0
        while i < args.count {
            let a = args[i]
            if a == "--shard", i + 1 < args.count { args[i + 1] = "\(k)/\(manifest.shards)"; i += 1 }
            else if a.hasPrefix("--shard=") { args[i] = "--shard=\(k)/\(manifest.shards)" }
            else if a == "--out", i + 1 < args.count, let out { args[i + 1] = out; i += 1 }
            else if a.hasPrefix("--out="), let out { args[i] = "--out=" + out }
            i += 1
        }
        if out == nil { args += ["# with --out naming shard \(k)'s directory"] }
        return args.map(shellQuoted).joined(separator: " ")
    }

    static func shellQuoted(_ s: String) -> String {
        let plain = !s.isEmpty && s.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || "0123456789-_./:=,+@%".unicodeScalars.contains($0) }
        return plain || s.hasPrefix("# ") ? s : "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
