/// The apps in memory, so that per-decision loops visit resident apps only, never the whole catalog.
/// O(1) insert and remove (swap-remove); iteration order depends only on the event sequence, so runs stay
/// deterministic. Both arrays are written in place (`UncheckedArray`): the owner calls `makeUnique()` at each public
/// mutating entry.
///
/// Invariant: `members` holds each resident app exactly once and `position[app]` is its index there (−1 otherwise).
@usableFromInline
struct ResidentSet {
    @usableFromInline var members: UncheckedArray<Int32>
    @usableFromInline var position: UncheckedArray<Int32>

    @inlinable init(count: Int) {
        position = UncheckedArray(repeating: -1, count: count)
        members = UncheckedArray(capacity: count)
    }

    /// Makes room for apps below `n` (cache replays meet their objects as they go).
    @inlinable mutating func grow(to n: Int) {
        position.extend(to: n, with: -1)
        members.reserve(n)
    }

    @inlinable @inline(__always)
    mutating func makeUnique() {
        members.makeUnique()
        position.makeUnique()
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
