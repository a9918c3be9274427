import JetsimCore

/// Resolves `--policy`: a built-in (`cost:alpha=0.5`), a policy file by name (`swam`: in `--policy-dir` when given,
/// then among the files built into jetsim from Policies/), or a path to a policy file.
public enum PolicySource {
    public static func make(_ text: String, environment: PolicyEnvironment, policiesDirectory: String? = nil) throws -> any EvictionPolicy {
        if isPath(text) { return try PolicyFiles.load(path: text) }
        let spec = try PolicySpec(parsing: text)
        if PolicyRegistry.entry(named: spec.name) != nil {
            return try PolicyRegistry.make(spec, environment: environment)
        }
        if let file = PolicyFiles.find(spec.name, directory: policiesDirectory) {
            guard spec.parameters.isEmpty else {
                let change = file.isBuiltIn ? "copy \(file.path) into a --policy-dir and edit it" : "edit \(file.path)"
                throw PolicySpecError.malformed(text, "policy files take no command-line parameters (\(change))")
            }
            return try PolicyFiles.load(file)
        }
        let builtIns = PolicyRegistry.builtIns.map(\.name)   // a file of the same name is never reached by name
        throw PolicySpecError.unknownPolicy(spec.name, known: builtIns
            + PolicyFiles.list(directory: policiesDirectory).map(\.name).filter { !builtIns.contains($0) })
    }

    /// The policy file on disk `text` resolves to, as `make` resolves it (for manifest.json's hashes); nil for a
    /// built-in policy or a built-in policy file, which are part of jetsim (its version is in the manifest).
    public static func file(_ text: String, policiesDirectory: String? = nil) -> String? {
        if isPath(text) { return text }
        guard let spec = try? PolicySpec(parsing: text), PolicyRegistry.entry(named: spec.name) == nil,
              let file = PolicyFiles.find(spec.name, directory: policiesDirectory), !file.isBuiltIn else { return nil }
        return file.path
    }

    /// A path to a policy file rather than a name: it has a `/` or a policy file's suffix.
    static func isPath(_ text: String) -> Bool {
        let lower = text.lowercased()
        return text.contains("/") || PolicyFiles.suffixes.contains(where: { lower.hasSuffix($0) })
    }
}
