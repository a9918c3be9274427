#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Kill candidates whose score is a plain decaying count (`lfu`'s: `count · 2^(−(now − since)/halfLife)`, offset 0,
/// weight 1 / 1, one half-life), smallest first, ties to the smallest sequence — exactly the victim the policy's scan
/// picks at the same time — in a four-ary heap: O(log n) per insert, update or removal, and a query that compares the
/// root with its children.
///
/// The heap's walks, four children a node, are `FourAryHeap`'s: with its root's place left to the next insertion,
/// `lfu`'s replay did 596 instructions a request against 637 with two children and none left
/// (`Benchmarks/instructions-per-request.sh`; 553 with 16-byte nodes and the replay's other savings of that round).
///
/// Why a heap suffices. Two decaying counts keep their order for ever in exact arithmetic (their ratio is constant), so
/// `log2(count) + (since − base)/halfLife` orders them at every time: the larger, the larger score. The heap's key is that
/// times the half-life, `log2(count) · halfLife + (since − base)`, in microseconds: the same order, with no division at an
/// insertion or a query (their `divsd` held up the walks: about 7 % of `lfu`'s replay). The index of scores that cross
/// (`cost`'s, `CrossingScoreIndex`) keys its heap by floors that hold only for a window of time, or certifies each duel of
/// a kinetic tournament: these need neither.
///
/// Exactness. The scan compares doubles, which round. An entry's double at a time is within 10^-12 (relative) of its true
/// score while that score is at least 2^-960 (then exp2 and every intermediate are normal: counts are below 2^50, so the
/// exponent is below 1 010), and keys are within `(|key| + 256 · halfLife) · 2^-50` of theirs (log2's error, at most
/// 2^-52 of a log2 below 50, times the half-life, the product's, the conversion's and the sum's roundings, 2^-53 each of
/// what they round). So an entry whose key exceeds the root's by more than `tolerance` (2^-30 of a half-life and 2^-40 of
/// the key's size and of 256 half-lives: a thousand times those errors; its true score then exceeds the root's by a
/// factor of at least 1 + 2^-31) has a strictly larger double than the root's whenever both scores are at least 2^-960,
/// and whenever the root's is not (then the root's double is below 2^-959, the other's above 2^-901, as its key exceeds
/// the underflow limit, `now`'s key less 900 half-lives). `first(at:)` therefore weighs, by the scan's comparison (the
/// doubles at `time`, then the sequence), only the root and the entries whose keys are within `tolerance` of it or below
/// the underflow limit; every other entry loses to the root. Usually none is: the query compares the root's key with its
/// children's and returns. An entry with the root's key, count and since has the root's double and a later sequence (the
/// heap orders equal keys by sequence), so it loses without being evaluated; its subtree is still searched. When the
/// entries within `tolerance` are all such twins of the root (objects first requested at one timestamp), the query
/// returns the root without evaluating any double.
///
/// Underflow. A double that has reached 0 stays 0 (time only moves forward, and exp2 is monotone), and 0 is the smallest
/// score: every such entry dies before any other, by sequence among themselves. A query past the underflow limit weighs
/// them (they all lie below it) and moves them to a second heap, `zeros`, ordered by sequence alone (key 0), once each:
/// a long pause that takes every score to 0 costs one move per entry, then O(log n) per eviction, not a weighing of
/// all of them each time. Entries past the underflow limit (scores below about 2^-900) whose doubles are not 0 yet (a
/// band of about 175 half-lives) are weighed at each query while they stay in it.
///
/// Storage is dense, in `UncheckedArray`s (the owning driver calls `makeUnique()` at each public mutating entry):
/// the two heaps' nodes, and by candidate id its stored score, sequence and heap position; nothing is allocated per
/// operation but when the storage grows.
///
/// Invariants: in each heap every node's key, then its member's sequence, is at most its children's (`precedes`); a
/// member's `position` names the node that holds its id (p ≥ 0 in `nodes`, −2 − p in `zeros`); while `rootVacated`,
/// `nodes[0]` holds no member and is out of the order (its children's subtrees are heaps; every public entry but an
/// insertion fills it first, `settle()`); a node of `nodes` has its member's key, a node of `zeros` key 0 and a member
/// whose double was 0 at the last query (so at every later time); a non-member's position is -1. Queries come at
/// non-decreasing times. Debug builds check the heaps when small.
@usableFromInline
struct DecayingCountHeap {
    /// A heap node: the ordering key and the candidate (16 bytes). The tie-break, the member's sequence, is read only when
    /// keys are equal.
    @usableFromInline
    struct Node: FourAryHeapNode {
        @usableFromInline var key: Double
        @usableFromInline var id: Int32
        @inlinable init(key: Double, id: Int32) {
            self.key = key
            self.id = id
        }

