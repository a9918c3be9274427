import ArgumentParser
import JetsimIO

#if canImport(Glibc)
import Glibc
#endif

/// `--policy-dir`: where policy files are looked up by name, one option under one name in every command (`run`,
/// `compare`, `cachesim`, `policies`). `--policy` / `--policies` always name policies, never this directory. The
/// policy files of Policies/ are built into jetsim and found from anywhere; a file here of the same name wins.
struct PolicyDirectoryOption: ParsableArguments {
    @Option(name: .customLong("policy-dir"),
            help: "Directory of your own policy files, looked up by name before the ones built into jetsim (Policies/).")
    var given: String?

    /// The directory to search first, nil when none was given. One given explicitly must exist: a typo must not
    /// silently leave only the built-ins.
    func path() throws(InputError) -> String? {
        guard let given else { return nil }
        var info = stat()
        guard stat(given, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw InputError(file: given, message: "--policy-dir: not a directory", exitCode: InputError.noInput)
        }
        return given
    }
}
