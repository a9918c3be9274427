#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Kill candidates whose decaying scores may cross (`cost`'s: `(count · 2^(−(now − since)/halfLife) + 1) · weight`), smallest
/// first, ties to the smallest sequence — exactly the victim the policy's scan picks at the same time — in a four-ary heap
/// keyed by a *floor* of each score: a lower bound of its double at every time up to the end of the current window.
///
/// Why floors. Scores that cross have no order that holds for ever, but each only falls with time, so its value at the
/// window's end bounds it from below until then. A query reads the root and the nodes whose floors lie at or below the best
/// score found so far (a subtree at the top of the heap: every floor below is at least its parent's), evaluates those, and
/// prunes the rest, whose scores are above their floors, so above the best. With a window short against the half-life the
/// floors lie just below the scores and that subtree is the root alone or a few nodes. Insertions, updates and removals are
/// the plain heap walks of `FourAryHeap` over 16-byte nodes; when time passes the window's end every floor is computed again
/// for a new window and the heap rebuilt (Floyd's, O(n)).
///
/// Against the kinetic tournament (`KineticTournament`, which decides each pair's order again when its certificate
/// expires): a miss that evicts the first candidate and inserts the missed object walks a heap twice, instead of replaying
/// two paths of duels, each with a certificate. `cost`'s replay at 15.1 MB of the first million requests of the 10 M-request
/// binary (about 100 candidates) took 936 instructions a request against 1 896, 932 against 1 066 at 1 %, and 485
/// against 562 at the CI gate's 10 % (about 10 000). But the rebuilds cost O(n) a window and the floors' slack admits more
/// nodes the denser the scores lie near the first, so with many candidates, short half-lives or scores in a dense band the
/// tournament does better (`CrossingScoreIndex` moves to it then).
///
/// The window. Its length (`span`) starts at 1/128 of the half-life and adapts at each rebuild: halved when the last
/// window's queries weighed more nodes than there are, doubled when fewer than an eighth (a rebuild visits every node once;
/// a weighed node costs about as much as four rebuilt ones). A query that weighs more than twice the nodes starts a new
/// window at once, halved. A window whose rebuild and weighings came to more than `maximumWorkPerOperation` nodes an
/// operation marks the heap `stoppedPaying`.
///
/// Exactness. A member's model (`KineticTournament.Entry`: `intercept + slope · 2^(−(t − base)/halfLife)`, within 2^-40 of
/// the policy's double while precise, and the double's constant from when it no longer changes) gives its floor: the model
/// at the window's end less 2^-32 of it (a thousand times the model's error) while the member is precise throughout the
/// window and not yet constant, and never less than its constant double, `(0 + offset) · numerator / divisor`, which every
/// later double is at least (rounding is monotone); that constant alone otherwise. So a floor is at most the member's double
/// at every time up to the window's end. A query's bound is an upper bound of the best member's double (its model plus
/// 2^-32 of it while precise, its double otherwise), and it prunes only floors strictly above the bound: a pruned member's
/// double is strictly larger than the best's. Among the nodes it weighs it compares as the scan does (the models when both
/// are precise and more than 2ε apart, then the doubles and the sequence: `precedes`).
///
/// Storage is dense, in `UncheckedArray`s (the owning driver calls `makeUnique()` at each public mutating entry): the heap's
/// nodes (floor and slot), the members by slot, the slots by candidate id; nothing is allocated per operation but when the
/// storage grows.
///
/// Invariants: every member has one slot and one node, which holds its floor for the current window (`floor(of:)`), and no
/// node's floor is below its parent's; a member's `position` names its node; a free slot has no node; `now` ≤ `windowEnd`
/// once a member came. All of this but the root's place while `rootVacated` (the next insertion fills it). Debug builds
/// check the heap against its members when small.
@usableFromInline
struct CrossingScoreHeap {
    /// A heap node: the member's floor and its slot (16 bytes; the walks compare floors alone).
    @usableFromInline
    struct Node: FourAryHeapNode {
        @usableFromInline var key: Double
        /// The member's slot (`members`), which `FourAryHeap` calls its id.
        @usableFromInline var id: Int32
        @inlinable init(key: Double, id: Int32) {
            self.key = key
            self.id = id
        }

