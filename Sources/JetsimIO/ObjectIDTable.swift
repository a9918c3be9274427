import CPrefetch

/// Numbers object ids densely in order of first appearance (0, 1, 2, …): an open-addressing hash table with
/// linear probing and a multiplicative hash, because the standard `Dictionary`'s seeded SipHash costs more than the
/// rest of a cache request. A slot holds its id and number together, so a lookup touches one cache line. Grows at
/// half load.
///
/// Invariant: `count` slots are used (`dense` ≥ 0), each with a distinct id and a distinct number below `count`;
/// the table is at most half full.
struct ObjectIDTable {
    private struct Slot {
        var id: UInt64 = 0
        var dense: Int32 = -1
    }

    private var slots: [Slot]
    private var shift: UInt64
    private(set) var count = 0
    /// How many ids it numbers at most: Int32's numbers (less in tests, which cannot read 2^31 objects).
    let limit: Int

    init(capacity: Int = 1 << 16, limit: Int = Int(Int32.max)) {
        self.limit = min(max(0, limit), Int(Int32.max))
        var size = 16
        while size < 2 * capacity { size <<= 1 }
        slots = [Slot](repeating: Slot(), count: size)
        shift = UInt64(64 - size.trailingZeroBitCount)
    }

    @inline(__always)
    private func home(_ id: UInt64) -> Int { Int(truncatingIfNeeded: (id &* 0x9E37_79B9_7F4A_7C15) >> shift) }

    /// Starts loading the slot a lookup of `id` begins at (a hint only): ids hash to random slots, so a lookup not asked
    /// for in advance waits for memory once the table outgrows the caches.
    @inline(__always)
    func prefetch(_ id: UInt64) {
        let slot = home(id)
        slots.withUnsafeBufferPointer { if let base = $0.baseAddress { jetsim_prefetch(base + slot) } }
    }

    /// The dense number of `id`, numbering it next when it is new; nil when the numbers run out (`limit`).
    @inline(__always)
    mutating func number(_ id: UInt64) -> Int32? {
        let mask = slots.count - 1
        var slot = home(id)
        while true {
            let s = slots[slot]
            if s.dense < 0 { break }
            if s.id == id { return s.dense }
            slot = (slot + 1) & mask
        }
        guard count < limit else { return nil }
        if 2 * (count + 1) > slots.count {
            grow()
            return number(id)
        }
        slots[slot] = Slot(id: id, dense: Int32(count))
        count += 1
        return Int32(count - 1)
    }

    private mutating func grow() {
        let old = slots
        slots = [Slot](repeating: Slot(), count: old.count * 2)
        shift -= 1
        let mask = slots.count - 1
        for s in old where s.dense >= 0 {
            var slot = home(s.id)
            while slots[slot].dense >= 0 { slot = (slot + 1) & mask }
            slots[slot] = s
        }
    }
}
