/// Kill candidates whose decaying score never changes again (`DecayingScore.isConstant`: `largest`'s 1 / (footprint + 1),
/// a score whose count is 0), smallest score first, ties to the smallest sequence (`lastUseSequence`) — the scan's
/// comparison of the same doubles, so exactly its victim — in O(log n) per insert, update or removal and O(1) per query.
///
/// The `KineticTournament` answers for such scores too, but pays for what they never need: certificates, the real model,
/// and a winner's entry read from elsewhere in memory at each duel. Here a tournament node holds its winner's key itself,
/// so a duel reads two adjacent nodes and nothing else.
///
/// A complete binary tree over slots: node k's children are 2k and 2k + 1, slot s's leaf is `leaves + s`; each node
/// holds the best key of its subtree (or none). Storage is dense, in `UncheckedArray`s (the owning driver calls
/// `makeUnique()` at each public mutating entry); nothing is allocated per operation but when the tree grows.
///
/// A removal empties its leaf at once and leaves the walk up its path for later (`vacated`): most removals are a miss's
/// eviction, and the missed object, scored a request later, takes the slot just freed (the free slots are a stack), so
/// the two share one walk up that path instead of two. Every other operation replays the path first (`settle()`).
///
/// Invariants: every member has exactly one slot and its leaf holds its key; every inner node holds the better of its
/// children's keys, but on the path of the `vacated` slot, whose nodes wait to be decided again; a free slot's leaf is
/// empty. Debug builds check the tree against a scan of its members when small.
@usableFromInline
struct FixedScoreTournament {
    /// A node's key: the winner's score, tie-break and id; `id` -1 for an empty subtree.
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

        @usableFromInline static let empty = Key(score: 0, sequence: 0, id: -1)

