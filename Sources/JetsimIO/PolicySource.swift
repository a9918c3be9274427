import JetsimCore

/// Resolves `--policy`: a built-in (`cost:alpha=0.5`), a policy file in the policies directory by name
/// (`Policies/NAME.yaml`), or a path to a policy file.
public enum PolicySource {
    public static func make(_ text: String, environment: PolicyEnvironment, policiesDirectory: String = "Policies") throws -> any EvictionPolicy {
        if isPath(text) { return try PolicyFiles.load(path: text) }
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

    /// The policy file `text` resolves to, as `make` resolves it; nil for a built-in (for manifest.json's hashes).
    public static func file(_ text: String, policiesDirectory: String = "Policies") -> String? {
        if isPath(text) { return text }
        guard let spec = try? PolicySpec(parsing: text), PolicyRegistry.entry(named: spec.name) == nil else { return nil }
        return PolicyFiles.find(spec.name, in: policiesDirectory)
    }

    private static func isPath(_ text: String) -> Bool {
        let lower = text.lowercased()
        return text.contains("/") || PolicyFiles.suffixes.contains(where: { lower.hasSuffix($0) })
    }
}