        /// The smaller key, then the smaller sequence of their members.
        @inlinable @inline(__always)
        func precedes(_ other: Node, _ members: UncheckedArray<Member>) -> Bool {
            key < other.key || (key == other.key && members[Int(id)].sequence < members[Int(other.id)].sequence)
        }
    }

    /// A candidate's stored score (count and since; the half-life is the heap's) and where its node is (-1: none).
    @usableFromInline
    struct Member: FourAryHeapMember {
        @usableFromInline var count = 0.0
        @usableFromInline var since = 0
        @usableFromInline var sequence: UInt64 = 0
        @usableFromInline var position: Int32 = -1
        @inlinable init() {}
    }

    /// Counts from this size on go to the index of crossing scores (the exactness argument bounds exp2's exponent with it).
    @usableFromInline static let maximumCount = 0x1p50
    /// Below this many half-lives past an entry's key a score may underflow: such entries are always weighed.
    @usableFromInline static let underflowHalfLives = 900.0

    @usableFromInline var nodes = UncheckedArray<Node>(capacity: 0)
    /// Members whose double has reached 0, by sequence (their key 0).
    @usableFromInline var zeros = UncheckedArray<Node>(capacity: 0)
    /// By candidate id.
    @usableFromInline var members = UncheckedArray<Member>(capacity: 0)
    /// The nodes `first(at:)`'s rare weighing looks at (reused: nothing allocated per query).
    @usableFromInline var pending = UncheckedArray<Int>(capacity: 0)
    /// The half-life of every score (set by the first one), and the time keys count from.
    @usableFromInline var halfLife = 0.0
    @usableFromInline var base = 0
    /// The root was removed and `nodes[0]` waits, unfilled, for the next insertion (`settle()`).
    @usableFromInline var rootVacated = false
    #if DEBUG
    /// The time of the last query (`first(at:)`), for the debug checks (release builds keep the heap small: the replay
    /// tests its optional at every request).
    @usableFromInline var lastQuery = Int.min
    /// Queries that evaluated entries besides the root (`weigh`), for the tests.
    @usableFromInline var weighings = 0
    #endif

    @inlinable init() {}

    /// Whether `score` may live in a heap of `halfLife` (0: one that has had no score yet): a plain decaying count
    /// (offset 0, weight 1 / 1) of at least 1 and below `maximumCount`, with that half-life.
    @inlinable static func accepts(_ score: DecayingScore, halfLife: Double) -> Bool {
        score.offset == 0 && score.numerator == 1 && score.divisor == 1 && score.count >= 1 && score.count < maximumCount
            && score.halfLifeMicros > 0 && score.halfLifeMicros.isFinite && (halfLife == 0 || score.halfLifeMicros == halfLife)
    }

    /// Makes room for candidate ids below `n`.
    @inlinable mutating func grow(to n: Int) {
        members.extend(to: n, with: Member())
    }

    /// Copies shared storage: called at every public mutating entry of the driver that owns the heap.
    @inlinable @inline(__always)
    mutating func makeUnique() {
        nodes.makeUnique()
        zeros.makeUnique()
        members.makeUnique()
        pending.makeUnique()
    }

    /// (Mutating, as `storedScore(of:)`: called through the replay's optional, a non-mutating method copies the heap.)
    @inlinable mutating func contains(_ id: Int32) -> Bool { members[Int(id)].position != -1 }

