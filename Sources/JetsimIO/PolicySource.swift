import JetsimCore

/// Resolves `--policy`: a built-in (`cost:alpha=0.5`), a policy file in the policies directory by name
/// (`Policies/NAME.yaml`), or a path to a policy file.
public enum PolicySource {
    public static func make(_ text: String, environment: PolicyEnvironment, policiesDirectory: String = "Policies") throws -> any EvictionPolicy {
        let lower = text.lowercased()
        if text.contains("/") || PolicyFiles.suffixes.contains(where: { lower.hasSuffix($0) }) {
            return try PolicyFiles.load(path: text)
        }
        let spec = try PolicySpec(parsing: text)
        if PolicyRegistry.entry(named: spec.name) != nil {
            return try PolicyRegistry.make(spec, environment: environment)
        }
        if let path = PolicyFiles.find(spec.name, in: policiesDirectory) {
            guard spec.parameters.isEmpty else {
                throw PolicySpecError.malformed(text, "policy files take no command-line parameters (edit \(path))")
            }
            return try PolicyFiles.load(path: path)
        }
        throw PolicySpecError.unknownPolicy(spec.name, known: PolicyRegistry.builtIns.map(\.name)
            + PolicyFiles.list(in: policiesDirectory).map(\.name))
    }
}
