import JetsimCore
import Yams

/// An experiment's settings (`--config`, YAML or JSON; a commented example is Examples/experiment.yaml). Every
/// key is optional; command-line options override the file. A bad value is blamed on the file, at its line and
/// column (exit 65), never on an option.
public struct ExperimentConfig: Sendable, Equatable {
    public var apps: String?
    public var trace: String?
    /// A directory of traces (`--traces`): every file in it makes one workload of the grid.
    public var traces: String?
    public var format: String?
    public var devices: [String]?
    public var policies: [String]?
    public var seeds: [UInt64]?
    public var warmup: String?
    public var interval: String?
    public var baseline: String?
    public var jobs: Int?
    public var out: String?
    /// Split each trace by its `user` column, each user on a fresh device (`--per-user`).
    public var perUser: Bool?
    /// The file the settings came from, and where each value starts in it (`devices[1]` for a list's item): a
    /// problem found only when a value is used (an unknown policy) is blamed there too.
    public var file: String?
    var positions: [String: Position] = [:]

    struct Position: Sendable, Equatable { var line: Int, column: Int }

    public init() {}

    public static let keys = ["apps", "trace", "traces", "format", "devices", "policies", "seeds", "warmup", "interval", "baseline", "jobs", "out", "per_user"]
    public static let formats = ["jetsim", "libcachesim"]

    /// The largest values accepted (README, "Comparing policies"): durations as in device files, and jobs.
    public enum Limits {
        public static let seconds = DeviceFile.Limits.seconds
        public static let jobs = 1024
    }

    /// The file at `path`, its relative paths resolved against the file's directory (`resolvingPaths`).
    public static func read(path: String) throws(InputError) -> ExperimentConfig {
        try parse(bytes: YAMLInput.bytes(path: path, what: "an experiment file"), file: path).resolvingPaths(relativeTo: directory(of: path))
    }

    /// The settings with every relative path (`apps`, `trace`, `out`, device files and policy files given by path)
    /// taken relative to `directory`, so that an experiment file means the same from any working directory and can
    /// sit beside its data. Absolute paths, and names (presets, built-ins, policies found by name), are unchanged.
    public func resolvingPaths(relativeTo directory: String) -> ExperimentConfig {
        func rebase(_ path: String) -> String {
            guard !path.hasPrefix("/"), !directory.isEmpty else { return path }
            return directory.hasSuffix("/") ? directory + path : directory + "/" + path
        }
        var c = self
        c.apps = apps.map(rebase)
        c.trace = trace.map(rebase)
        c.traces = traces.map(rebase)
        c.out = out.map(rebase)
        c.devices = devices?.map { DeviceSource.file($0) == nil ? $0 : rebase($0) }
        c.policies = policies?.map { PolicySource.isPath($0) ? rebase($0) : $0 }
        if let baseline, PolicySource.isPath(baseline) { c.baseline = rebase(baseline) }
        return c
    }

    /// The directory part of `path` ("" for a bare file name: the working directory).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// An experiment file's bytes (`file` names it in messages): UTF-8, a leading byte-order mark allowed.
    public static func parse(bytes: [UInt8], file: String) throws(InputError) -> ExperimentConfig {
        try parse(YAMLInput.text(bytes, file: file), file: file)
    }

