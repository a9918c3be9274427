import JetsimRealMemory
import Testing

/// The allocator facts real-memory mode is built on, checked against the jemalloc this machine links.
@Suite(.serialized) struct ArenaTests {
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

    @Test func theLinkedJemallocHasStatisticsAndNoPrefix() throws {
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

    /// Arena creation takes memory from the system and destruction gives it back: the process's resident set
    /// (read from /proc/self/statm) rises and falls by the arena's 256 MiB. Other suites run concurrently, so the
    /// margin is a quarter of it.
    @Test func creatingAndDestroyingAnArenaMovesTheProcessResidentSet() throws {
        let page = try Jemalloc.pageSize()
        let size = 256 << 20, margin = 64 << 20
        let before = try #require(ProcessMemory.residentBytes())
        let arena = try Arena.create()
        _ = try fill(arena, pages: size / page, page: page)
        let filled = try #require(ProcessMemory.residentBytes())
        #expect(filled - before >= size - margin)
        #expect(try statistics(arena).resident >= size)
        try arena.destroy()
        let after = try #require(ProcessMemory.residentBytes())
        #expect(filled - after >= size - margin)
    }
}
