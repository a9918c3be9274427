import CPrefetch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An array of plain values for the engine's hot state, read and written in place: the per-app state, the compression
/// keys, the resident set, the volatile queue, the ranked kill candidates (`RankedList`, in both drivers) and the
/// timer heap.
///
/// Why not `Array`: the engine writes these about 40 times per event, and each array write pays a copy-on-write
/// uniqueness check (a runtime call) and a bounds check, about a tenth of an event's instructions. Here an array is
/// made unique once per public mutating entry of the engine (`makeUnique()`; the `Simulator` checks one `CopyToken`
/// for all of its arrays), and indices are checked where they enter the engine (a trace event's app against the
/// catalog); inside, ids come from the engine's own structures.
///
/// Invariants: `count <= capacity`; `base` starts a cache line (`Storage.alignedBase`); every access is in `0..<count`;
/// a write happens only while the storage is uniquely referenced, so a copied `Simulator` never sees another's writes.
/// Debug builds check the last two on every access.
@usableFromInline
struct UncheckedArray<Element: BitwiseCopyable>: RandomAccessCollection {
    /// The elements' memory, from the C allocator so that a growth can `realloc` it: plain values move bitwise, and a
    /// large block (the C allocator maps those) moves by remapping its pages, where a new block and a copy fault every
    /// page in again. (`cost`'s replay at 10 % of the 1 M-request CSV grows its tournament to 131 072 slots: with a
    /// fresh block a growth, its page faults and unmappings took about a tenth of the run.) Its fields change only
    /// there and are read at every `append`: unchecked for exclusive access, where each read was a runtime call (`lfu`'s
    /// replay +24 instructions a request at `Benchmarks/instructions-per-request.sh`'s gate, the engine +145 an event).
    @usableFromInline
    final class Storage {
        @exclusivity(unchecked) @usableFromInline private(set) var base: UnsafeMutablePointer<Element>
        @exclusivity(unchecked) @usableFromInline private(set) var capacity: Int
        /// The C allocator's block, which `base` lies in, `lineSize` bytes longer than the elements need so that they
        /// start on a cache line (`alignedBase`).
        @exclusivity(unchecked) @usableFromInline private(set) var block: UnsafeMutableRawPointer

        @inlinable
        init(capacity: Int) {
            self.capacity = capacity
            guard let raw = malloc(Self.bytes(capacity) + Self.lineSize) else {
                fatalError("UncheckedArray: out of memory for \(capacity) elements")
            }
            block = raw
            base = Self.alignedBase(in: raw, capacity: capacity)
        }

        deinit { free(block) }   // plain values: nothing to deinitialise

        /// The cache line's size the elements start on (64 bytes on x86-64 and most ARM cores).
        @usableFromInline static var lineSize: Int { 64 }

        @usableFromInline static func bytes(_ capacity: Int) -> Int {
            let (bytes, overflow) = Swift.max(1, capacity).multipliedReportingOverflow(by: MemoryLayout<Element>.stride)
            precondition(!overflow && bytes <= Int.max - lineSize, "UncheckedArray: \(capacity) elements do not fit in memory")
            return bytes
        }

        /// The first cache line's start in `block`. Why: the C allocator aligns to 16 bytes, and its large blocks (mapped
        /// pages) start 16 bytes into a page, so a 64-byte element (the cache replay's `CachedObject`) straddled two cache
        /// lines in three places of four and a 32-byte one (a ranked list's node, a heap's member) in one of two: two
        /// misses for one random read where one line would do. (`AppRuntime`'s Int128, the most aligned element, needs 16.)
        @usableFromInline static func alignedBase(in block: UnsafeMutableRawPointer, capacity: Int) -> UnsafeMutablePointer<Element> {
            precondition(MemoryLayout<Element>.alignment <= lineSize, "UncheckedArray: elements aligned beyond a cache line")
            let address = UInt(bitPattern: block)
            let aligned = (address &+ UInt(lineSize - 1)) & ~UInt(lineSize - 1)
            return (block + Int(aligned &- address)).bindMemory(to: Element.self, capacity: Swift.max(1, capacity))
        }

