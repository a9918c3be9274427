#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A streaming RFC 4180 reader over bytes: quoted fields (with `""` escapes and embedded newlines), LF or CRLF
/// line ends, a UTF-8 byte order mark at the start ignored, blank lines and lines starting with `#` skipped.
/// Bounded memory: one read buffer and one row of at most `InputLimits.maxLineBytes` (a longer row is an error).
///
/// Fields are exposed as byte buffers valid until the next `nextRow()`; nothing is decoded into `String`
/// unless asked (`string(_:)`). Gzip- and zstd-compressed files (recognised by their magic bytes: `InputFile`) are
/// read transparently, and a truncated or corrupt stream is an error, never a shorter file. Pipes and devices are read once, as streams.
public final class CSVReader {
    public let path: String
    /// All scanning state lives in a struct mutated through one call per row: accesses inside it are checked
    /// statically, where a class's stored properties would pay a runtime exclusivity check on every byte.
    private var scanner: RowScanner

    /// `delimiter` is `,` for CSV, `\t` for TSV; `name` stands for the file in messages when it is read from elsewhere
    /// (a private copy of a pipe: `ReadOnceInput`).
    public init(path source: String, name: String? = nil, bufferSize: Int = 1 << 20, delimiter: UInt8 = UInt8(ascii: ",")) throws(InputError) {
        let path = name ?? source
        self.path = path
        scanner = RowScanner(path: path, input: try InputFile(path: source, name: path), delimiter: delimiter, bufferSize: max(bufferSize, 16))
    }

    /// Reads CSV text already in memory (`name` stands for the file in messages).
    public convenience init(text: String, name: String) {
        self.init(bytes: Array(text.utf8), name: name)
    }

    /// Reads CSV bytes already in memory (`name` stands for the file in messages).
    public init(bytes: [UInt8], name: String, delimiter: UInt8 = UInt8(ascii: ",")) {
        path = name
        scanner = RowScanner(path: name, input: nil, delimiter: delimiter, bufferSize: 16)
        scanner.buffer = bytes
        scanner.limit = scanner.buffer.count
        scanner.atEOF = true
    }

    /// UTF-8's byte order mark, EF BB BF, skipped at the start of every text input.
    public static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Line of the current row's first byte (1-based).
    public var lineNumber: Int { scanner.lineNumber }

    public var fieldCount: Int { scanner.fieldEnds.count }

    /// Calls `body` with the bytes of field `index` (empty for a missing field).
    @inline(__always)
    public func withField<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        guard index >= 0 && index < scanner.fieldEnds.count else {
            return try body(UnsafeBufferPointer(start: nil, count: 0))
        }
        let end = scanner.fieldEnds[index]
        if scanner.fieldsInBuffer {   // fields in the read buffer, one delimiter apart
            let start = index == 0 ? scanner.rowStart : scanner.fieldEnds[index - 1] + 1
            return try scanner.buffer.withUnsafeBufferPointer { all in try body(UnsafeBufferPointer(rebasing: all[start..<end])) }
        }
        let start = index == 0 ? 0 : scanner.fieldEnds[index - 1]
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

    /// Reads the next non-blank, non-comment row; false at end of file.
    public func nextRow() throws(InputError) -> Bool { try scanner.nextRow() }

    /// Hands the whole lines already in the read buffer to `take`, one after another (each without its line end, a
    /// `\r` before the `\n` dropped, its fields unsplit), until `take` declines one (false: that line is left unread),
    /// a line is blank or a comment, or no whole line is left. A reader's fast path for its common rows: `nextRow()`
    /// goes on from the first line not taken, and the current row's fields are gone.
    @inline(__always)
    func takeBufferedLines(_ take: (UnsafeBufferPointer<UInt8>) -> Bool) { scanner.takeBufferedLines(take) }
}

