import Foundation
import JetsimCore
@testable import JetsimIO
import Testing

/// Inputs as cache-simulator users bring them: zstd and other compressions, libCacheSim's oracleGeneral binary
/// traces, sizes in GB or GiB, real files' own column names.
@Suite struct HabitsInputTests {
    static let rows: [(time: UInt32, id: UInt64, size: UInt32)] = (0..<500).map { (k: Int) -> (time: UInt32, id: UInt64, size: UInt32) in
        let object = k * 7919 % 37
        return (UInt32(k / 3), UInt64(object) + 1_000_000_000_000, UInt32(100 + object * 11))
    }

    static var csv: String { "time,obj_id,obj_size\n" + rows.map { "\($0.time),\($0.id),\($0.size)\n" }.joined() }

    /// The rows as oracleGeneral records: {uint32 time; uint64 id; uint32 size; int64 next_access_vtime} little-endian.
    static func oracleGeneral(_ rows: [(time: UInt32, id: UInt64, size: UInt32)]) -> [UInt8] {
        var out: [UInt8] = []
        for r in rows {
            withUnsafeBytes(of: r.time.littleEndian) { out += $0 }
            withUnsafeBytes(of: r.id.littleEndian) { out += $0 }
            withUnsafeBytes(of: r.size.littleEndian) { out += $0 }
            withUnsafeBytes(of: Int64(-1).littleEndian) { out += $0 }
        }
        return out
    }

    static func requests(_ path: String, format: LibCacheSimFormat = .csv) throws(InputError) -> [[Int]] {
        let stream = try LibCacheSimStream(path: path, format: format, bufferSize: 100)
        var batch = RequestBatch(capacity: 7)
        var out: [[Int]] = []
        while try stream.next(into: &batch) {
            for k in 0..<batch.count { out.append([Int(batch.objects[k]), batch.sizes[k], batch.times[k]]) }
        }
        return out
    }

    /// The input error `body` throws (nil when it throws none; any other error is an issue).
    static func error(_ body: () throws -> Void) -> InputError? {
        do { try body() } catch let error as InputError { return error } catch { Issue.record(error) }
        return nil
    }

    @Test func oracleGeneralRecordsReadAsTheSameTraceInCSV() throws {
        let s = try Scratch()
        let csv = try s.write("t.csv", Self.csv)
        let binary = s.path + "/t.oracleGeneral.bin"
        try Data(Self.oracleGeneral(Self.rows)).write(to: URL(fileURLWithPath: binary))
        #expect(LibCacheSimFormat.named(path: binary) == .oracleGeneral)
        #expect(LibCacheSimFormat.named(path: "w44.oracleGeneral.zst") == .oracleGeneral)
        #expect(LibCacheSimFormat.named(path: csv) == .csv)
        #expect(LibCacheSimFormat(option: "oracleGeneralBin") == .oracleGeneral)
        let fromCSV = try Self.requests(csv)
        #expect(fromCSV.count == Self.rows.count)
        #expect(try Self.requests(binary, format: .oracleGeneral) == fromCSV)
    }

    @Test func aBadRecordIsNamedByItsNumberAndByteOffset() throws {
        let s = try Scratch()
        let bytes = Self.oracleGeneral(Self.rows)
        let truncated = s.path + "/cut.bin"
        try Data(bytes.prefix(24 * 41 + 16)).write(to: URL(fileURLWithPath: truncated))
        let cut = Self.error { _ = try Self.requests(truncated, format: .oracleGeneral) }
        #expect(cut?.description.contains("record 42 (byte offset 984): 16 of its 24 bytes") == true, "\(String(describing: cut))")
        var rows = Self.rows
        rows[9].size = 0
        let zero = s.path + "/zero.bin"
        try Data(Self.oracleGeneral(rows)).write(to: URL(fileURLWithPath: zero))
        let e = Self.error { _ = try Self.requests(zero, format: .oracleGeneral) }
        #expect(e?.field == "obj_size" && e?.message.hasPrefix("record 10 (byte offset 216): a zero-size request") == true, "\(String(describing: e))")
        #expect(e?.exitCode == InputError.dataError)
    }