        /// Whether `self` dies before `other` (an empty key never does; of two empty ones, either).
        @inlinable @inline(__always) func beats(_ other: Key) -> Bool {
            other.id < 0 || (id >= 0 && (score < other.score || (score == other.score && sequence < other.sequence)))
        }
    }

    @usableFromInline var nodes = UncheckedArray<Key>(repeating: .empty, count: 2)
    /// Slot of each candidate id, -1 for none.
    @usableFromInline var slotOf = UncheckedArray<Int32>(capacity: 0)
    @usableFromInline var freeSlots = UncheckedArray<Int32>(capacity: 0)
    @usableFromInline var leaves = 1
    @usableFromInline var count = 0
    /// The slot whose leaf `remove` emptied and whose path waits to be replayed (-1: none): on top of `freeSlots`
    /// until `settle()` or an insertion into it.
    @usableFromInline var vacated = -1

    @inlinable init() {}

    /// Makes room for candidate ids below `n`.
    @inlinable mutating func grow(to n: Int) {
        slotOf.reserve(n)
        while slotOf.count < n { slotOf.append(-1) }
    }

    /// Copies shared storage: called at every public mutating entry of the driver that owns the tournament.
    @inlinable @inline(__always)
    mutating func makeUnique() {
        nodes.makeUnique()
        slotOf.makeUnique()
        freeSlots.makeUnique()
    }

    @inlinable func contains(_ id: Int32) -> Bool { slotOf[Int(id)] >= 0 }

    /// The candidate that dies first, or nil when there is none.
    @inlinable mutating func first() -> Int32? {
        settle()
        return nodes[1].id >= 0 ? nodes[1].id : nil
    }

    /// The key of the candidate that dies first (`first()`), to weigh it against another index's.
    @inlinable mutating func firstKey() -> Key {
        settle()
        return nodes[1]
    }

    /// Member `id`'s slot, or nil when `id` is not a member (or not an id the tournament has room for).
    @inlinable func slot(of id: Int32) -> Int? {
        guard id >= 0 && Int(id) < slotOf.count else { return nil }
        let slot = Int(slotOf[Int(id)])
        return slot >= 0 ? slot : nil
    }

    /// Member `id`'s stored key (its leaf), or nil when it is not a member.
    @inlinable func storedKey(of id: Int32) -> Key? { slot(of: id).map { nodes[leaves + $0] } }

    /// Starts loading `id`'s slot, then (a second call, some requests later, when the slot is in cache) its leaf: what
    /// `storedKey(of:)` reads, from two arrays indexed at random. Hints only. (Mutating, so that calling them through
    /// the replay's optional does not copy the tournament.)
    @inlinable mutating func prefetchSlot(of id: Int32) { slotOf.prefetch(Int(id)) }   // (`prefetch` ignores a non-index)

    @inlinable mutating func prefetchLeaf(of id: Int32) {
        if let slot = slot(of: id) { nodes.prefetch(leaves + slot) }
    }

    /// Gives `id` its score and tie-break, adding it if it is not a member.
    /// A new member taking the `vacated` slot shares its walk: the nodes its path holds the removed key in all differ
    /// from what their children now give, so the walk passes them, and above them the removal changed nothing.
    @inlinable mutating func set(_ id: Int32, score: Double, sequence: UInt64) {
        var slot = Int(slotOf[Int(id)])
        if slot < 0 {
            // Only `remove` frees a slot, after settling any earlier one: a vacated slot is the free slots' top, so
            // the new member takes it (and no growth comes first).
            assert(vacated < 0 || (freeSlots.count > 0 && Int(freeSlots[freeSlots.count - 1]) == vacated), "FixedScoreTournament: the vacated slot is not the next free one")
            if freeSlots.count == 0 { growSlots() }
            slot = Int(freeSlots.removeLast())
            slotOf[Int(id)] = Int32(slot)
            count += 1
            vacated = -1   // (it was this slot, if any: the walk below replays its path)
        } else {
            settle()
        }
        nodes[leaves + slot] = Key(score: score, sequence: sequence, id: id)
        replay(from: (leaves + slot) >> 1)
        _checkInvariants()
    }

    /// Takes `id` (a member) out. Its leaf is emptied at once; the walk up its path waits (`vacated`).
    @inlinable mutating func remove(_ id: Int32) {
        settle()
        let slot = Int(slotOf[Int(id)])
        slotOf[Int(id)] = -1
        count -= 1
        freeSlots.append(Int32(slot))
        nodes[leaves + slot] = .empty
        vacated = slot
    }

    /// Replays the path of the slot `remove` emptied, if one waits (`vacated`).
    @inlinable mutating func settle() {
        guard vacated >= 0 else { return }
        let slot = vacated
        vacated = -1
        replay(from: (leaves + slot) >> 1)
        _checkInvariants()
    }

    /// Every member's id (debug checks: the scan the tournament must agree with).
    @usableFromInline func members() -> [Int32] { (0..<leaves).compactMap { nodes[leaves + $0].id >= 0 ? nodes[leaves + $0].id : nil } }

    /// Decides the nodes from `node` up to the root again, up to the first that comes out as it was (nothing above it
    /// changes either: a node depends only on its children).
    @inlinable mutating func replay(from node: Int) {
        var k = node
        while k >= 1 {
            let left = nodes[2 * k], right = nodes[2 * k + 1]
            let best = left.beats(right) ? left : right
            if best == nodes[k] { return }
            nodes[k] = best
            k >>= 1
        }
    }

    /// Doubles the slots (and the tree), deciding every node again.
    @usableFromInline mutating func growSlots() {
        settle()
        let old = leaves
        let used = old == 1 ? 0 : old   // no slot exists before the first growth (node 1 is the root, not a leaf)
        let grown = max(2 * leaves, 64)
        let before = nodes
        nodes = UncheckedArray<Key>(repeating: .empty, count: 2 * grown)
        if used > 0 { for s in 0..<old { nodes[grown + s] = before[old + s] } }
        leaves = grown
        freeSlots.reserve(grown)
        for s in stride(from: grown - 1, through: used, by: -1) { freeSlots.append(Int32(s)) }
        for k in stride(from: grown - 1, through: 1, by: -1) {
            let left = nodes[2 * k], right = nodes[2 * k + 1]
            nodes[k] = left.beats(right) ? left : right
        }
    }

    /// Debug builds, small trees: every node holds what a scan of its subtree picks, and every member is filed.
    @inlinable func _checkInvariants() {
        #if DEBUG
        guard leaves <= 64, vacated < 0 else { return }
        precondition(freeSlots.count + count == leaves || (leaves == 1 && count == 0), "FixedScoreTournament: \(count) members, \(freeSlots.count) free of \(leaves)")
        for s in 0..<leaves where nodes[leaves + s].id >= 0 {
            precondition(slotOf[Int(nodes[leaves + s].id)] == Int32(s), "FixedScoreTournament: slot \(s) misfiled")
        }
        for k in stride(from: leaves - 1, through: 1, by: -1) {
            let left = nodes[2 * k], right = nodes[2 * k + 1]
            precondition(nodes[k] == (left.beats(right) ? left : right), "FixedScoreTournament: node \(k) is not its children's best")
        }
        #endif
    }
}
