import JetsimCore
import Yams

/// An experiment's settings (`--config`, YAML or JSON; a commented example is Examples/experiment.yaml). Every
/// key is optional; command-line options override the file.
public struct ExperimentConfig: Sendable, Equatable {
    public var apps: String?
    public var trace: String?
    public var format: String?
    public var devices: [String]?
    public var policies: [String]?
    public var seeds: [UInt64]?
    public var warmup: String?
    public var interval: String?
    public var baseline: String?
    public var jobs: Int?
    public var out: String?

    public init() {}

    public static let keys = ["apps", "trace", "format", "devices", "policies", "seeds", "warmup", "interval", "baseline", "jobs", "out"]

    public static func read(path: String) throws(InputError) -> ExperimentConfig {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw InputError(file: path, message: "cannot read the experiment file", exitCode: InputError.noInput)
        }
        let node: Node?
        do { node = try Yams.compose(yaml: text) } catch { throw InputError(file: path, message: "not valid YAML: \(error)") }
        guard let mapping = node?.mapping else { throw InputError(file: path, message: "expected a mapping of experiment keys") }
        var c = ExperimentConfig()
        for (k, v) in mapping {
            let key = k.string ?? ""
            let line = k.mark.map { $0.line }
            func fail(_ message: String) -> InputError { InputError(file: path, line: line, field: key, message: message) }
            func text() throws(InputError) -> String {
                guard let s = v.scalar?.string else { throw fail("expected a single value") }
                return s
            }
            func list() throws(InputError) -> [String] {
                if let s = v.scalar?.string { return s.split(separator: ",").map { String($0).trimmingSpaces } }
                guard let items = v.sequence else { throw fail("expected a list") }
                var out: [String] = []
                for item in items {
                    guard let s = item.scalar?.string else { throw fail("expected a list of values") }
                    out.append(s)
                }
                return out
            }
            switch key {
            case "apps": c.apps = try text()
            case "trace": c.trace = try text()
            case "format": c.format = try text()
            case "devices": c.devices = try list()
            case "policies": c.policies = try list()
            case "seeds":
                var seeds: [UInt64] = []
                for s in try list() {
                    guard let n = UInt64(s) else { throw fail("expected whole-number seeds, found '\(s)'") }
                    seeds.append(n)
                }
                c.seeds = seeds
            case "warmup": c.warmup = try text()
            case "interval": c.interval = try text()
            case "baseline": c.baseline = try text()
            case "jobs":
                guard let n = Int(try text()), n >= 1 else { throw fail("expected a positive number of jobs") }
                c.jobs = n
            case "out": c.out = try text()
            default: throw fail("unknown key (known: \(keys.joined(separator: ", ")))")
            }
        }
        return c
    }
}

/// Durations such as `90`, `90s`, `30m`, `1h`, `1.5d` (seconds by default), as microseconds.
public enum Durations {
    public static func micros(_ text: String) -> Int? {
        let units: [(String, Int)] = [("ms", 1000), ("s", 1_000_000), ("m", 60_000_000), ("h", 3_600_000_000), ("d", 86_400_000_000)]
        for (suffix, unit) in units where text.hasSuffix(suffix) {
            let number = String(text.dropLast(suffix.count))
            guard !number.hasSuffix("m") else { continue }   // "ms" is not "m" + "s"
            return Array(number.utf8).withUnsafeBufferPointer { DecimalParser.scaled($0, unit: unit) }
        }
        return Array(text.utf8).withUnsafeBufferPointer { DecimalParser.scaled($0, unit: 1_000_000) }
    }
}
