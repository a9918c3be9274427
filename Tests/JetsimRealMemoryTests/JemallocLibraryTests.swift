@testable import JetsimRealMemory
import Testing

/// jemalloc is found at run time, not linked: what happens when it is absent, and the flags Swift computes in
/// place of jemalloc.h's macros.
@Suite struct JemallocLibraryTests {
    @Test func aMissingLibraryIsReportedWithWhatToInstall() throws {
        guard case .missing(let detail) = JemallocLibrary.open(names: ["libjemalloc-absent.so.9"]) else {
            Issue.record("an absent library name loaded")
            return
        }
        #expect(detail.contains("libjemalloc-absent.so.9"))
        #expect(JemallocLibrary.installHint.contains("apt-get install libjemalloc2"))
    }

    @Test func aLibraryWithoutJemallocsEntryPointsIsRefused() throws {
        // zlib is on every machine that builds Jetsim and has no mallocx.
        guard case .missing(let detail) = JemallocLibrary.open(names: ["libz.so.1"]) else {
            Issue.record("libz.so.1 was taken for jemalloc")
            return
        }
        #expect(detail.contains("lacks jemalloc's"), "\(detail)")
    }

    /// `MALLOCX_ARENA(a)` is `((int)(((unsigned)(a))+1) << 20)`, `MALLOCX_TCACHE_NONE` is `MALLOCX_TCACHE(-1)`,
    /// `((int)(((-1)+2) << 8))` (jemalloc.h 5.3).
    @Test func arenaFlagsAreJemallocHsMacros() {
        for index: UInt32 in [0, 1, 9, 4095] {
            #expect(jemallocArenaFlags(index) == Int32((index + 1) << 20) | 0x100)
        }
    }

    @Test(.enabled(if: Jemalloc.unavailableReason == nil, "jemalloc cannot be loaded in this process"))
    func aLoadedLibraryAnswersItsControls() throws {
        #expect(Jemalloc.version.hasPrefix("5."))
        let arena = try Arena.create()
        defer { try? arena.destroy() }
        let pointer = try #require(arena.allocateTouched(4096))
        arena.free(pointer)
    }
}
