/// The engine's mutable state of one app. Only the engine writes it; policies see `KillCandidate`s.
///
/// Invariants (checked by `Simulator._checkInvariants()` in debug builds):
/// - a Not running app holds no memory and no activity;
/// - every byte quantity is ≥ 0 and a multiple of the device page size;
/// - `dirtyCompressed > 0` and `frozen` only while Suspended; `purgeableVolatile` only outside the foreground.
struct AppRuntime {
    var state: AppState = .notRunning
    var priorityClass: PriorityClass = .none
    var band = -1
    var bandEntrySequence: UInt64 = 0
    var bandEntryTime = 0
    /// Bumped whenever the app's process dies, so timers of a dead instance are ignored.
    var generation: UInt32 = 0

    // Memory, in bytes.
    var dirtyResident = 0
    /// Dirty memory held by the compressor, at its uncompressed size (it still counts in the footprint).
    var dirtyCompressed = 0
    /// The same memory's size in the compressor pool.
    var compressedPhysical = 0
    /// Dirty memory the freezer wrote to NAND, at its uncompressed size: footprint, but not in RAM.
    var dirtyFrozen = 0
    var frozen = false
    var cache = 0
    var purgeable = 0
    var purgeableVolatile = false
    /// Order in which purgeable memory became volatile: the oldest is purged first.
    var volatileSequence: UInt64 = 0
    /// When the purgeable memory became volatile.
    var volatileSince = 0
    var backingStore = 0
    var imageCache = 0
    var fileBacked = 0

    // Foreground growth: dirty = growthBase + rate × (now − growthStart), capped.
    var growing = false
    var growthBase = 0
    var growthStart = 0
    var growthEpoch: UInt32 = 0
    /// When the pending growth check fires; 0 when none is pending.
    var growthCheckAt = 0

    // Background activity.
    var modes: BackgroundModes = []
    /// When the last open background task's work ends; 0 when no task is open.
    var taskWorkEnd = 0
    /// When the OS budget for background tasks runs out; 0 when no budget is running.
    var taskDeadline = 0
    var taskEpoch: UInt32 = 0
    /// The budget's expiry timer: its place in the scheduling order, and whether it is in the queue yet (it is
    /// only needed once the work reaches the deadline, which most tasks never do).
    var taskExpirySequence: UInt64 = 0
    var taskExpiryScheduled = false
    /// After an expiry, no new task is granted until the app has been in the foreground again.
    var taskGrantRevoked = false
    /// End of a background wake (`bg_launch`); 0 when none.
    var wakeUntil = 0
    var backgroundEntryTime = 0
    var interruptEpoch: UInt32 = 0
    /// Its `applicationDidEnterBackground` (or, while `terminating`, `applicationWillTerminate`) handler runs until
    /// then (0: none runs); `handlerEpoch` stales its timer.
    var handlerUntil = 0
    var handlerEpoch: UInt32 = 0
    /// Its `applicationWillTerminate` handler runs: the process ends when it returns, by a force-quit or, if not,
    /// by `UIApplicationExitsOnSuspend`.
    var terminating = false
    var terminatingByForceQuit = false
    var agingUntil = 0
    /// A cold launch slower than the watchdog allows is in progress.
    var launchPending = false
    var nearLimitWarned = false

    // History visible to policies.
    var lastForegroundTime = 0
    var launchTime = 0
    var firstUseTime = Int.max
    var lastUseSequence: UInt64 = 0
    var launchSequence: UInt64 = 0
    var nextUse = Int.max
    var killedSinceLastUse = false

    // Statistics.
    var launches = 0
    var coldLaunches = 0
    var resumes = 0
    var watchdogFailures = 0
    /// Resumes that had to thaw frozen memory, and their total extra latency (ms).
    var thawedResumes = 0
    var backgroundLaunches = 0
    var kills = 0
    var peakFootprint = 0
    var residentMicros = 0
    var footprintIntegral: Int128 = 0
    var accruedAt = 0

    /// In wrapping arithmetic (no overflow checks: it is read several times an event): an allocation saturates resident
    /// dirty memory at 2^56, what is compressed or frozen was resident, and every other part is at most 1 PiB from input,
    /// so the sum stays far below 2^63 and is exact.
    var footprint: Int {
        dirtyResident &+ dirtyCompressed &+ dirtyFrozen &+ cache &+ (purgeableVolatile ? 0 : purgeable) &+ backingStore &+ imageCache
    }

    /// Physical memory the app holds outside the compressor.
    var residentBytes: Int { dirtyResident + cache + purgeable + backingStore + imageCache + fileBacked }

    var volatileBytes: Int { purgeableVolatile ? purgeable : 0 }

    /// Background activity that keeps it running.
    func activity(declared: BackgroundModes) -> KillCandidate.BackgroundActivity {
        var a: KillCandidate.BackgroundActivity = []
        if taskWorkEnd != 0 { a.insert(.task) }
        if wakeUntil != 0 { a.insert(.wake) }
        let running = modes.intersection(declared).intersection(.longRunning)
        if running.contains(.audio) { a.insert(.audio) }
        if !running.subtracting(.audio).isEmpty { a.insert(.otherMode) }
        return a
    }
}
