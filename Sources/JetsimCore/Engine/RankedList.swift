/// Members in ascending (`RankingKey`, id) order as a doubly linked list over dense ids: the head is the first
/// victim. A member is placed by walking back from the tail, so keys that only grow — recency (`lru`), arrival
/// (`fifo`), band entry inside one band (`xnu`) — cost O(1) per insert, remove or re-key; other keys cost a walk.
/// Both drivers keep their kill candidates here when the policy ranks by a key: `Simulator` (its apps) and
/// `CacheReplay` (its objects). For `xnu` in the full engine a new entrant of a band walks back only past the
/// candidates of higher bands (about one on average: nearly every candidate is idle), and a re-key or removal is a
/// few stores where the indexed heap this replaced sifted through its levels (5 % of an event's instructions).
///
/// The walk back skips a whole major key (a band, for `xnu`) at once: `firstByMajor` keeps the first member of each
/// small major, so a new entrant of band 0 passes the frozen, background and foreground bands in three steps, not
/// one per member (the freezer keeps up to 20 apps in band 75).
///
/// The nodes live in an `UncheckedArray`: the owning driver calls `makeUnique()` at each public mutating entry.
///
/// Invariant: following `next` from `head` visits every member once in strictly ascending (key, id) order and
/// ends at `tail`; `prev` mirrors `next`; a non-member has `member == false`. `count` is the number of members.
/// `firstByMajor[m]` (for `0 ≤ m < indexedMajors`) is the first member whose key's major is `m`, or −1 when none is.
@usableFromInline
struct RankedList {
    @usableFromInline
    struct Node: BitwiseCopyable {
        @usableFromInline var key = RankingKey(major: 0, minor: 0)
        @usableFromInline var prev: Int32 = -1
        @usableFromInline var next: Int32 = -1
        @usableFromInline var member = false
        @inlinable init() {}
    }

    @usableFromInline var nodes = UncheckedArray<Node>(capacity: 0)
    @usableFromInline var head: Int32 = -1
    @usableFromInline var tail: Int32 = -1
    @usableFromInline var count = 0
    @usableFromInline var firstByMajor = UncheckedArray<Int32>(repeating: -1, count: indexedMajors)
    /// Majors below this are indexed (bands are 0…200); others are walked member by member.
    @usableFromInline static let indexedMajors = 256

    @inlinable init() {}

    /// Room for ids below `count` up front (the full engine's apps).
    @inlinable init(count: Int) { nodes = UncheckedArray(repeating: Node(), count: count) }

    /// Makes room for ids below `n` (ids arrive densely, as objects are first seen).
    @inlinable mutating func grow(to n: Int) {
        nodes.extend(to: n, with: Node())
    }

    /// Copies shared storage (`UncheckedArray`): called at every public mutating entry of the driver that owns the list.
    @inlinable @inline(__always)
    mutating func makeUnique() {
        nodes.makeUnique()
        firstByMajor.makeUnique()
    }

    /// The first member with this major key, or −1 (also for a major that is not indexed).
    @inlinable func firstMember(ofMajor major: Int) -> Int32 {
        major >= 0 && major < Self.indexedMajors ? firstByMajor[major] : -1
    }

    @inlinable func contains(_ id: Int32) -> Bool { nodes[Int(id)].member }

    /// Starts loading `id`'s node (a hint: nothing changes; any `id`, as `UncheckedArray.prefetch`). The cache replay
    /// asks it of an object requested soon: as it leaves the foreground, the object enters the list, and the test of
    /// its node's membership was where `lru`'s replay waited most (a node of 100 000 objects' 3.2 MB, not in cache
    /// for an object just missed).
    @inlinable func prefetchNode(of id: Int32) { nodes.prefetch(Int(id)) }

    /// The first member in order, or nil when there is none.
    @inlinable var first: Int32? { head >= 0 ? head : nil }

    @inlinable var isEmpty: Bool { head < 0 }

    /// `id`'s key (a member's).
    @inlinable func key(of id: Int32) -> RankingKey { nodes[Int(id)].key }

