#if canImport(Glibc)
import Glibc
#endif
import JetsimCore
import Yams

/// Declarative policy files (YAML; JSON is YAML too). Format: Policies/README.md. Errors name the file, the key
/// path (`bands[1].when.footprint_mb_at_least`), its line and what was expected.
public enum PolicyFiles {
    public struct Found: Sendable { public var name: String; public var path: String }

    static let suffixes = [".yaml", ".yml", ".json"]

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

    public static func load(path: String) throws(PolicyFileError) -> DeclarativePolicy {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            var e = PolicyFileError(file: path, key: "", message: "cannot read the policy file")
            e.exitCode = InputError.noInput
            throw e
        }
        return try parse(text, file: path)
    }

    public static func parse(_ text: String, file: String) throws(PolicyFileError) -> DeclarativePolicy {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            throw PolicyFileError(file: file, key: "", message: "not valid YAML: \(error)")
        }
        guard let root else { throw PolicyFileError(file: file, key: "", message: "the file is empty") }
        let reader = Reader(file: file)
        let top = try reader.mapping(root, path: "", allowed: ["name", "description", "protect", "bands", "order"])
        guard let nameNode = top["name"] else { throw PolicyFileError(file: file, key: "name", message: "required: the policy's name") }
        let name = try reader.string(nameNode, path: "name")
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }) else {
            throw reader.fail(nameNode, "name", "expected a name of letters, digits, '-', '_' or '.'")
        }
        var policy = DeclarativePolicy(name: name)
        if let d = top["description"] { policy.summary = try reader.string(d, path: "description") }
        if let p = top["protect"] { policy.protect = try reader.predicate(p, path: "protect") }
        if let b = top["bands"] {
            guard let items = b.sequence else { throw reader.fail(b, "bands", "expected a list of bands") }
            for (k, item) in items.enumerated() {
                let path = "bands[\(k)]"
                let band = try reader.mapping(item, path: path, allowed: ["name", "when"])
                let bandName = try band["name"].map { n throws(PolicyFileError) in try reader.string(n, path: path + ".name") } ?? "band \(k)"
                let when = try band["when"].map { n throws(PolicyFileError) in try reader.predicate(n, path: path + ".when") } ?? .init()
                policy.bands.append(.init(name: bandName, when: when))
            }
        }
        if let o = top["order"] {
            let order = try reader.mapping(o, path: "order", allowed: ["score", "tie_breakers"])
            if let s = order["score"] {
                let weights = try reader.mapping(s, path: "order.score", allowed: DeclarativePolicy.Feature.allCases.map(\.rawValue))
                for (key, node) in weights.sorted(by: { $0.key < $1.key }) {
                    guard let feature = DeclarativePolicy.Feature(rawValue: key) else { continue }
                    policy.weights.append((feature, try reader.number(node, path: "order.score.\(key)")))
                }
            }
            if let t = order["tie_breakers"] {
                guard let items = t.sequence else { throw reader.fail(t, "order.tie_breakers", "expected a list") }
                policy.tieBreakers = []
                for (k, item) in items.enumerated() {
                    policy.tieBreakers.append(try reader.choice(item, path: "order.tie_breakers[\(k)]", DeclarativePolicy.TieBreaker.self))
                }
            }
        }
        return policy
    }

    /// Node access with located errors.
    struct Reader {
        let file: String

        func fail(_ node: Node, _ path: String, _ message: String) -> PolicyFileError {
            PolicyFileError(file: file, line: node.mark.map { $0.line }, key: path, message: message)
        }

        func mapping(_ node: Node, path: String, allowed: [String]) throws(PolicyFileError) -> [String: Node] {
            guard let m = node.mapping else { throw fail(node, path.isEmpty ? "(top)" : path, "expected a mapping of keys") }
            var out: [String: Node] = [:]
            for (k, v) in m {
                let key = k.string ?? ""
                let full = path.isEmpty ? key : "\(path).\(key)"
                guard allowed.contains(key) else { throw fail(k, full, "unknown key (expected one of: \(allowed.joined(separator: ", ")))") }
                out[key] = v
            }
            return out
        }

        func string(_ node: Node, path: String) throws(PolicyFileError) -> String {
            guard let s = node.scalar?.string else { throw fail(node, path, "expected text") }
            return s
        }

        func number(_ node: Node, path: String) throws(PolicyFileError) -> Double {
            guard let s = node.scalar?.string, let v = Double(s), v.isFinite else { throw fail(node, path, "expected a number") }
            return v
        }

        func boolean(_ node: Node, path: String) throws(PolicyFileError) -> Bool {
            switch node.scalar?.string {
            case "true", "yes": return true
            case "false", "no": return false
            default: throw fail(node, path, "expected true or false")
            }
        }

        func choice<T: RawRepresentable & CaseIterable>(_ node: Node, path: String, _ type: T.Type) throws(PolicyFileError) -> T where T.RawValue == String {
            guard let s = node.scalar?.string, let v = T(rawValue: s) else {
                throw fail(node, path, "expected one of: \(T.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return v
        }

        func list<T>(_ node: Node, path: String, _ element: (Node, String) throws(PolicyFileError) -> T) throws(PolicyFileError) -> [T] {
            if node.scalar != nil { return [try element(node, path)] }
            guard let items = node.sequence else { throw fail(node, path, "expected a list") }
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

        func predicate(_ node: Node, path: String) throws(PolicyFileError) -> DeclarativePolicy.Predicate {
            let m = try mapping(node, path: path, allowed: Reader.predicateKeys)
            var p = DeclarativePolicy.Predicate()
            func lookup<T>(_ table: [String: T], _ n: Node, _ at: String) throws(PolicyFileError) -> T {
                guard let s = n.scalar?.string, let v = table[s] else {
                    throw fail(n, at, "expected one of: \(table.keys.sorted().joined(separator: ", "))")
                }
                return v
            }
            func amount(_ key: String, unit: Double) throws(PolicyFileError) -> Int? {
                guard let n = m[key] else { return nil }
                let v = try number(n, path: "\(path).\(key)")
                guard v >= 0 else { throw fail(n, "\(path).\(key)", "must not be negative") }
                return Int(min(v * unit, 1e18))
            }
            if let n = m["class"] { p.classes = try list(n, path: "\(path).class") { (x, at) throws(PolicyFileError) in try lookup(Reader.classNames, x, at) } }
            if let n = m["state"] { p.states = try list(n, path: "\(path).state") { (x, at) throws(PolicyFileError) in try lookup(Reader.stateNames, x, at) } }
            if let n = m["mode"] {
                let modes = try list(n, path: "\(path).mode") { (x, at) throws(PolicyFileError) in try lookup(Reader.activityNames, x, at) }
                p.activities = modes.reduce(into: []) { $0.formUnion($1) }
            }
            if let n = m["running_task"] { p.runningTask = try boolean(n, path: "\(path).running_task") }
            if let n = m["background_activity"] { p.backgroundActivity = try boolean(n, path: "\(path).background_activity") }
            p.idleAtLeastMicros = try amount("idle_s_at_least", unit: 1e6)
            p.idleBelowMicros = try amount("idle_s_below", unit: 1e6)
            p.footprintAtLeast = try amount("footprint_mb_at_least", unit: Double(Units.mebibyte))
            p.footprintBelow = try amount("footprint_mb_below", unit: Double(Units.mebibyte))
            return p
        }
    }
}