        /// Room for `capacity` elements, the first ones kept (`realloc`: a large block moves by remapping its pages; the
        /// elements move within it when its new start leaves them off the line).
        @usableFromInline func grow(to capacity: Int) {
            let offset = UnsafeMutableRawPointer(base) - block
            let kept = Swift.min(self.capacity, capacity) * MemoryLayout<Element>.stride
            guard let raw = realloc(block, Self.bytes(capacity) + Self.lineSize) else {
                fatalError("UncheckedArray: out of memory for \(capacity) elements")
            }
            block = raw
            base = Self.alignedBase(in: raw, capacity: capacity)
            let moved = UnsafeMutableRawPointer(base) - raw
            if moved != offset { memmove(UnsafeMutableRawPointer(base), raw + offset, kept) }
            self.capacity = capacity
        }
    }

    @usableFromInline var storage: Storage
    /// `storage.base`, kept beside the reference so an access loads one pointer, not two (the engine reads these
    /// arrays about a hundred times per event).
    @usableFromInline var base: UnsafeMutablePointer<Element>
    @usableFromInline private(set) var count: Int

    /// `count` copies of `value`.
    @inlinable
    init(repeating value: Element, count: Int) {
        self.count = Swift.max(0, count)
        storage = Storage(capacity: self.count)
        base = storage.base
        base.initialize(repeating: value, count: self.count)
    }

    /// Empty, with room for `capacity` elements before `append` reallocates.
    @inlinable
    init(capacity: Int) {
        count = 0
        storage = Storage(capacity: Swift.max(1, capacity))
        base = storage.base
    }

    /// Makes room for `n` elements in one step, at least doubling the room and never below 1 024 elements, for tables
    /// that grow one element at a time (each step allocates twice: the storage object and its elements).
    @inlinable
    mutating func reserve(_ n: Int) {
        if n > storage.capacity { reallocate(capacity: Swift.max(n, 2 * storage.capacity, 1024)) }
    }

    @inlinable var startIndex: Int { 0 }
    @inlinable var endIndex: Int { count }
    // Index arithmetic spelled out: the collection defaults are generic over `Strideable` and range-checked, which an
    // unoptimised build runs through witness tables and metadata lookups at every step of every `for`, `map` and
    // `filter` (half of a debug test's time in the cache replay's invariant checks). Optimised builds inline either.
    @inlinable var indices: Range<Int> { 0..<count }
    @inlinable func index(after i: Int) -> Int { i + 1 }
    @inlinable func index(before i: Int) -> Int { i - 1 }
    @inlinable func formIndex(after i: inout Int) { i += 1 }
    @inlinable func formIndex(before i: inout Int) { i -= 1 }
    @inlinable func index(_ i: Int, offsetBy distance: Int) -> Int { i + distance }
    @inlinable func distance(from start: Int, to end: Int) -> Int { end - start }

    @inlinable
    subscript(i: Int) -> Element {
        @inline(__always)
        unsafeAddress {
            assert(i >= 0 && i < count, "index \(i) is outside 0..<\(count)")
            return UnsafePointer(base + i)
        }
        @inline(__always)
        unsafeMutableAddress {
            assert(i >= 0 && i < count, "index \(i) is outside 0..<\(count)")
            assert(isKnownUniquelyReferenced(&storage), "written while shared: makeUnique() was not called")
            return base + i
        }
    }

    /// Starts loading element `i`'s cache line (a hint: nothing changes). Any `i`: its place is computed as an integer and
    /// never read, and a prefetch never faults, so an `i` outside the array only wastes the hint; no test of `i` (the
    /// cache replay hints three arrays a request: 10 instructions a request of `cost`'s at the gate).
    @inlinable @inline(__always)
    func prefetch(_ i: Int) {
        jetsim_prefetch_address(address(of: i))
    }

    /// Where element `i` is or would be, as an integer (wrapping: for hints only).
    @inlinable @inline(__always)
    func address(of i: Int) -> UInt {
        UInt(bitPattern: base) &+ UInt(bitPattern: i &* MemoryLayout<Element>.stride)
    }