        @inlinable @inline(__always)
        func precedes(_ other: Node, _ members: UncheckedArray<Member>) -> Bool { key < other.key }

        @inlinable static var keyIsWholeOrder: Bool { true }
    }

    /// A member: its score's model and ranges, its score and tie-break (`KineticTournament.Entry`), and its node's position.
    @usableFromInline
    struct Member: FourAryHeapMember {
        @usableFromInline var entry: KineticTournament.Entry
        @usableFromInline var position: Int32 = -1
        @inlinable init(_ entry: KineticTournament.Entry) { self.entry = entry }
    }

    /// Relative margin between a model and the doubles it stands for (the tournament's: a thousand times their error).
    @usableFromInline static var epsilon: Double { KineticTournament.epsilon }
    /// Decay steps between rebases of the model's time origin.
    @usableFromInline static var rebaseHalfLives: Double { KineticTournament.rebaseHalfLives }
    /// The first window's length, in half-lives (the CI gate's `cost`, instructions a request: 1/16: 665, 1/32: 558,
    /// 1/64: 512, 1/128: 507, 1/256: 541; at 0.1 % of the first million requests of the binary all within 2 %).
    @usableFromInline static var initialSpanHalfLives: Double { 1.0 / 128 }
    /// The longest window, in half-lives (its floors half their scores' decaying parts at most).
    @usableFromInline static var longestSpanHalfLives: Double { 1 }
    /// Nodes rebuilt and weighed per operation in a window past which the heap stops paying (`CrossingScoreIndex`'s
    /// measurements: 1.7–2.9 where the heap was faster than the tournament, 5 where they were even, 11.7–41 where slower).
    @usableFromInline static var maximumWorkPerOperation: Int { 5 }
    /// A window's work below which the heap pays whatever its ratio (a small heap's windows cost little).
    @usableFromInline static var minimumWorkJudged: Int { 1024 }

    @usableFromInline var nodes = UncheckedArray<Node>(capacity: 0)
    @usableFromInline var members = UncheckedArray<Member>(capacity: 0)
    /// Slot of each candidate id, -1 for none.
    @usableFromInline var slotOf = UncheckedArray<Int32>(capacity: 0)
    @usableFromInline var freeSlots = UncheckedArray<Int32>(capacity: 0)
    /// The nodes a query weighs (reused: nothing allocated per query).
    @usableFromInline var pending = UncheckedArray<Int>(capacity: 0)
    /// The root was removed and `nodes[0]` waits, unfilled, for the next insertion (`FourAryHeap.take`).
    @usableFromInline var rootVacated = false
    @usableFromInline var count = 0
    @usableFromInline var now = Int.min
    /// The model's time origin and the half-life of every score (set by the first).
    @usableFromInline var base = 0
    @usableFromInline var halfLife = 1.0
    /// What a member's entry takes from `halfLife` (`KineticTournament.HalfLifeSpans`), set with it.
    @usableFromInline var spans = KineticTournament.HalfLifeSpans(halfLife: .nan)
    /// 2^(−(now − base)/halfLife), and the same at the time before `now` (`previousTime` Int.min once `base` moved), for
    /// `growth(since:)`.
    @usableFromInline var decay = 1.0
    @usableFromInline var previousTime = Int.min
    @usableFromInline var previousDecay = 1.0
    /// Floors hold up to this time; 2^(−(windowEnd − base)/halfLife).
    @usableFromInline var windowEnd = Int.min
    @usableFromInline var windowDecay = 1.0
    /// The window's length in µs (0 before the first).
    @usableFromInline var span = 0.0
    /// Nodes weighed and operations since the window began.
    @usableFromInline var weighed = 0
    @usableFromInline var operations = 0
    /// The last full window did more than `maximumWorkPerOperation` nodes of work per operation, and more than
    /// `minimumWorkJudged` in all: the kinetic tournament would have cost less (`CrossingScoreIndex` moves to it).
    @usableFromInline var stoppedPaying = false

