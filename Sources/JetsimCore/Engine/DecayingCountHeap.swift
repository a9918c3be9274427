#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Kill candidates whose score is a plain decaying count (`lfu`'s: `count · 2^(−(now − since)/halfLife)`, offset 0,
/// weight 1 / 1, one half-life), smallest first, ties to the smallest sequence — exactly the victim the policy's scan
/// picks at the same time — in a binary heap: O(log n) per insert, update or removal, and a query that compares the
/// root with its two children.
///
/// Why a heap suffices. Two decaying counts keep their order for ever in exact arithmetic (their ratio is constant), so
/// `key = log2(count) + (since − base)/halfLife` orders them at every time: the larger key, the larger score. A
/// `KineticTournament` would decide the same order again at every eviction, with certificates for scores that cross
/// (`cost`'s), which these never do.
///
/// Exactness. The scan compares doubles, which round. An entry's double at a time is within 10^-12 (relative) of its true
/// score while that score is at least 2^-960 (then exp2 and every intermediate are normal: counts are below 2^50, so the
/// exponent is below 1 010), and keys are within `(|key| + 256) · 2^-50` of theirs. So an entry whose key exceeds the
/// root's by more than `tolerance` (2^-30 and 2^-40 of the key's size: a thousand times those errors) has a strictly
/// larger double than the root's whenever both scores are at least 2^-960, and whenever the root's is not (then the
/// root's double is below 2^-959, the other's above 2^-901, as its key exceeds the underflow limit, `now`'s key less
/// 900). `first(at:)` therefore weighs, by the scan's comparison (the doubles at `time`, then the sequence), only the root
/// and the entries whose keys are within `tolerance` of it or below the underflow limit; every other entry loses to the
/// root. Usually none is: the query compares the root's key with its children's and returns. An entry with the root's
/// key, count and since has the root's double and a later sequence (the heap orders equal keys by sequence), so it
/// loses without being evaluated; its subtree is still searched.
///
/// Storage is dense, in `UncheckedArray`s (the owning driver calls `makeUnique()` at each public mutating entry):
/// the heap's nodes, and by candidate id its stored score, sequence and heap position; nothing is allocated per
/// operation but when the storage grows.
///
/// Invariants: every node's (key, sequence) is at most its children's; a member's `position` names the node that holds
/// its id and its key is computed from its stored count and since; a non-member's position is -1. Debug builds check
/// them, and `first(at:)` against a scan, when small.
@usableFromInline
struct DecayingCountHeap {
    /// A heap node: the ordering key, the tie-break and the candidate (24 bytes: a child pair is two cache lines at most).
    @usableFromInline
    struct Node: BitwiseCopyable {
        @usableFromInline var key: Double
        @usableFromInline var sequence: UInt64
        @usableFromInline var id: Int32
        @inlinable init(key: Double, sequence: UInt64, id: Int32) {
            self.key = key
            self.sequence = sequence
            self.id = id
        }

        @inlinable @inline(__always) func precedes(_ other: Node) -> Bool {
            key < other.key || (key == other.key && sequence < other.sequence)
        }
    }

    /// A candidate's stored score (count and since; the half-life is the heap's) and where its node is (-1: none).
    @usableFromInline
    struct Member: BitwiseCopyable {
        @usableFromInline var count = 0.0
        @usableFromInline var since = 0
        @usableFromInline var sequence: UInt64 = 0
        @usableFromInline var position: Int32 = -1
        @inlinable init() {}
    }

    /// Counts from this size on go to the kinetic tournament (the exactness argument bounds exp2's exponent with it).
    @usableFromInline static let maximumCount = 0x1p50
    /// Below this many half-lives past an entry's key a score may underflow: such entries are always weighed.
    @usableFromInline static let underflowHalfLives = 900.0

