import Foundation

/// An input as a command reads it. A regular file is read where it is. A pipe, a device or a socket can be read
/// only once, and some commands read an input twice (`compare` parses then hashes it; a libCacheSim trace is
/// scanned for its objects, then replayed), so such an input is copied once into a private temporary file, read
/// from there, and named as the user gave it in every message.
///
/// The copy (`.<name>.<pid>.tmp` in the temporary directory) is registered with `TemporaryFiles` and removed when
/// this goes away; it holds at most `maxCopyBytes`, and a text stream stops at its first line longer than
/// `InputLimits.maxLineBytes` (`/dev/zero` is refused at once, as the readers refuse it).
public final class ReadOnceInput {
    /// The path as the user gave it: the name in messages and reports.
    public let name: String
    /// Where to read the bytes from.
    public let path: String
    private let isCopy: Bool

    /// The most a pipe may deliver (1 GiB): an endless device given as a trace must not fill the disk.
    public static let maxCopyBytes = 1 << 30

    public init(_ name: String) throws(InputError) {
        self.name = name
        guard isReadOnce(name) else {
            path = name
            isCopy = false
            return
        }
        let directory = NSTemporaryDirectory().hasSuffix("/") ? String(NSTemporaryDirectory().dropLast()) : NSTemporaryDirectory()
        TemporaryFiles.removeStale(in: directory)
        let base = name.split(separator: "/").last.map(String.init) ?? "input"
        path = "\(directory)/.jetsim-\(UUID().uuidString.prefix(8))-\(base).\(getpid()).tmp"
        isCopy = true
        TemporaryFiles.shared.register(path)
        try copy()
    }

    deinit {
        if isCopy {
            unlink(path)
            TemporaryFiles.shared.unregister(path)
        }
    }

    /// Streams the pipe into the private file, bounded by `maxCopyBytes`.
    private func copy() throws(InputError) {
        let input = open(name, O_RDONLY)
        guard input >= 0 else {
            throw InputError(file: name, message: "cannot open: \(String(cString: strerror(errno)))", exitCode: InputError.noInput)
        }
        defer { close(input) }
        let output = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard output >= 0 else {
            throw InputError(file: name, message: "cannot make a private copy of the stream in \(path): \(String(cString: strerror(errno)))",
                             exitCode: InputError.cannotCreate)
        }
        defer { close(output) }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var total = 0
        var isCompressed: Bool?   // decided by the first bytes; a compressed stream has no lines to bound
        var sinceLineEnd = 0
        while true {
            let n = chunk.withUnsafeMutableBytes { readDescriptor(input, $0.baseAddress, $0.count) }
            guard n >= 0 else { throw InputError(file: name, message: "read failed: \(String(cString: strerror(errno)))", exitCode: InputError.noInput) }
            if n == 0 { return }
            total += n
            guard total <= Self.maxCopyBytes else {
                throw InputError(file: name, message: "the stream delivers more than \(Self.maxCopyBytes >> 30) GiB; save it to a file first")
            }
            if isCompressed == nil { isCompressed = InputFile.Compression(magic: chunk[0..<n]) != .none }
            if isCompressed != true {
                let lastEnd = chunk[..<n].lastIndex(of: UInt8(ascii: "\n"))
                sinceLineEnd = lastEnd.map { n - 1 - $0 } ?? sinceLineEnd + n
                if sinceLineEnd > InputLimits.maxLineBytes {
                    throw InputLimits.lineTooLong(file: name, line: nil)
                }
            }
            var offset = 0
            while offset < n {
                let w = chunk.withUnsafeBytes { write(output, $0.baseAddress! + offset, n - offset) }
                if w < 0 && errno == EINTR { continue }
                guard w > 0 else {
                    throw InputError(file: name, message: "cannot copy the stream to \(path): \(String(cString: strerror(errno)))",
                                     exitCode: InputError.cannotCreate)
                }
                offset += w
            }
        }
    }
}
