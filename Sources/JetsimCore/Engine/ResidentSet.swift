/// The apps in memory, so that per-decision loops visit resident apps only, never the whole catalog.
/// O(1) insert and remove (swap-remove); iteration order depends only on the event sequence, so runs stay
/// deterministic.
///
/// Invariant: `members` holds each resident app exactly once and `position[app]` is its index there (−1 otherwise).
@usableFromInline
struct ResidentSet {
    @usableFromInline var members: [Int32] = []
    @usableFromInline var position: [Int32]

    @inlinable init(count: Int) {
        position = [Int32](repeating: -1, count: count)
        members.reserveCapacity(count)
    }

    /// Makes room for apps below `n` (cache replays meet their objects as they go).
    @inlinable mutating func grow(to n: Int) {
        if n > position.count { position.append(contentsOf: repeatElement(-1, count: n - position.count)) }
    }

    @inlinable mutating func insert(_ app: Int) {
        guard position[app] < 0 else { return }
        position[app] = Int32(members.count)
        members.append(Int32(app))
    }

    @inlinable mutating func remove(_ app: Int) {
        let p = Int(position[app])
        guard p >= 0 else { return }
        let last = members.removeLast()
        if p < members.count {
            members[p] = last
            position[Int(last)] = Int32(p)
        }
        position[app] = -1
    }

    @inlinable func contains(_ app: Int) -> Bool { position[app] >= 0 }
}
