#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Kill candidates ranked by a score that decays with time (`DecayingScore`: `cost`'s, whose lines cross), smallest first, ties
/// to the smallest sequence (`lastUseSequence`) — exactly the victim the policy's scan picks at the same time, in
/// O(log n) per insert, removal or query (and a scan of at most 16 young members a query) instead of O(n) per query. The
/// cache replay's index of such scores (`CrossingScoreIndex`) moves its members here when its heap of floors stops paying:
/// many candidates, short half-lives, or scores in a dense band.
///
/// A kinetic tournament: a complete binary tree over slots, each leaf a candidate (or empty), each inner node the
/// winner of the duel of its children's winners at the current time, and the earliest time (`melt`) at which a duel
/// in its subtree may turn out otherwise. Time only moves forward (a step back rebuilds the tree); moving it visits
/// only subtrees whose melt has come. Scores change with time — `cost`'s `(f + 1) · w` lines cross as counts decay —
/// so a duel's result holds only until its certificate expires.
///
/// Exactness. The scan compares doubles, and doubles round: two candidates whose true scores are within a few
/// units in the last place may compare either way, and differently at different times. So a duel is decided in two
/// ways. (1) In the *real model* — score = intercept + slope · 2^(−(now − base)/halfLife), per candidate, computed
/// once — when both scores lie in the range where the policy's doubles are within 2^-40 of the true value (`precise`:
/// exp2 and every intermediate normal, or the score already constant) and differ by more than `2ε` (ε = 2^-32,
/// some 10^3 times the rounding error): then the doubles compare the same way, and the certificate is the time the
/// model says the gap falls to ε (lines cross at most once), or a candidate leaves its precise range. (2) Otherwise
/// (a near tie, or a score in the underflow range of exp2) by evaluating the policy's doubles (`DecayingScore.value`)
/// at the current time and the sequence; such a result is certified only where it provably holds for ever
/// (identical scores: a tie by sequence; two constant scores; equal weights with the counts far apart and the
/// sequence agreeing) and otherwise until the next time step, when the duel is evaluated again. Near ties between
/// different scores are rare (`KineticTournamentTests` builds them on purpose), so the index stays logarithmic.
///
/// Young members. Most of a cache's victims entered the index a few insertions before (a missed object, a count of 1
/// just now, is the likeliest victim once it leaves the foreground), and such an insertion wins most duels of its path:
/// a full walk to put it in, another to take it out. So the last `youngCapacity` insertions (16) wait beside the tree,
/// in a small array a query scans whole (their models, packed: a few instructions each, with the same exactness rule
/// as a duel and the doubles for a near tie), and one joins the tree only when the young are full and another comes
/// (the one with the largest score at the last query, the least likely to die next). A young victim leaves with no
/// walk at all: `cost`'s replay took 913 instructions a request at 0.1 % of the first million requests of the
/// 10 M-request binary against 1 547 without young members, and 609 against 677 at the CI gate's 10 %. Where the
/// victims are older objects the young cost their scans and save nothing (1 937 against 1 800 at a 25 % larger cache).
///
/// Storage is dense: entries by slot, slots by candidate id, in `UncheckedArray`s (the owning driver calls
/// `makeUnique()` at each public mutating entry); nothing is allocated per operation but when the tree grows. Each node
/// holds a copy of its winner's model (as `FixedScoreHeap`'s nodes hold their keys), so a duel of two precise,
/// far-apart scores — most duels — reads two adjacent nodes and no entry.
///
/// Invariants: every member is young (`young[i]`, its `slotOf` -2 − i, its model `youngModels[i]`; at most
/// `youngCapacity`) or has exactly one slot and its leaf holds it; every inner node's `winner` is the better of
/// its children's winners at `now`, its model is its winner entry's, and its `melt` > `now` is at most its children's
/// melts and its own duel's certificate (earlier is allowed: the node is then decided again early); a free slot's leaf
/// is empty. All of this but on the path of the `vacated` slot, whose nodes wait to be decided again. Debug builds check
/// the tree against a scan of its members when small.
@usableFromInline
struct KineticTournament {
    /// A candidate: the real model of its score, its tie-break and its score (what most duels read comes first).
    @usableFromInline
    struct Entry: BitwiseCopyable {
        /// Real model: score = `intercept + slope · decay(now)` where `decay` is 2^(−(now − base)/halfLife).
        @usableFromInline var intercept: Double
        @usableFromInline var slope: Double
        @usableFromInline var constantFrom: Int
        /// Before this time the policy's double is within 2^-40 of the model (exp2 and the intermediates normal).
        @usableFromInline var preciseUntil: Int
        /// The policy's double from `constantFrom` on (it no longer changes: the decayed count has vanished into the
        /// offset, or exp2 has underflowed to 0).
        @usableFromInline var constantValue: Double
        @usableFromInline var sequence: UInt64
        @usableFromInline var score: DecayingScore
        /// (After the score, so that the score lies on its alignment and is copied as it comes, and a heap's member,
        /// with its position after this, takes 104 bytes: 8 fewer.)
        @usableFromInline var id: Int32

        @inlinable
        init(score: DecayingScore, sequence: UInt64, id: Int32, intercept: Double, slope: Double, constantValue: Double,
             constantFrom: Int, preciseUntil: Int) {
            self.score = score
            self.sequence = sequence
            self.id = id
            self.intercept = intercept
            self.slope = slope
            self.constantValue = constantValue
            self.constantFrom = constantFrom
            self.preciseUntil = preciseUntil
        }
    }

    /// A subtree's winner and certificate, with the part of the winner's entry that most duels read (copied, so that a
    /// duel reads two adjacent nodes and no entry elsewhere in memory).
    @usableFromInline
    struct Node: BitwiseCopyable {
        @usableFromInline var melt = Int.max
        /// The winner's model (`Entry.intercept`, `Entry.slope`).
        @usableFromInline var intercept = 0.0
        @usableFromInline var slope = 0.0
        /// Before this time the winner's double is its model's: precise and not yet constant (`Entry.modelUntil`).
        @usableFromInline var modelUntil = Int.min
        /// The slot that wins the subtree, or -1 when it is empty.
        @usableFromInline var winner: Int32 = -1
        @inlinable init() {}
    }

    /// Relative gap beyond which the real model decides a duel (model and doubles are within 2^-40 of the truth).
    @usableFromInline static let epsilon = 0x1p-32
    /// Decay steps between rebases of the model's time origin (keeps 2^((since − base)/halfLife) within range).
    @usableFromInline static let rebaseHalfLives = 64.0

