/// The cache replay's index of candidates whose decaying scores may cross (`cost`'s): a heap of floors
/// (`CrossingScoreHeap`) while its windows pay, then a kinetic tournament (`KineticTournament`) for good. Both give exactly
/// the scan's victim; they differ only in speed, and each is faster where the other is slow.
///
/// The heap walks little per miss but rebuilds every floor each window and weighs every node whose floor lies near the
/// first; the tournament walks a path of duels per insertion and eviction whatever the window. Measured per request
/// (callgrind inside the replay), heap alone against tournament alone: 965 / 1 896 at 15.1 MB of the first million
/// requests of the 10 M-request binary (100 candidates), 507 / 562 at the CI gate's 10 % (10 000), but 920 / 632 at 10 %
/// of a 1 M-request Zipf trace (70 000), 1 076 / 751 with a 6-minute half-life at the gate, 5 672 / 5 016 on one-time
/// objects of one size. The heap's work per operation, nodes rebuilt and weighed, told them apart: 1.7–2.9 where the heap
/// was faster, 5 where they were even, 11.7–41 where it was slower. So when one of the heap's windows did more than
/// `CrossingScoreHeap.maximumWorkPerOperation` nodes of work per operation (`stoppedPaying`), its members move to a
/// tournament, built at once from their entries (`KineticTournament.init(building:)`), and stay there: then 670 against
/// 632 on the Zipf trace (1 138 against 1 184 at 1 % of it), 781 and 671 against 751 and 636 with half-lives of 6 minutes
/// and an hour at the gate (the windows before the move), 5 214 against 5 016 on the one-time objects; the heap's cases
/// 485 at the gate, 936 at 15.1 MB (alpha 2: 615 against 698; alpha 0, even: 921 against 885).
///
/// Invariant: exactly one of the two holds the members (`inTournament` says which; the other is empty).
@usableFromInline
struct CrossingScoreIndex {
    @usableFromInline var heap = CrossingScoreHeap()
    /// Empty until the move. Not an optional: the test of its tag was an outlined call at each use (14 instructions a request
    /// of `cost`'s at 10 % of the 1 M-request CSV), for twelve allocations a replay (its six small arrays).
    @usableFromInline var tournament = KineticTournament()
    @usableFromInline var inTournament = false

    @inlinable init() {}

    @inlinable var count: Int { inTournament ? tournament.count : heap.count }

    @inlinable mutating func grow(to n: Int) {
        if inTournament { tournament.grow(to: n) } else { heap.grow(to: n) }
    }

    @inlinable @inline(__always) mutating func makeUnique() {
        if inTournament { tournament.makeUnique() } else { heap.makeUnique() }
    }

    @inlinable mutating func contains(_ id: Int32) -> Bool { inTournament ? tournament.contains(id) : heap.contains(id) }

    /// Member `id`'s score and tie-break as stored, or nil when `id` is not a member.
    @inlinable mutating func storedScore(of id: Int32) -> (score: DecayingScore, sequence: UInt64)? {
        inTournament ? tournament.storedScore(of: id) : heap.storedScore(of: id)
    }

    /// Hints only, for `now` (a request `prefetchDistance` ahead) and `later` (twice as far; -1: none): the heap starts
    /// loading `now`'s slot, all it reads first of a member through the object's id; the tournament `later`'s slot and what
    /// `storedScore(of: now)` reads, its entry, found through its slot loaded a distance before. (`later` is read only by the
    /// tournament: the heap's replays do not load it.)
    @inlinable @inline(__always) mutating func prefetch(entryOf now: Int32, slotOf later: @autoclosure () -> Int32) {
        if inTournament { tournament.prefetch(entryOf: now, slotOf: later()) } else { heap.prefetchSlot(of: now) }
    }

    /// The candidate that dies first at `time`, or nil when there is none.
    @inlinable mutating func first(at time: Int) -> Int32? {
        if inTournament { return tournamentFirst(at: time) }
        let first = heap.first(at: time)
        if heap.stoppedPaying { moveToTournament() }
        return first
    }

    /// `first(at:)` taken out (-1: none): an eviction's query and removal in one call.
    @inlinable mutating func popFirst(at time: Int) -> Int32 {
        if inTournament { return tournamentPopFirst(at: time) }
        let first = heap.popFirst(at: time)
        if heap.stoppedPaying { moveToTournament() }
        return first
    }

    /// Gives `id` its score and tie-break at `time` (an update or an insertion).
    @inlinable mutating func set(_ id: Int32, score: DecayingScore, sequence: UInt64, at time: Int) {
        set(id, score: score, sequence: sequence, at: time, isMember: contains(id))
    }

    /// `set` where the caller knows whether `id` is a member (`contains(id)`, asked since the last change): the heap's walk
    /// without asking again.
    @inlinable mutating func set(_ id: Int32, score: DecayingScore, sequence: UInt64, at time: Int, isMember: Bool) {
        assert(isMember == contains(id), "CrossingScoreIndex: \(id)'s membership is not what the caller says")
        if inTournament {
            tournamentSet(id, score: score, sequence: sequence, at: time)
            return
        }
        if isMember { heap.update(id, score: score, sequence: sequence, at: time) } else { heap.insert(id, score: score, sequence: sequence, at: time) }
        if heap.stoppedPaying { moveToTournament() }
    }

    /// Takes `id` (a member) out, at `time`.
    @inlinable mutating func remove(_ id: Int32, at time: Int) {
        if inTournament { tournamentRemove(id, at: time) } else { heap.remove(id) }
    }

    /// `remove(id, at: time)` for the member `first(at:)` named, which the heap usually holds at its root (`removeFirst`).
    @inlinable @inline(__always) mutating func removeFirst(_ id: Int32, at time: Int) {
        if inTournament { tournamentRemove(id, at: time) } else { heap.removeFirst(id) }
    }

    // The tournament's calls out of line, so that the heap's paths stay small where they are inlined.
    @usableFromInline @inline(never) mutating func tournamentFirst(at time: Int) -> Int32? { tournament.first(at: time) }

    @usableFromInline @inline(never) mutating func tournamentPopFirst(at time: Int) -> Int32 {
        guard let first = tournament.first(at: time) else { return -1 }
        tournament.remove(first, at: time)
        return first
    }

    @usableFromInline @inline(never)
    mutating func tournamentSet(_ id: Int32, score: DecayingScore, sequence: UInt64, at time: Int) {
        tournament.set(id, score: score, sequence: sequence, at: time)
    }

    @usableFromInline @inline(never) mutating func tournamentRemove(_ id: Int32, at time: Int) { tournament.remove(id, at: time) }

    /// Every member's id (debug checks).
    @usableFromInline func memberIDs() -> [Int32] { inTournament ? tournament.members() : heap.memberIDs() }

    /// Moves every member to the tournament, built at once from their entries as the heap holds them (the same models,
    /// from the heap's time origin; the heap's time is the tournament's). Once a replay at most.
    @usableFromInline mutating func moveToTournament() {
        heap.settle()
        tournament = KineticTournament(building: heap.nodes.map { heap.members[Int($0.id)].entry }, idCount: heap.slotOf.count,
                                       now: heap.now, base: heap.base, halfLife: heap.halfLife)
        inTournament = true
        heap = CrossingScoreHeap()
    }
}
