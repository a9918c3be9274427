#if canImport(Glibc)
import Glibc
#endif

/// The process's and the machine's memory as the kernel reports it (Linux `/proc`). Real-memory mode uses it to
/// cross-check the allocator's statistics and to refuse scales this machine cannot hold.
public enum ProcessMemory {
    /// Resident set size of this process in bytes (`/proc/self/statm`, second field × page size); nil when unreadable.
    public static func residentBytes() -> Int? {
        guard let text = readSmallFile("/proc/self/statm") else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// `MemTotal` and `MemAvailable` of `/proc/meminfo`, in bytes; nil when unreadable.
    public static func machine() -> (total: Int, available: Int)? {
        guard let text = readSmallFile("/proc/meminfo") else { return nil }
        var total: Int?, available: Int?
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count >= 2, let kib = Int(parts[1]) else { continue }
            if parts[0] == "MemTotal:" { total = kib * 1024 }
            if parts[0] == "MemAvailable:" { available = kib * 1024 }
        }
        guard let total, let available else { return nil }
        return (total, available)
    }

    private static func readSmallFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 8192)
        var used = 0
        while used < buffer.count {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + used, $0.count - used) }
            if n <= 0 { break }
            used += n
        }
        return String(decoding: buffer[..<used], as: UTF8.self)
    }
}