    /// `prefetch` for every cache line element `i` touches: an element of more than a few bytes whose stride is not a
    /// divisor of 64 straddles two lines (three past 64 bytes), and a hint for its first line alone leaves a read of
    /// its later fields waiting for memory. Elements start on a line, so one whose stride divides 64 or is a multiple of
    /// it (the cache replay's 64-byte objects, 32-byte nodes and members) straddles none: a hint a line it spans, the
    /// last byte's line not hinted again. Any `i`, as `prefetch`.
    @inlinable @inline(__always)
    func prefetchWhole(_ i: Int) {
        let first = address(of: i)
        var offset = 0
        while offset < MemoryLayout<Element>.size {   // (a constant bound: unrolled)
            jetsim_prefetch_address(first &+ UInt(offset))
            offset += 64
        }
        let stride = MemoryLayout<Element>.stride
        if 64 % stride != 0 && stride % 64 != 0 {   // (constants: folded away)
            jetsim_prefetch_address(first &+ UInt(MemoryLayout<Element>.size - 1))
        }
    }

    /// A read-only view that does not keep the storage alive, for the engine's non-escaping closures that read the
    /// array while another part of the engine changes (a copy of the array would retain and release its storage, a
    /// few per cent of an event). Valid while the array lives and does not grow (`append`, `extend`, `reserve`).
    struct View {
        let base: UnsafePointer<Element>
        let count: Int

        subscript(i: Int) -> Element {
            @inline(__always)
            unsafeAddress {
                assert(i >= 0 && i < count, "index \(i) is outside 0..<\(count)")
                return base + i
            }
        }
    }

    var view: View {
        @inline(__always) get { View(base: UnsafePointer(base), count: count) }
    }

    /// Copies the storage when another array shares it; every public mutating entry of the engine calls this first.
    @inlinable @inline(__always)
    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { reallocate(capacity: storage.capacity) }
    }

    /// Appends; reallocates (doubling) only when full, which the engine avoids by reserving its capacity up front.
    @inlinable @inline(__always)
    mutating func append(_ value: Element) {
        if count == storage.capacity { reallocate(capacity: Swift.max(2 * storage.capacity, 8)) }
        assert(count < storage.capacity, "no room to append")
        assert(isKnownUniquelyReferenced(&storage), "written while shared: makeUnique() was not called")
        (base + count).initialize(to: value)
        count &+= 1   // (below the capacity)
    }

    @inlinable @inline(__always)
    mutating func removeLast() -> Element {
        precondition(count > 0, "removeLast from an empty array")
        count -= 1
        return base[count]
    }

    /// Appends copies of `value` until there are `n` elements (nothing when there are as many already), the room made in
    /// one step (`reserve`): the tables indexed by id grow so as ids come.
    @inlinable
    mutating func extend(to n: Int, with value: Element) {
        guard n > count else { return }
        reserve(n)
        assert(isKnownUniquelyReferenced(&storage), "written while shared: makeUnique() was not called")
        (base + count).initialize(repeating: value, count: n - count)
        count = n
    }

    mutating func removeAll() { count = 0 }

    mutating func removeLast(_ n: Int) {
        precondition(n >= 0 && n <= count, "removeLast(\(n)) from \(count) elements")
        count -= n
    }

    /// A growth of storage held here alone keeps its block (`Storage.grow`); shared storage is copied.
    @usableFromInline
    mutating func reallocate(capacity: Int) {
        if capacity >= storage.capacity && isKnownUniquelyReferenced(&storage) {
            storage.grow(to: capacity)
            base = storage.base
            return
        }
        let new = Storage(capacity: capacity)
        new.base.initialize(from: base, count: count)
        storage = new
        base = new.base
    }
}

/// Stands for the uniqueness of every `UncheckedArray` of one owner, so the owner checks one reference per entry
/// instead of one per array (four in the engine, a runtime call each). The owner holds the token beside its arrays,
/// and copies of the owner share both. While the token is uniquely referenced so is every array: the copy that
/// writes first finds the token shared, takes a new one and copies its arrays, which leaves the old token and the old
/// arrays to the other copy alone. (Debug builds still check every write.)
@usableFromInline final class CopyToken {
    @usableFromInline init() {}
}