    /// Checks every value that needs nothing outside the file (devices and policies are names: `checkReferences`).
    public static func parse(_ text: String, file: String) throws(InputError) -> ExperimentConfig {
        let yaml = YAMLValues(file: file)
        guard let mapping = try YAMLInput.root(text, file: file)?.mapping else {
            throw InputError(file: file, message: "expected a mapping of experiment keys")
        }
        var c = ExperimentConfig()
        c.file = file
        var baselineNode: Node?
        for (k, v) in mapping {
            let key = try yaml.keyName(k, in: "")
            func note(_ path: String, _ node: Node) {
                if let mark = node.mark { c.positions[path] = Position(line: mark.line, column: mark.column) }
            }
            note(key, v)
            func path() throws(InputError) -> String {
                let s = try yaml.scalar(v, key, expected: "a path")
                guard !s.isEmpty else { throw yaml.fail(v, key, "expected a path, found nothing") }
                return s
            }
            /// A list, or one value with items separated by commas (empty ones skipped, as in options); every item
            /// non-empty and given once.
            func list(_ what: String) throws(InputError) -> [String] {
                var items: [(String, Node)] = []
                if let s = v.scalar?.string {
                    items = s.split(separator: ",").map { (String($0).trimmingSpaces, v) }.filter { !$0.0.isEmpty }
                } else if let sequence = v.sequence {
                    for item in sequence { items.append((try yaml.scalar(item, key, expected: "a list of \(what)"), item)) }
                } else {
                    throw yaml.fail(v, key, "expected a list of \(what), found \(yaml.found(v))")
                }
                guard !items.isEmpty else { throw yaml.fail(v, key, "expected at least one of \(what), found none") }
                var seen = Set<String>()
                for (n, (item, node)) in items.enumerated() {
                    note("\(key)[\(n)]", node)
                    guard !item.isEmpty else { throw yaml.fail(node, "\(key)[\(n)]", "expected one of \(what), found nothing") }
                    guard seen.insert(item).inserted else { throw yaml.fail(node, "\(key)[\(n)]", "'\(InputError.excerpt(item))' is listed twice") }
                }
                return items.map(\.0)
            }
            func duration() throws(InputError) -> String {
                let expected = "a duration such as 90s, 30m, 1h or 1.5d (seconds by default), at most 10 years"
                let s = try yaml.scalar(v, key, expected: expected)
                guard let micros = Durations.micros(s), (0...Limits.seconds * Units.microsPerSecond).contains(micros) else {
                    throw yaml.fail(v, key, "expected \(expected), found \(yaml.found(v))")
                }
                return s
            }
            switch key {
            case "apps": c.apps = try path()
            case "trace": c.trace = try path()
            case "traces": c.traces = try path()
            case "format":
                let expected = "one of: \(formats.joined(separator: ", "))"
                let s = try yaml.scalar(v, key, expected: expected)
                guard formats.contains(s) else { throw yaml.fail(v, key, "expected \(expected), found \(yaml.found(v))") }
                c.format = s
            case "devices": c.devices = try list("presets, cache:CAPACITY or device files")
            case "policies": c.policies = try list("policies")
            case "seeds":
                c.seeds = []
                for (n, s) in try list("whole-number seeds").enumerated() {
                    guard let seed = UInt64(s) else {
                        throw c.error(at: "seeds[\(n)]", "expected a whole-number seed from 0 to \(UInt64.max), found '\(InputError.excerpt(s))'")
                    }
                    c.seeds?.append(seed)
                }
            case "warmup": c.warmup = try duration()
            case "interval": c.interval = try duration()
            case "baseline":
                c.baseline = try yaml.scalar(v, key, expected: "one of the policies")
                baselineNode = v
            case "jobs": c.jobs = try yaml.amount(v, key, unit: 1, in: 1...Limits.jobs, expected: "a whole number of jobs from 1 to \(Limits.jobs)")
            case "out": c.out = try path()
            case "per_user":
                let s = try yaml.scalar(v, key, expected: "true or false")
                guard s == "true" || s == "false" else { throw yaml.fail(v, key, "expected true or false, found \(yaml.found(v))") }
                c.perUser = s == "true"
            default: throw InputError(file: file, at: k, key: key, "unknown key (known: \(keys.joined(separator: ", ")))")
            }
        }
        if let baseline = c.baseline, let policies = c.policies, !policies.contains(baseline) {
            throw yaml.fail(baselineNode, "baseline", "expected one of the policies (\(InputError.excerpt(policies.joined(separator: ", "), limit: 120))), "
                            + "found '\(InputError.excerpt(baseline))'")
        }
        return c
    }

    /// An error blamed on `key`'s value in the file (`devices[1]` for an item of a list), for a problem found when the
    /// value is used.
    public func error(at key: String, _ message: String) -> InputError {
        let position = positions[key] ?? positions[String(key.prefix { $0 != "[" })]
        return InputError(file: file ?? "--config", line: position?.line, column: position?.column, key: key, message: message)
    }

    /// Resolves the file's devices and policies as `compare` will (presets, `cache:CAPACITY`, device files; built-ins,
    /// policy files by path or by name in `policiesDirectory`, then built in), so that an unknown one is blamed on the file rather
    /// than on `--devices` or `--policies`. Errors inside a device or policy file name that file.
    public func checkReferences(policiesDirectory: String?) throws(InputError) {
        var firstDevice: Device?
        for (k, name) in (devices ?? []).enumerated() {
            do {
                let device = try DeviceSource.resolve(name)
                firstDevice = firstDevice ?? device
            } catch where error.exitCode == InputError.usage {   // not a preset or a valid cache:CAPACITY
                throw self.error(at: "devices[\(k)]", error.message)
            }
        }
        let environment = PolicyEnvironment(seed: 1, device: firstDevice ?? Device(name: "check", physicalBytes: 4 << 30, appLimitBytes: 2 << 30))
        for (k, spec) in (policies ?? []).enumerated() {
            do {
                _ = try PolicySource.make(spec, environment: environment, policiesDirectory: policiesDirectory)
            } catch let error as InputError {
                throw error
            } catch let error as PolicySpecError {
                throw self.error(at: "policies[\(k)]", Self.describe(error))
            } catch {
                throw self.error(at: "policies[\(k)]", "cannot be made: \(InputError.excerpt("\(error)", limit: 200))")
            }
        }
    }

    /// `error` with every echoed value cut short.
    static func describe(_ error: PolicySpecError) -> String {
        func cut(_ s: String) -> String { InputError.excerpt(s) }
        switch error {
        case let .malformed(text, why): return "policy '\(cut(text))': \(InputError.excerpt(why, limit: 120))"
        case let .unknownPolicy(name, known):
            return "unknown policy '\(cut(name))'\(NameSuggestion.hint(for: name, among: known)) (known: \(known.joined(separator: ", ")))"
        case let .unknownParameter(policy, parameter, known):
            return "policy '\(cut(policy))' has no parameter '\(cut(parameter))' (parameters: \(known.joined(separator: ", ")))"
        case let .badValue(policy, parameter, value, expected):
            return "policy '\(cut(policy))': parameter '\(cut(parameter))' is '\(cut(value))', expected \(expected)"
        }
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