    @usableFromInline var entries = UncheckedArray<Entry>(capacity: 0)
    /// Slot of each candidate id, -1 for none, -2 − i for young member i.
    @usableFromInline var slotOf = UncheckedArray<Int32>(capacity: 0)
    @usableFromInline var freeSlots = UncheckedArray<Int32>(capacity: 0)
    /// Nodes 1..<2·leaves; node k's children are 2k and 2k + 1; slot s's leaf is `leaves + s`.
    @usableFromInline var nodes = UncheckedArray<Node>(repeating: Node(), count: 2)
    @usableFromInline var leaves = 1
    @usableFromInline var count = 0
    @usableFromInline var now = Int.min
    @usableFromInline var base = 0
    @usableFromInline var halfLife = 1.0
    /// What an entry takes from `halfLife` (`HalfLifeSpans`), set with it.
    @usableFromInline var spans = HalfLifeSpans(halfLife: .nan)
    /// 2^(−(now − base)/halfLife).
    @usableFromInline var decay = 1.0
    /// The time before `now` and its `decay` (`previousTime` Int.min once `base` moved), for `growth(since:)`.
    @usableFromInline var previousTime = Int.min
    @usableFromInline var previousDecay = 1.0
    /// A slot `remove` emptied whose path to the root is not replayed yet, or -1: the next member to join the tree (the
    /// eldest young one, or with no young members the missed object) takes the same slot (free slots are reused last in,
    /// first out), so the two share one walk up that path instead of two. A query, and a removal or update in the tree,
    /// replays the path first (`settle()`); a young member's insertion, update or removal leaves it waiting, and
    /// `advance` may decide some of its nodes meanwhile (each is decided again when the path is replayed).
    @usableFromInline var vacated = -1
    /// Members inserted lately and not yet in the tree, at most `youngCapacity`, in no order (`slotOf` says -2 − index).
    /// Most of a cache's victims were inserted a few insertions before (`cost` at 10 % of the gate's trace: 81 % of its
    /// evictions within 16 insertions; 84 % at 0.1 % of the 10 M-request binary), where the missed object, a count of 1 just
    /// now, wins most duels of its path: a query scans these few models at once, and an entry joins the tree only when
    /// the young are full (the one with the largest score, the least likely to die next), so a miss that evicts a young
    /// member walks no path at all.
    @usableFromInline var young: UncheckedArray<Entry>
    /// The young members' models, in the same order (what a scan reads, packed).
    @usableFromInline var youngModels: UncheckedArray<YoungModel>
    /// How many members stay young at most (0: every member in the tree).
    @usableFromInline let youngCapacity: Int
    /// `youngCapacity` by default: a query's scan against the walks it saves (`cost`'s gate, instructions a request,
    /// 8: 585, 12: 595, 16: 609, 24: 632, 677 with none; at 0.1 % of the first million requests of the 10 M-request
    /// binary, 8: 1 011, 12: 935, 16: 913, 24: 921, 1 547 with none).
    @usableFromInline static var defaultYoungCapacity: Int { 16 }
    /// The young member with the largest model value at the last query (`youngest()`; stale after a young member's
    /// update, and meaningless when a model was out of its range, as any choice is exact), or -1: the one that joins the
    /// tree when the young are full and a new member comes, so that the likeliest victims stay young.
    @usableFromInline var eldestHint = -1
    #if DEBUG
    /// Scans of the young decided by the doubles (`youngestFromDoubles`), for the tests.
    @usableFromInline var youngScansByDoubles = 0
    #endif

    @inlinable init(youngCapacity: Int = KineticTournament.defaultYoungCapacity) {
        self.youngCapacity = max(0, youngCapacity)
        young = UncheckedArray(capacity: self.youngCapacity)
        youngModels = UncheckedArray(capacity: self.youngCapacity)
    }

    /// A tournament of `members` (entries of distinct ids below `idCount`, their models from `base`) at `now`, built at once:
    /// each member its own slot, in the order given, and every duel decided from the leaves up — n − 1 duels, where inserting
    /// the members one by one walked a path each and grew the tree again at each doubling (`cost` at 10 % of the 1 M-request
    /// CSV, its index's move from the heap of floors with 23 000 members: 37 M instructions, 5.5 % of the replay). The
    /// entries are taken as they are, so they must be what `entry(_:score:sequence:growth:)` makes of their scores with
    /// `base` (within the model's slack). No member is young: the next insertions are.
    @usableFromInline init(building members: [Entry], idCount: Int, now: Int, base: Int, halfLife: Double,
                           youngCapacity: Int = KineticTournament.defaultYoungCapacity) {
        self.init(youngCapacity: youngCapacity)
        slotOf.extend(to: idCount, with: -1)
        guard !members.isEmpty else { return }   // an empty tournament takes its clock from its first insertion
        (self.now, self.base) = (now, base)
        setHalfLife(halfLife)
        decay = exp2(-Double(now - base) / halfLife)
        var grown = Self.firstLeaves
        while grown < members.count { grown *= 2 }
        leaves = grown
        entries.reserve(grown)
        for e in members { entries.append(e) }
        while entries.count < grown { entries.append(Self.emptyEntry) }
        nodes = UncheckedArray<Node>(repeating: Node(), count: 2 * grown)
        for (s, e) in members.enumerated() {
            precondition(slotOf[Int(e.id)] == -1, "KineticTournament: member \(e.id) given twice")
            slotOf[Int(e.id)] = Int32(s)
            nodes[grown + s] = Node(s, e)
        }
        freeSlots.reserve(grown)
        for s in stride(from: grown - 1, through: members.count, by: -1) { freeSlots.append(Int32(s)) }
        for k in stride(from: grown - 1, through: 1, by: -1) { duel(k) }
        count = members.count
        _checkInvariants()
    }

    /// Makes room for candidate ids below `n`.
    @inlinable mutating func grow(to n: Int) {
        slotOf.extend(to: n, with: -1)
    }

    /// Copies shared storage: called at every public mutating entry of the driver that owns the tournament.
    @inlinable @inline(__always)
    mutating func makeUnique() {
        young.makeUnique()
        youngModels.makeUnique()
        entries.makeUnique()
        slotOf.makeUnique()
        freeSlots.makeUnique()
        nodes.makeUnique()
    }

    @inlinable func contains(_ id: Int32) -> Bool { slotOf[Int(id)] != -1 }

