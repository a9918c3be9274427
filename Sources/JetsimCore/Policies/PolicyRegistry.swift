/// Every built-in policy, registered in one place with its description and parameters.
public enum PolicyRegistry {
    public struct Entry: Sendable {
        public var name: String
        public var summary: String
        /// Parameter names with their defaults.
        public var parameters: [(name: String, defaultValue: String)]
        public var make: @Sendable ([String: String]) throws(PolicySpecError) -> any EvictionPolicy
    }

    public static let builtIns: [Entry] = [
        Entry(
            name: "xnu",
            summary: "XNU jetsam: oldest entrant of the lowest band first (bands: foreground 100, audio 120, task 40, aging 20, idle 0, frozen 75)",
            parameters: zip(XNUPolicy.parameterNames, ["100", "120", "40", "20", "0", "75"]).map { ($0, $1) },
            make: { (p) throws(PolicySpecError) in try XNUPolicy(parameters: p) }
        ),
    ]

    /// The policy a spec such as `xnu` or `xnu:audio_band=100` names.
    public static func make(_ spec: PolicySpec) throws(PolicySpecError) -> any EvictionPolicy {
        guard let entry = builtIns.first(where: { $0.name == spec.name }) else {
            throw .unknownPolicy(spec.name, known: builtIns.map(\.name))
        }
        return try entry.make(spec.parameters)
    }
}

/// A policy named on the command line: `name` or `name:key=value,key=value`.
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
        for item in parts[1].split(separator: ",", omittingEmptySubsequences: false) {
            let kv = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard kv.count == 2, !kv[0].isEmpty, !kv[1].isEmpty else {
                throw .malformed(text, "expected key=value, found '\(item)'")
            }
            let key = String(kv[0])
            if parameters[key] != nil { throw .malformed(text, "parameter '\(key)' is given twice") }
            parameters[key] = String(kv[1])
        }
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
        case let .unknownPolicy(name, known): "unknown policy '\(name)' (known: \(known.joined(separator: ", ")))"
        case let .unknownParameter(policy, parameter, known):
            "policy '\(policy)' has no parameter '\(parameter)' (parameters: \(known.joined(separator: ", ")))"
        case let .badValue(policy, parameter, value, expected):
            "policy '\(policy)': parameter '\(parameter)' is '\(value)', expected \(expected)"
        }
    }
}