/// The reader's state and its byte loop.
struct RowScanner {
    let path: String
    /// The file's decompressed bytes; nil for bytes given in memory.
    let input: InputFile?
    let delimiter: UInt8
    var buffer: [UInt8]
    var position = 0
    var limit = 0
    var atEOF = false
    var lineNumber = 0
    var nextLineNumber = 1
    /// The current row's fields, unquoted, one after another (`fieldEnds`: where each ends), unless `fieldsInBuffer`.
    var row: [UInt8] = []
    var fieldEnds: [Int] = []
    /// The current row is an unquoted line still in `buffer`: its fields start at `rowStart` and end at `fieldEnds`
    /// there, one delimiter apart (nothing copied).
    var fieldsInBuffer = false
    var rowStart = 0
    /// False until the first row has looked for a byte order mark.
    var pastStart = false

    init(path: String, input: InputFile?, delimiter: UInt8, bufferSize: Int) {
        self.path = path
        self.input = input
        self.delimiter = delimiter
        buffer = [UInt8](repeating: 0, count: bufferSize)
        row.reserveCapacity(256)
        fieldEnds.reserveCapacity(32)
    }

    private mutating func refill() throws(InputError) -> Bool {
        if atEOF { return false }
        // Checked once per buffer's worth of input rather than per byte: a row stops within one buffer of the limit.
        if row.count > InputLimits.maxLineBytes {
            throw InputLimits.lineTooLong(file: path, line: lineNumber)
        }
        if position > 0 {
            let remaining = limit - position
            if remaining > 0 {
                let from = position
                buffer.withUnsafeMutableBytes { raw in
                    _ = memmove(raw.baseAddress!, raw.baseAddress! + from, remaining)
                }
            }
            limit = remaining
            position = 0
        }
        if limit == buffer.count { buffer.append(contentsOf: repeatElement(0, count: buffer.count)) }
        let filled = limit
        guard let input else { atEOF = true; return false }
        let n = try input.read(into: &buffer, from: filled, line: nextLineNumber)
        if n == 0 { atEOF = true; return false }
        limit += n
        return true
    }

    @inline(__always)
    private mutating func peek() throws(InputError) -> UInt8? {
        if position < limit { return buffer[position] }
        return try refill() ? buffer[position] : nil
    }

    /// Skips a UTF-8 byte order mark at the very start, as spreadsheet programs write one.
    private mutating func skipByteOrderMark() throws(InputError) {
        while limit - position < 3, try refill() {}
        if limit - position >= 3, buffer[position..<position + 3].elementsEqual(CSVReader.byteOrderMark) { position += 3 }
    }

    /// The common row at once: when the buffer holds the whole line up to its `\n` and the line has no quote, its
    /// fields are found in one pass and left where they are (`fieldsInBuffer`); false (nothing consumed) for any other
    /// line, which the byte loop below reads. The fields are the loop's: a `\r` just before the `\n` is dropped, any
    /// other kept.
    @inline(__always)
    private mutating func takeUnquotedLine() -> Bool {
        let start = position, available = limit - position
        guard available > 0 else { return false }
        let delimiter = self.delimiter
        var fields = fieldEnds   // moved out and back, so that `self` is not touched while its buffer is borrowed
        fieldEnds = []
        defer { fieldEnds = fields }
        let end = buffer.withUnsafeBufferPointer { b -> Int in
            guard let base = b.baseAddress, let hit = memchr(base + start, 10, available) else { return -1 }
            let end = start + (UnsafeRawPointer(hit) - UnsafeRawPointer(base + start))
            var fieldStart = start
            for at in start..<end {
                let c = base[at]
                if c == delimiter {
                    fields.append(at)
                    fieldStart = at + 1
                } else if c == UInt8(ascii: "\"") {
                    return -1
                }
            }
            fields.append(end > fieldStart && base[end - 1] == UInt8(ascii: "\r") ? end - 1 : end)
            return end
        }
        guard end >= 0 else {
            fields.removeAll(keepingCapacity: true)
            return false
        }
        fieldsInBuffer = true
        rowStart = start
        position = end + 1
        nextLineNumber += 1
        return true
    }

