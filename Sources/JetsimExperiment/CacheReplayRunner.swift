import Dispatch
import JetsimCore
import JetsimIO

/// The one-pass driver of cache grids (`jetsim cachesim`): every cell of a plan whose devices are caches
/// (`cache:CAPACITY`) sees each batch of a streamed libCacheSim trace in turn (Caffeine's simulator design), the cells
/// split over threads. The plan's cells are the same as `compare`'s; this driver runs them without the app lifecycle.
public struct CacheReplayRunner {
    public var plan: ExperimentPlan
    var cells: [any ReplayCell]

    /// Makes one cell per policy × device of `plan`, in the order `cells` gives as ids (any order: cache.csv's).
    public init(plan: ExperimentPlan, cells ids: [Int]) throws {
        self.plan = plan
        let config = plan.configuration
        cells = try ids.map { id in
            let cell = config.cell(id)
            let device = config.devices[cell.device]
            let policy = try PolicySource.make(config.policies[cell.policy], environment: PolicyEnvironment(seed: cell.seed, device: device),
                                               policiesDirectory: config.policiesDirectory)
            guard !policy.descriptor.capabilities.contains(.needsFuture) else { throw CacheReplayRunner.NeedsFuture(policy: policy.descriptor.name, cell: id) }
            return makeCell(policy, capacity: device.physicalBytes)
        }
    }

    /// A policy that needs the whole trace in advance cannot replay a stream.
    public struct NeedsFuture: Error {
        public var policy: String
        public var cell: Int
    }

    /// The decayed use counts the cells' policies keep (`EvictionPolicy.decayedCountHalfLifeMicros`), one a half-life in
    /// the cells' order, with their log2 where a cell of that half-life takes it (`EvictionPolicy.decayingScoreIsItsCount`):
    /// the columns the reader computes ahead for them (`ReadAhead(requests:decayedCounts:)`).
    public var decayedCountNeeds: [DecayedCountStage.Need] {
        var needs: [DecayedCountStage.Need] = []
        for cell in cells {
            guard let h = cell.decayedCountHalfLife else { continue }
            if let k = needs.firstIndex(where: { $0.halfLifeMicros == h }) {
                needs[k].log2 = needs[k].log2 || cell.decayingScoreIsItsCount
            } else {
                needs.append(DecayedCountStage.Need(halfLifeMicros: h, log2: cell.decayingScoreIsItsCount))
            }
        }
        return needs
    }

    /// Makes room in every cell for object ids below `count` (the trace's distinct objects, when a first pass counted them).
    public mutating func reserve(objects count: Int) {
        for k in cells.indices { cells[k].reserve(objects: count) }
    }

    /// Replays every request of `requests` through every cell on `threads` threads; `progress` gets each batch's size.
    public mutating func replay(_ requests: ReadAhead<RequestBatch>, threads: Int, progress: (Int) -> Void) throws {
        let threads = max(1, min(threads, cells.count))
        var batch = RequestBatch()
        guard threads > 1 else {
            while try requests.next(into: &batch) {
                replayBatch(batch)
                progress(batch.count)
            }
            return
        }
        var schedule = CellSchedule(cells: cells.count, threads: threads)
        var elapsed = [UInt64](repeating: 0, count: cells.count)
        while try requests.next(into: &batch) {
            replayBatchInParallel(batch, schedule: &schedule, elapsed: &elapsed)
            progress(batch.count)
        }
    }

    /// Each cell's policy, capacity and counters, in the order of the ids given.
    public var rows: [CacheReport.Row] {
        cells.map { CacheReport.Row(policy: $0.policyName, capacityBytes: $0.capacityBytes, counters: $0.counters) }
    }

    /// Replays `batch` through every cell, one after the other.
    /// Never inlined: one call per batch costs nothing, and `Benchmarks/instructions-per-request.sh` counts inside it.
    @inline(never)
    mutating func replayBatch(_ batch: borrowing RequestBatch) {
        for k in cells.indices { cells[k].replay(batch) }
    }

