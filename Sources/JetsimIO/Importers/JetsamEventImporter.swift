import Foundation
import JetsimCore

/// Reads an iOS JetsamEvent report (`.ips`, bug_type 298: a one-line JSON header, then a JSON body;
/// xnu-jetsam.md §10) into a catalog of its apps and a device file.
///
/// Apps: every process that is not a daemon; footprint (dirty) = `rpages` × `pageSize`, purgeable = `purgeable`
/// pages, background modes from `states` (`audio`, `location`). Device: physical memory = the sum of the
/// memory page counts plus the compressor's pages; reserve = wired pages; the per-app limit is the footprint of
/// a process killed for `per-process-limit` when there is one, else an estimate (55 % of RAM).
///
/// Limits, each refused with the field that breaks it: `pageSize` 1 … 1 MiB; page counts whole numbers ≥ 0
/// (a negative count is refused, not clamped: it can only come from a damaged or edited report, and a clamped 0
/// would silently simulate an app with no memory); every size and the sum of the memory pages at most 1 PiB.
/// Process names are trimmed of spaces and must not be blank; repeated names get `-2`, `-3`…; the device must be
/// one Jetsim accepts. LF or CRLF line ends; a UTF-8 byte-order mark at the start is skipped.
public enum JetsamEventImporter {
    public struct Result: Sendable {
        public var apps: [AppProfile]
        public var deviceYAML: String
    }

    /// Largest `pageSize` accepted, bytes.
    public static let maxPageSize = 1 << 20

    public static func parse(path: String) throws(InputError) -> Result {
        guard let bytes = readWholeFile(path) else {   // .ips or .ips.gz
            throw InputError(file: path, message: "cannot read the report", exitCode: InputError.noInput)
        }
        return try parse(bytes: bytes, name: path)
    }

