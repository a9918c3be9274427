#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Maps names given as bytes (a trace's app names, its users) to dense ids in order of addition, without building
/// Strings: open addressing with linear probing over FNV-1a hashes. The names' bytes lie one after another in one
/// array, so a lookup compares against one contiguous run of bytes.
///
/// Invariant: name `k` is `bytes[ends[k - 1] ..< ends[k]]` (from 0 for the first); each id below `count` is in exactly
/// one slot, reached from its name's hash by probing; at most half the slots are used.
struct AppNameTable {
    /// Ids by hash, -1 for an empty slot.
    private var slots: [Int32] = []
    private var mask = 0
    private var bytes: [UInt8] = []
    private var ends: [Int] = []

    init(_ names: [String]) {
        for name in names {
            bytes.append(contentsOf: name.utf8)
            ends.append(bytes.count)
        }
        rebuild()
        _checkInvariants()
    }

    /// Names added so far.
    var count: Int { ends.count }

    /// Every name in id order.
    var strings: [String] { (0..<count).map { String(decoding: bytes[start(of: $0)..<ends[$0]], as: UTF8.self) } }

    @inline(__always)
    private func start(of id: Int) -> Int { id == 0 ? 0 : ends[id - 1] }

    private mutating func rebuild() {
        var size = 16
        while size < count * 2 + 2 { size <<= 1 }
        mask = size - 1
        slots = [Int32](repeating: -1, count: size)
        for id in 0..<count { place(Int32(id), hash: Self.hash(bytes[start(of: id)..<ends[id]])) }
    }

    private mutating func place(_ id: Int32, hash: Int) {
        var s = hash & mask
        while slots[s] >= 0 { s = (s + 1) & mask }
        slots[s] = id
    }

    /// The id of `name`, adding it if new.
    mutating func intern(_ name: UnsafeBufferPointer<UInt8>) -> Int32 {
        let h = Self.hash(name)
        if let id = id(of: name, hash: h) { return id }
        bytes.append(contentsOf: name)
        ends.append(bytes.count)
        if count * 2 + 2 > slots.count { rebuild() } else { place(Int32(count - 1), hash: h) }
        _checkInvariants()
        return Int32(count - 1)
    }

    /// The FNV-1a hash of `name`'s bytes (also computed in passing by `TraceLineParser`, with `step`).
    @inline(__always)
    static func hash<C: Collection>(_ name: C) -> Int where C.Element == UInt8 {
        var h = hashSeed
        for b in name { h = step(h, b) }
        return finish(h)
    }

    static let hashSeed: UInt64 = 0xcbf2_9ce4_8422_2325
    @inline(__always) static func step(_ h: UInt64, _ b: UInt8) -> UInt64 { (h ^ UInt64(b)) &* 0x100_0000_01b3 }
    @inline(__always) static func finish(_ h: UInt64) -> Int { Int(truncatingIfNeeded: h & 0x7fff_ffff_ffff_ffff) }

    func id(of name: UnsafeBufferPointer<UInt8>) -> Int32? { id(of: name, hash: Self.hash(name)) }

    /// The id of `name` whose `hash` is given, or nil.
    @inline(__always)
    func id(of name: UnsafeBufferPointer<UInt8>, hash: Int) -> Int32? {
        var s = hash & mask
        while true {
            let id = slots[s]
            if id < 0 { return nil }
            let from = start(of: Int(id)), length = ends[Int(id)] - from
            if length == name.count && bytes.withUnsafeBufferPointer({ sameBytes(UnsafeBufferPointer(rebasing: $0[from..<from + length]), name) }) {
                return id
            }
            s = (s + 1) & mask
        }
    }

    /// Debug builds: the invariant above.
    func _checkInvariants() {
        #if DEBUG
        assert(ends.count == count && (ends.last ?? 0) == bytes.count && zip(ends, ends.dropFirst()).allSatisfy { $0 <= $1 })
        assert(slots.count >= 2 * count && slots.count & mask == 0 && mask == slots.count - 1)
        var seen = [Bool](repeating: false, count: count)
        for id in slots where id >= 0 {
            assert(Int(id) < count && !seen[Int(id)], "id \(id) in two slots")
            seen[Int(id)] = true
        }
        assert(seen.allSatisfy { $0 }, "an id in no slot")
        #endif
    }
}

/// Byte equality by `memcmp` (the generic `elementsEqual` walks the bytes one by one): event and app names.
@inline(__always)
func sameBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    guard let x = a.baseAddress, let y = b.baseAddress else { return a.count == 0 }
    return memcmp(x, y, a.count) == 0
}
