/// The engine's per-app state: a fixed number of `AppRuntime`s in one block, read and written in place.
///
/// Why not `[AppRuntime]`: the engine writes these fields about 40 times per event, and each array write pays a
/// copy-on-write uniqueness check (a runtime call) and a bounds check. Here the table is made unique once per
/// public mutating entry of the engine (`makeUnique()`), and indices are checked where they enter the engine (a trace
/// event's app against the catalog); inside, ids come from the engine's own structures.
///
/// Invariants: `count` never changes after `init`; every access is in `0..<count`; a write happens only while the
/// storage is uniquely referenced (so a copied `Simulator` never sees another's writes). Debug builds check both on
/// every access.
struct AppTable: RandomAccessCollection {
    private final class Storage {
        let base: UnsafeMutablePointer<AppRuntime>
        let count: Int

        init(repeating value: AppRuntime, count: Int) {
            self.count = count
            base = .allocate(capacity: count)
            base.initialize(repeating: value, count: count)
        }

        init(copying other: Storage) {
            count = other.count
            base = .allocate(capacity: count)
            base.initialize(from: other.base, count: count)
        }

        deinit {
            base.deinitialize(count: count)
            base.deallocate()
        }
    }

    private var storage: Storage

    init(repeating value: AppRuntime, count: Int) {
        storage = Storage(repeating: value, count: Swift.max(0, count))
    }

    var startIndex: Int { 0 }
    var endIndex: Int { storage.count }

    subscript(i: Int) -> AppRuntime {
        @inline(__always)
        unsafeAddress {
            assert(i >= 0 && i < storage.count, "app \(i) is outside the table")
            return UnsafePointer(storage.base + i)
        }
        @inline(__always)
        unsafeMutableAddress {
            assert(i >= 0 && i < storage.count, "app \(i) is outside the table")
            assert(isKnownUniquelyReferenced(&storage), "the app table is written while shared: makeUnique() was not called")
            return storage.base + i
        }
    }

    /// Copies the storage when another table shares it; every public mutating entry of the engine calls this first.
    @inline(__always)
    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(copying: storage) }
    }
}