    @inlinable init() {}

    /// Makes room for candidate ids below `n`, and while the heap is empty for as many members and nodes, up to
    /// `reservedMembers`: the doublings of a growing heap copied its members (104 bytes each) over again, 9 instructions a
    /// request at the CI gate, and room never written costs no memory (the system maps pages as they are written).
    @inlinable mutating func grow(to n: Int) {
        slotOf.extend(to: n, with: -1)
        if count == 0 {
            let room = min(n, Self.reservedMembers)
            members.reserve(room)
            nodes.reserve(room)
        }
    }

    /// The most members `grow(to:)` makes room for at once (7 MB of members).
    @usableFromInline static var reservedMembers: Int { 1 << 16 }

    /// Copies shared storage: called at every public mutating entry of the driver that owns the heap.
    @inlinable @inline(__always)
    mutating func makeUnique() {
        nodes.makeUnique()
        members.makeUnique()
        slotOf.makeUnique()
        freeSlots.makeUnique()
        pending.makeUnique()
    }

    @inlinable func contains(_ id: Int32) -> Bool { slotOf[Int(id)] != -1 }

    /// Member `id`'s score and tie-break as stored, or nil when `id` is not a member. (Mutating, so that a call through
    /// the index reads the heap in place instead of copying it.)
    @inlinable mutating func storedScore(of id: Int32) -> (score: DecayingScore, sequence: UInt64)? {
        let slot = Int(slotOf[Int(id)])
        guard slot >= 0 else { return nil }
        let e = members[slot].entry
        return (e.score, e.sequence)
    }

    /// Starts loading `id`'s slot: what the replay reads first of it (its membership, as it leaves the foreground). A hint
    /// only. Not its member's lines as well (the tournament's entries are): that hint waited on the slot's load and a
    /// branch on it, and cost `cost` 7 % of its wall time at 0.1 % of the 10 M-request binary (1.19 → 1.11 s), where the
    /// members are few and stay in cache, and nothing measurable at 10 % of the gate's trace or of the 1 M-request CSV.
    /// (Mutating, so that calling it through the index does not copy the heap.)
    @inlinable mutating func prefetchSlot(of id: Int32) {
        slotOf.prefetch(Int(id))   // (a non-index wastes the hint)
    }

    /// Every member's id (debug checks: the scan the heap must agree with).
    @usableFromInline func memberIDs() -> [Int32] {
        nodes.indices.filter { !(rootVacated && $0 == 0) }.map { members[Int(nodes[$0].id)].entry.id }
    }

    // MARK: Queries

    /// The candidate that dies first at `time` (the scan's victim), or nil when there is none.
    @inlinable mutating func first(at time: Int) -> Int32? {
        let slot = firstSlot(at: time)
        return slot >= 0 ? members[slot].entry.id : nil
    }

    /// `first(at:)` taken out: an eviction's query and removal in one call (`cost`'s replays). -1 when there is none.
    @inlinable mutating func popFirst(at time: Int) -> Int32 {
        let slot = firstSlot(at: time, operations: 2)
        guard slot >= 0 else { return -1 }
        let id = members[slot].entry.id
        guard slot == Int(nodes[0].id) else {   // (`firstSlot` settled the root)
            operations &-= 1   // (`remove` counts its own)
            remove(id)
            return id
        }
        // (Two operations, counted by `firstSlot`, as a query and a removal, for the window's measure of its work.)
        free(slot, of: id)
        FourAryHeap.take(at: 0, rootVacated: &rootVacated, from: &nodes, members: &members)
        _checkInvariants()
        return id
    }