    /// The same over a report's bytes in memory (`name` stands for the file in messages); reads and writes no file.
    public static func parse(bytes input: [UInt8], name path: String) throws(InputError) -> Result {
        var bytes = input[...]
        if bytes.starts(with: CSVReader.byteOrderMark) { bytes = bytes.dropFirst(3) }
        guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else {
            throw InputError(file: path, line: 1, message: "expected a one-line JSON header, then the JSON body")
        }
        func json(_ s: ArraySlice<UInt8>, line: Int) throws(InputError) -> [String: Any] {
            do {
                guard let object = try JSONSerialization.jsonObject(with: Data(s)) as? [String: Any] else {
                    throw InputError(file: path, line: line, message: "expected a JSON object")
                }
                return object
            } catch let e as InputError {
                throw e
            } catch {
                throw InputError(file: path, line: line, message: "not valid JSON")
            }
        }
        let header = try json(bytes[..<newline], line: 1)   // a CR before the LF is JSON whitespace
        if let bug = header["bug_type"] as? String, bug != "298" {
            throw InputError(file: path, line: 1, field: "bug_type", message: "expected 298 (a JetsamEvent report), found \(InputError.excerpt(bug))")
        }
        let body = try json(bytes[bytes.index(after: newline)...], line: 2)
        func fail(_ field: String, _ message: String) -> InputError { InputError(file: path, line: 2, field: field, message: message) }
        /// A whole number ≥ 0 (JSON number or decimal string), nil when absent.
        func count(_ any: Any?, _ field: String) throws(InputError) -> Int? {
            guard let any, !(any is NSNull) else { return nil }
            var value: Int?
            var found = "\(any)"
            if let n = any as? NSNumber, String(cString: n.objCType) == "c" {   // "c": a JSON true or false
                found = n.boolValue ? "true" : "false"
            } else if any is NSNumber {
                value = any as? Int                                              // only when exactly an integer
            } else if let s = any as? String {
                value = Int(s)
            }
            guard let value else { throw fail(field, "expected a whole number, found '\(InputError.excerpt(found))'") }
            guard value >= 0 else { throw fail(field, "must not be negative, found \(value)") }
            return value
        }
        guard let status = body["memoryStatus"] as? [String: Any], status["pageSize"] != nil,
              let pages = status["memoryPages"] as? [String: Any] else {
            throw fail("memoryStatus", "expected pageSize and memoryPages")
        }
        guard let pageSize = try count(status["pageSize"], "memoryStatus.pageSize"), pageSize >= 1, pageSize <= maxPageSize else {
            throw fail("memoryStatus.pageSize", "expected a page size of 1 to \(maxPageSize) bytes, found '\(InputError.excerpt("\(status["pageSize"] ?? "")"))'")
        }
        /// `pages` × `pageSize` in bytes, at most 1 PiB.
        func size(_ pages: Int, _ field: String) throws(InputError) -> Int {
            let (bytes, overflow) = pages.multipliedReportingOverflow(by: pageSize)
            guard !overflow, bytes <= DecimalParser.maxBytes else {
                throw fail(field, "\(pages) pages of \(pageSize) bytes exceed 1 PiB")
            }
            return bytes
        }
        guard let processes = body["processes"] as? [[String: Any]] else {
            throw fail("processes", "expected a list of processes")
        }
        var apps: [AppProfile] = []
        var taken = Set<String>()          // as Jetsim's catalog reader compares names
        var repeats: [String: Int] = [:]
        var limit: Int?
        for (k, p) in processes.enumerated() {
            let states = (p["states"] as? [String]) ?? []
            let field = "processes[\(k)]"
            guard !states.contains("daemon"), let rawName = p["name"] as? String,
                  let rpages = try count(p["rpages"], field + ".rpages") else { continue }
            let name = rawName.trimmingSpaces   // as apps.csv is read back
            guard !name.isEmpty else { throw fail(field + ".name", "the process name is blank") }
            let bytes = try size(rpages, field + ".rpages")
            if (p["reason"] as? String) == "per-process-limit" { limit = bytes }
            var unique = name
            while taken.contains(unique) {
                let n = (repeats[name] ?? 1) + 1
                repeats[name] = n
                unique = "\(name)-\(n)"
            }
            taken.insert(unique)
            var profile = AppProfile(name: unique, dirtyBytes: bytes)
            profile.maxDirtyBytes = min(bytes * 2, DecimalParser.maxBytes)
            profile.purgeableBytes = try size(count(p["purgeable"], field + ".purgeable") ?? 0, field + ".purgeable")
            if states.contains("audio") { profile.backgroundModes.insert(.audio) }
            if states.contains("location") { profile.backgroundModes.insert(.location) }
            apps.append(profile)
        }
        guard !apps.isEmpty else { throw fail("processes", "no app processes in the report") }
        var counted = 0
        for key in ["free", "active", "inactive", "speculative", "throttled", "wired", "purgeable"] {
            guard let n = try count(pages[key], "memoryStatus.memoryPages.\(key)") else { continue }
            _ = try size(n, "memoryStatus.memoryPages.\(key)")
            counted += n                                          // each term and each sum below 1 PiB: no overflow
            _ = try size(counted, "memoryStatus.memoryPages")
        }
        let compressor = try count(status["compressorSize"], "memoryStatus.compressorSize") ?? 0
        guard compressor <= DecimalParser.maxBytes else { throw fail("memoryStatus.compressorSize", "\(compressor) pages exceed 1 PiB") }
        let physical = try size(counted + compressor, "memoryStatus")
        let wired = try size(count(pages["wired"], "memoryStatus.memoryPages.wired") ?? 0, "memoryStatus.memoryPages.wired")
        let product = (body["product"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? "jetsam-report"
        let build = (body["build"] as? String) ?? "?"
        let appLimit = limit ?? physical / 100 * 55
        let yaml = """
        # Device read from the JetsamEvent report \(commentText(path)) (\(commentText(product)), build \(commentText(build))).
        # ram_mb = memory pages + compressor pages; reserve_mb = wired pages; app_limit_mb = \(limit == nil ? "an estimate (55 % of RAM)" : "the footprint of the process killed for per-process-limit").
        name: \(yamlQuoted(product.lowercased().replacingOccurrences(of: ",", with: "-")))
        ram_mb: \(FixedPoint.exactMebibytes(physical))
        reserve_mb: \(FixedPoint.exactMebibytes(wired))
        page_size_kb: \(FixedPoint.exactMebibytes(pageSize * 1024))
        app_limit_mb: \(FixedPoint.exactMebibytes(appLimit))

        """
        // What is written must be what Jetsim reads: the device file's own checks, reported against the report.
        do {
            _ = try DeviceFile.parse(yaml, file: path)
        } catch {
            throw fail("memoryStatus", "the report does not describe a device Jetsim can simulate: \(error.message)")
        }
        return Result(apps: apps, deviceYAML: yaml)
    }

    /// `text` as a YAML double-quoted scalar: quotes, backslashes, line breaks (U+2028 and U+2029 too) and every
    /// character YAML does not print, escaped.
    static func yamlQuoted(_ text: String) -> String {
        var out = "\""
        for c in text.unicodeScalars {
            switch c.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x2028, 0x2029: out += "\\u" + hex(c.value, digits: 4)
            case 0x20...0x7E, 0xA0...0xD7FF, 0xE000...0xFEFE, 0xFF00...0xFFFD, 0x10000...0x10FFFF: out.unicodeScalars.append(c)
            default: out += c.value <= 0xFFFF ? "\\u" + hex(c.value, digits: 4) : "\\U" + hex(c.value, digits: 8)
            }
        }
        return out + "\""
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let s = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - s.count)) + s
    }

    /// `text` inside a YAML comment: anything that could end the line becomes a space.
    static func commentText(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for c in text.unicodeScalars {
            let printable = (0x20...0x7E).contains(c.value) || (c.value >= 0xA0 && c.value != 0x2028 && c.value != 0x2029 && c.value != 0xFEFF)
            out.append(printable ? c : " ")
        }
        return String(out)
    }
}
