import HeapModule

/// Kill candidates ordered by their policy's `RankingKey`, for policies that declare one: a kill decision costs
/// O(log n) instead of a scan of every resident app (thousands in cache-equivalent runs).
///
/// Lazy invalidation: an app's live entry carries its current stamp; re-keying or removing an app bumps the stamp,
/// and stale entries are dropped when they surface, or all at once when they outnumber the live ones three to one,
/// which bounds the heap (so its storage stops growing: no allocation in steady state). Invariant: every indexed
/// app has exactly one live entry, `keys[app]` is its key (nil when the app is not a candidate), and `live` counts
/// the non-nil keys.
struct CandidateIndex {
    struct Entry: Comparable {
        var key: RankingKey
        var app: Int32
        var stamp: UInt32
        static func < (a: Entry, b: Entry) -> Bool { a.key != b.key ? a.key < b.key : a.app < b.app }
    }

    private var heap = Heap<Entry>()
    private var stamps: [UInt32]
    private(set) var keys: [RankingKey?]
    private var skipped: [Entry] = []
    private var live = 0

    init(count: Int) {
        stamps = [UInt32](repeating: 0, count: count)
        keys = [RankingKey?](repeating: nil, count: count)
        skipped.reserveCapacity(count)
        heap.reserveCapacity(4 * count + 65)   // the most compaction lets it hold
    }

    /// Sets app's key (nil: not a candidate).
    mutating func update(_ app: Int, key: RankingKey?) {
        guard keys[app] != key else { return }
        stamps[app] &+= 1
        live += (key != nil ? 1 : 0) - (keys[app] != nil ? 1 : 0)
        keys[app] = key
        if let key {
            compactIfNeeded()
            heap.insert(Entry(key: key, app: Int32(app), stamp: stamps[app]))
        }
    }

    /// The smallest-keyed candidate that `accepts`, left in the index.
    mutating func first(where accepts: (Int32) -> Bool) -> Int32? {
        defer {
            for e in skipped { heap.insert(e) }
            skipped.removeAll(keepingCapacity: true)
        }
        while let top = heap.min {
            let app = Int(top.app)
            if top.stamp != stamps[app] || keys[app] == nil {
                _ = heap.removeMin()   // stale
                continue
            }
            if accepts(top.app) { return top.app }
            skipped.append(heap.removeMin())
        }
        return nil
    }

    /// Drops stale entries once they outnumber the live ones three to one (in place: no allocation).
    mutating func compactIfNeeded() {
        guard heap.count > 4 * live + 64 else { return }
        let stamps = self.stamps, keys = self.keys
        heap.removeAll { stamps[Int($0.app)] != $0.stamp || keys[Int($0.app)] == nil }
    }
}