    /// Member `id`'s score and tie-break as stored, or nil when `id` is not a member. (Mutating, so that a call through
    /// the replay's optional, at every hit, reads the heap in place instead of copying it.)
    @inlinable mutating func storedScore(of id: Int32) -> (score: DecayingScore, sequence: UInt64)? {
        let m = members[Int(id)]
        guard m.position != -1 else { return nil }
        return (DecayingScore(count: m.count, since: m.since, halfLifeMicros: halfLife), m.sequence)
    }

    /// Starts loading what `storedScore(of:)` reads (a hint only; mutating, so that a call through the replay's
    /// optional does not copy the heap).
    @inlinable mutating func prefetchSlot(of id: Int32) { members.prefetchWhole(Int(id)) }

    /// `first(at:)` as a call, for the callers that would only grow with its body (a replay that may have the heap but
    /// seldom or never asks it: the general path, or `largest`'s and `cost`'s replays).
    @inlinable @inline(never) mutating func firstByCall(at time: Int) -> Int32? { first(at: time) }

    /// The candidate that dies first at `time` (the scan's victim among the stored scores), or nil when there is none.
    /// `time` is at least that of the query before. Inline: `lfu`'s replay asked it at every eviction, whose call and frame
    /// cost 12 of its 527 instructions a request at 0.1 % of the CI gate's trace (others call `firstByCall`); its evictions
    /// now take `popFirst`, which shares its checks, but past the stale horizon or once another index is made.
    @inlinable @inline(__always) mutating func first(at time: Int) -> Int32? {
        _noteQuery(at: time)
        settle()
        guard nodes.count > 0 else { return zeros.count > 0 ? zeros[0].id : nil }
        let (underflow, limit) = bounds(at: time)
        if rootDiesFirst(underflow: underflow, limit: limit) {
            return zeros.count > 0 ? zeros[0].id : nodes[0].id   // a 0 dies before any other score
        }
        return weigh(atMost: limit, at: time, rootAboveUnderflow: nodes[0].key > underflow)
    }

    /// `first(at:)`'s candidate taken out of the heap (`removeFirst`), or -1 when there is none: inline where the root
    /// dies first and no score has reached 0, the rest by a call. For a replay whose only index this is (`lfu`'s), at
    /// each of the evictions a miss makes in a row.
    @inlinable @inline(__always) mutating func popFirst(at time: Int) -> Int32 {
        _noteQuery(at: time)
        settle()
        if nodes.count > 0 && zeros.count == 0 {
            let (underflow, limit) = bounds(at: time)
            if rootDiesFirst(underflow: underflow, limit: limit) {
                let id = nodes[0].id
                removeFirst(id)   // (the settled root: its inline case)
                return id
            }
        }
        return popFirstByCall(at: time)
    }

    /// Debug builds: queries come at non-decreasing times (the type's invariants hold only so).
    @inlinable @inline(__always) mutating func _noteQuery(at time: Int) {
        #if DEBUG
        precondition(time >= lastQuery, "DecayingCountHeap: queries go back in time")
        lastQuery = time
        #endif
    }

    /// `popFirst(at:)` in every case.
    @inlinable @inline(never) mutating func popFirstByCall(at time: Int) -> Int32 {
        guard let id = first(at: time) else { return -1 }
        removeFirst(id)
        return id
    }

    /// The query's bounds at `time`: the underflow limit, and the key below which an entry may die before the root
    /// (`tolerance` above it, or the underflow limit). The heap is settled and not empty.
    @inlinable @inline(__always) func bounds(at time: Int) -> (underflow: Double, limit: Double) {
        let underflow = Double(time - base) - Self.underflowHalfLives * halfLife
        return (underflow, max(nodes[0].key + tolerance(nodes[0].key), underflow))
    }

    /// Whether the root dies first among the heap's nodes by its key alone: above the underflow limit, and each child's
    /// key above `limit` (the heap is settled and not empty; `bounds(at:)`).
    @inlinable @inline(__always) func rootDiesFirst(underflow: Double, limit: Double) -> Bool {
        let n = nodes.count
        return nodes[0].key > underflow && (n < 2 || nodes[1].key > limit) && (n < 3 || nodes[2].key > limit)
            && (n < 4 || nodes[3].key > limit) && (n < 5 || nodes[4].key > limit)
    }

