import ArgumentParser
import JetsimIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `jetsim` — the root command. Each subcommand is one type in its own file.
public struct JetsimCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "jetsim",
        abstract: "Memory-pressure and jetsam policy simulator: which app should the system kill, and what does it cost the user?",
        discussion: reflowed("""
        Replays app-usage traces on a modelled iOS device (memory, kernel thresholds, per-app limits, compressor,
        the app lifecycle) and reports launches, kills and their cost under an eviction policy.

        Examples:
          jetsim run --device iphone-xs --apps Examples/day/apps.csv --trace Examples/day/trace.csv
          jetsim devices
        """),
        version: JetsimVersionInfo.version,
        subcommands: [RunCommand.self, CompareCommand.self, MergeCommand.self, ValidateCommand.self, CacheSimCommand.self, PlotCommand.self, GenerateCommand.self, ImportCommand.self, InspectCommand.self, DevicesCommand.self, PoliciesCommand.self]
    )

    public init() {}
}

extension JetsimCommand {
    /// `main()`, with ArgumentParser's refusals kept to one line like every other error: `jetsim: <what is wrong>
    /// (see 'jetsim <command> --help')`, a value echoed in it cut short, exit 64. Help and version print as usual.
    public static func runFromCommandLine() -> Never {
        do {
            var command = try parseAsRoot()
            try command.run()
            terminate(0)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                terminate(0)
            }
            let text = message(for: error).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            if !text.isEmpty {
                let help = (["jetsim"] + commandPath(CommandLine.arguments.dropFirst()) + ["--help"]).joined(separator: " ")
                printError("\(InputError.excerpt(text.hasPrefix("Error: ") ? String(text.dropFirst(7)) : text, limit: 300)) (see '\(help)')")
            }
            terminate(code.rawValue)
        }
    }
}

extension JetsimCommand {
    /// The subcommand names `arguments` lead to, from the root down (`import intervals`), for the usage hint of the
    /// command that failed: the leading arguments that name a subcommand of the command reached so far, one level each.
    static func commandPath(_ arguments: ArraySlice<String>) -> [String] {
        var command: ParsableCommand.Type = JetsimCommand.self
        var path: [String] = []
        for argument in arguments {
            guard let sub = command.configuration.subcommands.first(where: { $0._commandName == argument }) else { break }
            path.append(argument)
            command = sub
        }
        return path
    }
}

/// The C library's `exit` (inside a command type, `exit` names ArgumentParser's).
private func terminate(_ code: Int32) -> Never {
    #if canImport(Glibc)
    Glibc.exit(code)
    #else
    Darwin.exit(code)
    #endif
}