    /// Member `id`'s score and tie-break as stored (to weigh it against another index's candidate, or against its new
    /// score), or nil when `id` is not a member. (Mutating, as when the index held the tournament as an optional, through
    /// which a non-mutating call, at every hit, copied it.)
    @inlinable mutating func storedScore(of id: Int32) -> (score: DecayingScore, sequence: UInt64)? {
        let slot = Int(slotOf[Int(id)])
        guard slot != -1 else { return nil }
        let e = slot >= 0 ? entries[slot] : young[Self.youngIndex(slot)]
        return (e.score, e.sequence)
    }

    /// Starts loading `id`'s slot, then (a second call, some requests later, when the slot is in cache) its entry:
    /// what `storedScore(of:)` reads, from two arrays indexed at random (nothing for a young member: the young are in
    /// cache). Hints only. (Mutating, as `storedScore(of:)`.)
    @inlinable mutating func prefetchSlot(of id: Int32) { slotOf.prefetch(Int(id)) }   // (`prefetch` ignores a non-index)

    @inlinable mutating func prefetchEntry(of id: Int32) {
        guard id >= 0 && Int(id) < slotOf.count else { return }
        let slot = Int(slotOf[Int(id)])
        if slot >= 0 { entries.prefetchWhole(slot) }   // (an entry is 104 bytes: its score is past its first line)
    }

    /// `prefetchEntry(of: now)` and `prefetchSlot(of: later)` in one call (-1: none).
    @inlinable @inline(__always) mutating func prefetch(entryOf now: Int32, slotOf later: Int32) {
        prefetchEntry(of: now)
        prefetchSlot(of: later)
    }

    /// The best candidate at `time` (not removed), or nil when there is none.
    @inlinable mutating func first(at time: Int) -> Int32? {
        settle()
        advance(to: time)
        let w = Int(nodes[1].winner)
        guard young.count > 0 else { return w >= 0 ? entries[w].id : nil }
        let y = youngest()
        return w >= 0 && precedes(entries[w], young[y]) ? entries[w].id : young[y].id
    }

    /// The index of the young member that dies first at `now`: from the models when they are all precise and the
    /// smallest is more than 2ε below the next (then below every other: the gap only widens), otherwise from the doubles.
    /// (`young` is not empty.)
    @inlinable mutating func youngest() -> Int {
        // The scores compared by their bits, which order non-negative doubles as integers (and are only read when every
        // model is precise: then the scores are finite and at least 0), with selects and no branches.
        var best = 0, eldest = 0, smallest = Int64.max, next = Int64.max, largest = Int64.min, until = Int.max
        let decay = self.decay
        for i in 0..<youngModels.count {
            let m = youngModels[i]
            until = min(until, m.until)
            let v = Int64(bitPattern: (m.intercept + m.slope * decay).bitPattern)
            let smaller = v < smallest, larger = v > largest
            best = smaller ? i : best
            next = smaller ? smallest : min(next, v)
            smallest = smaller ? v : smallest
            eldest = larger ? i : eldest
            largest = larger ? v : largest
        }
        eldestHint = eldest
        let a = Double(bitPattern: UInt64(bitPattern: smallest)), b = Double(bitPattern: UInt64(bitPattern: next))
        return now < until && (youngModels.count == 1 || Self.modelDecides(a, b)) ? best : youngestFromDoubles()
    }

    /// `youngest()` by the scan's comparison of the doubles (a near tie, or a model out of its range).
    @inlinable @inline(never) mutating func youngestFromDoubles() -> Int {
        #if DEBUG
        youngScansByDoubles += 1
        #endif
        var best = 0
        var bestValue = double(young[0]), bestSequence = young[0].sequence
        for i in 1..<young.count {
            let v = double(young[i])
            if v < bestValue || (v == bestValue && young[i].sequence < bestSequence) {
                (best, bestValue, bestSequence) = (i, v, young[i].sequence)
            }
        }
        return best
    }

    /// Whether `a` dies before `b` at `now`, by the scan's comparison: from their models when precise and far apart.
    /// (Always inlined, as `duel(_:_:)`: called from a mutating method, a non-inlined one would receive a copy of the
    /// whole tournament.)
    @inlinable @inline(__always) func precedes(_ a: Entry, _ b: Entry) -> Bool { Self.precedes(a, b, now: now, decay: decay) }

    /// `precedes(_:_:)` at `now`, where the model's decay is `decay` (`CrossingScoreHeap` compares its members so too).
    @inlinable @inline(__always) static func precedes(_ a: Entry, _ b: Entry, now: Int, decay: Double) -> Bool {
        if now < a.modelUntil && now < b.modelUntil {
            let sa = a.intercept + a.slope * decay, sb = b.intercept + b.slope * decay
            if modelDecides(sa, sb) { return sa < sb }
        }
        return diesFirst(a, b, now: now)
    }

    /// Whether `a` dies before `b` at `now` by the scan's own comparison: the smaller double, then the smaller sequence.
    @inlinable @inline(__always) func diesFirst(_ a: Entry, _ b: Entry) -> Bool { Self.diesFirst(a, b, now: now) }

    @inlinable @inline(__always) static func diesFirst(_ a: Entry, _ b: Entry, now: Int) -> Bool {
        let fa = double(a, now: now), fb = double(b, now: now)
        return fa < fb || (fa == fb && a.sequence < b.sequence)
    }

    /// The policy's double for entry `e` at `now` (its constant once it has one).
    @inlinable @inline(__always) func double(_ e: Entry) -> Double { Self.double(e, now: now) }

    @inlinable @inline(__always) static func double(_ e: Entry, now: Int) -> Double {
        now >= e.constantFrom ? e.constantValue : e.score.value(at: now)
    }

    /// Takes `h`, the first member's, as every score's half-life. (Out of line: an insertion into an empty tournament only.)
    @usableFromInline mutating func setHalfLife(_ h: Double) {
        guard h != halfLife || h != spans.halfLife else { return }
        halfLife = h
        spans = HalfLifeSpans(halfLife: h)
    }

