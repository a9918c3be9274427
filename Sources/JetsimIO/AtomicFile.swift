#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CFileSpace
import JetsimCore

/// A file written under a temporary name in its final directory and renamed into place on `commit()`, so a
/// reader never sees a partial report. Output is buffered: each `write` but the last is a whole number of
/// `flushSize` blocks, so every write starts and ends on a page boundary of the file (the kernel then copies whole
/// pages, with no partial page to zero first; a dense timeseries.csv is 59 MB), and a file that grows past its first
/// block has its space reserved ahead of the writes, in doubling extents (`reserveAhead`), the rest given back at
/// `commit()`. Uncommitted files are removed when the writer goes away, or by a signal (`TemporaryFiles`); the name
/// `.NAME.PID.tmp` lets a later process remove it if this one dies.
public final class AtomicFile {
    public let path: String
    private let temporaryPath: String
    private var fd: Int32
    /// Bytes not yet written: `used` of `capacity`, flushed once `flushSize` are waiting. Rows are rendered straight
    /// into it (`writeRow`), with no intermediate array.
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity = AtomicFile.flushSize + 4096
    private var used = 0
    private var committed = false
    /// 256 KiB: a quarter of the syscalls of 64 KiB, and still in the writing core's L2 cache.
    private static let flushSize = 1 << 18
    /// Bytes written to the file, and reserved for it on its file system (`reserveAhead`: ahead of `written` while
    /// reservations succeed, the file's size until `commit()` truncates it to `written`); `reserving` false once a
    /// reservation failed (a file system without them, or full), after which `written` may pass `reserved`.
    private var written = 0
    private var reserved = 0
    private var reserving = true
    /// The first reservation, and the largest: each reserves as much as the file already has, from 1 MiB to 64 MiB.
    private static let firstReservation = 1 << 20
    private static let largestReservation = 1 << 26

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
        buffer = .allocate(capacity: capacity)
        // Every property is set, so a throw from here on runs deinit, which frees the buffer and unregisters the name.
        guard fd >= 0 else {
            throw InputError(file: path, message: "cannot create: \(String(cString: strerror(errno)))", exitCode: InputError.cannotCreate)
        }
    }

    deinit {
        buffer.deallocate()
        if fd >= 0 { close(fd) }
        if !committed {
            unlink(temporaryPath)
            TemporaryFiles.shared.unregister(temporaryPath)
        }
    }

    public func write(_ text: String) throws(InputError) {
        var failure: InputError?
        let contiguous: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in   // a native String: no copy
            do throws(InputError) { try write(bytes) } catch { failure = error }
        }
        if contiguous == nil { try write(bytes: Array(text.utf8)) }   // a bridged or small one
        if let failure { throw failure }
    }

    public func write(bytes: [UInt8]) throws(InputError) {
        try bytes.withUnsafeBufferPointer { bytes throws(InputError) in try write(bytes) }
    }

    private func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(InputError) {
        guard let source = bytes.baseAddress else { return }
        reserve(bytes.count)
        (buffer + used).initialize(from: source, count: bytes.count)
        used += bytes.count
        if used >= Self.flushSize { try flushWhole() }
    }

    /// Appends one row rendered in place (`RowWriter`, at most `capacity` bytes) at the end of the buffer.
    public func writeRow(capacity rowCapacity: Int, _ body: (inout RowWriter) -> Void) throws(InputError) {
        reserve(rowCapacity)
        used += RowWriter.render(into: buffer + used, capacity: rowCapacity, body)
        if used >= Self.flushSize { try flushWhole() }
    }

    /// Appends `count` rows, rendered by `body` a run at a time: `body(at, rows)` writes `rows` rows from `at`, each at
    /// most `rowCapacity` bytes, and returns how many bytes it wrote. An idle stretch's thousands of rows go into the
    /// buffer a room's worth at a time, without a call into the file and a room check per row (or a call of `body`).
    /// `body` must not write past `rows × rowCapacity` bytes (checked in debug builds): it writes in place, past any check.
    public func writeRows(_ count: Int, capacity rowCapacity: Int, _ body: (_ at: UnsafeMutablePointer<UInt8>, _ rows: Int) -> Int) throws(InputError) {
        precondition(rowCapacity > 0, "AtomicFile.writeRows: a row's capacity must be positive")
        var left = count
        while left > 0 {
            reserve(rowCapacity)
            let fitting = min(left, (capacity - used) / rowCapacity)   // at least one after `reserve`
            let width = body(buffer + used, fitting)
            assert(width <= fitting * rowCapacity, "AtomicFile: rows wider than their capacity")
            used += width
            left -= fitting
            if used >= Self.flushSize { try flushWhole() }
        }
    }

    /// Room for `count` more bytes: grows the buffer, keeping what it holds, for a row wider than the room past
    /// `flushSize` (a flush of a partial block here would leave every later write off the page boundaries).
    private func reserve(_ count: Int) {
        guard used + count > capacity else { return }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: used + count)
        grown.initialize(from: buffer, count: used)
        buffer.deallocate()
        (buffer, capacity) = (grown, used + count)
    }

    /// Writes the buffer's whole `flushSize` blocks and moves the rest (less than a block: in practice part of a row)
    /// to its start.
    private func flushWhole() throws(InputError) {
        let rest = used % Self.flushSize, whole = used - rest
        reserveAhead(whole)
        try writeOut(whole)
        if rest > 0 { buffer.update(from: buffer + whole, count: rest) }
        used = rest
    }

    /// Writes everything buffered.
    private func flush() throws(InputError) {
        try writeOut(used)
        used = 0
    }

    /// Reserves the file's space ahead of `count` more bytes, when they pass what is reserved: the kernel then writes
    /// into space the file already has instead of reserving it page by page as it takes each one (57 MB in 256 KiB
    /// writes on this VM's ext4 took 12.2 ms, and 8.8 ms with the reservations and the final truncation). Only for
    /// a file that has filled a block, so a small report costs no extra call; a failure stops reserving and changes
    /// nothing else (the writes themselves report a full disk).
    private func reserveAhead(_ count: Int) {
        guard reserving, written + count > reserved else { return }
        let extent = max(written + count - reserved, min(max(Self.firstReservation, reserved), Self.largestReservation))
        if jetsim_reserve_file_space(fd, Int64(reserved), Int64(extent)) == 0 {
            reserved += extent
        } else {
            reserving = false
        }
    }

    /// Writes the buffer's first `count` bytes to the file.
    private func writeOut(_ count: Int) throws(InputError) {
        var offset = 0
        while offset < count {
            let n = posixWrite(fd, buffer + offset, count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError(file: path, message: "write failed: \(String(cString: strerror(errno)))", exitCode: InputError.cannotCreate)
            }
            offset += n
        }
        written += count
    }

    /// Flushes, gives back the space reserved past the last byte, closes and renames the file into place.
    public func commit() throws(InputError) {
        try flush()
        if reserved > written && ftruncate(fd, off_t(written)) != 0 {
            throw InputError(file: path, message: "cannot set its size: \(String(cString: strerror(errno)))", exitCode: InputError.cannotCreate)
        }
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
