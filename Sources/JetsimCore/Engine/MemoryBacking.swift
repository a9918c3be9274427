/// Where kill decisions take their byte counts from in real-memory mode.
public enum PressureSource: String, Sendable, CaseIterable, Codable {
    /// The model's exact integer accounting (the default; a backing then only measures).
    case model
    /// The model plus what the backing's allocator holds beyond it (freed-but-dirty pages, fragmentation).
    case measured
}

/// The parts of an app's memory that a backing mirrors with real allocations, in the model's bytes.
/// Clean file-backed pages and the compressor are not mirrored: they are not the app's dirty memory.
public struct BackedMemory: Equatable, Sendable {
    public var dirty = 0
    public var cache = 0
    public var purgeable = 0
    public var backingStore = 0
    public var imageCache = 0

    public init(dirty: Int = 0, cache: Int = 0, purgeable: Int = 0, backingStore: Int = 0, imageCache: Int = 0) {
        self.dirty = dirty
        self.cache = cache
        self.purgeable = purgeable
        self.backingStore = backingStore
        self.imageCache = imageCache
    }

    public static let componentCount = 5
    /// The components in a fixed order: dirty, cache, purgeable, backing stores, image caches.
    public subscript(component: Int) -> Int {
        switch component {
        case 0: dirty
        case 1: cache
        case 2: purgeable
        case 3: backingStore
        default: imageCache
        }
    }
    public var total: Int { dirty + cache + purgeable + backingStore + imageCache }
}

/// Real memory behind the model's byte counts (real-memory mode). The engine keeps **all** accounting and
/// tells the backing every change; the backing allocates, frees and measures, and reports what its allocator
/// holds beyond what was asked for. The engine never sees how: implementations live at the edge
/// (`JetsimRealMemory`), so the engine stays free of allocators and files.
///
/// Calls arrive in simulation order from one thread.
public protocol MemoryBacking: AnyObject {
    /// App `app`'s mirrored memory is now `memory`. `reclaim`: the system takes memory back now (a discard of its
    /// backing stores and image caches, a purge, compression, freezing, a memory warning's allocator relief), so the
    /// app's freed pages return to the system at once; otherwise what the app freed stays with its allocator.
    func update(app: Int, to memory: BackedMemory, reclaim: Bool)
    /// The app's process ended: all of its memory returns to the system.
    func release(app: Int)
    /// Brings measurements up to date (cheap when nothing changed since the last refresh).
    func refresh()
    /// Bytes the allocator holds for `app` beyond the pages it was asked for, in model bytes, as of the last
    /// refresh (≥ 0: freed-but-dirty pages, fragmentation).
    func retainedBytes(app: Int) -> Int
    /// Σ `retainedBytes` over all apps, as of the last refresh.
    var totalRetainedBytes: Int { get }
    /// A sampling point (`--sample-interval`): the backing measures and records modelled against measured.
    func sample(at time: Int)
}

/// One row of `live.csv`: an app's modelled memory next to what its real allocations measure.
/// Model-scale bytes are real bytes divided by the backing's scale; `arena…Bytes` are real bytes.
public struct LiveSample: Sendable, Equatable {
    public var time: Int
    public var app: Int32
    /// The model's mirrored bytes (dirty, caches, purgeable, backing stores, image caches).
    public var modelledBytes: Int
    /// Pages the app's arena holds (active + dirty-but-freed), in model bytes: its measured footprint.
    public var measuredBytes: Int
    /// Of those, pages freed but still dirty in the allocator, in model bytes, and as real pages.
    public var dirtyFreedBytes: Int
    public var dirtyFreedPages: Int
    /// Pages the allocator marked lazily freeable (muzzy), in model bytes.
    public var muzzyBytes: Int
    /// The arena's resident bytes (data and allocator metadata), real bytes.
    public var arenaResidentBytes: Int
    /// The arena's mapped bytes, real bytes.
    public var arenaMappedBytes: Int

    public init(time: Int, app: Int32, modelledBytes: Int, measuredBytes: Int, dirtyFreedBytes: Int, dirtyFreedPages: Int,
                muzzyBytes: Int, arenaResidentBytes: Int, arenaMappedBytes: Int) {
        self.time = time
        self.app = app
        self.modelledBytes = modelledBytes
        self.measuredBytes = measuredBytes
        self.dirtyFreedBytes = dirtyFreedBytes
        self.dirtyFreedPages = dirtyFreedPages
        self.muzzyBytes = muzzyBytes
        self.arenaResidentBytes = arenaResidentBytes
        self.arenaMappedBytes = arenaMappedBytes
    }
}

/// How far real memory diverged from the model over a run (summary.csv columns).
public struct BackingSummary: Sendable, Equatable, Codable {
    /// The backing as given (`jemalloc:scale=1/256`).
    public var backing: String
    public var pressureSource: PressureSource
    /// `live.csv` rows the figures below are taken over.
    public var liveRows = 0
    /// Mean and max of |measured − modelled| / modelled over the rows with modelled memory, parts per million.
    public var meanRelativeErrorPPM = 0
    public var maxRelativeErrorPPM = 0
    /// Largest total of dirty-but-freed bytes the allocator held at a sample, model bytes.
    public var retainedBytesMax = 0

    public init(backing: String, pressureSource: PressureSource) {
        self.backing = backing
        self.pressureSource = pressureSource
    }
}