    /// Adds `id` (not a member) with its score and tie-break, at `time`: it joins the young members (when they are full,
    /// `eldestHint` joins the tree first), or the tree when there are none (`youngCapacity` 0).
    @inlinable mutating func insert(_ id: Int32, score: DecayingScore, sequence: UInt64, at time: Int) {
        if count == 0 { setHalfLife(score.halfLifeMicros) }
        assert(score.halfLifeMicros == halfLife, "KineticTournament: one half-life for all candidates")
        advance(to: time)   // (with a vacated path: its nodes are all decided again before the next query)
        let e = Self.entry(id, score: score, sequence: sequence, growth: growth(since: score.since), spans: spans)
        if youngCapacity == 0 {
            attach(e)
        } else {
            if young.count == youngCapacity {
                let i = eldestHint >= 0 ? eldestHint : eldest()
                attach(young[i])
                removeYoung(i)
            }
            young.append(e)
            youngModels.append(YoungModel(e))
            slotOf[Int(id)] = Self.youngSlot(young.count - 1)
        }
        count += 1
        _checkInvariants()
    }

    /// The young member with the largest model value now (the value is meaningless for a model out of its range, and
    /// any choice is exact): the one to join the tree when no query has left a hint.
    @inlinable @inline(__always) func eldest() -> Int {
        var best = 0, largest = -Double.infinity
        let decay = self.decay
        for i in 0..<youngModels.count {
            let m = youngModels[i]
            let v = m.intercept + m.slope * decay
            best = v > largest ? i : best
            largest = max(largest, v)
        }
        return best
    }

    /// What `slotOf` holds for young member `i` (≤ -2: apart from the slots, and from -1, no member), and back.
    @inlinable @inline(__always) static func youngSlot(_ i: Int) -> Int32 { Int32(truncatingIfNeeded: -2 - i) }
    @inlinable @inline(__always) static func youngIndex(_ slot: Int) -> Int { -2 - slot }

    /// Takes young member `i` out of the young (the last takes its place).
    @inlinable mutating func removeYoung(_ i: Int) {
        let last = young.count - 1
        eldestHint = eldestHint == i ? -1 : eldestHint == last ? i : eldestHint
        if i < last {
            young[i] = young[last]
            youngModels[i] = youngModels[last]
            slotOf[Int(young[i].id)] = Self.youngSlot(i)
        }
        _ = young.removeLast()
        _ = youngModels.removeLast()
    }

    /// Puts entry `e` (a member, out of the young) in a free slot of the tree.
    @inlinable mutating func attach(_ e: Entry) {
        if vacated >= 0 && (freeSlots.count == 0 || Int(freeSlots[freeSlots.count - 1]) != vacated) { settle() }
        if freeSlots.count == 0 { growSlots() }
        let slot = Int(freeSlots.removeLast())
        entries[slot] = e
        slotOf[Int(e.id)] = Int32(slot)
        nodes[leaves + slot] = Node(slot, e)
        if slot == vacated {
            vacated = -1
            walkUp(from: slot)   // the removed member's path: it and `id` share the slot, so its nodes read as won by `id`
        } else {
            replay(from: (leaves + slot) >> 1)
        }
    }

    /// Takes `id` (a member) out, at `time`: a young member out of the young, at once; a member of the tree out of its leaf,
    /// at once, and the walk up its path waits for the next entry (`vacated`).
    @inlinable mutating func remove(_ id: Int32, at time: Int) {
        let slot = Int(slotOf[Int(id)])
        if slot <= -2 {   // a young member: out of the scan, no walk
            removeYoung(Self.youngIndex(slot))
            slotOf[Int(id)] = -1
            count -= 1
            _checkInvariants()
            return
        }
        settle()
        advance(to: time)
        slotOf[Int(id)] = -1
        count -= 1
        freeSlots.append(Int32(slot))
        nodes[leaves + slot] = Node()
        vacated = slot
    }

    /// Replays the path of a slot `remove` emptied, if one waits (`vacated`), at the current time (the removal's or later).
    @inlinable mutating func settle() {
        guard vacated >= 0 else { return }
        let slot = vacated
        vacated = -1
        replay(from: (leaves + slot) >> 1)
        _checkInvariants()
    }

    /// Gives member `id` a new score and tie-break at `time`: a young member's in place; in the tree, one walk up from its
    /// leaf where a removal and an insertion would take two. The walk stops at the first node that keeps its winner, is not won by `id` (a node won by `id` is
    /// a duel its parent reads with the new score) and whose melt would not come sooner (`replay(from:)`).
    @inlinable mutating func update(_ id: Int32, score: DecayingScore, sequence: UInt64, at time: Int) {
        assert(score.halfLifeMicros == halfLife, "KineticTournament: one half-life for all candidates")
        let slot = Int(slotOf[Int(id)])
        if slot <= -2 {   // a young member: in place
            advance(to: time)
            let e = Self.entry(id, score: score, sequence: sequence, growth: growth(since: score.since), spans: spans)
            young[Self.youngIndex(slot)] = e
            youngModels[Self.youngIndex(slot)] = YoungModel(e)
            _checkInvariants()
            return
        }
        settle()
        advance(to: time)
        entries[slot] = Self.entry(id, score: score, sequence: sequence, growth: growth(since: score.since), spans: spans)
        nodes[leaves + slot] = Node(slot, entries[slot])
        walkUp(from: slot)
        _checkInvariants()
    }

    /// Replays the duels up from `slot`'s leaf, whose entry changed, to the first node that keeps its winner, is not won by
    /// `slot` (a node won by `slot` holds a copy of its old model, which its parent reads) and whose melt would not come
    /// sooner.
    @inlinable mutating func walkUp(from slot: Int) {
        var k = (leaves + slot) >> 1
        while k >= 1 {
            let before = nodes[k]
            duel(k)
            if nodes[k].winner == before.winner && nodes[k].melt >= before.melt && Int(nodes[k].winner) != slot { return }
            k >>= 1
        }
    }

    /// Gives `id` its score and tie-break at `time`: `update` for a member, `insert` otherwise (one call for the index,
    /// which held the tournament as an optional, through which a `contains` first copied it).
    @inlinable mutating func set(_ id: Int32, score: DecayingScore, sequence: UInt64, at time: Int) {
        if contains(id) { update(id, score: score, sequence: sequence, at: time) } else { insert(id, score: score, sequence: sequence, at: time) }
    }

    /// Every member's id (debug checks: the scan the tournament must agree with).
    @usableFromInline func members() -> [Int32] {
        entries.indices.filter { nodes[leaves + $0].winner >= 0 }.map { entries[$0].id } + young.map(\.id)
    }

    // MARK: Time