    /// The slot of `first(at:)`'s member, -1 for none; the root settled.
    @inlinable @inline(__always) mutating func firstSlot(at time: Int, operations counted: Int = 1) -> Int {
        operations &+= counted
        settle()
        advance(to: time)
        let n = nodes.count
        guard n > 0 else { return -1 }
        let slot = Int(nodes[0].id)
        let bound = upperBound(members[slot].entry)
        if n >= 5 {   // four children, the common case: their least floor (floors are never NaN: `floor(of:)`)
            if Swift.min(Swift.min(nodes[1].key, nodes[2].key), Swift.min(nodes[3].key, nodes[4].key)) > bound { return slot }
        } else if (n < 2 || nodes[1].key > bound) && (n < 3 || nodes[2].key > bound) && (n < 4 || nodes[3].key > bound) {
            return slot
        }
        return weigh(bound: bound)
    }

    /// `first(at:)` when the root's children may hold a better member: the scan's comparison over every node whose floor
    /// is at most the best's upper bound so far (listed from the root down, each floor checked again against the bound as
    /// it falls). Reads a weighed member's model in place, and its whole entry only when the models cannot decide. Returns
    /// the best member's slot.
    @usableFromInline mutating func weigh(bound rootBound: Double) -> Int {
        var best = Int(nodes[0].id), bound = rootBound
        var bestModel = members[best].entry.modelUntil > now ? members[best].entry.intercept + members[best].entry.slope * decay : -1
        pending.removeAll()
        pending.append(0)
        var next = 0
        while next < pending.count {
            let p = pending[next]
            next &+= 1
            weighed &+= 1
            if p > 0 {
                let node = nodes[p]
                guard node.key <= bound else { continue }
                let slot = Int(node.id)
                let model = members[slot].entry.modelUntil > now ? members[slot].entry.intercept + members[slot].entry.slope * decay : -1
                let dies = model >= 0 && bestModel >= 0 && KineticTournament.modelDecides(model, bestModel)
                    ? model < bestModel : precedes(members[slot].entry, members[best].entry)
                if dies {
                    best = slot
                    bestModel = model
                    bound = model >= 0 ? model * (1 + Self.epsilon) : upperBound(members[slot].entry)
                }
            }
            let firstChild = FourAryHeap.firstChild(of: p)
            let end = min(firstChild &+ FourAryHeap.arity, nodes.count)
            var child = firstChild
            while child < end {
                if nodes[child].key <= bound { pending.append(child) }
                child &+= 1
            }
        }
        if weighed > 2 * nodes.count + 64 { beginWindow(shorter: true) }   // the floors lie too far below: closer ones
        return best
    }

    /// An upper bound of `e`'s double at `now`: its constant, its model plus 2^-32 of it, or the double itself.
    @inlinable @inline(__always) func upperBound(_ e: KineticTournament.Entry) -> Double {
        if now >= e.constantFrom { return e.constantValue }
        if now < e.preciseUntil { return (e.intercept + e.slope * decay) * (1 + Self.epsilon) }
        return e.score.value(at: now)
    }

    /// Whether `a` dies before `b` at `now`, by the scan's comparison: from their models when precise and far apart
    /// (the tournament's duel, `KineticTournament.precedes`).
    @inlinable @inline(__always) func precedes(_ a: KineticTournament.Entry, _ b: KineticTournament.Entry) -> Bool {
        KineticTournament.precedes(a, b, now: now, decay: decay)
    }

    // MARK: Changes

    /// Adds `id` (not a member) with its score and tie-break, at `time`.
    @inlinable mutating func insert(_ id: Int32, score: DecayingScore, sequence: UInt64, at time: Int) {
        operations &+= 1
        if count == 0 { setHalfLife(score.halfLifeMicros) }
        assert(score.halfLifeMicros == halfLife, "CrossingScoreHeap: one half-life for all candidates")
        advance(to: time)
        let e = KineticTournament.entry(id, score: score, sequence: sequence, growth: growth(since: score.since), spans: spans)
        if freeSlots.count == 0 {
            freeSlots.append(Int32(truncatingIfNeeded: members.count))
            members.append(Member(e))
        }
        let slot = Int(freeSlots.removeLast())
        members[slot] = Member(e)
        slotOf[Int(id)] = Int32(truncatingIfNeeded: slot)
        FourAryHeap.place(Node(key: floor(of: e), id: Int32(truncatingIfNeeded: slot)), at: -1, rootVacated: &rootVacated,
                          in: &nodes, members: &members)
        count &+= 1   // (at most the members' storage)
        _checkInvariants()
    }

