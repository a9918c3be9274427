/// Which thread of a one-pass cache grid replays which cells. A grid's cells cost very different amounts (on a 10 M
/// request Zipf trace an `lfu` or `largest` cell takes ten times a `random` one), and `cachesim` lists them policy by
/// policy, so contiguous groups put the heavy policies on one thread and leave the other idle at every batch's
/// barrier. The schedule times each cell and, after batches 1, 2, 4, 8, …, splits the cells again by the time each
/// has taken so far, longest first, each to the least loaded thread (Graham's LPT rule, within 4/3 of the best
/// split). The doubling keeps a cell on one core for long stretches, so its tables stay in that core's caches.
///
/// Which thread replays a cell changes nothing in its counters: no two threads touch one cell and each cell sees
/// every batch in order. So the timing decides the speed, never the reports.
///
/// Invariant: `groups` holds every cell of `0..<nanoseconds.count` exactly once, over `threads` lists, each in
/// increasing order.
struct CellSchedule {
    /// The cells each thread replays, in increasing order.
    private(set) var groups: [[Int]]
    /// The time each cell's replays have taken so far.
    private(set) var nanoseconds: [UInt64]
    /// Batches recorded so far.
    private(set) var batches = 0

    /// Starts with contiguous groups: nothing is known of the cells' costs yet.
    init(cells: Int, threads: Int) {
        precondition(cells > 0 && threads > 0, "a schedule needs a cell and a thread")
        nanoseconds = Array(repeating: 0, count: cells)
        groups = (0..<threads).map { k in Array(k * cells / threads..<(k + 1) * cells / threads) }
        _checkInvariants()
    }

    /// Adds one batch's time per cell; re-splits the cells when the batch count reaches a power of two.
    mutating func record(batch elapsed: UnsafeBufferPointer<UInt64>) {
        precondition(elapsed.count == nanoseconds.count, "one time per cell")
        for c in nanoseconds.indices { nanoseconds[c] &+= elapsed[c] }
        batches += 1
        if batches & (batches - 1) == 0 { groups = Self.split(costs: nanoseconds, threads: groups.count) }
        _checkInvariants()
    }

    /// Graham's longest-processing-time-first split of cells with `costs` over `threads` groups: the costliest cell
    /// first, each to the group with the least cost so far (of equal costs, the one with fewer cells, then the
    /// lowest-numbered, so cells that cost nothing measurable are dealt round the threads; equal costs in cell order),
    /// so the same costs always give the same split.
    static func split(costs: [UInt64], threads: Int) -> [[Int]] {
        precondition(threads > 0, "a split needs a thread")
        var groups = Array(repeating: [Int](), count: threads)
        var loads = Array(repeating: UInt64(0), count: threads)
        for c in costs.indices.sorted(by: { costs[$0] != costs[$1] ? costs[$0] > costs[$1] : $0 < $1 }) {
            var k = 0
            for j in loads.indices where (loads[j], groups[j].count) < (loads[k], groups[k].count) { k = j }
            groups[k].append(c)
            loads[k] &+= costs[c]
        }
        return groups.map { $0.sorted() }
    }

    /// Debug builds: the invariant above.
    func _checkInvariants() {
        #if DEBUG
        assert(groups.flatMap { $0 }.sorted() == Array(nanoseconds.indices), "every cell exactly once")
        assert(groups.allSatisfy { zip($0, $0.dropFirst()).allSatisfy { $0 < $1 } }, "each group in increasing order")
        #endif
    }
}