    @usableFromInline var nodes = UncheckedArray<Node>(capacity: 0)
    /// By candidate id.
    @usableFromInline var members = UncheckedArray<Member>(capacity: 0)
    /// Indices of nodes still to search in `first(at:)`'s rare weighing (reused: nothing allocated per query).
    @usableFromInline var pending = UncheckedArray<Int32>(capacity: 0)
    /// The half-life of every score (set by the first one), and the time keys count from.
    @usableFromInline var halfLife = 0.0
    @usableFromInline var base = 0

    @inlinable init() {}

    /// Whether `score` may live in a heap of `halfLife` (0: one that has had no score yet): a plain decaying count
    /// (offset 0, weight 1 / 1) of at least 1 and below `maximumCount`, with that half-life.
    @inlinable static func accepts(_ score: DecayingScore, halfLife: Double) -> Bool {
        score.offset == 0 && score.numerator == 1 && score.divisor == 1 && score.count >= 1 && score.count < maximumCount
            && score.halfLifeMicros > 0 && score.halfLifeMicros.isFinite && (halfLife == 0 || score.halfLifeMicros == halfLife)
    }

    /// Makes room for candidate ids below `n`.
    @inlinable mutating func grow(to n: Int) {
        members.reserve(n)
        while members.count < n { members.append(Member()) }
    }

    /// Copies shared storage: called at every public mutating entry of the driver that owns the heap.
    @inlinable @inline(__always)
    mutating func makeUnique() {
        nodes.makeUnique()
        members.makeUnique()
        pending.makeUnique()
    }

    @inlinable func contains(_ id: Int32) -> Bool { members[Int(id)].position >= 0 }

    /// Member `id`'s score and tie-break as stored, or nil when `id` is not a member.
    @inlinable func storedScore(of id: Int32) -> (score: DecayingScore, sequence: UInt64)? {
        let m = members[Int(id)]
        guard m.position >= 0 else { return nil }
        return (DecayingScore(count: m.count, since: m.since, halfLifeMicros: halfLife), m.sequence)
    }

    /// Starts loading what `storedScore(of:)` reads (a hint only; mutating, so that a call through the replay's
    /// optional does not copy the heap).
    @inlinable mutating func prefetchSlot(of id: Int32) { members.prefetch(Int(id)) }

    /// The candidate that dies first at `time` (the scan's victim among the stored scores), or nil when there is none.
    @inlinable mutating func first(at time: Int) -> Int32? {
        guard nodes.count > 0 else { return nil }
        let root = nodes[0]
        var limit = root.key + Self.tolerance(root.key)
        let underflow = Double(time - base) / halfLife - Self.underflowHalfLives
        if underflow > limit { limit = underflow }
        let n = nodes.count
        if (n < 2 || nodes[1].key > limit) && (n < 3 || nodes[2].key > limit) { return root.id }
        return weigh(root: root, limit: limit, at: time)
    }

    /// `first(at:)` when entries other than the root may die first: the scan's comparison over the root and every
    /// entry whose key is at most `limit` (they form a subtree at the top of the heap).
    @usableFromInline mutating func weigh(root: Node, limit: Double, at time: Int) -> Int32 {
        let rootMember = members[Int(root.id)]
        var best = root.id, bestSequence = root.sequence
        var bestValue = value(rootMember, at: time)
        pending.removeAll()
        pending.append(1)
        pending.append(2)
        while pending.count > 0 {
            let k = Int(pending.removeLast())
            guard k < nodes.count, nodes[k].key <= limit else { continue }
            let node = nodes[k]
            let m = members[Int(node.id)]
            if !(node.key == root.key && m.count == rootMember.count && m.since == rootMember.since) {
                let v = value(m, at: time)
                if v < bestValue || (v == bestValue && node.sequence < bestSequence) {
                    (best, bestValue, bestSequence) = (node.id, v, node.sequence)
                }
            }
            pending.append(Int32(2 * k + 1))
            pending.append(Int32(2 * k + 2))
        }
        return best
    }

    /// A member's double at `time`, the policy's own arithmetic (`DecayingScore.value(at:)`).
    @inlinable func value(_ m: Member, at time: Int) -> Double {
        DecayingScore(count: m.count, since: m.since, halfLifeMicros: halfLife).value(at: time)
    }