    /// Takes `h`, the first member's, as every score's half-life. (Out of line: an insertion into an empty heap only.)
    @usableFromInline mutating func setHalfLife(_ h: Double) {
        guard h != halfLife || h != spans.halfLife else { return }
        halfLife = h
        spans = KineticTournament.HalfLifeSpans(halfLife: h)
    }

    /// Gives member `id` a new score and tie-break at `time`: its node rises or sinks from where it is.
    @inlinable mutating func update(_ id: Int32, score: DecayingScore, sequence: UInt64, at time: Int) {
        operations &+= 1
        assert(score.halfLifeMicros == halfLife, "CrossingScoreHeap: one half-life for all candidates")
        settle()
        advance(to: time)
        let slot = Int(slotOf[Int(id)])
        let e = KineticTournament.entry(id, score: score, sequence: sequence, growth: growth(since: score.since), spans: spans)
        members[slot].entry = e
        FourAryHeap.place(Node(key: floor(of: e), id: Int32(truncatingIfNeeded: slot)), at: Int(members[slot].position),
                          rootVacated: &rootVacated, in: &nodes, members: &members)
        _checkInvariants()
    }

    /// `remove(id)` inline where `id` holds the root, as the victim `first(at:)` names usually does (the heap settled by that
    /// query): the root's place waits for the next insertion. Any other member out of line (`remove`), so that an eviction's
    /// common case is no call while the callers stay small.
    @inlinable @inline(__always) mutating func removeFirst(_ id: Int32) {
        guard members[Int(slotOf[Int(id)])].position == 0 && !rootVacated else { return remove(id) }
        operations &+= 1
        _ = unlink(id)   // (at 0: the guard's)
        FourAryHeap.take(at: 0, rootVacated: &rootVacated, from: &nodes, members: &members)
        _checkInvariants()
    }

    /// Takes `id` (a member) out; the root's place waits for the next insertion (`FourAryHeap.take`).
    @inlinable mutating func remove(_ id: Int32) {
        operations &+= 1
        settle()
        let position = unlink(id)
        FourAryHeap.take(at: position, rootVacated: &rootVacated, from: &nodes, members: &members)
        _checkInvariants()
    }

    /// Frees member `id`'s slot and returns its node's position: the node is the caller's to take.
    @inlinable @inline(__always) mutating func unlink(_ id: Int32) -> Int {
        let slot = Int(slotOf[Int(id)])
        let position = Int(members[slot].position)
        free(slot, of: id)
        return position
    }

    /// Frees `slot`, member `id`'s. (Its member's position stays: a free slot's is not read, and taking the slot again
    /// writes the whole member.)
    @inlinable @inline(__always) mutating func free(_ slot: Int, of id: Int32) {
        slotOf[Int(id)] = -1
        freeSlots.append(Int32(truncatingIfNeeded: slot))
        count &-= 1   // (a member left)
    }

    /// Fills the removed root's place, if it waits, with the last node, which sinks to its place.
    @inlinable @inline(__always) mutating func settle() { FourAryHeap.settle(&rootVacated, in: &nodes, members: &members) }

    // MARK: Time and floors

    /// A lower bound of `e`'s double at every time up to `windowEnd` (see the type's comment).
    @inlinable @inline(__always) func floor(of e: KineticTournament.Entry) -> Double {
        let constant = e.constantValue >= 0 ? e.constantValue : -Double.infinity   // (a NaN floors nothing)
        guard windowEnd < e.constantFrom && windowEnd < e.preciseUntil else { return constant }
        return max(constant, (e.intercept + e.slope * windowDecay) * (1 - Self.epsilon))
    }

