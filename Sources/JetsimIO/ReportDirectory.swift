import Foundation

/// An output directory made as a whole: a run writes every file into a private staging directory beside the
/// final one, and `publish()` puts the set in place in one step. A reader of the final path sees the earlier
/// complete set or the new complete set, never a mix and never a partial set:
/// - a new directory is one `rename`;
/// - an existing one is swapped with the staging directory by one `renameat2(RENAME_EXCHANGE)` (Linux), and the
///   earlier set, now under the staging name, is removed; where the exchange is not supported, the earlier set is
///   renamed aside first, so for an instant the path is absent, never mixed.
///
/// Invariants: the staging directory is registered with `TemporaryFiles` from creation until published or removed,
/// so a signal removes it; its name carries this process's pid, so a later run removes it if this process dies
/// (`TemporaryFiles.removeStale`). An unpublished directory is removed when its owner goes away.
///
/// Replacing a directory deletes it, so only a directory holding nothing but what this command writes
/// (`replaceable`) is replaced; anything else is refused with exit 73 before any work is done.
public final class ReportDirectory {
    /// Where the reports appear.
    public let path: String
    /// Where they are written until `publish()`.
    public let staging: String
    private var published = false
    /// The parents this made for it (outermost first), removed again with an unpublished set when empty.
    private let madeParents: [String]

    /// - Parameter replaceable: the names of the files the command writes (`*` matches any run of characters): an
    ///   existing directory at `path` is replaced only when every entry in it matches one of them.
    public init(_ path: String, replaceable: [String]) throws(InputError) {
        var trimmed = path
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        let base = trimmed.split(separator: "/").last.map(String.init) ?? trimmed
        guard !trimmed.isEmpty, base != ".", base != "..", trimmed != "/" else {
            throw InputError(file: path, message: "cannot be an output directory: name a directory (for example Reports/out/run1)",
                             exitCode: InputError.usage)
        }
        self.path = trimmed
        let parent = trimmed.contains("/") ? String(trimmed[..<trimmed.lastIndex(of: "/")!]) : "."
        let parentPath = parent.isEmpty ? "/" : parent
        madeParents = try makeDirectories(parentPath)
        TemporaryFiles.removeStale(in: parentPath)
        try Self.checkReplaceable(trimmed, names: replaceable)
        staging = "\(parentPath == "/" ? "" : parentPath)/.\(base).jetsim-\(getpid())\(TemporaryFiles.stagingSuffix)"
        removeTree(staging)   // a leftover of this very pid (an earlier process that had it)
        TemporaryFiles.shared.register(staging)
        guard mkdir(staging, 0o755) == 0 else {
            let why = String(cString: strerror(errno))
            TemporaryFiles.shared.unregister(staging)
            throw InputError(file: path, message: "cannot create the staging directory \(staging): \(why)", exitCode: InputError.cannotCreate)
        }
    }

    deinit {
        if !published { discard() }
    }

    /// The staging path of the report file `name`.
    public func file(_ name: String) -> String { staging + "/" + name }

    /// Removes the staging directory and everything written into it.
    public func discard() {
        removeTree(staging)
        TemporaryFiles.shared.unregister(staging)
        for parent in madeParents.reversed() { rmdir(parent) }   // fails harmlessly when something else is there now
    }

    /// Makes the staged set the directory at `path`, replacing an earlier set there in one step.
    public func publish() throws(InputError) {
        precondition(!published, "a report directory is published once")
        let exists = Self.entryKind(path) != nil
        try TemporaryFiles.shared.exclusively { () throws(InputError) in
            if !exists {
                guard rename(staging, path) == 0 else { throw failure("cannot move the reports into place") }
            } else if !Self.exchange(staging, path) {
                // No atomic exchange here: move the earlier set aside (the path is briefly absent), then the new one in.
                let aside = staging + ".old"
                guard rename(path, aside) == 0 else { throw failure("cannot move the earlier reports aside") }
                guard rename(staging, path) == 0 else {
                    let error = failure("cannot move the reports into place")
                    _ = rename(aside, path)
                    throw error
                }
                _ = rename(aside, staging)   // removed below, with the exchanged case
            }
            published = true
        }
        removeTree(staging)   // the earlier set, if there was one
        TemporaryFiles.shared.unregister(staging)
    }

