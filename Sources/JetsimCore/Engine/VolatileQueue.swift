/// Apps whose purgeable memory became volatile, oldest first: the VM's purge order in O(1) amortised, where a scan
/// of every resident app per purge used to be.
///
/// Volatile sequence numbers and times are handed out in increasing order, so appending keeps the queue sorted by
/// both. Entries are deleted lazily: an entry is live while its app still holds volatile purgeable memory under the
/// same sequence number, and once it is not, it never is again (memory made volatile anew gets a new number).
///
/// Invariant: `entries[head...]` is sorted by sequence and holds the entry of every app with volatile purgeable
/// memory; at most `limit` entries are stored, so the storage reserved up front never grows. The entries are written
/// in place (`UncheckedArray`): the owner calls `makeUnique()` at each public mutating entry.
struct VolatileQueue {
    struct Entry: BitwiseCopyable {
        var sequence: UInt64
        var since: Int
        var app: Int32
    }

    private var entries: UncheckedArray<Entry>
    private var head = 0
    private let limit: Int

    /// A queue for apps `0..<count`.
    init(count: Int) {
        limit = 4 * count + 64
        entries = UncheckedArray(capacity: limit)
    }

    @inline(__always)
    mutating func makeUnique() { entries.makeUnique() }

    /// Records that `app`'s memory became volatile, numbered `sequence` (greater than any before) at `since`.
    /// `isLive` tells the live entries apart when the queue is full and compacts.
    mutating func append(_ entry: Entry, isLive: (Entry) -> Bool) {
        assert(entries.last.map { $0.sequence < entry.sequence && $0.since <= entry.since } ?? true, "volatile order broken")
        if entries.count == limit {
            // At most one live entry per app: compaction frees at least three quarters of the storage.
            var kept = 0
            for k in head..<entries.count where isLive(entries[k]) {
                entries[kept] = entries[k]
                kept += 1
            }
            entries.removeLast(entries.count - kept)
            head = 0
        }
        entries.append(entry)
    }

    /// The oldest live entry (dead ones before it are dropped), or nil.
    mutating func oldest(isLive: (Entry) -> Bool) -> Entry? {
        while head < entries.count {
            if isLive(entries[head]) { return entries[head] }
            head += 1
        }
        entries.removeAll()
        head = 0
        return nil
    }
}
