import JetsimRealMemory
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The allocator facts real-memory mode is built on, checked against the jemalloc this machine links.
@Suite(.serialized, .enabled(if: Jemalloc.unavailableReason == nil, "jemalloc cannot be loaded in this process: install libjemalloc2 and run with GLIBC_TUNABLES=glibc.rtld.optional_static_tls=16384 (README: Real-memory mode)")) struct ArenaTests {
    struct Statistics: Equatable { var active: Int; var dirty: Int; var resident: Int }

    func statistics(_ arena: Arena) throws -> Statistics {
        Jemalloc.refreshStatistics()
        return Statistics(active: try Jemalloc.read("stats.arenas.\(arena.index).pactive"),
                          dirty: try Jemalloc.read("stats.arenas.\(arena.index).pdirty"),
                          resident: try Jemalloc.read("stats.arenas.\(arena.index).resident"))
    }

    func fill(_ arena: Arena, pages: Int, page: Int) throws -> [UnsafeMutableRawPointer] {
        try (0..<pages).map { _ in try #require(arena.allocateTouched(page)) }
    }

    @Test func theLoadedJemallocHasStatistics() throws {
        try Jemalloc.checkCapabilities()
        #expect(try Jemalloc.read("config.stats", as: Bool.self))
        #expect(Jemalloc.version.hasPrefix("5."))
        #expect(try Jemalloc.pageSize() >= 4096)
    }

    @Test func aPageSizedAllocationIsExactlyOnePageOfItsOwn() throws {
        let page = try Jemalloc.pageSize()
        let arena = try Arena.create()
        defer { try? arena.destroy() }
        let chunks = try fill(arena, pages: 300, page: page)
        #expect(try statistics(arena).active == 300)
        for chunk in chunks { arena.free(chunk) }
    }

    @Test func aPurgeAfterFreeingLowersDirtyPagesAndResidentBytes() throws {
        let page = try Jemalloc.pageSize()
        let arena = try Arena.create()
        defer { try? arena.destroy() }
        let chunks = try fill(arena, pages: 2048, page: page)
        let full = try statistics(arena)
        for chunk in chunks.prefix(1024) { arena.free(chunk) }
        let freed = try statistics(arena)
        #expect(freed.active == 1024)
        #expect(freed.dirty == 1024)               // freed pages stay with the allocator (decay is off)
        #expect(freed.resident == full.resident)   // and still resident
        try arena.purge()
        let purged = try statistics(arena)
        #expect(purged.dirty == 0)
        #expect(purged.resident <= full.resident - 1024 * page)
        for chunk in chunks.dropFirst(1024) { arena.free(chunk) }
    }

    @Test func resettingAndPurgingAnArenaReturnsEveryPage() throws {
        let page = try Jemalloc.pageSize()
        let arena = try Arena.create()
        defer { try? arena.destroy() }
        _ = try fill(arena, pages: 1024, page: page)
        let full = try statistics(arena)
        try arena.reset()
        try arena.purge()
        let empty = try statistics(arena)
        #expect(empty.active == 0 && empty.dirty == 0)
        #expect(empty.resident <= full.resident - 1024 * page)
    }

    /// Pages of `chunks` the kernel has in RAM (`mincore`; an unmapped page is not resident). Per page, so the resident
    /// set of the rest of the process does not count; but jemalloc may hand a destroyed arena's addresses to another
    /// arena, so the real-memory suites run one at a time (`swift test --no-parallel`, .ci/run).
    func residentPages(_ chunks: [UnsafeMutableRawPointer], page: Int) -> Int {
        var flag: UInt8 = 0
        return chunks.filter { mincore($0, page, &flag) == 0 && flag & 1 == 1 }.count
    }

    /// Creating an arena and filling it takes memory from the system; destroying it gives every page back.
    @Test func creatingAndDestroyingAnArenaTakesAndReturnsMemory() throws {
        let page = try Jemalloc.pageSize()
        let pages = (64 << 20) / page
        let arena = try Arena.create()
        let chunks = try fill(arena, pages: pages, page: page)
        #expect(residentPages(chunks, page: page) == pages)
        #expect(try statistics(arena).resident >= pages * page)
        try arena.destroy()
        #expect(residentPages(chunks, page: page) == 0)
    }

    @Test func resetAndPurgeTakePagesOutOfRAM() throws {
        let page = try Jemalloc.pageSize()
        let arena = try Arena.create()
        defer { try? arena.destroy() }
        let chunks = try fill(arena, pages: 4096, page: page)
        try arena.reset()
        #expect(residentPages(chunks, page: page) == 4096)   // freed, but dirty: still in RAM
        try arena.purge()
        #expect(residentPages(chunks, page: page) == 0)
    }
}
