#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libzstd's streaming decompressor, found at run time: the build needs nothing beyond the toolchain and zlib, and
/// only a zstd-compressed input needs the shared library (Debian: `libzstd1`, present on most systems). The
/// entry points are libzstd's stable API (zstd.h: `ZSTD_decompressStream` and its in/out buffers).
public struct ZstdLibrary: @unchecked Sendable {   // C function pointers
    typealias CreateDStream = @convention(c) () -> OpaquePointer?
    typealias FreeDStream = @convention(c) (OpaquePointer?) -> Int
    /// The buffers are `ZstdBuffer`s (passed as raw pointers: a Swift struct is not a C type).
    typealias DecompressStream = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int
    typealias IsError = @convention(c) (Int) -> UInt32
    typealias ErrorName = @convention(c) (Int) -> UnsafePointer<CChar>?
    typealias Compress = @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeRawPointer?, Int, Int32) -> Int
    typealias CompressBound = @convention(c) (Int) -> Int

    let createDStream: CreateDStream
    let freeDStream: FreeDStream
    let decompressStream: DecompressStream
    let isError: IsError
    let errorName: ErrorName
    let compressOnce: Compress
    let compressBound: CompressBound

    /// `ZSTD_inBuffer` and `ZSTD_outBuffer` (zstd.h): a pointer, its size and the position reached, in that order.
    struct ZstdBuffer {
        var pointer: UnsafeMutableRawPointer?
        var size: Int
        var position: Int
    }

    /// The shared library's names, most specific first (Linux soname, then macOS).
    static let libraryNames = ["libzstd.so.1", "libzstd.so", "libzstd.1.dylib", "libzstd.dylib"]

    /// What to install when no library is found (exit 69).
    public static let installHint = "install zstd's shared library: 'apt-get install libzstd1' (Debian, Ubuntu), "
        + "'dnf install libzstd' (Fedora), 'brew install zstd' (macOS); or decompress the file first (zstd -d FILE)"

    /// This process's libzstd, opened once; nil when none of `libraryNames` loads.
    public static let shared: ZstdLibrary? = open(names: libraryNames)

    static func open(names: [String]) -> ZstdLibrary? {
        for name in names {
            guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else { continue }
            func symbol<T>(_ name: String, as: T.Type) -> T? { dlsym(handle, name).map { unsafeBitCast($0, to: T.self) } }
            if let create = symbol("ZSTD_createDStream", as: CreateDStream.self), let free = symbol("ZSTD_freeDStream", as: FreeDStream.self),
               let decompress = symbol("ZSTD_decompressStream", as: DecompressStream.self), let isError = symbol("ZSTD_isError", as: IsError.self),
               let errorName = symbol("ZSTD_getErrorName", as: ErrorName.self), let compress = symbol("ZSTD_compress", as: Compress.self),
               let bound = symbol("ZSTD_compressBound", as: CompressBound.self) {
                return ZstdLibrary(createDStream: create, freeDStream: free, decompressStream: decompress, isError: isError,
                                   errorName: errorName, compressOnce: compress, compressBound: bound)
            }
            dlclose(handle)
        }
        return nil
    }

    /// `bytes` as one zstd frame (for tests and tools that write `.zst` files); nil when compression fails.
    public func compress(_ bytes: [UInt8], level: Int32 = 3) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: compressBound(bytes.count))
        let n = out.withUnsafeMutableBytes { o in bytes.withUnsafeBytes { i in compressOnce(o.baseAddress, o.count, i.baseAddress, i.count, level) } }
        guard isError(n) == 0 else { return nil }
        return Array(out.prefix(n))
    }
}

/// A zstd stream decompressed from a file descriptor, a read at a time (concatenated frames read as one stream).
final class ZstdReader {
    private let library: ZstdLibrary
    private let context: OpaquePointer
    private let fd: Int32
    private var input: [UInt8]
    private var inputBuffer: ZstdLibrary.ZstdBuffer
    private var atInputEnd = false
    /// `ZSTD_decompressStream`'s last return: 0 when a frame has just ended, so the end of the input is clean there.
    private var frameHint = 0
    private let name: String

    /// Takes ownership of `fd` (closed on deinit); `name` names the file in messages; `library` nil: not installed (exit 69).
    init(fd: Int32, name: String, library: ZstdLibrary? = ZstdLibrary.shared) throws(InputError) {
        guard let library else {
            close(fd)
            throw InputError(file: name, message: "is zstd-compressed and libzstd is not installed: \(ZstdLibrary.installHint)",
                             exitCode: InputError.unavailable)
        }
        guard let context = library.createDStream() else {
            close(fd)
            throw InputError(file: name, message: "cannot start zstd decompression", exitCode: InputError.unavailable)
        }
        self.library = library
        self.context = context
        self.fd = fd
        self.name = name
        input = [UInt8](repeating: 0, count: 1 << 17)
        inputBuffer = .init(pointer: nil, size: 0, position: 0)
    }

    deinit {
        _ = library.freeDStream(context)
        close(fd)
    }

    /// Decompresses into `destination`, up to `count` bytes; 0 at the clean end of the stream. A stream that stops
    /// inside a frame is truncated, never a shorter valid file.
    func read(into destination: UnsafeMutableRawPointer, count: Int) throws(InputError) -> Int {
        var output = ZstdLibrary.ZstdBuffer(pointer: destination, size: count, position: 0)
        while output.position == 0 {
            if inputBuffer.position == inputBuffer.size {
                if atInputEnd { break }
                let n = input.withUnsafeMutableBytes { readDescriptor(fd, $0.baseAddress, $0.count) }
                guard n >= 0 else { throw InputError(file: name, message: "read failed: \(String(cString: strerror(errno)))", exitCode: InputError.noInput) }
                if n == 0 { atInputEnd = true; continue }
                inputBuffer = .init(pointer: nil, size: n, position: 0)
            }
            let hint = input.withUnsafeMutableBytes { raw -> Int in
                inputBuffer.pointer = raw.baseAddress
                defer { inputBuffer.pointer = nil }
                return withUnsafeMutablePointer(to: &output) { out in
                    withUnsafeMutablePointer(to: &inputBuffer) { library.decompressStream(context, UnsafeMutableRawPointer(out), UnsafeMutableRawPointer($0)) }
                }
            }
            if library.isError(hint) != 0 {
                let why = library.errorName(hint).map { String(cString: $0) } ?? "error \(hint)"
                throw InputError(file: name, message: "the zstd data is corrupt (\(why))")
            }
            frameHint = hint
        }
        if output.position == 0 && frameHint != 0 {
            throw InputError(file: name, message: "the zstd data is truncated (the stream ends inside a frame)")
        }
        return output.position
    }
}

/// `read(2)`, again while a signal interrupts it (EINTR): what every reader here wants; -1 and `errno` for any other
/// failure. (A free function, so that types with a `read` of their own can call it.)
func readDescriptor(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    while true {
        let n = read(fd, buffer, count)
        if n < 0 && errno == EINTR { continue }
        return n
    }
}
