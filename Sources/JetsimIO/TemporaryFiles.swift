import Foundation

/// The temporary files and staging directories this process has made and not yet published, so that none of them
/// outlives the process:
/// - SIGINT, SIGTERM and SIGHUP remove every registered path, then end the process with the signal's own status;
/// - a process that died without cleaning up (SIGKILL, a crash) leaves names that carry its pid, and
///   `removeStale(in:)`, called before each new output is made, removes those of processes no longer alive.
///
/// One registry per process, because signals are per process; it holds no simulation state.
public final class TemporaryFiles: @unchecked Sendable {
    public static let shared = TemporaryFiles()

    private let lock = NSLock()
    private var paths: Set<String> = []
    private var signalSources: [any DispatchSourceSignal] = []

    private init() {}

    /// Starts tracking `path` (a file or a directory tree) for removal on a signal.
    public func register(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        if signalSources.isEmpty { installSignalHandlers() }
        paths.insert(path)
    }

    /// Stops tracking `path` (published or removed by its owner).
    public func unregister(_ path: String) {
        lock.lock()
        paths.remove(path)
        lock.unlock()
    }

    /// Runs `body` (a publish: renames) while no signal handler can remove registered paths, so a signal arriving
    /// during it finds either the staging directory still registered or already published, never half of it.
    public func exclusively<R>(_ body: () throws(InputError) -> R) throws(InputError) -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Handlers run on a dispatch queue, not in signal context, so they may take the lock and remove trees. The signal
    /// is then raised again with its default action, unblocked in this thread (dispatch reads signals through a
    /// signalfd, with them blocked), so the process ends as the signal says (a shell sees 130 for Ctrl-C).
    private func installSignalHandlers() {
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [unowned self] in
                self.lock.lock()   // held to the end: no publish can start after the cleanup
                for path in self.paths { removeTree(path) }
                signal(sig, SIG_DFL)
                var only = sigset_t()
                sigemptyset(&only)
                sigaddset(&only, sig)
                pthread_sigmask(SIG_UNBLOCK, &only, nil)
                raise(sig)
                _exit(128 + sig)   // not reached
            }
            source.resume()
            signalSources.append(source)
        }
    }

    /// The suffix of a staging directory's name: `.<name>.jetsim-<pid>.staging`.
    static let stagingSuffix = ".staging"

    /// Removes from `directory` the staging directories (`.<name>.jetsim-<pid>.staging`) and temporary files
    /// (`.<name>.<pid>.tmp`, `AtomicFile`) of processes that are no longer alive. Names of live processes,
    /// this one's included, are left alone.
    public static func removeStale(in directory: String) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in entries where name.hasPrefix(".") {
            guard let pid = ownerPid(ofTemporary: name), pid != getpid(), !isAlive(pid) else { continue }
            removeTree(directory + "/" + name)
        }
    }

    /// The pid a temporary or staging name carries, or nil when `name` is neither.
    static func ownerPid(ofTemporary name: String) -> pid_t? {
        if name.hasSuffix(stagingSuffix), let marker = name.range(of: ".jetsim-", options: .backwards) {
            return pid_t(name[marker.upperBound..<name.index(name.endIndex, offsetBy: -stagingSuffix.count)])
        }
        if name.hasSuffix(".tmp") {
            let parts = name.dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
            return parts.count >= 3 ? pid_t(parts[parts.count - 1]) : nil
        }
        return nil
    }

    private static func isAlive(_ pid: pid_t) -> Bool { pid > 0 && (kill(pid, 0) == 0 || errno == EPERM) }
}

/// Removes a file or a directory tree; silent when it is already gone.
func removeTree(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
}
