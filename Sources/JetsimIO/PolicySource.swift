import JetsimCore

/// Resolves `--policy`: a built-in (`cost:alpha=0.5`), a policy file in the policies directory by name
/// (`Policies/NAME.yaml`), or a path to a policy file.
public enum PolicySource {
    public static func make(_ text: String, environment: PolicyEnvironment, policiesDirectory: String = "Policies") throws -> any EvictionPolicy {
        let spec = try PolicySpec(parsing: text)
        if PolicyRegistry.entry(named: spec.name) != nil {
            return try PolicyRegistry.make(spec, environment: environment)
        }
        throw PolicySpecError.unknownPolicy(spec.name, known: PolicyRegistry.builtIns.map(\.name))
    }
}
