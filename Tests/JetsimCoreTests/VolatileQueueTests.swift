@testable import JetsimCore
import Testing

/// The purge order: oldest volatile memory first, dead entries skipped, and compaction keeping the order.
@Suite struct VolatileQueueTests {
    @Test func theOldestLiveEntryComesFirstAndDeadOnesAreSkipped() {
        var queue = VolatileQueue(count: 3)
        var live: Set<UInt64> = [0, 1, 2]
        for k in 0..<3 { queue.append(.init(sequence: UInt64(k), since: 10 * k, app: Int32(k))) { live.contains($0.sequence) } }
        #expect(queue.oldest { live.contains($0.sequence) }?.app == 0)
        live.remove(0)                       // app 0 was purged
        #expect(queue.oldest { live.contains($0.sequence) }?.app == 1)
        live.removeAll()
        #expect(queue.oldest { live.contains($0.sequence) } == nil)
    }

    @Test func compactionKeepsTheLiveEntriesInOrder() {
        // Two apps; each new entry of an app kills its previous one, so the queue fills with dead entries and compacts
        // many times (its limit is 4 × 2 + 64 = 72).
        var queue = VolatileQueue(count: 2)
        var newest: [UInt64] = [0, 0]
        for s in 0..<1000 {
            let app = s % 7 == 0 ? 0 : 1      // app 0 rarely renews, so its entry sits at the front
            newest[app] = UInt64(s)
            queue.append(.init(sequence: UInt64(s), since: s, app: Int32(app))) { newest[Int($0.app)] == $0.sequence }
        }
        let isLive: (VolatileQueue.Entry) -> Bool = { newest[Int($0.app)] == $0.sequence }
        #expect(queue.oldest(isLive: isLive)?.sequence == newest[0])
        newest[0] = .max                     // app 0 purged: app 1's newest is next
        #expect(queue.oldest(isLive: isLive)?.sequence == newest[1])
    }
}
