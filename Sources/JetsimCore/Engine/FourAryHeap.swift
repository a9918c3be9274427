/// What a member of a `FourAryHeap` keeps beside its node: its node's position.
@usableFromInline
protocol FourAryHeapMember: BitwiseCopyable {
    var position: Int32 { get set }
}

/// A node of a `FourAryHeap`: its member's id and the heap's order.
@usableFromInline
protocol FourAryHeapNode: BitwiseCopyable {
    associatedtype Member: FourAryHeapMember
    var id: Int32 { get }
    /// The order's first part: when two nodes' keys differ (NaN included), `precedes` is `key < other.key`.
    var key: Double { get }
    /// Whether `self` comes before `other` (a tie-break may be read from the members).
    func precedes(_ other: Self, _ members: UncheckedArray<Member>) -> Bool
    /// `precedes` is `key < other.key` for every two nodes: no tie-break (`CrossingScoreHeap`'s floors).
    static var keyIsWholeOrder: Bool { get }
}

extension FourAryHeapNode {
    @inlinable static var keyIsWholeOrder: Bool { false }
}

/// The walks of the cache replay's index heaps (`DecayingCountHeap`'s two, `FixedScoreHeap`'s), written once: four-ary
/// heaps of small nodes (`DecayingCountHeap.Node`'s 16 bytes: a node's four children are one cache line when the storage
/// starts on one, two otherwise), in each node type's order, each member keeping its node's position.
///
/// Why four children a node. A cache replay's miss removes the root and inserts the missed object: walks over the
/// heap's height, a binary heap's twice a four-ary one's. A level of the four-ary walk down compares four children
/// instead of two, but the walk moves half as many nodes and positions, and the walk up compares half as many parents:
/// `lfu`'s replay did 613 instructions a request against 637 with two children (`Benchmarks/instructions-per-request.sh`).
///
/// Positions: node p of a heap is `p` in its members' `position`, or −2 − p for a second heap of the same members
/// (`zero`: `DecayingCountHeap.zeros`); −1 is no node. A heap holds at most one node per candidate id, an `Int32`:
/// p < 2^31. (The walks are inlinable so that each heap's callers get them specialised for its node type.)
@usableFromInline
enum FourAryHeap {
    /// What a member's `position` says of node `p` of the first heap (`zero` false) or of the second.
    @inlinable @inline(__always) static func position(_ p: Int, zero: Bool) -> Int32 {
        Int32(truncatingIfNeeded: zero ? -2 &- p : p)
    }

    /// Children a node has at most (`siftDown` compares a full family's four in pairs).
    @inlinable static var arity: Int { 4 }

    /// Node `p`'s first child (the others follow it).
    @inlinable @inline(__always) static func firstChild(of p: Int) -> Int { arity &* p &+ 1 }

    /// Node `p`'s parent (p > 0).
    @inlinable @inline(__always) static func parent(of p: Int) -> Int { (p &- 1) / arity }

    /// Puts `node`, its member's new key, into `heap`: for an insertion into the removed root's place when `rootVacated`
    /// (then cleared), where it sinks from the top — where the removal would have sunk the last node from the top and the
    /// insertion raised this one from the bottom, one walk instead of two; for an update (`position` ≥ 0, the heap settled)
    /// into its old node's place, rising or sinking from there; otherwise appended and raised.
    @inlinable @inline(__always)
    static func place<N: FourAryHeapNode>(_ node: N, at position: Int, rootVacated: inout Bool, in heap: inout UncheckedArray<N>,
                                          members: inout UncheckedArray<N.Member>) {
        if rootVacated {
            rootVacated = false
            heap[0] = node
            siftDown(0, in: &heap, members: &members, zero: false)
        } else if position >= 0 {
            let before = heap[position]
            heap[position] = node
            if node.precedes(before, members) {
                siftUp(position, in: &heap, members: &members, zero: false)
            } else {
                siftDown(position, in: &heap, members: &members, zero: false)
            }
        } else {
            heap.append(node)
            siftUp(heap.count - 1, in: &heap, members: &members, zero: false)
        }
    }

    /// Takes node `p` out of `heap` (settled: no place waits): the root's place is left empty for the next insertion
    /// (`rootVacated`, which `place` fills and `settle` gives the last node otherwise), since a cache's eviction is
    /// followed by its missed object's insertion as the object leaves the foreground at the next request; any other
    /// node's place is filled by the last node.
    @inlinable @inline(__always)
    static func take<N: FourAryHeapNode>(at p: Int, rootVacated: inout Bool, from heap: inout UncheckedArray<N>,
                                         members: inout UncheckedArray<N.Member>) {
        if p == 0 { rootVacated = true } else { remove(at: p, from: &heap, members: &members, zero: false) }
    }

