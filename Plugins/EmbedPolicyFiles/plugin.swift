import Foundation
import PackagePlugin

/// Builds the policy files of `Policies/` into JetsimIO, so that `--policy swam` and `jetsim policies` find them from
/// any working directory and wherever the binary is copied (issue 20). `Policies/*.yaml` stay the only copy: the Swift
/// source is generated into the build directory at every build (rewritten only when a file changed), never committed.
/// The plugin writes the file itself; the command it returns only tells the build to compile what it wrote.
@main
struct EmbedPolicyFiles: BuildToolPlugin {
    /// The suffixes of policy files, as `PolicyFiles.suffixes` (a plugin cannot import the module it builds).
    static let suffixes = [".yaml", ".yml", ".json"]

    struct NotUTF8: Error, CustomStringConvertible {
        let file: String
        var description: String { "\(file): a policy file must be UTF-8" }
    }

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let policies = context.package.directoryURL.appending(path: "Policies")
        let names = try FileManager.default.contentsOfDirectory(atPath: policies.path)
            .filter { name in !name.hasPrefix(".") && Self.suffixes.contains { name.hasSuffix($0) } }
            .sorted()
        var source = """
            // Generated at build time by the EmbedPolicyFiles plugin from Policies/ (do not edit; not in the source tree).

            /// The policy files shipped in Policies/, built into jetsim: (file name, text), sorted by file name.
            let builtInPolicyFileTexts: [(file: String, text: String)] = [

            """
        for name in names {
            let url = policies.appending(path: name)
            guard let text = String(data: try Data(contentsOf: url), encoding: .utf8) else { throw NotUTF8(file: url.path) }
            source += "    (\(Self.literal(name)), \(Self.literal(text))),\n"
        }
        source += "]\n"
        let output = context.pluginWorkDirectoryURL.appending(path: "generated")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let file = output.appending(path: "BuiltInPolicyFiles.swift")
        let bytes = Data(source.utf8)
        if (try? Data(contentsOf: file)) != bytes { try bytes.write(to: file) }
        return [.prebuildCommand(displayName: "Embedding \(names.count) policy files from Policies/",
                                 executable: URL(fileURLWithPath: "/usr/bin/true"), arguments: [], outputFilesDirectory: output)]
    }

    /// `text` as a one-line Swift string literal: printable ASCII as is, everything else escaped by scalar value.
    static func literal(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case " "..."~": out.unicodeScalars.append(scalar)
            default: out += "\\u{\(String(scalar.value, radix: 16))}"
            }
        }
        return out + "\""
    }
}