    /// Moves the current time to `time`: a new window past the current one's end (or before the model's origin). (The
    /// test inline: at a repeated time, half the calls where nearly every request misses, no call.)
    @inlinable @inline(__always) mutating func advance(to time: Int) {
        if time != now { moveTime(to: time) }
    }

    /// `advance(to:)` to a time that is not `now`.
    @usableFromInline mutating func moveTime(to time: Int) {
        (previousTime, previousDecay) = (now, decay)
        now = time
        if time > windowEnd || time < base {
            beginWindow(shorter: false)
        } else {
            decay = exp2(-Double(now - base) / halfLife)
        }
    }

    /// A new window from `now`, its length adapted to the last one's work (`shorter`: halved, as a query found its floors
    /// too far below), every floor computed again and the heap rebuilt.
    @usableFromInline mutating func beginWindow(shorter: Bool) {
        settle()
        let n = nodes.count
        if span == 0 {
            span = max(1, (halfLife * Self.initialSpanHalfLives).rounded(.down))
        } else if shorter || weighed > n {
            span = max(1, (span / 2).rounded(.down))
        } else if weighed < n / 8 {
            span = min(span * 2, max(1, (halfLife * Self.longestSpanHalfLives).rounded(.down)))
        }
        let work = n &+ weighed   // this window's rebuild and the last one's weighings
        stoppedPaying = work > max(Self.minimumWorkJudged, Self.maximumWorkPerOperation &* operations)
        (weighed, operations) = (0, 0)
        if now < base || Double(now - base) + span > Self.rebaseHalfLives * halfLife || count == 0 {
            base = now
            previousTime = Int.min
            for k in nodes.indices {
                let slot = Int(nodes[k].id)
                members[slot].entry.slope = KineticTournament.slope(members[slot].entry.score, base: base)
            }
        }
        decay = exp2(-Double(now - base) / halfLife)
        windowEnd = KineticTournament.time(now, plus: span, roundingUp: false)
        windowDecay = exp2(-Double(windowEnd - base) / halfLife)
        for k in nodes.indices { nodes[k].key = floor(of: members[Int(nodes[k].id)].entry) }
        if n > 1 {
            for k in stride(from: FourAryHeap.parent(of: n - 1), through: 0, by: -1) {
                FourAryHeap.siftDown(k, in: &nodes, members: &members, zero: false)
            }
        }
        _checkInvariants()
    }

    /// 2^((since − base)/halfLife), a count's growth in the model from `since` (`KineticTournament.growth(since:)`).
    @inlinable @inline(__always) func growth(since: Int) -> Double {
        if since == now { return 1 / decay }
        if since == previousTime { return 1 / previousDecay }
        return exp2(Double(since - base) / halfLife)
    }

    /// Debug builds, small heaps: the order, the positions, and each floor its member's, at most its double now.
    @inlinable func _checkInvariants() {
        #if DEBUG
        guard nodes.count <= 64 else { return }
        precondition(nodes.count - (rootVacated ? 1 : 0) == count && members.count - freeSlots.count == count,
                     "CrossingScoreHeap: \(count) members, \(nodes.count) nodes, \(members.count - freeSlots.count) slots used")
        for k in nodes.indices where !(rootVacated && k == 0) {
            let slot = Int(nodes[k].id), e = members[slot].entry
            precondition(Int(members[slot].position) == k && slotOf[Int(e.id)] == Int32(slot), "CrossingScoreHeap: node \(k) misfiled")
            precondition(nodes[k].key == floor(of: e), "CrossingScoreHeap: node \(k)'s floor is stale")
            precondition(!(nodes[k].key > e.score.value(at: now)), "CrossingScoreHeap: node \(k)'s floor is above its double at \(now)")
            let parent = k > 0 ? FourAryHeap.parent(of: k) : -1
            if parent > 0 || (parent == 0 && !rootVacated) {
                precondition(!(nodes[k].key < nodes[parent].key), "CrossingScoreHeap: node \(k) lies below its parent")
            }
        }
        #endif
    }
}
