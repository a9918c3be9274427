/// Kill candidates whose decaying score never changes again (`DecayingScore.isConstant`: `largest`'s −footprint,
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
/// The walks are `FourAryHeap`'s. Storage is dense, in `UncheckedArray`s (the owning driver calls `makeUnique()` at each
/// public mutating entry): the nodes, each a whole key (score, sequence, id: a comparison reads nothing else), and by
/// candidate id its node's position; nothing is allocated per operation but when the storage grows.
///
/// Invariants: every node's key comes no earlier than its parent's (`Key.precedes`); a member's `position` names the
/// node that holds its key, -1 for a non-member; while `rootVacated`, `nodes[0]` holds
/// no member and is out of the order (its children's subtrees are heaps; every entry but an insertion fills it first,
/// `settle()`). Debug builds check the heap when small.
@usableFromInline
struct FixedScoreHeap {
    /// A member's score, tie-break and id: a node.
    @usableFromInline
    struct Key: FourAryHeapNode, Equatable, Sendable {
        @usableFromInline var score: Double
        @usableFromInline var sequence: UInt64
        @usableFromInline var id: Int32

        @inlinable init(score: Double, sequence: UInt64, id: Int32) {
            self.score = score
            self.sequence = sequence
            self.id = id
        }

        /// The order's first part (`FourAryHeapNode.key`).
        @inlinable var key: Double { score }

        /// The smaller score, then the smaller sequence (the members hold nothing of the order).
        @inlinable @inline(__always) func precedes(_ other: Key, _ members: UncheckedArray<Member>) -> Bool {
            score < other.score || (score == other.score && sequence < other.sequence)
        }
    }

    /// Where a candidate's node is (-1: none).
    @usableFromInline
    struct Member: FourAryHeapMember {
        @usableFromInline var position: Int32 = -1
        @inlinable init() {}
    }

    @usableFromInline var nodes = UncheckedArray<Key>(capacity: 0)
    /// By candidate id.
    @usableFromInline var members = UncheckedArray<Member>(capacity: 0)
    /// The root was removed and `nodes[0]` waits, unfilled, for the next insertion (`settle()`).
    @usableFromInline var rootVacated = false

    @inlinable init() {}

    /// Makes room for candidate ids below `n`.
    @inlinable mutating func grow(to n: Int) {
        members.extend(to: n, with: Member())
    }

    /// Copies shared storage: called at every public mutating entry of the driver that owns the heap.
    @inlinable @inline(__always)
    mutating func makeUnique() {
        nodes.makeUnique()
        members.makeUnique()
    }

    /// Members.
    @inlinable var count: Int { nodes.count - (rootVacated ? 1 : 0) }

    @inlinable func contains(_ id: Int32) -> Bool { members[Int(id)].position >= 0 }

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

    /// `first()`'s key taken out, or nil when there is none: an eviction's query and removal in one call, the root's place
    /// left to the next insertion (`rootVacated`). For a replay whose only index this is (`largest`'s), at each of the
    /// evictions a miss makes in a row; the key comes back so that a stale one can go in again with its new sequence.
    @inlinable @inline(__always) mutating func popFirst() -> Key? {
        settle()
        guard nodes.count > 0 else { return nil }
        let key = nodes[0]
        members[Int(key.id)].position = -1
        rootVacated = true
        _checkInvariants()
        return key
    }

    /// Member `id`'s stored key, or nil when it is not a member (or not an id the heap has room for).
    @inlinable func storedKey(of id: Int32) -> Key? { node(of: id).map { nodes[$0] } }

    /// Member `id`'s node, or nil when it is not a member (or not an id the heap has room for).
    @inlinable @inline(__always) func node(of id: Int32) -> Int? {
        guard id >= 0 && Int(id) < members.count else { return nil }
        let p = Int(members[Int(id)].position)
        return p >= 0 ? p : nil
    }

    /// Starts loading `id`'s member, what `storedKey(of:)` reads first (its node's position). A hint only; not the node
    /// as well, which would wait on the member's line and a branch on it (`CacheReplay.prefetch`). (Mutating, so that
    /// calling it through the replay's optional does not copy the heap.)
    @inlinable mutating func prefetchSlot(of id: Int32) { members.prefetch(Int(id)) }   // (`prefetch` ignores a non-index)

    /// Gives `id` its score and tie-break, adding it if it is not a member.
    @inlinable mutating func set(_ id: Int32, score: Double, sequence: UInt64) {
        let i = Int(id)
        if members[i].position >= 0 { settle() }   // an update: every node in its place first
        let key = Key(score: score, sequence: sequence, id: id)
        FourAryHeap.place(key, at: Int(members[i].position), rootVacated: &rootVacated, in: &nodes, members: &members)
        _checkInvariants()
    }

    /// Takes `id` (a member) out; the root's place waits for the next insertion (`FourAryHeap.take`).
    @inlinable mutating func remove(_ id: Int32) {
        settle()
        let p = Int(members[Int(id)].position)
        members[Int(id)].position = -1
        FourAryHeap.take(at: p, rootVacated: &rootVacated, from: &nodes, members: &members)
    }

    /// Fills the removed root's place, if it waits (`rootVacated`), with the last node, which sinks to its place.
    @inlinable @inline(__always) mutating func settle() { FourAryHeap.settle(&rootVacated, in: &nodes, members: &members) }

    /// Every member's id (debug checks: the scan the heap must agree with).
    @usableFromInline func memberIDs() -> [Int32] { nodes.dropFirst(rootVacated ? 1 : 0).map(\.id) }

    /// Debug builds, small heaps: the order and the positions.
    @inlinable func _checkInvariants() {
        #if DEBUG
        guard nodes.count <= 64 else { return }
        for k in nodes.indices where !rootVacated || k > 0 {
            let position = members[Int(nodes[k].id)].position
            precondition(Int(position) == k, "FixedScoreHeap: node \(k)'s member has position \(position)")
            let parent = k > 0 ? FourAryHeap.parent(of: k) : -1
            if parent > 0 || (parent == 0 && !rootVacated) {
                precondition(!nodes[k].precedes(nodes[parent], members), "FixedScoreHeap: node \(k) precedes its parent")
            }
        }
        precondition(members.filter { $0.position >= 0 }.count == count, "FixedScoreHeap: a member without a node")
        #endif
    }
}
