#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// jemalloc's entry points, found at run time in the system's shared library.
///
/// Jetsim does not link jemalloc: the default build needs nothing beyond the toolchain and zlib, and only
/// `--backing jemalloc` needs the library (Debian: `libjemalloc2`). It is opened with `RTLD_LOCAL`, so it serves
/// only the arenas real-memory mode creates and the process's own `malloc` stays the system's.
///
/// glibc refuses a `dlopen` of Debian's build ("cannot allocate memory in static TLS block": its thread-local
/// storage is initial-exec, 2.6 KiB, and glibc reserves 512 bytes for such libraries by default). Raising the
/// reserve with `GLIBC_TUNABLES=glibc.rtld.optional_static_tls=16384` before the process starts makes it load;
/// `Jemalloc.loadRelaunchingIfNeeded` does that for the `jetsim` executable.
struct JemallocLibrary: @unchecked Sendable {   // C function pointers and an immutable handle
    typealias Mallocx = @convention(c) (Int, Int32) -> UnsafeMutableRawPointer?
    typealias Dallocx = @convention(c) (UnsafeMutableRawPointer?, Int32) -> Void
    typealias Mallctl = @convention(c) (UnsafePointer<CChar>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?,
                                        UnsafeMutableRawPointer?, Int) -> Int32
    typealias MallctlNameToMIB = @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<Int>?) -> Int32
    typealias MallctlByMIB = @convention(c) (UnsafePointer<Int>?, Int, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?,
                                             UnsafeMutableRawPointer?, Int) -> Int32

    let mallocx: Mallocx
    let dallocx: Dallocx
    let mallctl: Mallctl
    let mallctlnametomib: MallctlNameToMIB
    let mallctlbymib: MallctlByMIB

    /// The shared library's names, most specific first (Linux soname, then macOS).
    static let libraryNames = ["libjemalloc.so.2", "libjemalloc.so", "libjemalloc.2.dylib", "libjemalloc.dylib"]

    /// The tunable that makes room for jemalloc's thread-local storage, and its value in bytes.
    static let staticTLSTunable = "glibc.rtld.optional_static_tls"
    static let staticTLSBytes = 16384

    /// What to install when no library is found (exit 69, EX_UNAVAILABLE).
    static let installHint = "install jemalloc's shared library: 'apt-get install libjemalloc2' (Debian, Ubuntu), "
        + "'dnf install jemalloc' (Fedora), 'brew install jemalloc' (macOS)"

    /// How loading went.
    enum Availability: Sendable {
        case loaded(JemallocLibrary)
        /// The library is installed but glibc has no static TLS room for it in this process.
        case needsStaticTLSRoom(String)
        case missing(String)
    }

    /// This process's jemalloc, opened once (the first caller pays the `dlopen`).
    static let shared: Availability = open(names: libraryNames)

    /// Opens the first of `names` that loads and resolves its entry points (plain or `je_`-prefixed names).
    static func open(names: [String]) -> Availability {
        var tlsMessage: String?
        var lastMessage = "none of \(names.joined(separator: ", ")) was found"
        for name in names {
            guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
                let message = dlerror().map { String(cString: $0) } ?? "\(name): cannot be loaded"
                if message.contains("static TLS") { tlsMessage = message }
                else if !message.contains("No such file") && !message.contains("not found") { lastMessage = message }
                continue
            }
            if let library = resolve(handle) { return .loaded(library) }
            lastMessage = "\(name) lacks jemalloc's mallocx/mallctl entry points"
            dlclose(handle)
        }
        if let tlsMessage { return .needsStaticTLSRoom(tlsMessage) }
        return .missing(lastMessage)
    }

    private static func resolve(_ handle: UnsafeMutableRawPointer) -> JemallocLibrary? {
        func symbol<T>(_ name: String, as: T.Type) -> T? {
            guard let pointer = dlsym(handle, name) ?? dlsym(handle, "je_" + name) else { return nil }
            return unsafeBitCast(pointer, to: T.self)
        }
        guard let mallocx = symbol("mallocx", as: Mallocx.self), let dallocx = symbol("dallocx", as: Dallocx.self),
              let mallctl = symbol("mallctl", as: Mallctl.self),
              let nameToMIB = symbol("mallctlnametomib", as: MallctlNameToMIB.self),
              let byMIB = symbol("mallctlbymib", as: MallctlByMIB.self)
        else { return nil }
        return JemallocLibrary(mallocx: mallocx, dallocx: dallocx, mallctl: mallctl, mallctlnametomib: nameToMIB, mallctlbymib: byMIB)
    }

    /// The loaded library; nil when there is none (only reachable through an `Arena`, which needs one to exist).
    static var loaded: JemallocLibrary? {
        if case .loaded(let library) = shared { return library }
        return nil
    }

    /// The loaded library, or the error that says why there is none and what to do.
    static func require() throws -> JemallocLibrary {
        switch shared {
        case .loaded(let library): return library
        case .missing(let detail):
            throw RealMemoryError("--backing jemalloc needs jemalloc's shared library, and this machine has none (\(detail)); \(installHint)",
                                  exitCode: 69)
        case .needsStaticTLSRoom(let detail):
            throw RealMemoryError("jemalloc is installed but cannot be loaded into this process (\(detail)); run it with "
                                  + "GLIBC_TUNABLES=\(staticTLSTunable)=\(staticTLSBytes) (the jetsim executable does this by itself)",
                                  exitCode: 69)
        }
    }
}

