/// Typed access to a policy's `name=value` parameters, rejecting unknown names and malformed values.
public struct PolicyParameters: Sendable {
    public let policy: String
    private let values: [String: String]
    private let known: [String]

    /// Fails on any parameter not in `known`.
    public init(policy: String, values: [String: String], known: [String]) throws(PolicySpecError) {
        self.policy = policy
        self.values = values
        self.known = known
        for key in values.keys.sorted() where !known.contains(key) {
            throw .unknownParameter(policy: policy, parameter: key, known: known)
        }
    }

    public func integer(_ name: String, default value: Int, in range: ClosedRange<Int> = Int.min...Int.max) throws(PolicySpecError) -> Int {
        guard let text = values[name] else { return value }
        guard let v = Int(text), range.contains(v) else {
            let expected = range == Int.min...Int.max ? "an integer" : "an integer in \(range.lowerBound)…\(range.upperBound)"
            throw .badValue(policy: policy, parameter: name, value: text, expected: expected)
        }
        return v
    }

    public func number(_ name: String, default value: Double, in range: ClosedRange<Double>) throws(PolicySpecError) -> Double {
        guard let text = values[name] else { return value }
        guard let v = Double(text), v.isFinite, range.contains(v) else {
            throw .badValue(policy: policy, parameter: name, value: text, expected: "a number in \(range.lowerBound)…\(range.upperBound)")
        }
        return v
    }

    public func flag(_ name: String, default value: Bool) throws(PolicySpecError) -> Bool {
        guard let text = values[name] else { return value }
        switch text {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: throw .badValue(policy: policy, parameter: name, value: text, expected: "true or false")
        }
    }
}

/// Renders a Double parameter the way it was meant: `0.5`, `24`, no exponent noise.
public func formatParameter(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
}
