#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CZlib

/// An input file's bytes as the readers see them: plain, gzip (zlib) or zstd (libzstd, loaded at run time),
/// recognised by their first bytes, not their names. A truncated or corrupt compressed stream is an error, never a
/// shorter file; another compression (xz, bzip2, lz4) is refused with what to do. Pipes and devices are read as
/// plain streams (their first bytes cannot be looked at twice; `ReadOnceInput` copies them first where it matters).
public final class InputFile {
    private enum Source {
        case plain(Int32)
        case gzip(gzFile)
        case zstd(ZstdReader)
    }

    /// How a file's first bytes say it is compressed.
    public enum Compression: String, Sendable {
        case none, gzip, zstd, xz, bzip2, lz4

        /// The compression whose magic number `bytes` (a file's first bytes) starts with.
        public init(magic bytes: some Collection<UInt8>) {
            let b = Array(bytes.prefix(6))
            func starts(_ magic: [UInt8]) -> Bool { b.starts(with: magic) }
            if starts([0x1f, 0x8b]) { self = .gzip }
            else if starts([0x28, 0xb5, 0x2f, 0xfd]) { self = .zstd }
            else if starts([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]) { self = .xz }
            else if starts([0x42, 0x5a, 0x68]) { self = .bzip2 }   // "BZh"
            else if starts([0x04, 0x22, 0x4d, 0x18]) { self = .lz4 }
            else { self = .none }
        }

        /// The command that turns such a file into one Jetsim reads, for the refusal's message.
        var decompressCommand: String {
            switch self {
            case .xz: "xz -d"
            case .bzip2: "bzip2 -d"
            case .lz4: "lz4 -d"
            default: "zstd -d"
            }
        }
    }

    private let source: Source
    /// The name in messages.
    public let name: String
    public let compression: Compression

    /// Opens `path` (`name` stands for it in messages: a private copy of a pipe); unreadable: exit 66; an
    /// unsupported compression: 65; zstd without libzstd: 69.
    public init(path: String, name: String? = nil) throws(InputError) {
        let name = name ?? path
        self.name = name
        try InputLimits.checkReadable(path, file: name)
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw InputError(file: name, message: "cannot open: \(String(cString: strerror(errno)))", exitCode: InputError.noInput)
        }
        var magic = [UInt8](repeating: 0, count: 6)
        let got = magic.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        compression = got > 0 ? Compression(magic: magic.prefix(got)) : .none
        switch compression {
        case .none:
            source = .plain(fd)
        case .gzip:
            guard let gz = gzdopen(fd, "rb") else {
                close(fd)
                throw InputError(file: name, message: "cannot open the gzip file", exitCode: InputError.noInput)
            }
            gzbuffer(gz, 1 << 17)
            source = .gzip(gz)
        case .zstd:
            source = .zstd(try ZstdReader(fd: fd, name: name))
        case .xz, .bzip2, .lz4:
            close(fd)
            throw InputError(file: name, message: "is \(compression.rawValue)-compressed; Jetsim reads plain, gzip (.gz) and zstd (.zst) "
                             + "files: decompress it first (\(compression.decompressCommand) FILE)")
        }
    }

    deinit {
        switch source {
        case let .plain(fd): close(fd)
        case let .gzip(gz): gzclose(gz)
        case .zstd: break   // the reader closes its descriptor
        }
    }

    /// Reads decompressed bytes into `buffer` from `offset` to its end; 0 at the end of the input.
    public func read(into buffer: inout [UInt8], from offset: Int, line: Int? = nil) throws(InputError) -> Int {
        var result: Result<Int, InputError> = .success(0)
        buffer.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress, offset < raw.count else { return }
            do throws(InputError) { result = .success(try read(into: base + offset, count: raw.count - offset, line: line)) } catch { result = .failure(error) }
        }
        return try result.get()
    }

    /// Reads up to `count` decompressed bytes into `destination`; 0 at the end. `line` locates a failure in messages.
    public func read(into destination: UnsafeMutableRawPointer, count: Int, line: Int? = nil) throws(InputError) -> Int {
        switch source {
        case let .plain(fd):
            let n = readDescriptor(fd, destination, count)
            guard n >= 0 else {
                throw InputError(file: name, line: line, message: "read failed: \(String(cString: strerror(errno)))", exitCode: InputError.dataError)
            }
            return n
        case let .gzip(gz):
            let n = Int(gzread(gz, destination, UInt32(min(count, 1 << 30))))
            if n <= 0, let problem = gzipProblem(gz) { throw InputError(file: name, line: line, message: problem) }
            return max(n, 0)
        case let .zstd(reader):
            do {
                return try reader.read(into: destination, count: count)
            } catch {
                var located = error
                located.line = line
                throw located
            }
        }
    }
}
