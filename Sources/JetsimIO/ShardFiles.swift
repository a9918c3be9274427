import Foundation
import JetsimCore

/// A shard directory (`jetsim compare --shard K/N --out DIR`): `shard.json`, which says which grid and cells it holds,
/// `results.json`, its cells' runs in id order (without their interval windows and samples), `intervals.csv`, those
/// cells' rows of the grid's intervals.csv (with `--interval`), and in the shard holding the charted cell its
/// `chart-timeseries.csv` and `chart-kills.csv`. `jetsim merge` reduces the shards of one grid to the grid's reports.
public enum ShardFiles {
    /// The files a shard directory holds (it is replaced only when it holds nothing else).
    public static let names = ["shard.json", "results.json", "intervals.csv", "chart-timeseries.csv", "chart-kills.csv"]
    public static let format = "jetsim-shard-1"

    /// `shard.json`.
    public struct Manifest: Codable {
        public var format = ShardFiles.format
        public var jetsimVersion = JetsimVersionInfo.version
        public var gridSha256: String
        public var shard: Int
        public var shards: Int
        /// The cell ids held: `firstCell ..< endCell` (`GridConfiguration.shard`).
        public var firstCell: Int
        public var endCell: Int
        public var config: GridConfiguration
        /// The labels of the workloads the cells belong to, by workload index.
        public var workloads: [Workload]
        /// SHA-256 of the files this shard read.
        public var inputsSha256: [String: String]
        /// SHA-256 of results.json as written: a damaged or swapped file is refused.
        public var resultsSha256 = ""
        /// Whether the charted cell is here (then so are its chart files).
        public var hasChart: Bool
        /// The command that wrote this shard: `jetsim merge` shows it, with the shard changed, to rerun a missing one.
        public var command: [String]
        public var out: String

        public struct Workload: Codable {
            public var index: Int, trace: String, tracePath: String, appNames: [String]
            /// With `--per-user`, the workload's user.
            public var user: String?
            public init(index: Int, labels: RunLabels) {
                (self.index, trace, tracePath, appNames, user) = (index, labels.trace, labels.tracePath, labels.appNames, labels.user)
            }
            public var labels: RunLabels { RunLabels(trace: trace, tracePath: tracePath, appNames: appNames, user: user) }
        }

        public init(configuration: GridConfiguration, shard: Int, of shards: Int, workloads: [Workload], inputHashes: [String: String],
                    hasChart: Bool, command: [String], out: String) throws {
            self.hasChart = hasChart
            gridSha256 = try configuration.sha256
            (self.shard, self.shards, config) = (shard, shards, configuration)
            let cells = configuration.shard(shard, of: shards)
            (firstCell, endCell) = (cells.lowerBound, cells.upperBound)
            (self.workloads, inputsSha256, self.command, self.out) = (workloads, inputHashes, command, out)
        }

        public var cells: Range<Int> { firstCell ..< max(firstCell, endCell) }
    }

    /// Writes a shard into `directory` (a staging directory: the caller publishes it): the runs without their windows
    /// and samples, which only intervals.csv's rows need (rendered here, once, as the unsharded grid renders them).
    public static func write(_ manifest: Manifest, results: [SimulationResult], chart: ChartFiles?, into directory: String) throws {
        var manifest = manifest
        let configuration = manifest.config
        let rows = GridReports.intervalRows(results, firstCell: manifest.firstCell, configuration: configuration,
                                            workloads: Dictionary(manifest.workloads.map { ($0.index, $0.labels) }, uniquingKeysWith: { a, _ in a }))
        let slim = results.map { r in
            var r = r
            (r.intervals, r.samples) = ([], [])
            return r
        }
        let resultBytes = Array(try resultsEncoder.encode(slim)) + [10]
        manifest.resultsSha256 = CompareReports.sha256(bytes: resultBytes)
        var files = [("results.json", resultBytes), ("shard.json", Array(try GridConfiguration.encoder().encode(manifest)) + [10])]
        if let chart { files += [("chart-timeseries.csv", Array(chart.timeseries.utf8)), ("chart-kills.csv", Array(chart.kills.utf8))] }
        if configuration.intervalMicros > 0 { files.append(("intervals.csv", Array((CSVLine.of(ReportFiles.intervalsHeader) + rows).utf8))) }
        var written: [AtomicFile] = []
        for (name, bytes) in files {
            let f = try AtomicFile(path: directory + "/" + name)
            try f.write(bytes: bytes)
            written.append(f)
        }
        for f in written { try f.commit() }
    }

