import Foundation
import Testing

/// Every CSV Jetsim writes is plain RFC 4180, header first (issue 20: `#` lines made pandas see one column).
@Suite struct PlainCSVTests {
    /// Records of `text` by RFC 4180 alone: fields separated by commas, quoted fields with `""` escapes and line breaks,
    /// records ending in LF or CRLF. Fails on anything else (a quote inside an unquoted field, an unclosed quote).
    static func strictRecords(_ text: String, file: String) throws -> [[String]] {
        struct Malformed: Error, CustomStringConvertible { var description: String }
        var records: [[String]] = [], record: [String] = [], field = "", quoted = false, atFieldStart = true
        var chars = Array(text.unicodeScalars)[...]
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" { chars.removeFirst(); field.unicodeScalars.append(c) } else { quoted = false }
                } else { field.unicodeScalars.append(c) }
                continue
            }
            switch c {
            case "\"":
                guard atFieldStart else { throw Malformed(description: "\(file): a quote inside an unquoted field") }
                quoted = true
                atFieldStart = false
            case ",":
                record.append(field); field = ""; atFieldStart = true
            case "\r" where chars.first == "\n":
                break
            case "\n":
                record.append(field); records.append(record); record = []; field = ""; atFieldStart = true
            default:
                field.unicodeScalars.append(c); atFieldStart = false
            }
        }
        guard !quoted else { throw Malformed(description: "\(file): an unclosed quote") }
        if !record.isEmpty || !field.isEmpty { record.append(field); records.append(record) }
        return records
    }

    @Test func everyCSVJetsimWritesIsPlainWithTheHeaderFirst() throws {
        let dir = try scratch()
        let intervals = dir + "/usage.csv"
        try "user,start,end,app\na,1700000000000,1700000060000,#1 Tracker\na,1700000070000,1700000090000,\"Mail, Pro\"\na,oops,1,x\n"
            .write(toFile: intervals, atomically: true, encoding: .utf8)
        let libcachesim = try CacheSimCommandTests.trace(in: dir)
        let commands: [[String]] = [
            ["generate", "--users", "2", "--days", "1", "--out", dir + "/gen"],
            ["import", "intervals", intervals, "--out", dir + "/imp", "--skip-bad"],
            ["run", "--device", "iphone-x", "--apps", dir + "/imp/apps.csv", "--trace", dir + "/imp/trace.csv", "--out", dir + "/imp-run", "--events", "--quiet"],
            ["run", "--device", "iphone-x", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--out", dir + "/run", "--events", "--quiet"],
            ["compare", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--policies", "xnu,lru", "--devices", "iphone-x",
             "--interval", "6h", "--out", dir + "/cmp", "--quiet"],
            ["cachesim", "--trace", libcachesim, "--capacity", "20000,40000", "--policy", "lru,fifo", "--out", dir + "/cache", "--quiet"],
        ]
        var checked = 0
        for args in commands {
            let r = try CLI.run(args)
            #expect(r.status == 0, "\(args[0]): \(r.stderr)")
        }
        for sub in ["gen", "imp", "imp-run", "run", "cmp", "cache"] {
            for name in files(in: dir + "/" + sub) where name.hasSuffix(".csv") {
                let text = try String(contentsOfFile: "\(dir)/\(sub)/\(name)", encoding: .utf8)
                let records = try Self.strictRecords(text, file: "\(sub)/\(name)")
                let header = try #require(records.first, "\(sub)/\(name) is empty")
                #expect(!header[0].hasPrefix("#") && header.allSatisfy { !$0.isEmpty } && Set(header).count == header.count,
                        "\(sub)/\(name): the first record is not a header: \(header)")
                for (k, record) in records.enumerated() where record.count != header.count {
                    Issue.record("\(sub)/\(name): record \(k + 1) has \(record.count) fields, the header \(header.count)")
                }
                #expect(!text.contains("\n#"), "\(sub)/\(name): a comment line")
                checked += 1
            }
        }
        #expect(checked >= 14, "\(checked) files checked")
        // An app whose name starts with '#' survives import and run: quoted, it is not a comment.
        let apps = try Self.strictRecords(String(contentsOfFile: dir + "/imp/apps.csv", encoding: .utf8), file: "apps.csv")
        #expect(apps.dropFirst().map { $0[0] } == ["#1 Tracker", "Mail, Pro"])
        #expect(try String(contentsOfFile: dir + "/imp/apps.csv", encoding: .utf8).contains("\n\"#1 Tracker\","))
    }
}
