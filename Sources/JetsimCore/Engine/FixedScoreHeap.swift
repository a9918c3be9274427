/// Kill candidates whose decaying score never changes again (`DecayingScore.isConstant`: `largest`'s 1 / (footprint + 1),
/// a score whose count is 0), smallest score first, ties to the smallest sequence (`lastUseSequence`): the scan's
/// comparison of the same doubles, so exactly its victim. A four-ary heap of keys: O(log n) per insertion, update or
/// removal, O(1) per query.
///
/// Why a heap. A cache's miss evicts the first candidate and, a request later, inserts the object it admitted. A
/// tournament (this index's form before) decides every node on the evicted leaf's path again for that pair, as all of
/// them held the victim: the tree's full height, twice a miss where most requests miss. Here the eviction leaves the
/// root's place empty (`rootVacated`) and the insertion fills it and sinks a four-ary heap's height at most; a sooner
/// victim stops on the way.
///
/// Storage is dense, in `UncheckedArray`s (the owning driver calls `makeUnique()` at each public mutating entry): the
/// nodes, each a whole key (score, sequence, id: a comparison reads nothing else), and by candidate id its node's
/// position; nothing is allocated per operation but when the storage grows.
///
/// Invariants: every node's key comes no earlier than its parent's (`Key.precedes`); `position[id]` names the node that
/// holds `id`'s key, -1 for a non-member; while `rootVacated`, `nodes[0]` holds no member and is out of the order (its
/// children's subtrees are heaps; every entry but an insertion fills it first, `settle()`). Debug builds check the heap
/// when small.
@usableFromInline
struct FixedScoreHeap {
    /// A member's score, tie-break and id.
    @usableFromInline
    struct Key: BitwiseCopyable, Equatable, Sendable {
        @usableFromInline var score: Double
        @usableFromInline var sequence: UInt64
        @usableFromInline var id: Int32

        @inlinable init(score: Double, sequence: UInt64, id: Int32) {
            self.score = score
            self.sequence = sequence
            self.id = id
        }

        /// Whether `self` dies before `other`: the smaller score, then the smaller sequence.
        @inlinable @inline(__always) func precedes(_ other: Key) -> Bool {
            score < other.score || (score == other.score && sequence < other.sequence)
        }
    }

    @usableFromInline var nodes = UncheckedArray<Key>(capacity: 0)
    /// By candidate id: its node, -1 for none.
    @usableFromInline var position = UncheckedArray<Int32>(capacity: 0)
    /// The root was removed and `nodes[0]` waits, unfilled, for the next insertion (`settle()`).
    @usableFromInline var rootVacated = false

    @inlinable init() {}

    /// Makes room for candidate ids below `n`.
    @inlinable mutating func grow(to n: Int) {
        position.reserve(n)
        while position.count < n { position.append(-1) }
    }

    /// Copies shared storage: called at every public mutating entry of the driver that owns the heap.
    @inlinable @inline(__always)
    mutating func makeUnique() {
        nodes.makeUnique()
        position.makeUnique()
    }

    /// Members.
    @inlinable var count: Int { nodes.count - (rootVacated ? 1 : 0) }

    @inlinable func contains(_ id: Int32) -> Bool { position[Int(id)] >= 0 }

    /// The candidate that dies first, or nil when there is none.
    @inlinable mutating func first() -> Int32? {
        settle()
        return nodes.count > 0 ? nodes[0].id : nil
    }

    /// The key of the candidate that dies first (there is one: `first()` is not nil), to weigh it against another index's.
    @inlinable mutating func firstKey() -> Key {
        settle()
        return nodes[0]
    }

    /// Member `id`'s stored key, or nil when it is not a member (or not an id the heap has room for).
    @inlinable func storedKey(of id: Int32) -> Key? {
        guard id >= 0 && Int(id) < position.count else { return nil }
        let p = Int(position[Int(id)])
        return p >= 0 ? nodes[p] : nil
    }

    /// Starts loading `id`'s position, then (a second call, some requests later, when the position is in cache) its
    /// node: what `storedKey(of:)` reads, from two arrays indexed at random. Hints only. (Mutating, so that calling them
    /// through the replay's optional does not copy the heap.)
    @inlinable mutating func prefetchSlot(of id: Int32) { position.prefetch(Int(id)) }   // (`prefetch` ignores a non-index)

    @inlinable mutating func prefetchLeaf(of id: Int32) {
        guard id >= 0 && Int(id) < position.count else { return }
        let p = Int(position[Int(id)])
        if p >= 0 { nodes.prefetch(p) }
    }