    /// `first(at:)` when entries other than the root may die first: the scan's comparison over every entry whose key is
    /// at most `limit` (a subtree at the top of the heap, the root's), in one pass that also moves those whose double is 0
    /// to `zeros` (all of them lie below the underflow limit, so at most `limit`). When every such entry is a twin of the
    /// root — its key, count and since: the root's double at every time, and a later sequence (the heap orders equal keys
    /// by sequence) — and the root lies above the underflow limit, the root dies first without a double evaluated: objects
    /// first requested at one timestamp (a trace's times are often whole seconds) leave such twins.
    @usableFromInline mutating func weigh(atMost limit: Double, at time: Int, rootAboveUnderflow: Bool) -> Int32 {
        pending.removeAll()   // the subtree's nodes, each listed before its children
        pending.append(0)
        var next = 0
        while next < pending.count {
            let firstChild = FourAryHeap.firstChild(of: pending[next])
            next += 1
            var child = firstChild
            while child < min(firstChild + FourAryHeap.arity, nodes.count) {
                if nodes[child].key <= limit { pending.append(child) }
                child += 1
            }
        }
        let root = nodes[0], rootMember = members[Int(root.id)]
        func twin(_ k: Int) -> Bool {
            let node = nodes[k], m = members[Int(node.id)]
            return node.key == root.key && m.count == rootMember.count && m.since == rootMember.since
        }
        if rootAboveUnderflow && pending.dropFirst().allSatisfy(twin) {
            return zeros.count > 0 ? zeros[0].id : root.id
        }
        #if DEBUG
        weighings += 1
        #endif
        let rootValue = value(rootMember, at: time)
        var best = root.id, bestValue = rootValue, bestSequence = rootMember.sequence
        let found = zeros.count
        for k in pending {
            let node = nodes[k], m = members[Int(node.id)]
            let v = twin(k) ? rootValue : value(m, at: time)   // a twin has the root's double (and a later sequence)
            if v == 0 { zeros.append(Node(key: 0, id: node.id)) }
            if v < bestValue || (v == bestValue && m.sequence < bestSequence) {
                (best, bestValue, bestSequence) = (node.id, v, m.sequence)
            }
        }
        // Those found at 0 were listed at the end of `zeros` (still members of `nodes`): moved now.
        for z in found..<zeros.count {
            FourAryHeap.remove(at: Int(members[Int(zeros[z].id)].position), from: &nodes, members: &members, zero: false)
            FourAryHeap.siftUp(z, in: &zeros, members: &members, zero: true)
        }
        if zeros.count > found { _checkInvariants() }
        return zeros.count > 0 ? zeros[0].id : best   // a 0 dies before any other score, the smallest sequence first
    }

    /// A member's double at `time`, the policy's own arithmetic (`DecayingScore.value(at:)`).
    @inlinable func value(_ m: Member, at time: Int) -> Double {
        DecayingScore(count: m.count, since: m.since, halfLifeMicros: halfLife).value(at: time)
    }

    /// How far above the root's key another key must lie for its double to be larger (see the type's comment).
    @inlinable func tolerance(_ key: Double) -> Double { halfLife * 0x1p-30 + (abs(key) + 256 * halfLife) * 0x1p-40 }

    /// The ordering key of a count at `since`.
    @inlinable func key(count: Double, since: Int) -> Double { key(log2Count: log2(count), since: since) }

    /// The ordering key of a count whose log2 is `log2Count`, at `since`.
    @inlinable func key(log2Count: Double, since: Int) -> Double { log2Count * halfLife + Double(since - base) }