    /// Replays `batch` through every cell, each of `schedule`'s groups on its own thread (no two threads touch one
    /// cell), timing each cell into `elapsed` for the schedule's next split.
    mutating func replayBatchInParallel(_ batch: borrowing RequestBatch, schedule: inout CellSchedule, elapsed: inout [UInt64]) {
        let groups = schedule.groups
        cells.withUnsafeMutableBufferPointer { all in
            elapsed.withUnsafeMutableBufferPointer { times in
                // The batch is read, never written, meanwhile; each thread writes only its own cells and their times.
                let shared = UnsafeSendable((cells: all, times: times, batch: copy batch))
                DispatchQueue.concurrentPerform(iterations: groups.count) { k in
                    var start = DispatchTime.now().uptimeNanoseconds
                    for c in groups[k] {
                        shared.value.cells[c].replay(shared.value.batch)
                        let end = DispatchTime.now().uptimeNanoseconds
                        shared.value.times[c] = end &- start
                        start = end
                    }
                }
            }
        }
        elapsed.withUnsafeBufferPointer { schedule.record(batch: $0) }
    }
}

/// A value handed to `concurrentPerform`'s threads, each of which touches only its own part of it.
struct UnsafeSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}


/// One policy × capacity of a cache replay, type-erased so cells of different policies share one pass.
protocol ReplayCell {
    associatedtype Policy: EvictionPolicy
    var cache: CacheReplay<Policy> { get set }
    var policyName: String { get }
    // Requirements (not only extension methods), so calls through `any ReplayCell` reach each type's own witness.
    var capacityBytes: Int { get }
    var counters: CacheCounters { get }
    var decayedCountHalfLife: Double? { get }
    var decayingScoreIsItsCount: Bool { get }
    mutating func replay(_ batch: borrowing RequestBatch)
    mutating func reserve(objects count: Int)
}

extension ReplayCell {
    var capacityBytes: Int { cache.capacityBytes }
    var counters: CacheCounters { cache.counters }
    var decayedCountHalfLife: Double? { cache.policy.decayedCountHalfLifeMicros }
    var decayingScoreIsItsCount: Bool { cache.policy.decayingScoreIsItsCount }

    mutating func replay(_ batch: borrowing RequestBatch) { cache.requests(batch) }
    mutating func reserve(objects count: Int) { cache.reserve(objects: count) }
}

/// Any policy: the generic loop.
struct PolicyReplayCell<Policy: EvictionPolicy>: ReplayCell {
    var cache: CacheReplay<Policy>
    let policyName: String
}

// The built-ins with an index (a ranking key, a decaying score, a draw by position), as concrete types: a witness of a concrete type is compiled for it, so these
// cells run a loop specialised for their policy (the replay's code is inlinable).
struct LRUReplayCell: ReplayCell {
    var cache: CacheReplay<LRUPolicy>
    let policyName: String
}

struct FIFOReplayCell: ReplayCell {
    var cache: CacheReplay<FIFOPolicy>
    let policyName: String
}

struct XNUReplayCell: ReplayCell {
    var cache: CacheReplay<XNUPolicy>
    let policyName: String
}

struct LFUReplayCell: ReplayCell {
    var cache: CacheReplay<LFUPolicy>
    let policyName: String
}

struct CostReplayCell: ReplayCell {
    var cache: CacheReplay<CostPolicy>
    let policyName: String
}

struct LargestReplayCell: ReplayCell {
    var cache: CacheReplay<LargestPolicy>
    let policyName: String
}

struct RandomReplayCell: ReplayCell {
    var cache: CacheReplay<RandomPolicy>
    let policyName: String
}

/// A cell for `policy` at `capacity` bytes.
func makeCell(_ policy: any EvictionPolicy, capacity: Int) -> any ReplayCell {
    let name = policy.descriptor.displayName
    switch policy {
    case let p as LRUPolicy: return LRUReplayCell(cache: CacheReplay(capacityBytes: capacity, policy: p), policyName: name)
    case let p as FIFOPolicy: return FIFOReplayCell(cache: CacheReplay(capacityBytes: capacity, policy: p), policyName: name)
    case let p as XNUPolicy: return XNUReplayCell(cache: CacheReplay(capacityBytes: capacity, policy: p), policyName: name)
    case let p as LFUPolicy: return LFUReplayCell(cache: CacheReplay(capacityBytes: capacity, policy: p), policyName: name)
    case let p as CostPolicy: return CostReplayCell(cache: CacheReplay(capacityBytes: capacity, policy: p), policyName: name)
    case let p as LargestPolicy: return LargestReplayCell(cache: CacheReplay(capacityBytes: capacity, policy: p), policyName: name)
    case let p as RandomPolicy: return RandomReplayCell(cache: CacheReplay(capacityBytes: capacity, policy: p), policyName: name)
    default:
        func cell<P: EvictionPolicy>(_ p: P) -> any ReplayCell { PolicyReplayCell(cache: CacheReplay(capacityBytes: capacity, policy: p), policyName: name) }
        return cell(policy)
    }
}
