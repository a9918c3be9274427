import Foundation
@testable import JetsimIO
import Testing

@Suite struct SHA256Tests {
    /// FIPS 180-2's examples (Appendix B, and the one-block, two-block and long messages of the NIST test vectors).
    @Test func theStandardsExamplesHashToTheirDigests() {
        let cases: [(String, String)] = [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
             "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
            ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
             "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
        ]
        for (message, digest) in cases {
            #expect(SHA256.hex(SHA256.hash(Array(message.utf8))) == digest, "\(message)")
        }
        #expect(SHA256.hex(SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Every length across the padding's boundaries (55, 56, 63, 64 bytes modulo 64), given whole and in pieces of
    /// every size from 1 to 70: the same digest, whatever the pieces.
    @Test func piecesOfAnySizeGiveTheWholeMessagesDigest() {
        for length in [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 200] {
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let whole = SHA256.hash(message)
            for piece in 1...70 {
                var hasher = SHA256()
                var start = 0
                while start < length {
                    let end = min(length, start + piece)
                    hasher.update(Array(message[start..<end]))
                    start = end
                }
                #expect(hasher.finalize() == whole, "length \(length), pieces of \(piece)")
            }
        }
    }

    /// A file hashed by `CompareReports.sha256(path:)` (streamed in 1 MiB reads) gives what coreutils' `sha256sum`
    /// prints for it: 1 MiB and 77 bytes of varied content, two reads, the second ending mid-block.
    @Test func aFilesDigestIsSha256sums() throws {
        let tool = ["/usr/bin/sha256sum", "/bin/sha256sum"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let tool else {
            print("SHA256Tests: no sha256sum here; the file's digest is not compared with coreutils'")
            return
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("jetsim-sha256-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var state: UInt64 = 0x9e37_79b9_7f4a_7c15
        let bytes = (0..<(1 << 20) + 77).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = [path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let expected = printed.split(separator: " ").first.map(String.init)
        #expect(expected?.count == 64)
        #expect(try CompareReports.sha256(path: path) == expected)
        #expect(CompareReports.sha256(bytes: bytes) == expected)
    }

    /// A directory or a missing file given where a file's digest is asked (`compare` hashes its trace while it reads
    /// it, so the hash may meet a bad path first) is one located refusal, exit 66, not a trap.
    @Test func aPathThatIsNoFileIsRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jetsim-sha256-dir-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (path, says) in [(directory, "is a directory"), (directory + "/absent.csv", "cannot read")] {
            do {
                _ = try CompareReports.sha256(path: path)
                Issue.record("\(path) was hashed")
            } catch {
                #expect(error.file == path)
                #expect(error.exitCode == InputError.noInput)
                #expect(error.message.contains(says), "\(error.message)")
            }
        }
    }
}