    @inlinable func precedes(_ a: Int32, _ key: RankingKey, _ id: Int32) -> Bool {
        let k = nodes[Int(a)].key
        return k != key ? k < key : a < id
    }

    /// Adds `id` (not a member) in order.
    @inlinable mutating func insert(_ id: Int32, key: RankingKey) {
        let i = Int(id)
        var after = tail
        while after >= 0 && !precedes(after, key, id) {
            // Every member of a later major comes after `key`: skip them all.
            let major = nodes[Int(after)].key.major
            let first = major != key.major ? firstMember(ofMajor: major) : -1
            after = nodes[Int(first >= 0 ? first : after)].prev
        }
        nodes[i].key = key
        nodes[i].member = true
        nodes[i].prev = after
        let before = after >= 0 ? nodes[Int(after)].next : head
        nodes[i].next = before
        if after >= 0 { nodes[Int(after)].next = id } else { head = id }
        if before >= 0 { nodes[Int(before)].prev = id } else { tail = id }
        if key.major >= 0 && key.major < Self.indexedMajors && (after < 0 || nodes[Int(after)].key.major != key.major) {
            firstByMajor[key.major] = id
        }
        count += 1
        _checkInvariants()
    }

    /// Sets `id`'s key; nil takes it out. A re-key is a removal and an insertion (unchanged keys cost nothing).
    @inlinable mutating func update(_ id: Int32, key: RankingKey?) {
        if nodes[Int(id)].member {
            if let key, nodes[Int(id)].key == key { return }
            remove(id)
        }
        if let key { insert(id, key: key) }
    }

    /// The first member in order that `accepts` (it stays a member), or nil.
    @inlinable func first(where accepts: (Int32) -> Bool) -> Int32? {
        var at = head
        while at >= 0 && !accepts(at) { at = nodes[Int(at)].next }
        return at >= 0 ? at : nil
    }

    /// Takes `id` (a member) out.
    @inlinable mutating func remove(_ id: Int32) {
        let i = Int(id)
        let p = nodes[i].prev, n = nodes[i].next
        if p >= 0 { nodes[Int(p)].next = n } else { head = n }
        if n >= 0 { nodes[Int(n)].prev = p } else { tail = p }
        let major = nodes[i].key.major
        if firstMember(ofMajor: major) == id { firstByMajor[major] = n >= 0 && nodes[Int(n)].key.major == major ? n : -1 }
        nodes[i].member = false
        nodes[i].prev = -1
        nodes[i].next = -1
        count -= 1
        _checkInvariants()
    }

    /// Debug builds, small lists: the order and the links are consistent.
    @inlinable func _checkInvariants() {
        #if DEBUG
        guard count <= 64 else { return }
        var seen = 0, indexedMajorsLinked = 0
        var previous: Int32 = -1
        var at = head
        while at >= 0 {
            precondition(nodes[Int(at)].member && nodes[Int(at)].prev == previous, "RankedList: broken link at \(at)")
            if previous >= 0 { precondition(precedes(previous, nodes[Int(at)].key, at), "RankedList: out of order at \(at)") }
            let major = nodes[Int(at)].key.major
            if major >= 0 && major < Self.indexedMajors {
                let first = previous < 0 || nodes[Int(previous)].key.major != major
                precondition((firstByMajor[major] == at) == first, "RankedList: first of major \(major) is not \(at)")
                if first { indexedMajorsLinked += 1 }   // (the order keeps a major's members together)
            }
            previous = at
            at = nodes[Int(at)].next
            seen += 1
        }
        precondition(previous == tail && seen == count, "RankedList: \(seen) linked, \(count) counted")
        // Every linked major's first is recorded (above), so the recorded firsts are exactly those when they are as many.
        // (Through the storage's pointer: this runs at every change in debug builds, where each subscript retains.)
        let firsts = firstByMajor.base
        var recorded = 0
        for major in 0..<Self.indexedMajors where firsts[major] >= 0 { recorded += 1 }
        precondition(recorded == indexedMajorsLinked, "RankedList: stale first of a major")
        #endif
    }
}
