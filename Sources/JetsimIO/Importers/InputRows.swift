#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CZlib

/// The rows of an importer's CSV or TSV input, from a file (streamed in constant memory, gzip read transparently)
/// or from bytes already in memory (`name` standing for the file in messages). A UTF-8 byte-order mark at the start
/// is skipped. Otherwise the rules are `CSVReader`'s (RFC 4180 quoting, LF or CRLF, blank and `#` lines skipped),
/// whose scanner this uses.
public final class InputRows {
    public let path: String
    private var scanner: RowScanner

    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// `delimiter` is `,` for CSV, `\t` for TSV.
    public init(path: String, delimiter: UInt8 = UInt8(ascii: ","), bufferSize: Int = 1 << 20) throws(InputError) {
        self.path = path
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw InputError(file: path, message: "cannot open: \(String(cString: strerror(errno)))", exitCode: InputError.noInput)
        }
        var magic: (UInt8, UInt8) = (0, 0)
        let isGzip = withUnsafeMutableBytes(of: &magic) { pread(descriptor, $0.baseAddress, 2, 0) } == 2 && magic == (0x1f, 0x8b)
        var gz: gzFile?
        var fd = descriptor
        if isGzip {
            close(descriptor)
            fd = -1
            gz = gzopen(path, "rb")
            guard gz != nil else { throw InputError(file: path, message: "cannot open the gzip file", exitCode: InputError.noInput) }
            gzbuffer(gz, 1 << 17)
        }
        scanner = RowScanner(path: path, fd: fd, gz: gz, delimiter: delimiter, bufferSize: max(bufferSize, 16))
        // The first three bytes: dropped when they are a byte-order mark, else left in the buffer for the first row.
        var prefix = [UInt8](repeating: 0, count: 3)
        var count = 0
        while count < 3 {
            let n = prefix.withUnsafeMutableBytes { raw -> Int in
                if let gz { return Int(gzread(gz, raw.baseAddress! + count, UInt32(3 - count))) }
                return read(fd, raw.baseAddress! + count, 3 - count)
            }
            if n < 0 {
                if gz == nil && errno == EINTR { continue }
                scanner.close()
                throw InputError(file: path, line: 1, message: gz != nil ? "read failed: the gzip data is corrupt" : "read failed: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            count += n
        }
        if !(count == 3 && prefix == InputRows.byteOrderMark) {
            for k in 0..<count { scanner.buffer[k] = prefix[k] }
            scanner.limit = count
        }
    }

    /// Bytes in memory; nothing is read from or written to the file system.
    public init(bytes: [UInt8], name: String, delimiter: UInt8 = UInt8(ascii: ",")) {
        path = name
        scanner = RowScanner(path: name, fd: -1, gz: nil, delimiter: delimiter, bufferSize: 16)
        scanner.buffer = bytes.starts(with: InputRows.byteOrderMark) ? Array(bytes.dropFirst(3)) : bytes
        scanner.limit = scanner.buffer.count
        scanner.atEOF = true
    }

    deinit { scanner.close() }

    /// Line of the current row's first byte (1-based).
    public var lineNumber: Int { scanner.lineNumber }

    public var fieldCount: Int { scanner.fieldEnds.count }

    /// Calls `body` with the bytes of field `index` (empty for a missing field).
    @inline(__always)
    public func withField<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        guard index >= 0 && index < scanner.fieldEnds.count else {
            return try body(UnsafeBufferPointer(start: nil, count: 0))
        }
        let start = index == 0 ? 0 : scanner.fieldEnds[index - 1]
        let end = scanner.fieldEnds[index]
        return try scanner.row.withUnsafeBufferPointer { all in
            try body(UnsafeBufferPointer(rebasing: all[start..<end]))
        }
    }

    /// Field `index` as a String (missing fields are empty).
    public func string(_ index: Int) -> String {
        withField(index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Every field of the current row as Strings.
    public func strings() -> [String] { (0..<fieldCount).map(string) }

    /// Reads the next non-blank, non-comment row; false at end of input.
    public func nextRow() throws(InputError) -> Bool { try scanner.nextRow() }
}
