import ArgumentParser
import JetsimCore
import JetsimIO

/// `jetsim policies` — every policy: the built-ins, the policy files built into jetsim and those in `--policy-dir`, each
/// with where it came from.
public struct PoliciesCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "policies",
        abstract: "List every eviction policy with a one-line description and its parameters and defaults.",
        discussion: reflowed("""
        Built-in policies take parameters on the command line: --policy 'cost:alpha=0.5,half_life_h=12'.
        Policy files (YAML, see Policies/README.md) are given as a path or found by name: first in --policy-dir, then
        among the files of Policies/ built into jetsim (found from any directory). Each row says where it came from.

        Examples:
          jetsim policies
          jetsim policies --policy-dir ~/my-policies
        """)
    )

    @OptionGroup var policyDirectory: PolicyDirectoryOption

    public init() {}

    public func run() throws {
        try reportingErrors {
            var rows: [[String]] = [["policy", "parameters (defaults)", "capabilities", "description"]]
            for e in PolicyRegistry.builtIns {
                rows.append([e.name, e.parameters.map { "\($0.name)=\($0.defaultValue)" }.joined(separator: ","),
                             e.capabilities.names.joined(separator: ","), e.summary])
            }
            for file in PolicyFiles.list(directory: try policyDirectory.path()) {
                let policy = try PolicyFiles.load(file)
                let overrides = !file.isBuiltIn && PolicyFiles.builtIn.contains { $0.name == file.name } ? ", instead of the built-in one" : ""
                let origin = file.isBuiltIn ? "built in from \(file.path)" : "file \(file.path)\(overrides)"
                rows.append([file.name, "", policy.descriptor.capabilities.names.joined(separator: ","), policy.summary + " (\(origin))"])
            }
            let widths = (0..<3).map { c in rows.map { $0[c].count }.max() ?? 0 }
            for r in rows {
                print((0..<3).map { r[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ") + "  " + r[3])
            }
        }
    }
}