    /// results.json's encoder: the types' own key names (a key strategy would cost a conversion per key: merging 1 000
    /// cells took 1.2 s with snake_case keys).
    static var resultsEncoder: JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }

    /// The shard's rows of intervals.csv (its header checked and dropped); "" without `--interval`.
    public static func intervalRows(in directory: String, manifest: Manifest) throws(InputError) -> String {
        guard manifest.config.intervalMicros > 0 else { return "" }
        let text = String(decoding: try read(directory + "/intervals.csv"), as: UTF8.self)
        let header = CSVLine.of(ReportFiles.intervalsHeader)
        guard text.hasPrefix(header) else {
            throw InputError(file: directory + "/intervals.csv", line: 1, message: "is not a shard's intervals.csv (its header differs)")
        }
        return String(text.dropFirst(header.count))
    }

    /// The charted cell's files of a shard that holds it.
    public static func chart(in directory: String) throws(InputError) -> ChartFiles {
        func text(_ name: String) throws(InputError) -> String { String(decoding: try read(directory + "/" + name), as: UTF8.self) }
        return try ChartFiles(timeseries: try text("chart-timeseries.csv"), kills: try text("chart-kills.csv"))
    }

    /// Whether `directory` exists at all (a shard that failed before writing leaves none: a missing shard, not bad input).
    public static func exists(_ directory: String) -> Bool { FileManager.default.fileExists(atPath: directory) }

    /// Reads `directory/shard.json`; a directory without one is not a shard (exit 66), a damaged one is bad data (65).
    public static func manifest(in directory: String) throws(InputError) -> Manifest {
        let path = directory + "/shard.json"
        let data = try read(path)
        do {
            let m = try GridConfiguration.decoder().decode(Manifest.self, from: data)
            guard m.format == format else { throw InputError(file: path, message: "is a '\(InputError.excerpt(m.format))' file, not \(format)") }
            guard m.shards > 0, m.shard >= 0, m.shard < m.shards, m.firstCell >= 0, m.endCell >= m.firstCell, m.endCell <= m.config.cellCount,
                  !m.config.seeds.isEmpty, !m.config.policies.isEmpty, !m.config.devices.isEmpty else {
                throw InputError(file: path, message: "names no valid shard of its grid (shard \(m.shard)/\(m.shards), cells \(m.firstCell)..<\(m.endCell))")
            }
            return m
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError(file: path, message: "is not a shard manifest: \(describe(error))")
        }
    }

    /// Reads `directory/results.json`: exactly the manifest's cells, as it recorded them.
    public static func results(in directory: String, manifest: Manifest) throws(InputError) -> [SimulationResult] {
        let path = directory + "/results.json"
        let data = try read(path)
        guard CompareReports.sha256(bytes: Array(data)) == manifest.resultsSha256 else {
            throw InputError(file: path, message: "is not the file shard.json recorded (its SHA-256 differs): rerun this shard")
        }
        let count = manifest.cells.count
        let results: [SimulationResult]
        do {
            results = try JSONDecoder().decode([SimulationResult].self, from: data)
        } catch {
            throw InputError(file: path, message: "is not a shard's results: \(describe(error))")
        }
        guard results.count == count else {
            throw InputError(file: path, message: "holds \(results.count) runs, but shard.json names \(count) cells")
        }
        return results
    }

    private static func read(_ path: String) throws(InputError) -> Data {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError(file: path, message: "cannot be read (is this a shard directory written by `jetsim compare --shard`?)",
                             exitCode: InputError.noInput)
        }
        return data
    }

    /// A decoding error in a few words, with where it was.
    static func describe(_ error: Error) -> String {
        func path(_ keys: [any CodingKey]) -> String { keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".") }
        switch error as? DecodingError {
        case .dataCorrupted(let c)?: return "\(c.debugDescription) at '\(path(c.codingPath))'"
        case .keyNotFound(let key, let c)?: return "'\(path(c.codingPath + [key]))' is missing"
        case .typeMismatch(_, let c)?, .valueNotFound(_, let c)?: return "'\(path(c.codingPath))' has the wrong type"
        default: return "\(error)"
        }
    }
}