    /// How far above the root's key another key must lie for its double to be larger (see the type's comment).
    @inlinable static func tolerance(_ key: Double) -> Double { 0x1p-30 + (abs(key) + 256) * 0x1p-40 }

    /// The ordering key of a count at `since`.
    @inlinable func key(count: Double, since: Int) -> Double { log2(count) + Double(since - base) / halfLife }

    /// Gives `id` its score (`accepts(score)`) and tie-break: an update for a member, an insertion otherwise.
    @inlinable mutating func set(_ id: Int32, score: DecayingScore, sequence: UInt64) {
        assert(Self.accepts(score, halfLife: halfLife), "DecayingCountHeap: not a plain decaying count with the heap's half-life")
        if halfLife == 0 {
            halfLife = score.halfLifeMicros
            base = score.since
        }
        let i = Int(id)
        members[i].count = score.count
        members[i].since = score.since
        members[i].sequence = sequence
        let node = Node(key: key(count: score.count, since: score.since), sequence: sequence, id: id)
        let p = Int(members[i].position)
        if p >= 0 {
            let before = nodes[p]
            nodes[p] = node
            if node.precedes(before) { siftUp(p) } else { siftDown(p) }
        } else {
            nodes.append(node)
            members[i].position = Int32(nodes.count - 1)
            siftUp(nodes.count - 1)
        }
        _checkInvariants()
    }

    /// Takes `id` (a member) out.
    @inlinable mutating func remove(_ id: Int32) {
        let p = Int(members[Int(id)].position)
        members[Int(id)].position = -1
        let last = nodes.removeLast()
        if p < nodes.count {
            nodes[p] = last
            members[Int(last.id)].position = Int32(p)
            if p > 0 && last.precedes(nodes[(p - 1) / 2]) { siftUp(p) } else { siftDown(p) }
        }
        _checkInvariants()
    }

    @inlinable mutating func siftUp(_ start: Int) {
        var p = start
        let node = nodes[p]
        while p > 0 {
            let parent = (p - 1) / 2
            guard node.precedes(nodes[parent]) else { break }
            nodes[p] = nodes[parent]
            members[Int(nodes[p].id)].position = Int32(p)
            p = parent
        }
        nodes[p] = node
        members[Int(node.id)].position = Int32(p)
    }

    @inlinable mutating func siftDown(_ start: Int) {
        var p = start
        let node = nodes[p]
        let n = nodes.count
        while true {
            var child = 2 * p + 1
            guard child < n else { break }
            if child + 1 < n && nodes[child + 1].precedes(nodes[child]) { child += 1 }
            guard nodes[child].precedes(node) else { break }
            nodes[p] = nodes[child]
            members[Int(nodes[p].id)].position = Int32(p)
            p = child
        }
        nodes[p] = node
        members[Int(node.id)].position = Int32(p)
    }

    /// Every member's id (debug checks: the scan the heap must agree with).
    @usableFromInline func memberIDs() -> [Int32] { nodes.map(\.id) }

    /// Debug builds, small heaps: the heap order, the positions, and the keys of the stored scores.
    @inlinable func _checkInvariants() {
        #if DEBUG
        guard nodes.count <= 64 else { return }
        for k in nodes.indices {
            let m = members[Int(nodes[k].id)]
            precondition(Int(m.position) == k, "DecayingCountHeap: node \(k)'s member has position \(m.position)")
            precondition(nodes[k].key == key(count: m.count, since: m.since) && nodes[k].sequence == m.sequence,
                         "DecayingCountHeap: node \(k)'s key is not its member's")
            if k > 0 { precondition(!nodes[k].precedes(nodes[(k - 1) / 2]), "DecayingCountHeap: node \(k) precedes its parent") }
        }
        precondition(members.filter { $0.position >= 0 }.count == nodes.count, "DecayingCountHeap: a member without a node")
        #endif
    }
}