    /// Fills the removed root's place, if it waits (`rootVacated`, then cleared), with the last node, which sinks to its place.
    @inlinable @inline(__always)
    static func settle<N: FourAryHeapNode>(_ rootVacated: inout Bool, in heap: inout UncheckedArray<N>, members: inout UncheckedArray<N.Member>) {
        guard rootVacated else { return }
        rootVacated = false
        remove(at: 0, from: &heap, members: &members, zero: false)
    }

    /// Fills node `p` of `heap` (just emptied) with its last node and restores the order.
    @inlinable
    static func remove<N: FourAryHeapNode>(at p: Int, from heap: inout UncheckedArray<N>, members: inout UncheckedArray<N.Member>, zero: Bool) {
        let last = heap.removeLast()
        guard p < heap.count else { return }
        heap[p] = last
        members[Int(last.id)].position = position(p, zero: zero)
        if p > 0 && last.precedes(heap[parent(of: p)], members) {
            siftUp(p, in: &heap, members: &members, zero: zero)
        } else {
            siftDown(p, in: &heap, members: &members, zero: zero)
        }
    }

    /// Moves node `start` of `heap` up to its place, keeping the members' positions.
    @inlinable
    static func siftUp<N: FourAryHeapNode>(_ start: Int, in heap: inout UncheckedArray<N>, members: inout UncheckedArray<N.Member>, zero: Bool) {
        var p = start
        let node = heap[p]
        while p > 0 {
            let parent = parent(of: p)
            guard node.precedes(heap[parent], members) else { break }
            heap[p] = heap[parent]
            members[Int(heap[p].id)].position = position(p, zero: zero)
            p = parent
        }
        heap[p] = node
        members[Int(node.id)].position = position(p, zero: zero)
    }

    /// Moves node `start` of `heap` down to its place, keeping the members' positions.
    @inlinable
    static func siftDown<N: FourAryHeapNode>(_ start: Int, in heap: inout UncheckedArray<N>, members: inout UncheckedArray<N.Member>, zero: Bool) {
        var p = start
        let node = heap[p]
        let n = heap.count
        while true {
            let first = firstChild(of: p)
            guard first < n else { break }
            var child = first, best = heap[first]
            if first &+ 3 < n {   // a full family (n is a count: no overflow)
                // Two pairs, then their winners (three comparisons, the pairs independent of each other), by keys alone
                // but where two are equal: selections without branches, where a tie-break's branch on data that is half
                // the time one way and half the other cost `lfu` a mispredicted branch per comparison.
                // (The family through one pointer: indexes each scaled apart cost six instructions a level.)
                let family = UnsafePointer(heap.base + first)
                let k0 = family[0].key, k1 = family[1].key, k2 = family[2].key, k3 = family[3].key
                var a = k1 < k0 ? first &+ 1 : first
                if !N.keyIsWholeOrder && k1 == k0 && family[1].precedes(family[0], members) { a = first &+ 1 }
                var b = k3 < k2 ? first &+ 3 : first &+ 2
                if !N.keyIsWholeOrder && k3 == k2 && family[3].precedes(family[2], members) { b = first &+ 3 }
                let ka = k1 < k0 ? k1 : k0, kb = k3 < k2 ? k3 : k2   // (equal when tied: either is the key)
                child = kb < ka ? b : a
                if !N.keyIsWholeOrder && kb == ka && heap[b].precedes(heap[a], members) { child = b }
                best = heap[child]
                // The walk's end decided by the family's least key, in a register, rather than by `best`'s, loaded
                // through the child chosen: the branch that ends the walk, mispredicted once a walk, resolves without
                // waiting on that load. (`kb < ka ? kb : ka` is `best.key`: the same selections.) With a tie-break, equal
                // keys (or a NaN) ask `precedes`.
                let least = kb < ka ? kb : ka
                if N.keyIsWholeOrder {
                    guard least < node.key else { break }
                } else {
                    if least > node.key { break }
                    if !(least < node.key) && !best.precedes(node, members) { break }
                }
            } else {
                for c in (first + 1)..<n where heap[c].precedes(best, members) { (child, best) = (c, heap[c]) }
                guard best.precedes(node, members) else { break }
            }
            heap[p] = best
            members[Int(best.id)].position = position(p, zero: zero)
            p = child
        }
        heap[p] = node
        members[Int(node.id)].position = position(p, zero: zero)
    }
}
