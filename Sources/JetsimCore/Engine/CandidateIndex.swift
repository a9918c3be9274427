/// Kill candidates ordered by their policy's `RankingKey`, for policies that declare one: a kill decision costs
/// O(log n) instead of a scan of every resident app (thousands in cache-equivalent runs).
///
/// An indexed binary min-heap: each candidate has exactly one entry, and `positions` says where, so re-keying or
/// removing an app sifts its own entry instead of leaving a stale one behind (the heap stays as small as the
/// candidate set, and its storage, reserved up front, never grows). Invariants: `entries` is heap-ordered by
/// (key, app); `positions[app]` is the index of app's entry, -1 when it is not a candidate.
struct CandidateIndex {
    struct Entry {
        var key: RankingKey
        var app: Int32
        /// The total order kills follow: by key, then by app id (so equal keys break ties the same way every run).
        @inline(__always)
        static func precedes(_ a: Entry, _ b: Entry) -> Bool { a.key != b.key ? a.key < b.key : a.app < b.app }
    }

    private var entries: UncheckedArray<Entry>
    private var positions: UncheckedArray<Int32>
    /// Heap positions still to look at in `first(where:)`, kept between calls so a search allocates nothing.
    private var frontier: [Int] = []

    init(count: Int) {
        positions = UncheckedArray(repeating: -1, count: count)
        entries = UncheckedArray(capacity: count)
        frontier.reserveCapacity(count)
    }

    /// The app's key, nil when it is not a candidate.
    func key(of app: Int) -> RankingKey? {
        let p = Int(positions[app])
        return p >= 0 ? entries[p].key : nil
    }

    var count: Int { entries.count }

    /// Copies shared storage (`UncheckedArray`): called at every public mutating entry of the engine.
    @inline(__always)
    mutating func makeUnique() {
        entries.makeUnique()
        positions.makeUnique()
    }

    /// Sets app's key (nil: not a candidate).
    mutating func update(_ app: Int, key: RankingKey?) {
        let p = Int(positions[app])
        switch (p >= 0, key) {
        case (false, nil):
            return
        case (false, let key?):
            entries.append(Entry(key: key, app: Int32(app)))
            positions[app] = Int32(entries.count - 1)
            siftUp(entries.count - 1)
        case (true, nil):
            positions[app] = -1
            let last = entries.removeLast()
            guard p < entries.count else { return }   // it was the last entry
            entries[p] = last
            positions[Int(last.app)] = Int32(p)
            resift(p)
        case (true, let key?):
            guard entries[p].key != key else { return }
            entries[p].key = key
            resift(p)
        }
        _checkInvariants()
    }

    /// The smallest-keyed candidate that `accepts`, left in the index. A best-first walk of the heap: a node is looked
    /// at only once every smaller one was refused, and the children of a refused node join the walk.
    mutating func first(where accepts: (Int32) -> Bool) -> Int32? {
        guard let top = entries.first else { return nil }
        if accepts(top.app) { return top.app }
        frontier.removeAll(keepingCapacity: true)
        pushChildren(of: 0)
        while !frontier.isEmpty {
            var best = 0
            for k in 1..<frontier.count where Entry.precedes(entries[frontier[k]], entries[frontier[best]]) { best = k }
            let p = frontier[best]
            if accepts(entries[p].app) { return entries[p].app }
            frontier.swapAt(best, frontier.count - 1)
            frontier.removeLast()
            pushChildren(of: p)
        }
        return nil
    }

    private mutating func pushChildren(of p: Int) {
        let left = 2 * p + 1
        if left < entries.count { frontier.append(left) }
        if left + 1 < entries.count { frontier.append(left + 1) }
    }

    /// Restores the heap order around position `p` after its entry changed.
    private mutating func resift(_ p: Int) {
        if p > 0 && Entry.precedes(entries[p], entries[(p - 1) / 2]) { siftUp(p) } else { siftDown(p) }
    }

    private mutating func siftUp(_ start: Int) {
        var p = start
        let moving = entries[p]
        while p > 0 {
            let parent = (p - 1) / 2
            guard Entry.precedes(moving, entries[parent]) else { break }
            entries[p] = entries[parent]
            positions[Int(entries[p].app)] = Int32(p)
            p = parent
        }
        entries[p] = moving
        positions[Int(moving.app)] = Int32(p)
    }

    private mutating func siftDown(_ start: Int) {
        var p = start
        let moving = entries[p]
        let n = entries.count
        while true {
            var child = 2 * p + 1
            guard child < n else { break }
            if child + 1 < n && Entry.precedes(entries[child + 1], entries[child]) { child += 1 }
            guard Entry.precedes(entries[child], moving) else { break }
            entries[p] = entries[child]
            positions[Int(entries[p].app)] = Int32(p)
            p = child
        }
        entries[p] = moving
        positions[Int(moving.app)] = Int32(p)
    }

    /// Debug builds: the heap order holds and every position points at its app's entry.
    @inline(__always)
    func _checkInvariants() {
        #if DEBUG
        for (p, e) in entries.enumerated() {
            precondition(positions[Int(e.app)] == Int32(p), "candidate index: app \(e.app)'s position is stale")
            precondition(p == 0 || !Entry.precedes(e, entries[(p - 1) / 2]), "candidate index: heap order broken at \(p)")
        }
        precondition(positions.count { $0 >= 0 } == entries.count, "candidate index: a removed app still has a position")
        #endif
    }
}
