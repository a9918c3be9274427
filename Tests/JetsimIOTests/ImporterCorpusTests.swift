import Foundation
@testable import JetsimCore
@testable import JetsimIO
import Testing

/// Replays `Tests/FuzzCorpus/<kind>/` through the in-memory entry points (Tests/FuzzCorpus/README.md): `ok-` inputs
/// import and read back with Jetsim's own readers; `bad-` inputs are located errors, never traps.
@Suite struct ImporterCorpusTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path + "/FuzzCorpus"

    static func inputs(_ kind: String) throws -> [(name: String, bytes: [UInt8])] {
        let names = try FileManager.default.contentsOfDirectory(atPath: root + "/" + kind).sorted()
        return try names.map { ($0, Array(try Data(contentsOf: URL(fileURLWithPath: root + "/" + kind + "/" + $0)))) }
    }

    func check(_ kind: String, _ replay: (_ bytes: [UInt8], _ name: String) throws -> Void) throws {
        let inputs = try Self.inputs(kind)
        #expect(inputs.contains { $0.name.contains("ok") } && inputs.contains { $0.name.contains("bad-") })
        for (name, bytes) in inputs {
            do {
                try replay(bytes, kind + "/" + name)
                #expect(!name.contains("bad-"), "\(kind)/\(name) was accepted")
            } catch let e as InputError {
                #expect(name.contains("bad-"), "\(kind)/\(name): \(e)")
                #expect(e.exitCode == InputError.dataError && e.line != nil && e.description.hasPrefix(kind + "/" + name), "\(e)")
                #expect(!e.description.contains("\n") && e.description.count < 400, "\(e)")
            }
        }
    }

    @Test func intervals() throws {
        try check("intervals") { bytes, name in
            let writer = ImportWriter(inMemory: name, format: "intervals")
            try IntervalsImporter.run(bytes: bytes, name: name, writer: writer)
            try writer.commit()
            _ = try readBack(writer.output ?? ("", ""))
        }
    }

    @Test func lsapp() throws {
        try check("lsapp") { bytes, name in
            let writer = ImportWriter(inMemory: name, format: "lsapp")
            try LSAppImporter.run(bytes: bytes, name: name, writer: writer)
            try writer.commit()
            _ = try readBack(writer.output ?? ("", ""))
        }
    }

    @Test func jetsamEventReports() throws {
        try check("ips") { bytes, name in
            let r = try JetsamEventImporter.parse(bytes: bytes, name: name)
            let s = try Scratch()
            let catalog = try CatalogFile.read(path: try s.write("apps.csv", WorkloadFiles.catalogCSV(r.apps)))
            #expect(catalog.profiles.map(\.name) == r.apps.map(\.name))
            _ = try DeviceFile.parse(r.deviceYAML, file: name)
        }
    }

    @Test func chartTables() throws {
        try check("chart") { bytes, name in
            let page = try ChartReport.html(csv: bytes, name: name)
            #expect(page.contains("<svg"))
        }
    }
}
