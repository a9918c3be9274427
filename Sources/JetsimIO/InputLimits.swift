#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CZlib

/// The bounds every reader enforces, so that no input, however large or hostile, makes a reader's memory grow
/// without limit (README: Guarantees and limits).
public enum InputLimits {
    /// The longest line (one CSV row, quoted line ends included) a reader accepts: 1 MiB. A longer one, or a file
    /// without line ends (`/dev/zero`, a gzip bomb of NULs), is a located error once the row passes this size.
    public static let maxLineBytes = 1 << 20
    /// The largest whole file read into memory (YAML and `.ips` inputs, a FIFO read once): 256 MiB.
    public static let maxWholeFileBytes = 1 << 28

    /// The error for a line past `maxLineBytes`, the same from every reader.
    static func lineTooLong(file: String, line: Int?) -> InputError {
        InputError(file: file, line: line, message: "the line is longer than \(maxLineBytes >> 20) MiB (is this a text file with line ends?)")
    }

    /// Refuses what no reader can read (a directory, a block device, a socket), exit 66; a regular file, a pipe or a
    /// character device passes. `file` names `source` in the message.
    static func checkReadable(_ source: String, file: String) throws(InputError) {
        if let kind = notARegularFile(source), !isReadOnce(source) {
            throw InputError(file: file, message: "cannot read: it \(kind)", exitCode: InputError.noInput)
        }
    }
}

/// Why a gzip stream ended, for a reader that has just seen `gzread` return 0 or less: nil when it ended cleanly,
/// otherwise what is wrong. zlib returns 0 for a truncated stream and leaves the reason to `gzerror`, so a
/// truncated `.gz` would otherwise read as a shorter, valid file; a CRC or length mismatch is a data error.
func gzipProblem(_ gz: gzFile) -> String? {
    var code: Int32 = 0
    // zlib prefixes its message with the file's path, which the caller's message already names.
    let text = gzerror(gz, &code).map { String(cString: $0) }?.components(separatedBy: ": ").last ?? ""
    switch code {
    case Z_OK, Z_STREAM_END: return nil
    case Z_BUF_ERROR: return "the gzip data is truncated (\(text.isEmpty ? "unexpected end of file" : text))"
    case Z_ERRNO: return "read failed: \(String(cString: strerror(errno)))"
    default: return "the gzip data is corrupt (\(text))"
    }
}

/// What kind of thing `path` is, for messages that name it: nil for a regular file (or one that cannot be checked:
/// opening it will say why), otherwise a phrase such as "is a directory".
public func notARegularFile(_ path: String) -> String? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFDIR: return "is a directory, not a file"
    case S_IFIFO: return "is a pipe (FIFO)"
    case S_IFCHR: return "is a character device"
    case S_IFBLK: return "is a block device"
    case S_IFSOCK: return "is a socket"
    default: return "is not a regular file"
    }
}

/// True for a pipe, a character device or a socket: input that can be read only once.
public func isReadOnce(_ path: String) -> Bool {
    var info = stat()
    guard stat(path, &info) == 0 else { return false }
    let kind = info.st_mode & S_IFMT
    return kind == S_IFIFO || kind == S_IFCHR || kind == S_IFSOCK
}
