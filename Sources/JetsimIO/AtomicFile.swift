#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import JetsimCore

/// A file written under a temporary name in its final directory and renamed into place on `commit()`, so a
/// reader never sees a partial report. Output is buffered (one `write` per 64 KiB). Uncommitted files are
/// removed when the writer goes away, or by a signal (`TemporaryFiles`); the name `.NAME.PID.tmp` lets a later
/// process remove it if this one dies.
public final class AtomicFile {
    public let path: String
    private let temporaryPath: String
    private var fd: Int32
    private var buffer: [UInt8] = []
    private var committed = false

    /// Whether `commit()` has put the file in place.
    public var isCommitted: Bool { committed }

    public init(path: String) throws(InputError) {
        self.path = path
        let slash = path.lastIndex(of: "/")
        let dir = slash.map { String(path[..<$0]) } ?? "."
        let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
        temporaryPath = "\(dir)/.\(base).\(getpid()).tmp"
        TemporaryFiles.shared.register(temporaryPath)
        fd = open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else {
            TemporaryFiles.shared.unregister(temporaryPath)
            throw InputError(file: path, message: "cannot create: \(String(cString: strerror(errno)))", exitCode: InputError.cannotCreate)
        }
        buffer.reserveCapacity(1 << 16)
    }

    deinit {
        if fd >= 0 { close(fd) }
        if !committed {
            unlink(temporaryPath)
            TemporaryFiles.shared.unregister(temporaryPath)
        }
    }

    public func write(_ text: String) throws(InputError) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { try flush() }
    }

    public func write(bytes: [UInt8]) throws(InputError) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Appends one row built in place (`RowWriter`, at most `capacity` bytes), without an intermediate array.
    public func writeRow(capacity: Int, _ body: (inout RowWriter) -> Void) throws(InputError) {
        RowWriter.appending(to: &buffer, capacity: capacity, body)
        if buffer.count >= 1 << 16 { try flush() }
    }

    private func flush() throws(InputError) {
        var offset = 0
        while offset < buffer.count {
            let n = buffer.withUnsafeBytes { raw in posixWrite(fd, raw.baseAddress! + offset, raw.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError(file: path, message: "write failed: \(String(cString: strerror(errno)))", exitCode: InputError.cannotCreate)
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes, closes and renames the file into place.
    public func commit() throws(InputError) {
        try flush()
        close(fd)
        fd = -1
        guard rename(temporaryPath, path) == 0 else {
            throw InputError(file: path, message: "cannot rename into place: \(String(cString: strerror(errno)))", exitCode: InputError.cannotCreate)
        }
        committed = true
        TemporaryFiles.shared.unregister(temporaryPath)
    }
}

@inline(__always)
private func posixWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(fd, bytes, count)
    #else
    Darwin.write(fd, bytes, count)
    #endif
}

/// Creates `path` and its parents (like `mkdir -p`); returns the directories it made, outermost first.
@discardableResult
public func makeDirectories(_ path: String) throws(InputError) -> [String] {
    var current = path.hasPrefix("/") ? "" : "."
    var made: [String] = []
    for part in path.split(separator: "/") {
        current += "/" + part
        if mkdir(current, 0o755) == 0 {
            made.append(current)
        } else if errno != EEXIST {
            throw InputError(file: path, message: "cannot create the directory: \(String(cString: strerror(errno)))", exitCode: InputError.cannotCreate)
        }
    }
    return made
}
