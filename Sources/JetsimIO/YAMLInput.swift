#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Yams

/// What the YAML inputs (device, policy and experiment files) share: reading the file, decoding it, composing its
/// nodes, and errors located at a line and column. Every reader parses from bytes in memory too (a name stands for
/// the file), so that a fuzzer can replay inputs without the file system.
enum YAMLInput {
    /// The bytes of the file at `path`. Missing, unreadable, a directory or any other non-regular file (a FIFO would
    /// block, a device never end) is an `InputError.noInput`; `what` names the file's kind ("a device file").
    static func bytes(path: String, what: String) throws(InputError) -> [UInt8] {
        func fail(_ message: String) -> InputError { InputError(file: path, message: message, exitCode: InputError.noInput) }
        // Non-blocking, so that opening a FIFO with no writer returns instead of waiting; it is refused below.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw fail("cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw fail("cannot read: \(String(cString: strerror(errno)))") }
        let type = status.st_mode & S_IFMT
        if type == S_IFDIR { throw fail("is a directory, not \(what)") }
        guard type == S_IFREG else { throw fail("is not a regular file, so not \(what)") }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { readDescriptor(fd, $0.baseAddress, $0.count) }
            guard n >= 0 else { throw fail("cannot read: \(String(cString: strerror(errno)))") }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<n])
        }
    }

    /// `bytes` as text: a leading UTF-8 byte-order mark dropped, and anything YAML cannot hold refused with its line,
    /// column and byte offset (exit 65): invalid UTF-8, and the control characters libyaml's reader rejects.
    static func text(_ bytes: [UInt8], file: String) throws(InputError) -> String {
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var i = start, line = 1, column = 1
        func fail(_ what: String) -> InputError {
            InputError(file: file, line: line, column: column, message: "\(what) (byte offset \(i))")
        }
        while i < bytes.count {
            let lead = bytes[i]
            var scalar: UInt32
            var length: Int
            switch lead {
            case 0x00..<0x80: scalar = UInt32(lead); length = 1
            case 0xC2...0xDF: scalar = UInt32(lead & 0x1F); length = 2
            case 0xE0...0xEF: scalar = UInt32(lead & 0x0F); length = 3
            case 0xF0...0xF4: scalar = UInt32(lead & 0x07); length = 4
            default: throw fail("not valid UTF-8: byte 0x\(hex(lead)) cannot start a character")
            }
            guard i + length <= bytes.count else { throw fail("not valid UTF-8: the file ends inside a character") }
            for k in 1..<length {
                let b = bytes[i + k]
                guard b & 0xC0 == 0x80 else { throw fail("not valid UTF-8: byte 0x\(hex(b)) cannot continue a character") }
                scalar = scalar << 6 | UInt32(b & 0x3F)
            }
            let shortest: UInt32 = length == 3 ? 0x800 : length == 4 ? 0x10000 : 0
            guard scalar >= shortest, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else {
                throw fail("not valid UTF-8: an overlong, surrogate or out-of-range sequence")
            }
            // YAML's printable set, as libyaml's reader checks it (reader.c: "control characters are not allowed").
            let printable = scalar == 0x09 || scalar == 0x0A || scalar == 0x0D || (0x20...0x7E).contains(scalar) || scalar == 0x85
                || (0xA0...0xD7FF).contains(scalar) || (0xE000...0xFFFD).contains(scalar) || (0x10000...0x10FFFF).contains(scalar)
            guard printable else { throw fail("control character U+\(hex(scalar, width: 4)) is not allowed in YAML") }
            // Line breaks as libyaml counts them: LF, CR not before LF, NEL, LS, PS.
            let crBeforeLF = scalar == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A
            if (scalar == 0x0A || scalar == 0x0D || scalar == 0x85 || scalar == 0x2028 || scalar == 0x2029) && !crBeforeLF {
                line += 1
                column = 1
            } else if !crBeforeLF {
                column += 1
            }
            i += length
        }
        return String(decoding: bytes[start...], as: UTF8.self)
    }

    private static func hex(_ value: some BinaryInteger, width: Int = 2) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// The document's root node; nil when it holds none. Syntax errors are located at libyaml's mark.
    static func root(_ text: String, file: String) throws(InputError) -> Node? {
        do {
            return try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw located(error, file: file, text: text)
        } catch {
            throw InputError(file: file, message: "not valid YAML")
        }
    }

    /// Yams' error as one line at its mark, without the source line Yams quotes (a single-line file is all of it:
    /// a 52 MB file was once echoed whole).
    static func located(_ error: YamlError, file: String, text: String) -> InputError {
        func at(_ mark: Mark?, key: String? = nil, _ message: String) -> InputError {
            at((mark?.line ?? 0, mark?.column ?? 0), key: key, message)
        }
        func at(_ position: (line: Int, column: Int)?, key: String? = nil, _ message: String) -> InputError {
            let position = position.flatMap { $0.line > 0 ? $0 : nil }
            return InputError(file: file, line: position?.line, column: position?.column, key: key, message: message)
        }
        func withContext(_ problem: String, _ context: YamlError.Context?) -> String {
            guard let context else { return "not valid YAML: \(problem)" }
            return "not valid YAML: \(problem) (\(context.text) at \(context.mark.line):\(context.mark.column))"
        }
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _), let .composer(context, problem, mark, _):
            return at(mark, withContext(problem, context))
        case let .reader(problem, offset, value, _):
            let found = value >= 0 ? " (U+\(hex(UInt32(value), width: 4)))" : ""
            return at(offset.flatMap { position(ofCharacter: $0, in: text) }, "not valid YAML: \(problem)\(found)")
        case let .duplicatedKeysInMapping(duplicates, context):
            return at(context.mark, key: duplicates.first.map { InputError.excerpt($0) },
                      "appears more than once in the same mapping (its first occurrence is here)")
        default:
            return InputError(file: file, message: "not valid YAML")
        }
    }

    /// Line and column (in Unicode scalars, as libyaml counts) of the `offset`-th character of `text`.
    private static func position(ofCharacter offset: Int, in text: String) -> (line: Int, column: Int)? {
        guard let end = text.index(text.startIndex, offsetBy: offset, limitedBy: text.endIndex) else { return nil }
        var line = 1, column = 1
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars[..<end] {
            switch scalar {
            case "\n" where previous == "\r": break
            case "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}": line += 1; column = 1
            default: column += 1
            }
            previous = scalar
        }
        return (line, column)
    }
}

