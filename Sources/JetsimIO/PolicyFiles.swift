#if canImport(Glibc)
import Glibc
#endif
import JetsimCore
import Yams

/// Declarative policy files (YAML; JSON is YAML too). Format: Policies/README.md. Errors name the file, the line and
/// column, the key path (`bands[1].when.footprint_mb_at_least`), what was expected and what was found.
public enum PolicyFiles {
    /// A policy file found by name: in a directory (`path` is where), or built into jetsim (`builtIn` holds its text).
    public struct Found: Sendable {
        public var name: String
        /// The file's path; for a built-in file, where it was built from (`Policies/swam.yaml`).
        public var path: String
        /// The text of a file built into jetsim (nil: the file is read from `path`).
        public var builtIn: String?
        public var isBuiltIn: Bool { builtIn != nil }
    }

    static let suffixes = [".yaml", ".yml", ".json"]

    /// The policy files of the repository's `Policies/`, built into jetsim at build time (the EmbedPolicyFiles plugin,
    /// Plugins/), so that they are found from any working directory, wherever the binary is; sorted by name.
    public static let builtIn: [Found] = builtInPolicyFileTexts.compactMap { entry in
        guard let suffix = suffixes.first(where: { entry.file.hasSuffix($0) }) else { return nil }
        return Found(name: String(entry.file.dropLast(suffix.count)), path: "Policies/\(entry.file)", builtIn: entry.text)
    }

    /// Every policy file that can be named: those in `directory` (a user's `--policy-dir`, searched first) and the
    /// built-in ones it does not override, sorted by name.
    public static func list(directory: String?) -> [Found] {
        let own = directory.map { list(in: $0) } ?? []
        let names = Set(own.map(\.name))
        return (own + builtIn.filter { !names.contains($0.name) }).sorted { $0.name < $1.name }
    }

    /// The policy file named `name`: in `directory` first, then among the built-in ones.
    public static func find(_ name: String, directory: String?) -> Found? {
        if let directory, let path = find(name, in: directory) { return Found(name: name, path: path) }
        return builtIn.first { $0.name == name }
    }

    /// The policy in `file`, read from disk or from the text built into jetsim.
    public static func load(_ file: Found) throws(InputError) -> DeclarativePolicy {
        if let text = file.builtIn { return try parse(bytes: Array(text.utf8), file: file.path + " (built in)") }
        return try load(path: file.path)
    }

