
/// A failure of real-memory mode: missing allocator features, allocation failures, an exceeded budget.
/// `exitCode` follows sysexits: 64 for a `--backing` the machine cannot take (bad or unsafe scale), 69 when
/// jemalloc is not installed (or cannot be loaded), 71 when the allocator fails or lacks a feature at run time.
public struct RealMemoryError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public let exitCode: Int32
    public init(_ description: String, exitCode: Int32 = 71) {
        self.description = description
        self.exitCode = exitCode
    }
}

/// jemalloc's control interface (`mallctl`), typed. Only the calls real-memory mode needs.
///
/// jemalloc is loaded at run time (`JemallocLibrary`) and serves only the dedicated arenas created here; every
/// call throws a located error (exit 69) when it is not installed.
public enum Jemalloc {
    /// Reads a value; `T` must match the control's C type exactly (size_t → Int, unsigned → UInt32, bool → Bool).
    public static func read<T>(_ name: String, as type: T.Type = T.self) throws -> T {
        let value = UnsafeMutablePointer<T>.allocate(capacity: 1)
        defer { value.deallocate() }
        var length = MemoryLayout<T>.size
        let status = try JemallocLibrary.require().mallctl(name, value, &length, nil, 0)
        guard status == 0, length == MemoryLayout<T>.size else {
            throw RealMemoryError("jemalloc control '\(name)' cannot be read (error \(status))")
        }
        return value.pointee
    }

    /// Writes a value.
    public static func write<T>(_ name: String, _ newValue: T) throws {
        var v = newValue
        let mallctl = try JemallocLibrary.require().mallctl
        let status = withUnsafeMutableBytes(of: &v) { mallctl(name, nil, nil, $0.baseAddress, $0.count) }
        guard status == 0 else { throw RealMemoryError("jemalloc control '\(name)' cannot be written (error \(status))") }
    }

    /// Runs a control that takes no arguments (`arena.<i>.purge`, `.reset`, `.destroy`).
    public static func run(_ name: String) throws {
        let status = try JemallocLibrary.require().mallctl(name, nil, nil, nil, 0)
        guard status == 0 else { throw RealMemoryError("jemalloc control '\(name)' failed (error \(status))") }
    }

    /// The library's version string.
    public static var version: String {
        guard let pointer = try? read("version", as: UnsafePointer<CChar>.self) else { return "unknown" }
        return String(cString: pointer)
    }

    /// Refuses to run without what real-memory mode relies on: statistics compiled in.
    public static func checkCapabilities() throws {
        let stats = try read("config.stats", as: Bool.self)
        guard stats else {
            throw RealMemoryError("this jemalloc (\(version)) was built without statistics (config.stats is false); real-memory mode reads arena statistics")
        }
    }

    /// Refreshes the statistics snapshot; costs about 20 µs per arena, so callers refresh once per step.
    public static func refreshStatistics() {
        // Separate old and new values: passing one variable as both would violate exclusivity.
        var old: UInt64 = 0, new: UInt64 = 1, length = MemoryLayout<UInt64>.size
        _ = JemallocLibrary.loaded?.mallctl("epoch", &old, &length, &new, MemoryLayout<UInt64>.size)
    }

    /// The allocator's page size.
    public static func pageSize() throws -> Int { try read("arenas.page", as: Int.self) }
}

/// One dedicated jemalloc arena. Allocations bypass the thread cache, so the arena's statistics account for
/// every byte at once.
public struct Arena: Equatable, Sendable {
    public let index: UInt32

    /// Creates an arena; its dirty and muzzy pages never decay on their own (decay is wall-clock based, which
    /// would make runs unrepeatable): memory returns to the system only by `purge`.
    public static func create() throws -> Arena {
        try Jemalloc.write("arenas.dirty_decay_ms", -1)
        try Jemalloc.write("arenas.muzzy_decay_ms", -1)
        return Arena(index: try Jemalloc.read("arenas.create", as: UInt32.self))
    }

    var flags: Int32 { jemallocArenaFlags(index) }

    /// Allocates `size` bytes in this arena and touches every byte, so the pages are resident. Nil when the
    /// allocator has no memory.
    public func allocateTouched(_ size: Int) -> UnsafeMutableRawPointer? {
        guard let pointer = JemallocLibrary.loaded?.mallocx(size, flags) else { return nil }
        pointer.initializeMemory(as: UInt8.self, repeating: 0xA5, count: size)
        return pointer
    }

    public func free(_ pointer: UnsafeMutableRawPointer) { JemallocLibrary.loaded?.dallocx(pointer, flags) }

    /// Returns the arena's unused dirty and muzzy pages to the system.
    public func purge() throws { try Jemalloc.run("arena.\(index).purge") }

    /// Frees every allocation at once (pages stay dirty until `purge`).
    public func reset() throws { try Jemalloc.run("arena.\(index).reset") }

    /// Frees everything and returns the arena's memory; the index may be reused by a later `create`.
    /// Each create/destroy cycle leaks about 4 KiB of allocator metadata, so long runs reuse arenas instead.
    public func destroy() throws { try Jemalloc.run("arena.\(index).destroy") }
}

/// Fast repeated reads of one per-arena statistic (`stats.arenas.<i>.<name>`): the name is translated once.
struct ArenaStatistic {
    private var mib: [Int]
    private let arenaPosition = 2
    private let library: JemallocLibrary

    init(_ name: String) throws {
        library = try JemallocLibrary.require()
        var mib = [Int](repeating: 0, count: 8)
        var length = mib.count
        let status = library.mallctlnametomib("stats.arenas.0.\(name)", &mib, &length)
        guard status == 0 else { throw RealMemoryError("jemalloc has no statistic 'stats.arenas.<i>.\(name)' (error \(status))") }
        self.mib = Array(mib.prefix(length))
    }

    /// The value for `arena` (a size_t statistic), as of the last `Jemalloc.refreshStatistics()`.
    mutating func read(_ arena: Arena) -> Int {
        mib[arenaPosition] = Int(arena.index)
        var value = 0, length = MemoryLayout<Int>.size
        let status = library.mallctlbymib(&mib, mib.count, &value, &length, nil, 0)
        return status == 0 ? value : 0
    }
}