extension InputError {
    /// An error about the value at `key`, located at `node` (where that value starts).
    init(file: String, at node: Node?, key: String?, _ message: String) {
        self.init(file: file, line: node?.mark?.line, column: node?.mark?.column, key: key, message: message)
    }
}

/// Typed values out of YAML nodes, each error located at the value: `file:line:column: key 'path': expected …, found …`.
struct YAMLValues {
    let file: String

    func fail(_ node: Node?, _ key: String, _ message: String) -> InputError {
        InputError(file: file, at: node, key: key, message)
    }

    /// What `node` holds, for a message: `'text'` (cut short), `a list` or `a mapping`.
    func found(_ node: Node) -> String {
        switch node {
        case let .scalar(s): "'\(InputError.excerpt(s.string))'"
        case .sequence: "a list"
        case .mapping: "a mapping"
        case .alias: "an alias"
        }
    }

    /// The scalar at `node`; `expected` says what it should be.
    func scalar(_ node: Node, _ key: String, expected: String = "a single value") throws(InputError) -> String {
        guard let s = node.scalar?.string else { throw fail(node, key, "expected \(expected), found \(found(node))") }
        return s
    }

    /// A decimal number scaled by `unit` (`2.5` s with unit 1 000 000 → 2 500 000 µs), exactly, within `range`;
    /// `expected` names it with its limits ("seconds, at most 315360000 (10 years)").
    func amount(_ node: Node, _ key: String, unit: Int, in range: ClosedRange<Int>, expected: String) throws(InputError) -> Int {
        let s = try scalar(node, key, expected: expected)
        let v = Array(s.utf8).withUnsafeBufferPointer { DecimalParser.scaled($0, unit: unit) }
        guard let v, range.contains(v) else { throw fail(node, key, "expected \(expected), found \(found(node))") }
        return v
    }

    /// `true`/`false` (also `yes`/`no`, `1`/`0`).
    func flag(_ node: Node, _ key: String) throws(InputError) -> Bool {
        let s = try scalar(node, key, expected: "true or false")
        guard let v = Array(s.utf8).withUnsafeBufferPointer(DecimalParser.boolean) else {
            throw fail(node, key, "expected true or false, found \(found(node))")
        }
        return v
    }

    /// One of `T`'s raw values.
    func choice<T: RawRepresentable & CaseIterable>(_ node: Node, _ key: String, _ type: T.Type) throws(InputError) -> T
    where T.RawValue == String {
        let expected = "one of: \(T.allCases.map(\.rawValue).joined(separator: ", "))"
        guard let v = T(rawValue: try scalar(node, key, expected: expected)) else { throw fail(node, key, "expected \(expected), found \(found(node))") }
        return v
    }

    /// A key of a mapping as text; `path` is the mapping's own path ("" at the top).
    func keyName(_ node: Node, in path: String) throws(InputError) -> String {
        guard let s = node.scalar?.string else { throw fail(node, path.isEmpty ? "(top)" : path, "expected text keys, found \(found(node))") }
        return s
    }
}
