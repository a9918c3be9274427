import Foundation
import JetsimCore

/// Reads an iOS JetsamEvent report (`.ips`, bug_type 298: a one-line JSON header, then a JSON body;
/// xnu-jetsam.md §10) into a catalog of its apps and a device file.
///
/// Apps: every process that is not a daemon; footprint (dirty) = `rpages` × `pageSize`, purgeable = `purgeable`
/// pages, background modes from `states` (`audio`, `location`). Device: physical memory = the sum of the
/// memory page counts plus the compressor's pages; reserve = wired pages; the per-app limit is the footprint of
/// a process killed for `per-process-limit` when there is one, else an estimate (55 % of RAM).
public enum JetsamEventImporter {
    public struct Result: Sendable {
        public var apps: [AppProfile]
        public var deviceYAML: String
    }

    public static func parse(path: String) throws(InputError) -> Result {
        guard let bytes = readWholeFile(path) else {   // .ips or .ips.gz
            throw InputError(file: path, message: "cannot read the report", exitCode: InputError.noInput)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let newline = text.firstIndex(of: "\n") else { throw InputError(file: path, line: 1, message: "expected a one-line JSON header, then the JSON body") }
        func json(_ s: Substring, line: Int) throws(InputError) -> [String: Any] {
            do {
                guard let object = try JSONSerialization.jsonObject(with: Data(s.utf8)) as? [String: Any] else {
                    throw InputError(file: path, line: line, message: "expected a JSON object")
                }
                return object
            } catch let e as InputError {
                throw e
            } catch {
                throw InputError(file: path, line: line, message: "not valid JSON")
            }
        }
        let header = try json(text[..<newline], line: 1)
        if let bug = header["bug_type"] as? String, bug != "298" {
            throw InputError(file: path, line: 1, field: "bug_type", message: "expected 298 (a JetsamEvent report), found \(bug)")
        }
        let body = try json(text[text.index(after: newline)...], line: 2)
        func int(_ any: Any?) -> Int? { (any as? NSNumber)?.intValue ?? (any as? String).flatMap { Int($0) } }
        guard let status = body["memoryStatus"] as? [String: Any], let pageSize = int(status["pageSize"]), pageSize > 0,
              let pages = status["memoryPages"] as? [String: Any] else {
            throw InputError(file: path, line: 2, field: "memoryStatus", message: "expected pageSize and memoryPages")
        }
        guard let processes = body["processes"] as? [[String: Any]] else {
            throw InputError(file: path, line: 2, field: "processes", message: "expected a list of processes")
        }
        var apps: [AppProfile] = []
        var seen: [String: Int] = [:]
        var limit: Int?
        for p in processes {
            let states = (p["states"] as? [String]) ?? []
            guard !states.contains("daemon"), let name = p["name"] as? String, let rpages = int(p["rpages"]) else { continue }
            let bytes = rpages * pageSize
            if (p["reason"] as? String) == "per-process-limit" { limit = bytes }
            seen[name, default: 0] += 1
            var profile = AppProfile(name: seen[name] == 1 ? name : "\(name)-\(seen[name] ?? 0)", dirtyBytes: bytes)
            profile.maxDirtyBytes = bytes * 2
            profile.purgeableBytes = (int(p["purgeable"]) ?? 0) * pageSize
            if states.contains("audio") { profile.backgroundModes.insert(.audio) }
            if states.contains("location") { profile.backgroundModes.insert(.location) }
            apps.append(profile)
        }
        guard !apps.isEmpty else { throw InputError(file: path, line: 2, field: "processes", message: "no app processes in the report") }
        let counted = ["free", "active", "inactive", "speculative", "throttled", "wired", "purgeable"].compactMap { int(pages[$0]) }.reduce(0, +)
        let physical = (counted + (int(status["compressorSize"]) ?? 0)) * pageSize
        let wired = (int(pages["wired"]) ?? 0) * pageSize
        let product = (body["product"] as? String) ?? "jetsam-report"
        let appLimit = limit ?? physical / 100 * 55
        let yaml = """
        # Device read from the JetsamEvent report \(path) (\(product), build \((body["build"] as? String) ?? "?")).
        # ram_mb = memory pages + compressor pages; reserve_mb = wired pages; app_limit_mb = \(limit == nil ? "an estimate (55 % of RAM)" : "the footprint of the process killed for per-process-limit").
        name: \(product.lowercased().replacingOccurrences(of: ",", with: "-"))
        ram_mb: \(FixedPoint.exactMebibytes(physical))
        reserve_mb: \(FixedPoint.exactMebibytes(wired))
        page_size_kb: \(FixedPoint.exactMebibytes(pageSize * 1024))
        app_limit_mb: \(FixedPoint.exactMebibytes(appLimit))

        """
        return Result(apps: apps, deviceYAML: yaml)
    }
}