    /// Moves the current time to `time`, replaying every duel whose certificate has expired.
    @inlinable mutating func advance(to time: Int) {
        if time != now {
            (previousTime, previousDecay) = (now, decay)
            if count == 0 {
                base = time
                previousTime = Int.min
            } else if time < now || Double(time - base) > Self.rebaseHalfLives * halfLife {
                rebase(to: time)
                if time < now {   // certificates hold forward only: decide every duel again
                    now = time
                    for k in stride(from: leaves - 1, through: 1, by: -1) { duel(k) }
                    return
                }
            }
            now = time
            decay = exp2(-Double(now - base) / halfLife)
        }
        if nodes[1].melt <= now { refresh(1) }
    }

    /// Replays the expired duels below `node` (whose melt has come), children first.
    @inlinable mutating func refresh(_ node: Int) {
        let left = 2 * node
        if left < leaves {
            if nodes[left].melt <= now { refresh(left) }
            if nodes[left + 1].melt <= now { refresh(left + 1) }
        }
        duel(node)
    }

    /// Replays the duels from `node` up to the root (a leaf below changed), up to the first node that keeps its winner
    /// and whose melt does not come sooner: a node depends only on its children (all certified at `now`), so no winner
    /// above it changes, and their melts, at most this node's old one, stay valid (if early, a node is decided again
    /// early, never late). An inserted candidate that loses its first duels, or a removed one that won none, stops the
    /// walk within a few levels.
    @inlinable mutating func replay(from node: Int) {
        var k = node
        while k >= 1 {
            let before = nodes[k]
            duel(k)
            if nodes[k].winner == before.winner && nodes[k].melt >= before.melt { return }
            k >>= 1
        }
    }

    /// Moves the model's time origin to `time` (slopes recomputed from each score).
    @usableFromInline mutating func rebase(to time: Int) {
        base = time
        decay = 1
        previousTime = Int.min
        for s in entries.indices where nodes[leaves + s].winner >= 0 {
            entries[s].slope = Self.slope(entries[s].score, base: base)
        }
        for k in 1..<(2 * leaves) where nodes[k].winner >= 0 { nodes[k].slope = entries[Int(nodes[k].winner)].slope }
        for i in young.indices {
            young[i].slope = Self.slope(young[i].score, base: base)
            youngModels[i] = YoungModel(young[i])
        }
    }

    @inlinable static func slope(_ s: DecayingScore, base: Int) -> Double {
        slope(s, growth: exp2(Double(s.since - base) / s.halfLifeMicros))
    }

    @inlinable @inline(__always) static func slope(_ s: DecayingScore, growth: Double) -> Double {
        s.count * growth * (s.numerator / s.divisor)
    }

    /// 2^((since − base)/halfLife), a count's growth in the model from `since` — from a decay `advance` already took when
    /// `since` is now or the time before (a cache replay scores an object as it leaves the foreground, the request after
    /// its use), within an ulp or two of exp2's (the model is an approximation to 2^-40 anyway).
    @inlinable @inline(__always) func growth(since: Int) -> Double {
        if since == now { return 1 / decay }
        if since == previousTime { return 1 / previousDecay }
        return exp2(Double(since - base) / halfLife)
    }

    /// The slots of the first tree (a power of two; each growth doubles them).
    @usableFromInline static var firstLeaves: Int { 64 }

    /// What a free slot's entry holds (never read: its leaf is empty).
    @usableFromInline static var emptyEntry: Entry {
        Entry(score: DecayingScore(count: 0, since: 0, halfLifeMicros: 1), sequence: 0, id: -1, intercept: 0, slope: 0,
              constantValue: 0, constantFrom: Int.min, preciseUntil: Int.max)
    }

    /// Doubles the slots (and the tree).
    @usableFromInline mutating func growSlots() {
        let old = leaves, used = entries.count   // `used` slots exist (0 before the first growth, `leaves` after)
        let grown = max(2 * leaves, Self.firstLeaves)
        entries.reserve(grown)
        while entries.count < grown { entries.append(Self.emptyEntry) }
        leaves = grown
        freeSlots.reserve(grown)
        for s in stride(from: grown - 1, through: used, by: -1) { freeSlots.append(Int32(s)) }
        guard used > 0 else {   // the first growth: every node empty
            nodes = UncheckedArray<Node>(repeating: Node(), count: 2 * grown)
            return
        }
        // The old tree becomes the new root's left subtree: node k of depth d moves to k + 2^d (its leaves to the new leaves
        // of the same slots) with its winner, model and melt, all still true; the right subtree is empty, so only the new
        // root's duel is new (where deciding every duel again cost about two duels a member over a replay). In place, the
        // deepest level first (each level moves onto the left half of the next one down, which has moved already), so that
        // the old nodes' memory is kept (`UncheckedArray.reallocate`), not faulted in again in a new block.
        assert(grown == 2 * old, "KineticTournament: a growth after the first doubles the leaves")
        nodes.extend(to: 2 * grown, with: Node())
        var depthStart = old
        while depthStart >= 1 {
            for k in depthStart..<(2 * depthStart) {
                nodes[k + depthStart] = nodes[k]
                nodes[k + 2 * depthStart] = Node()   // the right subtree's node of that level
            }
            depthStart /= 2
        }
        duel(1)
    }

    // MARK: Duels

    /// A candidate's entry: its score's model and ranges. (Always inlined: its 100 bytes are then written where they go, not
    /// returned through the stack and copied; with the heap's time test inline, `cost` 886 → 854 instructions a request at
    /// 15.1 MB of the binary's first million requests.) `spans`: the index's `HalfLifeSpans`, for its one half-life.
    @inlinable @inline(__always)
    static func entry(_ id: Int32, score s: DecayingScore, sequence: UInt64, growth: Double, spans: HalfLifeSpans) -> Entry {
        let weight = s.numerator / s.divisor
        // (Each field computed first and the entry made once at the end: a `var` entry changed in either branch kept the
        // score in two copies on the stack on the way to the member, 20 instructions an insertion.)
        var slope = Self.slope(s, growth: growth)
        // `cost`'s scores (offset 1) with count and weight between 2^-200 and 2^200, nearly all: `ranges(of:)`'s `top` is
        // then below 604 and its `low` above -402 whatever the mantissas, so its precision lasts 998 half-lives, and its
        // constant comes by the spans' bound (`HalfLifeSpans`), all in integers (the general ranges' bounds of the
        // logarithms and their two conversions to times were two fifths of an insertion's instructions). Its constant is
        // the weight's double, as (0 + 1) · n is n: a division fewer.
        let constantValue: Double, ranges: (constantFrom: Int, preciseUntil: Int)
        if s.offset == 1 && s.halfLifeMicros == spans.halfLife && Self.isModerate(s.count) && Self.isModerate(s.numerator)
            && Self.isModerate(s.divisor) {
            constantValue = weight
            ranges = spans.ranges(since: s.since, count: s.count)
            assert(ranges.preciseUntil == Self.ranges(of: s).preciseUntil && ranges.constantFrom >= Self.ranges(of: s).constantFrom,
                   "KineticTournament: the moderate scores' ranges are not within the general ones")
            assert(constantValue.bitPattern == ((0 + s.offset) * s.numerator / s.divisor).bitPattern, "KineticTournament: the constant differs")
        } else {
            constantValue = (0 + s.offset) * s.numerator / s.divisor
            ranges = Self.ranges(of: s)
            if s.count == 0 || s.numerator == 0 { slope = 0 }
        }
        return Entry(score: s, sequence: sequence, id: id, intercept: s.offset * weight, slope: slope, constantValue: constantValue,
                     constantFrom: ranges.constantFrom, preciseUntil: ranges.preciseUntil)
    }