    /// `CSVReader.takeBufferedLines`.
    @inline(__always)
    mutating func takeBufferedLines(_ take: (UnsafeBufferPointer<UInt8>) -> Bool) {
        guard pastStart else { return }   // the byte order mark is `nextRow()`'s
        let start = position, limit = self.limit
        let (end, taken) = buffer.withUnsafeBufferPointer { b -> (Int, Int) in
            guard let base = b.baseAddress else { return (start, 0) }
            var at = start, taken = 0
            while at < limit {
                let first = base[at]
                if first == UInt8(ascii: "\n") || first == UInt8(ascii: "\r") || first == UInt8(ascii: "#") { break }
                guard let hit = memchr(base + at, 10, limit - at) else { break }
                let lineEnd = at + (UnsafeRawPointer(hit) - UnsafeRawPointer(base + at))
                let fieldsEnd = base[lineEnd - 1] == UInt8(ascii: "\r") ? lineEnd - 1 : lineEnd
                guard take(UnsafeBufferPointer(start: base + at, count: fieldsEnd - at)) else { break }
                at = lineEnd + 1
                taken += 1
            }
            return (at, taken)
        }
        guard taken > 0 else { return }
        position = end
        nextLineNumber += taken
        lineNumber = nextLineNumber - 1
        row.removeAll(keepingCapacity: true)
        fieldEnds.removeAll(keepingCapacity: true)
        fieldsInBuffer = false
    }

    mutating func nextRow() throws(InputError) -> Bool {
        row.removeAll(keepingCapacity: true)
        fieldEnds.removeAll(keepingCapacity: true)
        fieldsInBuffer = false
        if !pastStart {
            pastStart = true
            try skipByteOrderMark()
        }
        // Skip blank lines and comments.
        while true {
            guard let b = try peek() else { return false }
            if b == UInt8(ascii: "\n") { position += 1; nextLineNumber += 1; continue }
            if b == UInt8(ascii: "\r") { position += 1; continue }
            if b == UInt8(ascii: "#") {
                while let c = try peek(), c != UInt8(ascii: "\n") { position += 1 }
                continue
            }
            break
        }
        lineNumber = nextLineNumber
        if takeUnquotedLine() { return true }
        var fieldStart = true
        var inQuotes = false
        while let b = try peek() {
            position += 1
            if inQuotes {
                if b == UInt8(ascii: "\"") {
                    if try peek() == UInt8(ascii: "\"") { position += 1; row.append(b) } else { inQuotes = false }
                } else {
                    if b == UInt8(ascii: "\n") { nextLineNumber += 1 }
                    row.append(b)
                }
                continue
            }
            switch b {
            case UInt8(ascii: "\""):
                if fieldStart {
                    inQuotes = true
                } else {
                    throw InputError(file: path, line: lineNumber, message: "a quote inside an unquoted field (field \(fieldEnds.count + 1))")
                }
                fieldStart = false
            case delimiter:
                fieldEnds.append(row.count)
                fieldStart = true
            case UInt8(ascii: "\n"):
                nextLineNumber += 1
                fieldEnds.append(row.count)
                return true
            case UInt8(ascii: "\r"):
                if try peek() != UInt8(ascii: "\n") { row.append(b) }
            default:
                row.append(b)
                fieldStart = false
            }
        }
        if inQuotes { throw InputError(file: path, line: lineNumber, message: "a quoted field is not closed before the end of the file") }
        fieldEnds.append(row.count)
        return true
    }
}

/// A whole (small) file's bytes, decompressed when it is gzip or zstd; nil when it cannot be read, is not a regular
/// file or a stream, its compressed data is truncated or corrupt, or it holds more than `InputLimits.maxWholeFileBytes`.
public func readWholeFile(_ path: String) -> [UInt8]? {
    try? readWholeFile(checking: path)
}

/// A whole (small) file's bytes, decompressed when it is gzip or zstd, or the error saying why not: unreadable or not a
/// regular file or stream (exit 66), truncated or corrupt compressed data, or more than `InputLimits.maxWholeFileBytes` (65).
public func readWholeFile(checking path: String) throws(InputError) -> [UInt8] {
    let input = try InputFile(path: path)
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = try input.read(into: &chunk, from: 0)
        if n == 0 { return out }
        out.append(contentsOf: chunk[0..<n])
        if out.count > InputLimits.maxWholeFileBytes {
            throw InputError(file: path, message: "is larger than \(InputLimits.maxWholeFileBytes >> 20) MiB, the most read whole")
        }
    }
}