    @Test func zstdReadsBackAsThePlainFile() throws {
        guard let zstd = ZstdLibrary.shared else {
            print("skipped: libzstd is not installed (\(ZstdLibrary.installHint))")
            return
        }
        let s = try Scratch()
        let plain = try s.write("t.csv", Self.csv)
        let compressed = try #require(zstd.compress(Array(Self.csv.utf8)))
        // Two frames back to back are one stream, as the zstd tool reads them.
        let zst = s.path + "/t.csv.zst"
        try Data(compressed + (try #require(zstd.compress(Array("# more\n".utf8))))).write(to: URL(fileURLWithPath: zst))
        #expect(try readWholeFile(checking: zst) == Array((Self.csv + "# more\n").utf8))
        #expect(try Self.requests(zst) == (try Self.requests(plain)))
        let reader = try CSVReader(path: zst)
        var rows = 0
        while try reader.nextRow() { rows += 1 }
        #expect(rows == Self.rows.count + 1)
        // Cut short, or damaged: an error, never a shorter file.
        let cut = s.path + "/cut.csv.zst"
        try Data(compressed.prefix(compressed.count - 5)).write(to: URL(fileURLWithPath: cut))
        #expect(Self.error { _ = try readWholeFile(checking: cut) }?.message.contains("zstd data is truncated") == true)
        var damaged = compressed
        damaged[damaged.count / 2] ^= 0xff
        damaged[damaged.count / 2 + 1] ^= 0xff
        let bad = s.path + "/bad.csv.zst"
        try Data(damaged).write(to: URL(fileURLWithPath: bad))
        let e = Self.error { _ = try readWholeFile(checking: bad) }
        #expect(e?.message.contains("zstd data is") == true && e?.exitCode == InputError.dataError, "\(String(describing: e))")
    }

    @Test func withoutLibzstdAZstdFileSaysWhatToInstall() throws {
        #expect(ZstdLibrary.open(names: ["libzstd-not-here.so.9"]) == nil)
        let s = try Scratch()
        let path = try s.write("t.zst", "x")
        let fd = open(path, O_RDONLY)
        let e = Self.error { _ = try ZstdReader(fd: fd, name: "t.zst", library: nil) }
        #expect(e?.exitCode == 69 && e?.message.contains("apt-get install libzstd1") == true, "\(String(describing: e))")
    }

    @Test func otherCompressionsAreRefusedByTheirMagicBytes() throws {
        let s = try Scratch()
        for (name, magic, tool) in [("t.xz", [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 1, 2] as [UInt8], "xz -d"), ("t.bz2", Array("BZh91AY".utf8), "bzip2 -d"),
                                    ("t.csv", [0x04, 0x22, 0x4d, 0x18, 0, 0], "lz4 -d")] {
            let path = s.path + "/" + name
            try Data(magic).write(to: URL(fileURLWithPath: path))
            let e = Self.error { _ = try CSVReader(path: path) }
            #expect(e?.message.contains("compressed; Jetsim reads plain, gzip (.gz) and zstd (.zst)") == true && e?.message.contains(tool) == true,
                    "\(name): \(String(describing: e))")
            #expect(e?.exitCode == InputError.dataError)
        }
        #expect(InputFile.Compression(magic: [0x1f, 0x8b, 8]) == .gzip)
        #expect(InputFile.Compression(magic: [0x28, 0xb5, 0x2f, 0xfd]) == .zstd)
        #expect(InputFile.Compression(magic: Array("time,obj".utf8)) == InputFile.Compression.none)
    }

    @Test func sizesTakeEitherUnitInAnyCaseAndDecimalOnesAreNoted() {
        #expect(DeviceSource.parseCapacity("2GiB") == 2 << 30)
        #expect(DeviceSource.parseCapacity("2gib") == 2 << 30)
        #expect(DeviceSource.parseCapacity("1.5GB") == 1_500_000_000)
        #expect(DeviceSource.parseCapacity("1.5gb") == 1_500_000_000)
        #expect(DeviceSource.parseCapacity("512mb") == 512_000_000)
        #expect(DeviceSource.parseCapacity("4KiB") == 4096)
        #expect(DeviceSource.parseCapacity("100b") == 100)
        #expect(DeviceSource.decimalUnitNote(option: "--capacity", sizes: ["2GiB", "1000", "512MiB"]) == nil)
        let note = DeviceSource.decimalUnitNote(option: "--capacity", sizes: ["2GiB", "1.5GB", "10kb"]) ?? ""
        #expect(note.contains("1.5GB = 1500000000 bytes, 10kb = 10000 bytes") && note.contains("libCacheSim reads GB as GiB"), "\(note)")
        #expect(!note.contains("2GiB"))
    }

    @Test func intervalsAndLSAppReadAFilesOwnColumnNames() throws {
        let own = "participant,package,ignored,begin,finish\nu1,Maps,x,2024-01-05T10:00:00Z,2024-01-05T10:01:00Z\n"
        let canonical = "user,start,end,app\nu1,2024-01-05T10:00:00Z,2024-01-05T10:01:00Z,Maps\n"
        let columns = try ImportColumns(parsing: "user=participant,start=BEGIN,end=finish,app=package", format: .intervals)
        let mapped = try imported(intervals: own, columns: columns)
        #expect(mapped.trace == (try imported(intervals: canonical)).trace)
        let unmapped = Self.error { _ = try imported(intervals: own) }
        #expect(unmapped?.line == 1 && unmapped?.message.contains("no column 'user', 'start', 'end', 'app'") == true, "\(String(describing: unmapped))")
        #expect(Self.error { _ = try ImportColumns(parsing: "usr=who", format: .intervals) }?.message.contains("unknown field 'usr'") == true)
        #expect(Self.error { _ = try ImportColumns(parsing: "user=a,user=b", format: .intervals) }?.exitCode == InputError.usage)

        let lsOwn = "when\tuid\tsession\tevent\tpackage\n1515000000000\t1\ts\tOpened\tMaps\n1515000060000\t1\ts\tClosed\tMaps\n"
        let lsCanonical = "1\ts\t1515000000000\tMaps\tOpened\n1\ts\t1515000060000\tMaps\tClosed\n"
        let lsColumns = try ImportColumns(parsing: "user_id=uid,session_id=session,timestamp=when,app_name=package,event_type=event", format: .lsapp)
        #expect(try imported(lsapp: lsOwn, columns: lsColumns).trace == (try imported(lsapp: lsCanonical)).trace)
    }
}

private func imported(intervals text: String, columns: ImportColumns = .intervals) throws(InputError) -> (trace: String, apps: String) {
    let writer = ImportWriter(inMemory: "iv.csv")
    try IntervalsImporter.run(bytes: Array(text.utf8), name: "iv.csv", writer: writer, timeUnit: .milliseconds, columns: columns)
    try writer.commit()
    return writer.output ?? ("", "")
}

private func imported(lsapp text: String, columns: ImportColumns = .lsapp) throws(InputError) -> (trace: String, apps: String) {
    let writer = ImportWriter(inMemory: "ls.tsv")
    try LSAppImporter.run(bytes: Array(text.utf8), name: "ls.tsv", writer: writer, timeUnit: .milliseconds, columns: columns)
    try writer.commit()
    return writer.output ?? ("", "")
}