    /// What the moderate scores' ranges (`entry`'s shortcut: offset 1, count and weight within 2^±200) take from an index's
    /// one half-life h, computed once as the index takes it. Their precision ends where the general ranges say, `since` +
    /// ⌊998 h⌋ (saturating), the same integer. Their constant comes by `since` + ⌈57.3 h⌉ + max(e, 0) · ⌈h⌉ at the latest,
    /// for a count below 2^(e+1): the general ranges' time is `since` + ⌈h · (e + (m − 1) + 0.09 + 2^-40 + 56)⌉ for a count
    /// m · 2^e, and e + (m − 1) < max(e, 0) + 1, while the products' rounding is far below the 0.2 h spare. A later constant
    /// changes no result (`Entry.constantFrom`: the model stays precise until `preciseUntil`, and the constant is only a
    /// shortcut to a double that is already it): for a count of at least 1 (every `cost` score's: an open adds 1) at most
    /// 1.21 half-lives and e µs after the general one, of the 56 or more after which the count has vanished.
    /// Unusable (a NaN half-life, so no score takes the shortcut) when h is not positive or the bound could pass 2^62.
    @usableFromInline
    struct HalfLifeSpans: BitwiseCopyable {
        @usableFromInline let halfLife: Double
        /// ⌊998 h⌋, or Int.max past 9·10^18 (`time(_:plus:roundingUp:)`'s saturation).
        @usableFromInline let precise: Int
        /// ⌈57.3 h⌉ and ⌈h⌉.
        @usableFromInline let constantBase: Int
        @usableFromInline let constantPerBinade: Int

        @inlinable init(halfLife h: Double) {
            let base = (57.3 * h).rounded(.up), perBinade = h.rounded(.up)
            guard h > 0, base + 201 * perBinade < 0x1p62 else {
                (halfLife, precise, constantBase, constantPerBinade) = (.nan, 0, 0, 0)
                return
            }
            (halfLife, constantBase, constantPerBinade) = (h, Int(base), Int(perBinade))
            precise = KineticTournament.time(0, plus: h * 998, roundingUp: false)
        }

        /// A moderate count's (2^-200 ≤ count < 2^201) constant and precision times for a score from `since`.
        @inlinable @inline(__always) func ranges(since: Int, count: Double) -> (constantFrom: Int, preciseUntil: Int) {
            let binade = max(0, Int(truncatingIfNeeded: count.bitPattern >> 52) &- 1023)   // ≤ 200
            let (constantFrom, late) = since.addingReportingOverflow(constantBase &+ binade &* constantPerBinade)
            let (preciseUntil, beyond) = since.addingReportingOverflow(precise)
            return (late ? Int.max : constantFrom, beyond || precise == Int.max ? Int.max : preciseUntil)
        }
    }

    /// From when a score's double is constant, and before when it is within 2^-40 of its model (`Entry.constantFrom`,
    /// `Entry.preciseUntil`), for any score.
    @inlinable static func ranges(of s: DecayingScore) -> (constantFrom: Int, preciseUntil: Int) {
        let h = s.halfLifeMicros
        if s.count == 0 || s.numerator == 0 { return (Int.min, Int.max) }   // the double is `constantValue` at every time
        // Outside these the doubles may overflow, or lose precision without exp2 underflowing: every duel evaluated.
        // (Bounds of the logarithms, each on the side that only narrows the ranges.)
        // (`lfu`'s weight is 1 / 1 and its offset 0: no bounds to take for them.)
        let c = Self.log2Bounds(s.count)
        let n = s.numerator == 1 ? Self.log2BoundsOfOne : Self.log2Bounds(s.numerator)
        let d = s.divisor == 1 ? Self.log2BoundsOfOne : Self.log2Bounds(s.divisor)
        let top = (s.offset == 0 ? c : Self.log2Bounds(s.count + s.offset)).upper + n.upper + max(0, -d.lower)   // the largest value along the way
        guard s.count > 0, s.numerator > 0, s.offset >= 0, s.divisor > 0, h > 0, top < 900 else { return (Int.max, Int.min) }
        if s.offset > 0 {
            let o = Self.log2Bounds(s.offset)
            // The count adds nothing to the offset once below offset · 2^-54 (half an ulp is at least offset · 2^-53).
            let constantFrom = Self.time(s.since, plus: h * (c.upper - o.lower + 56), roundingUp: true)
            let low = o.lower + n.lower + min(0, -d.upper)   // the smallest value along the way (at the offset)
            return (constantFrom, low < -900 ? Int.min : Self.time(s.since, plus: h * 998, roundingUp: false))
        }
        // exp2 is 0 from 2^-1078 on (below half the least subnormal), and so is the score.
        let x = 998 + min(0, c.lower, c.lower + n.lower, c.lower + n.lower - d.upper)   // exp2, the count and the score stay normal (> 2^-1000)
        return (Self.time(s.since, plus: h * 1078, roundingUp: true), Self.time(s.since, plus: h * x, roundingUp: false))
    }

    /// Whether `x` is positive and normal with an exponent within ±200 (2^-200 ≤ x < 2^201).
    @inlinable @inline(__always) static func isModerate(_ x: Double) -> Bool {
        UInt64(truncatingIfNeeded: Int(truncatingIfNeeded: x.bitPattern >> 52) &- (1023 - 200)) <= 400
    }