    /// Gives `id` its score and tie-break, adding it if it is not a member.
    @inlinable mutating func set(_ id: Int32, score: Double, sequence: UInt64) {
        let i = Int(id)
        if position[i] >= 0 { settle() }   // an update: every node in its place first
        let key = Key(score: score, sequence: sequence, id: id)
        let p = Int(position[i])
        if rootVacated {
            // An insertion fills the removed root's place and sinks from there, where the removal would have sunk the last
            // node from the top and the insertion raised this one from the bottom.
            rootVacated = false
            nodes[0] = key
            siftDown(0)
        } else if p >= 0 {
            let before = nodes[p]
            nodes[p] = key
            if key.precedes(before) { siftUp(p) } else { siftDown(p) }
        } else {
            nodes.append(key)
            siftUp(nodes.count - 1)
        }
        _checkInvariants()
    }

    /// Takes `id` (a member) out. The root's place is left empty for the next insertion (`rootVacated`): a cache's
    /// eviction is followed by its missed object's insertion, as the object leaves the foreground at the next request.
    @inlinable mutating func remove(_ id: Int32) {
        settle()
        let p = Int(position[Int(id)])
        position[Int(id)] = -1
        if p == 0 { rootVacated = true } else { remove(at: p) }
    }

    /// Fills the removed root's place, if it waits (`rootVacated`), with the last node, which sinks to its place.
    @inlinable @inline(__always) mutating func settle() {
        guard rootVacated else { return }
        rootVacated = false
        remove(at: 0)
    }

    /// Fills node `p` (just emptied) with the last node and restores the order.
    @usableFromInline mutating func remove(at p: Int) {
        let last = nodes.removeLast()
        guard p < nodes.count else { return }
        nodes[p] = last
        if p > 0 && last.precedes(nodes[Self.parent(of: p)]) { siftUp(p) } else { siftDown(p) }
    }

    /// Children a node has at most (`siftDown` compares a full family's four in pairs).
    @inlinable static var arity: Int { 4 }

    /// Node `p`'s first child (the others follow it).
    @inlinable @inline(__always) static func firstChild(of p: Int) -> Int { arity &* p &+ 1 }

    /// Node `p`'s parent (p > 0).
    @inlinable @inline(__always) static func parent(of p: Int) -> Int { (p &- 1) / arity }

    /// Moves node `start` up to its place, keeping the members' positions. (A heap holds one node per `Int32` id at most:
    /// positions fit.)
    @usableFromInline mutating func siftUp(_ start: Int) {
        var p = start
        let key = nodes[p]
        while p > 0 {
            let parent = Self.parent(of: p)
            guard key.precedes(nodes[parent]) else { break }
            nodes[p] = nodes[parent]
            position[Int(nodes[p].id)] = Int32(truncatingIfNeeded: p)
            p = parent
        }
        nodes[p] = key
        position[Int(key.id)] = Int32(truncatingIfNeeded: p)
    }

    /// Moves node `start` down to its place, keeping the members' positions.
    @usableFromInline mutating func siftDown(_ start: Int) {
        var p = start
        let key = nodes[p]
        let n = nodes.count
        while true {
            let first = Self.firstChild(of: p)
            guard first < n else { break }
            var child = first, best = nodes[first]
            if first &+ 3 < n {   // a full family (n is a count: no overflow)
                // Two pairs, then their winners (three comparisons, the pairs independent of each other).
                let a = nodes[first &+ 1].precedes(best) ? first &+ 1 : first
                let b = nodes[first &+ 3].precedes(nodes[first &+ 2]) ? first &+ 3 : first &+ 2
                child = nodes[b].precedes(nodes[a]) ? b : a
                best = nodes[child]
            } else {
                for c in (first + 1)..<n where nodes[c].precedes(best) { (child, best) = (c, nodes[c]) }
            }
            guard best.precedes(key) else { break }
            nodes[p] = best
            position[Int(best.id)] = Int32(truncatingIfNeeded: p)
            p = child
        }
        nodes[p] = key
        position[Int(key.id)] = Int32(truncatingIfNeeded: p)
    }

    /// Every member's id (debug checks: the scan the heap must agree with).
    @usableFromInline func members() -> [Int32] { nodes.dropFirst(rootVacated ? 1 : 0).map(\.id) }

    /// Debug builds, small heaps: the order and the positions.
    @inlinable func _checkInvariants() {
        #if DEBUG
        guard nodes.count <= 64 else { return }
        for k in nodes.indices where !rootVacated || k > 0 {
            precondition(Int(position[Int(nodes[k].id)]) == k, "FixedScoreHeap: node \(k)'s member has position \(position[Int(nodes[k].id)])")
            let parent = k > 0 ? Self.parent(of: k) : -1
            if parent > 0 || (parent == 0 && !rootVacated) {
                precondition(!nodes[k].precedes(nodes[parent]), "FixedScoreHeap: node \(k) precedes its parent")
            }
        }
        precondition(position.filter { $0 >= 0 }.count == count, "FixedScoreHeap: a member without a node")
        #endif
    }
}