/// `MALLOCX_ARENA(index) | MALLOCX_TCACHE_NONE` as `jemalloc.h` (5.x) defines them: the arena index plus one in
/// bits 20 and up, and thread cache -1 ("none") stored plus two in bits 8–19.
func jemallocArenaFlags(_ index: UInt32) -> Int32 {
    Int32(truncatingIfNeeded: (UInt32(index) &+ 1) << 20) | Int32((-1 + 2) << 8)
}

extension Jemalloc {
    /// Whether this process can use jemalloc now, and if not why: for tests and `--help`, which must not fail.
    public static var unavailableReason: String? {
        do { _ = try JemallocLibrary.require(); return nil } catch { return "\(error)" }
    }

    /// Whether the library is installed at all (loaded, or loadable after `relaunchWithStaticTLSRoom`).
    public static var isInstalled: Bool {
        if case .missing = JemallocLibrary.shared { return false }
        return true
    }

    /// Loads jemalloc for real-memory mode. When it is installed but glibc has no static TLS room for it, and this
    /// process has not been given the room yet, re-executes the same command line (`/proc/self/exe`) with
    /// `GLIBC_TUNABLES` extended; the caller must not have written any output yet. Only the `jetsim` executable
    /// calls this: in any other process (a test runner) re-executing would rerun something else.
    public static func loadRelaunchingIfNeeded() throws {
        let relaunchSentinel = "JETSIM_JEMALLOC_RELAUNCHED"
        #if os(Linux)
        // Once only: a sentinel marks the re-executed process, whatever glibc made of the tunable.
        if case .needsStaticTLSRoom = JemallocLibrary.shared, getenv(relaunchSentinel) == nil {
            let current = getenv("GLIBC_TUNABLES").map { String(cString: $0) } ?? ""
            let setting = "\(JemallocLibrary.staticTLSTunable)=\(JemallocLibrary.staticTLSBytes)"
            if setenv("GLIBC_TUNABLES", current.isEmpty ? setting : current + ":" + setting, 1) == 0,
               setenv(relaunchSentinel, "1", 1) == 0 {
                fflush(nil)
                execv("/proc/self/exe", CommandLine.unsafeArgv)   // the arguments as received, byte for byte
                // Only reached if exec failed: fall through to the located error below.
            }
        }
        #endif
        _ = try JemallocLibrary.require()
    }
}