    /// Gives `id` its score (`accepts(score)`) and tie-break: an update for a member, an insertion otherwise. `log2Count`:
    /// log2(score.count) as libm computes it, when the caller has it (`DecayedCountStage` computes it on the reader's
    /// thread); NaN, the heap computes it. Inline: its call and frame cost `lfu` 14 instructions a request at 0.1 % of the CI
    /// gate's trace, where nearly every request inserts.
    @inlinable @inline(__always) mutating func set(_ id: Int32, score: DecayingScore, sequence: UInt64, log2Count: Double = .nan) {
        assert(Self.accepts(score, halfLife: halfLife), "DecayingCountHeap: not a plain decaying count with the heap's half-life")
        if halfLife == 0 {
            halfLife = score.halfLifeMicros
            base = score.since
        }
        let i = Int(id)
        if members[i].position != -1 { settle() }   // an update: every node in its place first
        if members[i].position <= -2 { remove(id) }   // a new score is not 0 (its count is at least 1 at its since)
        members[i].count = score.count
        members[i].since = score.since
        members[i].sequence = sequence
        assert(log2Count.isNaN || log2Count == log2(score.count), "DecayingCountHeap: a log2 that is not the count's")
        let node = Node(key: key(log2Count: log2Count.isNaN ? log2(score.count) : log2Count, since: score.since), id: id)
        FourAryHeap.place(node, at: Int(members[i].position), rootVacated: &rootVacated, in: &nodes, members: &members)
        _checkInvariants()
    }

    /// `remove(id)` inline where `id` holds the root, as the victim `first(at:)` names usually does (the heap settled by that
    /// query): the root's place waits for the next insertion. The rest out of line, so that an eviction's common case is no
    /// call (12 instructions a request of `lfu`'s at 0.1 % of the CI gate's trace) while the callers stay small.
    @inlinable @inline(__always) mutating func removeFirst(_ id: Int32) {
        let i = Int(id)
        if members[i].position == 0 && !rootVacated {
            members[i].position = -1
            FourAryHeap.take(at: 0, rootVacated: &rootVacated, from: &nodes, members: &members)
            _checkInvariants()
        } else {
            remove(id)
        }
    }

    /// Takes `id` (a member) out; the root's place waits for the next insertion (`FourAryHeap.take`).
    @usableFromInline mutating func remove(_ id: Int32) {
        settle()
        let position = Int(members[Int(id)].position)
        members[Int(id)].position = -1
        if position >= 0 {
            FourAryHeap.take(at: position, rootVacated: &rootVacated, from: &nodes, members: &members)
        } else {
            FourAryHeap.remove(at: -2 - position, from: &zeros, members: &members, zero: true)
        }
        _checkInvariants()
    }

    /// Fills the removed root's place, if it waits (`rootVacated`), with the last node, which sinks to its place.
    @inlinable @inline(__always) mutating func settle() { FourAryHeap.settle(&rootVacated, in: &nodes, members: &members) }

    /// Every member's id (debug checks: the scan the heap must agree with).
    @usableFromInline func memberIDs() -> [Int32] { nodes.dropFirst(rootVacated ? 1 : 0).map(\.id) + zeros.map(\.id) }

    /// Debug builds, small heaps: the heaps' order, the positions, and the keys of the stored scores.
    @inlinable func _checkInvariants() {
        #if DEBUG
        guard nodes.count + zeros.count <= 64 else { return }
        for (heap, zero) in [(nodes, false), (zeros, true)] {
            for k in heap.indices where zero || !rootVacated || k > 0 {   // (a vacated root holds no member)
                let m = members[Int(heap[k].id)]
                precondition(Int(m.position) == (zero ? -2 - k : k), "DecayingCountHeap: node \(k)'s member has position \(m.position)")
                precondition(heap[k].key == (zero ? 0 : key(count: m.count, since: m.since)), "DecayingCountHeap: node \(k)'s key is not its member's")
                let parent = k > 0 ? FourAryHeap.parent(of: k) : -1
                if parent > 0 || (parent == 0 && (zero || !rootVacated)) {
                    precondition(!heap[k].precedes(heap[parent], members), "DecayingCountHeap: node \(k) precedes its parent")
                }
                if zero, lastQuery > Int.min { precondition(value(m, at: lastQuery) == 0, "DecayingCountHeap: a member of zeros is not 0") }
            }
        }
        precondition(members.filter { $0.position != -1 }.count == nodes.count - (rootVacated ? 1 : 0) + zeros.count,
                     "DecayingCountHeap: a member without a node")
        #endif
    }
}