    /// The policy files in `directory`, sorted by name (the README and other files are skipped).
    public static func list(in directory: String) -> [Found] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var found: [Found] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let suffix = suffixes.first(where: { name.hasSuffix($0) }) else { continue }
            found.append(Found(name: String(name.dropLast(suffix.count)), path: directory + "/" + name))
        }
        return found.sorted { $0.name < $1.name }
    }

    /// The file for `name` in `directory`, if any.
    public static func find(_ name: String, in directory: String) -> String? {
        suffixes.map { "\(directory)/\(name)\($0)" }.first { access($0, R_OK) == 0 }
    }

    /// The policy file at `path`; every error is an `InputError` naming the file, line, column and key path.
    public static func load(path: String) throws(InputError) -> DeclarativePolicy {
        try parse(bytes: YAMLInput.bytes(path: path, what: "a policy file"), file: path)
    }

    /// A policy file's bytes (`file` names it in messages): UTF-8, a leading byte-order mark allowed.
    public static func parse(bytes: [UInt8], file: String) throws(InputError) -> DeclarativePolicy {
        try parse(YAMLInput.text(bytes, file: file), file: file)
    }

    /// The largest values policy files accept (Policies/README.md): as for device files, 10 years and 1 PiB; score
    /// weights within ±1 000 000, so that a score stays finite.
    public enum Limits {
        public static let seconds = DeviceFile.Limits.seconds
        public static let mebibytes = DeviceFile.Limits.mebibytes
        public static let weight = 1_000_000.0
    }

    public static func parse(_ text: String, file: String) throws(InputError) -> DeclarativePolicy {
        guard let root = try YAMLInput.root(text, file: file) else { throw InputError(file: file, message: "the file is empty") }
        let reader = Reader(file: file)
        let top = try reader.mapping(root, path: "", allowed: ["name", "description", "protect", "bands", "order"])
        guard let nameNode = top["name"] else { throw InputError(file: file, key: "name", message: "required: the policy's name") }
        let name = try reader.string(nameNode, path: "name")
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }) else {
            throw reader.fail(nameNode, "name", "expected a name of letters, digits, '-', '_' or '.', found \(reader.values.found(nameNode))")
        }
        var policy = DeclarativePolicy(name: name)
        if let d = top["description"] { policy.summary = try reader.string(d, path: "description") }
        if let p = top["protect"] { policy.protect = try reader.predicate(p, path: "protect") }
        if let b = top["bands"] {
            guard let items = b.sequence else { throw reader.fail(b, "bands", "expected a list of bands, found \(reader.values.found(b))") }
            for (k, item) in items.enumerated() {
                let path = "bands[\(k)]"
                let band = try reader.mapping(item, path: path, allowed: ["name", "when"])
                let bandName = try band["name"].map { n throws(InputError) in try reader.string(n, path: path + ".name") } ?? "band \(k)"
                let when = try band["when"].map { n throws(InputError) in try reader.predicate(n, path: path + ".when") } ?? .init()
                policy.bands.append(.init(name: bandName, when: when))
            }
        }
        if let o = top["order"] {
            let order = try reader.mapping(o, path: "order", allowed: ["score", "tie_breakers"])
            if let s = order["score"] {
                let weights = try reader.mapping(s, path: "order.score", allowed: DeclarativePolicy.Feature.allCases.map(\.rawValue))
                for (key, node) in weights.sorted(by: { $0.key < $1.key }) {
                    guard let feature = DeclarativePolicy.Feature(rawValue: key) else { continue }
                    policy.weights.append((feature, try reader.weight(node, path: "order.score.\(key)")))
                }
            }
            if let t = order["tie_breakers"] {
                guard let items = t.sequence else { throw reader.fail(t, "order.tie_breakers", "expected a list, found \(reader.values.found(t))") }
                policy.tieBreakers = []
                for (k, item) in items.enumerated() {
                    policy.tieBreakers.append(try reader.values.choice(item, "order.tie_breakers[\(k)]", DeclarativePolicy.TieBreaker.self))
                }
            }
        }
        return policy
    }

    /// Node access with located errors.
    struct Reader {
        let values: YAMLValues
        init(file: String) { values = YAMLValues(file: file) }

        func fail(_ node: Node, _ path: String, _ message: String) -> InputError { values.fail(node, path, message) }

        func mapping(_ node: Node, path: String, allowed: [String]) throws(InputError) -> [String: Node] {
            guard let m = node.mapping else { throw fail(node, path.isEmpty ? "(top)" : path, "expected a mapping of keys, found \(values.found(node))") }
            var out: [String: Node] = [:]
            for (k, v) in m {
                let key = try values.keyName(k, in: path)
                let full = path.isEmpty ? key : "\(path).\(key)"
                guard allowed.contains(key) else { throw fail(k, full, "unknown key (expected one of: \(allowed.joined(separator: ", ")))") }
                out[key] = v
            }
            return out
        }

        func string(_ node: Node, path: String) throws(InputError) -> String { try values.scalar(node, path, expected: "text") }

        /// A score weight: a number within ±`Limits.weight`.
        func weight(_ node: Node, path: String) throws(InputError) -> Double {
            let expected = "a number from -\(Int(Limits.weight)) to \(Int(Limits.weight))"
            let s = try values.scalar(node, path, expected: expected)
            guard let v = Double(s), (-Limits.weight...Limits.weight).contains(v) else {
                throw fail(node, path, "expected \(expected), found \(values.found(node))")
            }
            return v
        }

        func list<T>(_ node: Node, path: String, _ element: (Node, String) throws(InputError) -> T) throws(InputError) -> [T] {
            if node.scalar != nil { return [try element(node, path)] }
            guard let items = node.sequence else { throw fail(node, path, "expected a list, found \(values.found(node))") }
            var out: [T] = []
            for (k, item) in items.enumerated() { out.append(try element(item, "\(path)[\(k)]")) }
            return out
        }

        static let predicateKeys = ["class", "state", "mode", "running_task", "background_activity", "idle_s_at_least",
                                    "idle_s_below", "footprint_mb_at_least", "footprint_mb_below"]
        static let classNames: [String: PriorityClass] = Dictionary(uniqueKeysWithValues: PriorityClass.allCases.filter { $0 != .none }.map { ($0.reportName, $0) })
        static let stateNames: [String: AppState] = Dictionary(uniqueKeysWithValues: AppState.allCases.map { ($0.reportName, $0) })
        static let activityNames: [String: KillCandidate.BackgroundActivity] = [
            "audio": .audio, "location": .otherMode, "voip": .otherMode, "other-mode": .otherMode, "task": .task, "wake": .wake,
        ]

        func predicate(_ node: Node, path: String) throws(InputError) -> DeclarativePolicy.Predicate {
            let m = try mapping(node, path: path, allowed: Reader.predicateKeys)
            var p = DeclarativePolicy.Predicate()
            func lookup<T>(_ table: [String: T], _ n: Node, _ at: String) throws(InputError) -> T {
                let expected = "one of: \(table.keys.sorted().joined(separator: ", "))"
                guard let v = table[try values.scalar(n, at, expected: expected)] else { throw fail(n, at, "expected \(expected), found \(values.found(n))") }
                return v
            }
            /// Exact, in integer µs or bytes.
            func amount(_ key: String, unit: Int, limit: Int, _ expected: String) throws(InputError) -> Int? {
                guard let n = m[key] else { return nil }
                return try values.amount(n, "\(path).\(key)", unit: unit, in: 0...limit * unit, expected: expected)
            }
            let seconds = "seconds from 0 to \(Limits.seconds) (10 years)", mebibytes = "a size in MB from 0 to \(Limits.mebibytes) (1 PiB)"
            if let n = m["class"] { p.classes = try list(n, path: "\(path).class") { (x, at) throws(InputError) in try lookup(Reader.classNames, x, at) } }
            if let n = m["state"] { p.states = try list(n, path: "\(path).state") { (x, at) throws(InputError) in try lookup(Reader.stateNames, x, at) } }
            if let n = m["mode"] {
                let modes = try list(n, path: "\(path).mode") { (x, at) throws(InputError) in try lookup(Reader.activityNames, x, at) }
                p.activities = modes.reduce(into: []) { $0.formUnion($1) }
            }
            if let n = m["running_task"] { p.runningTask = try values.flag(n, "\(path).running_task") }
            if let n = m["background_activity"] { p.backgroundActivity = try values.flag(n, "\(path).background_activity") }
            p.idleAtLeastMicros = try amount("idle_s_at_least", unit: Units.microsPerSecond, limit: Limits.seconds, seconds)
            p.idleBelowMicros = try amount("idle_s_below", unit: Units.microsPerSecond, limit: Limits.seconds, seconds)
            p.footprintAtLeast = try amount("footprint_mb_at_least", unit: Units.mebibyte, limit: Limits.mebibytes, mebibytes)
            p.footprintBelow = try amount("footprint_mb_below", unit: Units.mebibyte, limit: Limits.mebibytes, mebibytes)
            return p
        }
    }
}