    private func failure(_ what: String) -> InputError {
        InputError(file: path, message: "\(what): \(String(cString: strerror(errno)))", exitCode: InputError.cannotCreate)
    }

    /// Refuses a path that is not a directory, or a directory holding entries this command does not write.
    static func checkReplaceable(_ path: String, names: [String]) throws(InputError) {
        switch entryKind(path) {
        case nil:
            return
        case .some(false):
            throw InputError(file: path, message: "exists and is not a directory; choose another output directory",
                             exitCode: InputError.cannotCreate)
        case .some(true):
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: path) else {
                throw InputError(file: path, message: "cannot list the existing output directory", exitCode: InputError.cannotCreate)
            }
            for entry in entries.sorted() where !(entry.hasPrefix(".") && TemporaryFiles.ownerPid(ofTemporary: entry) != nil) {
                guard names.contains(where: { matches(entry, pattern: $0) }) else {
                    throw InputError(file: path, message: "holds '\(InputError.excerpt(entry))', which this command does not write; "
                                     + "it replaces a whole directory, so choose another output directory or empty this one",
                                     exitCode: InputError.cannotCreate)
                }
            }
        }
    }

    /// nil: nothing there; true: a directory (a symbolic link to one counts); false: anything else.
    static func entryKind(_ path: String) -> Bool? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            var info = stat()
            return lstat(path, &info) == 0 ? false : nil   // a dangling link is something, not a directory
        }
        return isDirectory.boolValue
    }

    /// Shell-style match with `*` only.
    static func matches(_ name: String, pattern: String) -> Bool {
        let parts = pattern.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
        guard parts.count > 1 else { return name == pattern }
        guard name.hasPrefix(parts[0]), name.hasSuffix(parts[parts.count - 1]),
              name.count >= parts[0].count + parts[parts.count - 1].count else { return false }
        var rest = Substring(name.dropFirst(parts[0].count).dropLast(parts[parts.count - 1].count))
        for middle in parts.dropFirst().dropLast() where !middle.isEmpty {
            guard let found = rest.range(of: middle) else { return false }
            rest = rest[found.upperBound...]
        }
        return true
    }

    private typealias Renameat2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

    /// glibc's `renameat2`, which Swift's Glibc module does not declare; nil where the C library lacks it.
    private static let renameat2: Renameat2? = {
        #if os(Linux)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return nil }   // RTLD_DEFAULT
        return unsafeBitCast(symbol, to: Renameat2.self)
        #else
        return nil
        #endif
    }()

    /// Swaps two paths atomically; false where the system or the file system cannot.
    private static func exchange(_ a: String, _ b: String) -> Bool {
        guard let renameat2 else { return false }
        let renameExchange: UInt32 = 2   // RENAME_EXCHANGE, linux/fs.h
        return renameat2(AT_FDCWD, a, AT_FDCWD, b, renameExchange) == 0
    }
}

/// The files each command writes into its output directory: an existing directory holding only these is replaced.
public enum OutputNames {
    public static let run = ["summary.csv", "apps.csv", "kills.csv", "timeseries.csv", "events.csv", "live.csv", "residency.csv",
                             "population.csv", "user-*"]
    public static let compare = ["summary.csv", "compare.csv", "manifest.json", "latency.csv", "intervals.csv", "residency.csv", "population.csv",
                                 "chart-*.csv", "chart-*.svg", "report.html"]
    public static let cachesim = ["cache.csv"]
    public static let workload = ["apps.csv", "trace.csv", "trace-user-*.csv", "device.yaml", "snapshots.csv"]
}
