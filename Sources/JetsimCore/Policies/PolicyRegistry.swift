/// Every built-in policy, registered in one place with its description, parameters and capabilities.
public enum PolicyRegistry {
    public struct Entry: Sendable {
        public var name: String
        public var summary: String
        /// Parameter names with their defaults.
        public var parameters: [(name: String, defaultValue: String)]
        public var capabilities: PolicyCapabilities
        public var make: @Sendable ([String: String], PolicyEnvironment) throws(PolicySpecError) -> any EvictionPolicy
    }

    /// A policy without parameters.
    private static func plain(_ name: String, _ summary: String, _ capabilities: PolicyCapabilities = [],
                              _ make: @escaping @Sendable (PolicyEnvironment) -> any EvictionPolicy) -> Entry {
        Entry(name: name, summary: summary, parameters: [], capabilities: capabilities) { (p, env) throws(PolicySpecError) in
            _ = try PolicyParameters(policy: name, values: p, known: [])
            return make(env)
        }
    }

    public static let builtIns: [Entry] = [
        Entry(name: "xnu", summary: "XNU jetsam: the oldest entrant of the lowest band first",
              parameters: zip(XNUPolicy.parameterNames, ["100", "120", "40", "20", "0", "75"]).map { ($0, $1) },
              capabilities: []) { (p, _) throws(PolicySpecError) in try XNUPolicy(parameters: p) },
        plain("lru", "least recently used first") { _ in LRUPolicy() },
        plain("fifo", "earliest launched first") { _ in FIFOPolicy() },
        plain("largest", "largest footprint first", .sizeAware) { _ in LargestPolicy() },
        Entry(name: "lmkd", summary: "Android lmkd: highest oom_score_adj first; LRU within cached levels, heaviest at adj <= 200",
              parameters: [("kill_heaviest", "false")], capabilities: .sizeAware) { (p, _) throws(PolicySpecError) in try LMKDPolicy(parameters: p) },
        plain("linux-oom", "Linux OOM killer: highest RSS + swap + adj x RAM/1000 first", .sizeAware) { env in
            LinuxOOMPolicy(physicalBytes: env.device.physicalBytes)
        },
        Entry(name: "cost", summary: "lowest expected relaunch cost per byte freed first (SmartLMK / SWAM)",
              parameters: [("alpha", "1"), ("half_life_h", "24")], capabilities: .sizeAware) { (p, _) throws(PolicySpecError) in
            try CostPolicy(parameters: p)
        },
        Entry(name: "lfu", summary: "least frequently used first, with exponential decay",
              parameters: [("half_life_h", "24")], capabilities: []) { (p, _) throws(PolicySpecError) in try LFUPolicy(parameters: p) },
        plain("random", "a uniformly random victim from the run's seed", .randomized) { env in RandomPolicy(seed: env.seed) },
        plain("oracle", "offline heuristic, Belady by count: farthest next open first (a bound only if all footprints were equal)",
              .needsFuture) { _ in OraclePolicy() },
        plain("belady-size", "offline heuristic, Belady-Size: largest footprint x distance to next open first (not a bound)",
              [.needsFuture, .sizeAware]) { _ in BeladySizePolicy() },
    ]

    /// The built-in named `name`, in any case (`LRU` is `lru`).
    public static func entry(named name: String) -> Entry? {
        let lower = name.lowercased()
        return builtIns.first { $0.name == lower }
    }

    /// The built-in policy a spec such as `xnu` or `cost:alpha=0.5` names.
    public static func make(_ spec: PolicySpec, environment: PolicyEnvironment) throws(PolicySpecError) -> any EvictionPolicy {
        guard let entry = entry(named: spec.name) else {
            throw .unknownPolicy(spec.name, known: builtIns.map(\.name))
        }
        return try entry.make(spec.parameters, environment)
    }
}

/// A policy named on the command line: `name` or `name:key=value,key=value` (`;` separates parameters as well as
/// `,`, so a spec can sit in a comma-separated list: `cost:alpha=0.5;half_life_h=12,lru`).
public struct PolicySpec: Sendable, Equatable {
    public var name: String
    public var parameters: [String: String]

    public init(name: String, parameters: [String: String] = [:]) {
        self.name = name
        self.parameters = parameters
    }

    public init(parsing text: String) throws(PolicySpecError) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        name = String(parts[0])
        guard !name.isEmpty else { throw .malformed(text, "the policy name is empty") }
        parameters = [:]
        guard parts.count == 2 else { return }
        for item in parts[1].split(omittingEmptySubsequences: false, whereSeparator: { $0 == "," || $0 == ";" }) {
            let kv = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard kv.count == 2, !kv[0].isEmpty, !kv[1].isEmpty else {
                throw .malformed(text, "expected key=value, found '\(item)'")
            }
            let key = String(kv[0])
            if parameters[key] != nil { throw .malformed(text, "parameter '\(key)' is given twice") }
            parameters[key] = String(kv[1])
        }
    }

    /// A comma-separated list of policies (`--policies`) as its specs: `cost:alpha=0.5;half_life_h=12,lru` and
    /// `cost:alpha=0.5,half_life_h=12,lru` are both `cost` with two parameters, then `lru`. An item `key=value` (no
    /// `:`, no `/`) continues the parameters of the spec before it; a policy name never holds `=`.
    public static func list(_ text: String) -> [String] {
        var specs: [String] = []
        for raw in text.split(separator: ",") {
            let item = String(raw.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
            guard !item.isEmpty else { continue }
            if item.contains("="), !item.contains(":"), !item.contains("/"), let last = specs.last, last.contains(":") {
                specs[specs.count - 1] = last + "," + item
            } else {
                specs.append(item)
            }
        }
        return specs
    }
}


public enum PolicySpecError: Error, Equatable, Sendable, CustomStringConvertible {
    case malformed(String, String)
    case unknownPolicy(String, known: [String])
    case unknownParameter(policy: String, parameter: String, known: [String])
    case badValue(policy: String, parameter: String, value: String, expected: String)

    public var description: String {
        switch self {
        case let .malformed(text, why): "policy '\(text)': \(why)"
        case let .unknownPolicy(name, known):
            "unknown policy '\(name)'\(NameSuggestion.hint(for: name, among: known)) (known: \(known.joined(separator: ", ")))"
        case let .unknownParameter(policy, parameter, known):
            "policy '\(policy)' has no parameter '\(parameter)' (parameters: \(known.joined(separator: ", ")))"
        case let .badValue(policy, parameter, value, expected):
            "policy '\(policy)': parameter '\(parameter)' is '\(value)', expected \(expected)"
        }
    }
}