    /// Bounds of log2(`x`) from its bits, for a positive normal x = m · 2^e (1 ≤ m < 2): e + (m − 1), the chord below the
    /// concave log2 on [1, 2], less 2^-40 for rounding, and that plus 0.09 (the chord is at most 0.0861 below, at
    /// m = 1/ln 2). libm's log2 for both otherwise (0, negatives, subnormals, infinities, NaN). Where a range needs only a
    /// bound, this costs a few instructions where log2 costs some fifty, and it narrows the range by a tenth of a
    /// half-life at most.
    @inlinable @inline(__always) static func log2Bounds(_ x: Double) -> (lower: Double, upper: Double) {
        let bits = x.bitPattern
        let biased = Int(truncatingIfNeeded: bits >> 52)   // with the sign bit: a negative x is out of range here
        guard biased > 0 && biased < 0x7ff else {
            let l = log2(x)
            return (l, l)
        }
        let m = Double(bitPattern: (bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000)
        let chord = Double(biased - 1023) + (m - 1)
        return (chord - 0x1p-40, chord + 0.09)
    }

    /// `log2Bounds(1)` (the chord is 0), a constant: `lfu`'s weight is 1 / 1.
    @inlinable static var log2BoundsOfOne: (lower: Double, upper: Double) { (-0x1p-40, 0.09) }

    /// `since + micros`, saturating, rounded down or up (the integer part corrected by one where it rounded the other
    /// way: what `rounded(.up)` and `rounded(.down)` give, without a call to libm's ceil or floor).
    @inlinable @inline(__always) static func time(_ since: Int, plus micros: Double, roundingUp: Bool) -> Int {
        if !(micros < 9.0e18) { return Int.max }
        if !(micros > -9.0e18) { return Int.min }
        var m = Int(micros)   // toward zero
        if roundingUp { if Double(m) < micros { m += 1 } } else if Double(m) > micros { m -= 1 }
        let (t, overflow) = since.addingReportingOverflow(m)
        return overflow ? (m > 0 ? Int.max : Int.min) : t
    }

    /// Decides node `k`'s duel at `now` from its children's winners: from the keys the two nodes hold when both
    /// winners' doubles are their models' and far apart (most duels), otherwise from their entries.
    /// (Always inlined into the walks, with the rarer duels out of line, in `duelFromEntries`.)
    @inlinable @inline(__always) mutating func duel(_ k: Int) {
        let left = nodes[2 * k], right = nodes[2 * k + 1]
        let melt = min(left.melt, right.melt)
        if left.winner < 0 || right.winner < 0 {
            var node = left.winner < 0 ? right : left
            node.melt = melt
            nodes[k] = node
            return
        }
        if now < left.modelUntil && now < right.modelUntil {
            let sa = left.intercept + left.slope * decay, sb = right.intercept + right.slope * decay
            if Self.modelDecides(sa, sb) {
                var node = sa < sb ? left : right
                let loser = sa < sb ? right : left
                node.melt = certified(node.intercept, node.slope, loser.intercept, loser.slope,
                                      atMost: min(melt, node.modelUntil, loser.modelUntil))
                nodes[k] = node
                return
            }
        }
        duelFromEntries(k, Int(left.winner), Int(right.winner), melt: melt)
    }

    /// Node `k`'s duel between slots `a` and `b` from their entries, its children's melts coming at `melt`.
    @inlinable @inline(never) mutating func duelFromEntries(_ k: Int, _ a: Int, _ b: Int, melt: Int) {
        let (winner, until) = duel(a, b)
        var node = Node(winner, entries[winner])
        node.melt = min(melt, until)
        nodes[k] = node
    }

    /// The better of slots `a` and `b` at `now`, and until when that holds at least. (Always inlined, as the two
    /// below: called from a mutating method, a non-inlined one would receive a copy of the whole tournament.)
    @inlinable @inline(__always) func duel(_ a: Int, _ b: Int) -> (winner: Int, until: Int) {
        let ea = entries[a], eb = entries[b]
        let constantA = now >= ea.constantFrom, constantB = now >= eb.constantFrom
        // Two constant scores (`largest`'s always; decayed ones for good): their doubles decide for ever, as below.
        if constantA && constantB {
            let sa = ea.constantValue, sb = eb.constantValue
            return (sa < sb || (sa == sb && ea.sequence < eb.sequence) ? a : b, Int.max)
        }
        if (constantA || now < ea.preciseUntil) && (constantB || now < eb.preciseUntil) {
            let sa = constantA ? ea.constantValue : ea.intercept + ea.slope * decay
            let sb = constantB ? eb.constantValue : eb.intercept + eb.slope * decay
            if Self.modelDecides(sa, sb) {   // (never for identical scores)
                let aWins = sa < sb
                let (ew, el) = aWins ? (ea, eb) : (eb, ea)
                let until = certified(ew, constantW: aWins ? constantA : constantB, el, constantL: aWins ? constantB : constantA)
                return (aWins ? a : b, min(until, ew.preciseEnd(now), el.preciseEnd(now)))
            }
            if ea.score == eb.score { return (ea.sequence < eb.sequence ? a : b, Int.max) }   // equal doubles at every time
            let w = exactWinner(a, b)
            let (ew, el) = w == a ? (ea, eb) : (eb, ea)
            if constantA && constantB { return (w, Int.max) }
            // Equal weights (numerator ≥ 0 here), counts far apart, the smaller count also the smaller sequence: the
            // smaller count's doubles never exceed the other's (rounding is monotone), and a tie goes its way too. (A
            // constant winner's double is the least its weight allows: `offset` · weight.)
            let constantW = w == a ? constantA : constantB, constantL = w == a ? constantB : constantA
            if !constantL && ew.score.offset == el.score.offset && ew.score.numerator == el.score.numerator
                && ew.score.divisor == el.score.divisor && ew.sequence < el.sequence
                && (constantW || ew.slope < el.slope * (1 - 2 * Self.epsilon)) {
                return (w, constantW ? Int.max : min(ew.preciseEnd(now), el.preciseEnd(now)))
            }
            return (w, now + 1)
        }
        if ea.score == eb.score { return (ea.sequence < eb.sequence ? a : b, Int.max) }
        return (exactWinner(a, b), constantA && constantB ? Int.max : now + 1)
    }

    /// Whether two model scores are far enough apart (by more than 2ε relative) for the doubles to compare as they do.
    @inlinable @inline(__always) static func modelDecides(_ sa: Double, _ sb: Double) -> Bool {
        abs(sa - sb) > 2 * epsilon * (sa + sb)
    }

    /// Until when the model's gap between the winner and the loser stays above ε (the scores are lines in
    /// `decay`, which only falls: they cross at most once).
    @inlinable @inline(__always) func certified(_ w: Entry, constantW: Bool, _ l: Entry, constantL: Bool) -> Int {
        certified(constantW ? w.constantValue : w.intercept, constantW ? 0 : w.slope, constantL ? l.constantValue : l.intercept,
                  constantL ? 0 : l.slope)
    }

    /// The same for the winner's model `iw + mw · decay` against the loser's `il + ml · decay` (what a duel from nodes
    /// reads), or `bound` (> `now`) when that comes first: then the logarithm is left out whenever a bound of it from
    /// the exponent's bits already shows the certificate lasts until `bound` (the same result, some fifty instructions
    /// fewer; most of `cost`'s duels, whose lines cross, end here).
    @inlinable @inline(__always) func certified(_ iw: Double, _ mw: Double, _ il: Double, _ ml: Double, atMost bound: Int = Int.max) -> Int {
        let e = Self.epsilon
        let p = il * (1 - e) - iw * (1 + e)   // the gap's margin as decay → 0
        if p >= 0 { return bound }
        let q = ml * (1 - e) - mw * (1 + e)   // > -p / decay > 0: the margin is positive now
        return Self.crossing(q * decay / -p, now: now, halfLife: halfLife, atMost: bound)
    }

    /// When the gap's margin, `x` times what it is at `now` (the margin at `now` over the one as decay → 0), runs out:
    /// `now` + halfLife · log2 `x`, or `bound` when that comes first. (Out of line: most duels never come here.)
    @inlinable @inline(never) static func crossing(_ x: Double, now: Int, halfLife: Double, atMost bound: Int) -> Int {
        if bound < Int.max && bound > now {
            // `micros` below is at least halfLife · lower less a few ulps, and its floor at least the span if this holds.
            let span = Double(bound - now)
            if halfLife * log2Bounds(x).lower >= span * (1 + 0x1p-40) + 2 { return bound }
        }
        let micros = halfLife * log2(x)
        guard micros.isFinite else { return micros > 0 ? bound : min(bound, now + 1) }
        return min(bound, max(now + 1, time(now, plus: micros, roundingUp: false)))
    }

    /// The scan's choice between slots `a` and `b` at `now`: the smaller double, then the smaller sequence.
    @inlinable @inline(__always) func exactWinner(_ a: Int, _ b: Int) -> Int { diesFirst(entries[a], entries[b]) ? a : b }

    /// Debug builds, small trees: every node's winner is what a scan of its subtree picks now, and no melt has come.
    @inlinable func _checkInvariants() {
        #if DEBUG
        precondition(young.count <= youngCapacity, "KineticTournament: \(young.count) young members")
        precondition(youngModels.count == young.count, "KineticTournament: \(youngModels.count) young models for \(young.count)")
        for i in young.indices {
            precondition(slotOf[Int(young[i].id)] == Self.youngSlot(i), "KineticTournament: young member \(i) misfiled")
            let m = YoungModel(young[i])
            precondition(youngModels[i].intercept == m.intercept && youngModels[i].slope == m.slope && youngModels[i].until == m.until,
                         "KineticTournament: young member \(i)'s model is stale")
        }
        guard leaves <= 64, vacated < 0 else { return }
        let attached = count - young.count
        precondition(freeSlots.count + attached == leaves || (leaves == 1 && attached == 0), "KineticTournament: \(attached) members in the tree, \(freeSlots.count) free of \(leaves)")
        var value = [Double](repeating: 0, count: leaves)
        var best = [Int](repeating: -1, count: 2 * leaves)   // the scan's pick in each subtree
        for s in 0..<leaves where nodes[leaves + s].winner >= 0 {
            precondition(nodes[leaves + s].winner == Int32(s) && slotOf[Int(entries[s].id)] == Int32(s), "KineticTournament: slot \(s) misfiled")
            value[s] = entries[s].score.value(at: now)
            best[leaves + s] = s
        }
        for k in stride(from: leaves - 1, through: 1, by: -1) {
            let a = best[2 * k], b = best[2 * k + 1]
            best[k] = a < 0 ? b : b < 0 ? a
                : value[a] < value[b] || (value[a] == value[b] && entries[a].sequence < entries[b].sequence) ? a : b
            precondition(Int(nodes[k].winner) == best[k], "KineticTournament: node \(k) holds \(nodes[k].winner), a scan picks \(best[k]) at \(now)")
            if best[k] >= 0 {
                let e = entries[best[k]], n = nodes[k]
                precondition(n.intercept == e.intercept && n.slope == e.slope && n.modelUntil == e.modelUntil,
                             "KineticTournament: node \(k)'s copy of slot \(best[k])'s key is stale")
            }
            precondition(nodes[k].melt > now, "KineticTournament: node \(k)'s certificate expired at \(nodes[k].melt), now \(now)")
            precondition(nodes[k].melt <= min(nodes[2 * k].melt, nodes[2 * k + 1].melt), "KineticTournament: node \(k) melts after a child")
        }
        #endif
    }
}

extension KineticTournament.Entry {
    /// When the model stops being a faithful stand-in for the doubles: never once the score is constant.
    @inlinable func preciseEnd(_ now: Int) -> Int { now >= constantFrom ? Int.max : preciseUntil }
}

extension KineticTournament.Entry {
    /// Before this time the policy's double is the model's (`precise` and not constant): what a duel from nodes needs.
    @inlinable var modelUntil: Int { min(preciseUntil, constantFrom) }
}

extension KineticTournament {
    /// A young member's model and until when it is the double (`Entry.intercept`, `Entry.slope`, `Entry.modelUntil`).
    @usableFromInline
    struct YoungModel: BitwiseCopyable {
        @usableFromInline var intercept: Double
        @usableFromInline var slope: Double
        @usableFromInline var until: Int
        @inlinable init(_ e: Entry) {
            intercept = e.intercept
            slope = e.slope
            until = e.modelUntil
        }
    }
}

extension KineticTournament.Node {
    /// A leaf, or a subtree won by slot `winner` (whose entry is `e`), with no certificate yet.
    @inlinable init(_ winner: Int, _ e: KineticTournament.Entry) {
        self.winner = Int32(winner)
        intercept = e.intercept
        slope = e.slope
        modelUntil = e.modelUntil
    }
}
