/// System-wide memory ledger, maintained incrementally by the engine's memory operations.
///
/// Conservation (checked after every event in debug builds):
/// `Σ app resident bytes + reserve + compressor pool + free = physical`.
/// `free` may go negative only when nothing is left to reclaim or kill (an out-of-memory episode).
struct SystemMemory {
    let physical: Int
    let reserve: Int
    var free: Int
    /// Σ clean file-backed pages of apps: resident, but reclaimable, so part of *available*.
    var fileBacked = 0
    /// Σ volatile purgeable bytes still resident.
    var volatilePurgeable = 0
    /// Physical size of the compressor pool.
    var compressorPool = 0
    /// Uncompressed size of what the compressor holds.
    var compressedLogical = 0
    /// Σ apps' frozen dirty bytes: written to NAND by the freezer, outside physical memory, still in their footprints.
    var frozen = 0

    init(physical: Int, reserve: Int) {
        self.physical = physical
        self.reserve = reserve
        free = physical - reserve
    }

    /// xnu-jetsam.md §3: free + file-backed, plus purgeable only when the compressor is off.
    ///
    /// In wrapping arithmetic (no overflow checks, read a dozen times an event): each term is far from overflow (sizes
    /// are at most 1 PiB from input, an allocation saturates an app's dirty memory at 2^56, and `free` is what physical
    /// memory leaves of the apps' resident bytes), so the sum is exact.
    @inline(__always)
    func available(compressorEnabled: Bool) -> Int {
        free &+ fileBacked &+ (compressorEnabled ? 0 : volatilePurgeable)
    }

    /// Σ footprints of the running apps, from the ledger alone, so a sample costs the same with 5 apps as with 500.
    /// An app's footprint is its resident bytes less its file-backed and volatile purgeable pages, plus its compressed
    /// and frozen dirty bytes; an app not running holds none of these, and by conservation the apps' resident bytes
    /// sum to `physical - reserve - compressorPool - free`.
    @inline(__always)
    var appFootprints: Int {
        physical - reserve - compressorPool - free - fileBacked - volatilePurgeable + compressedLogical + frozen
    }
}
