#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import JetsimCore
import Synchronization

/// Passes a run's records to `sink` on a second thread, in batches, so that rendering and writing the report rows
/// (kills.csv, timeseries.csv, events.csv: `ReportStream`) overlaps the simulation; `ReadAhead`'s mirror. The sink
/// gets every record in the engine's order, from one thread at a time, so its files hold the same bytes.
///
/// Up to `depth` batches wait for the writer: a run's rows come in bursts (minute samples of a day's changes, then
/// hours with few), and with one batch in flight the engine stalls behind every burst while the writer idles after it.
///
/// `finish()` must be called once the run is over (or has failed), before the sink is read (`writing(to:_:)` does).
///
/// Invariant: each of the `depth` batches is the caller's (the one filling, at `filling`), in flight (handed off, and
/// the writer's serial queue's until it has emptied it), or empty and listed in `emptied`; `free` counts the listed
/// ones (`depth - 1` at rest, the value it starts at: libdispatch traps when a semaphore is released below its initial
/// value). The batches are one block of raw storage, `batchCount` records each (a hand-off passes its count along):
/// an append is a store and an increment (an array's append also checked its uniqueness and capacity), and the two
/// threads, each on its own batches, share no Swift array.
public final class WriteBehindSink: SimulationRecordSink, @unchecked Sendable {
    private enum Record {
        case lifecycle(LifecycleRecord)
        case kill(KillRecord)
        case sample(MemorySample)
        case samples(MemorySample, count: Int, interval: Int)
        /// A growing stretch (`GrowingSamples`) takes two records of one batch, this first: a record of them all would
        /// widen every record by half.
        case growth(ForegroundGrowth, fileBackedBytes: Int)
        case growingSamples(MemorySample, count: Int, interval: Int)
    }

    private let sink: any SimulationRecordSink
    public let recordsLifecycle: Bool
    /// Batch `k` starts at `records + k * batchCount` (`start(of:)`).
    private let records: UnsafeMutablePointer<Record>
    private let ringIsMapped: Bool
    /// The caller's batch, filling, and where its next record goes.
    private var filling = 0
    private var next: UnsafeMutablePointer<Record>
    private var end: UnsafeMutablePointer<Record>
    /// Empty batches, the one emptied last on top: refilled while still in cache, and a run whose writer keeps up
    /// touches two or three batches' memory, not all of it.
    private let emptied: Mutex<[Int]>
    private let queue = DispatchQueue(label: "jetsim.write-behind")
    private let free = DispatchSemaphore(value: WriteBehindSink.depth - 1)

    /// Records a batch: a hand-off (two semaphore operations and a dispatch) is nothing beside rendering its rows.
    static let batchCount = 4096
    /// Batches the caller may run ahead of the writer by, filling included (about 88 bytes a record: 11 MB at most).
    static let depth = 32

    public init(_ sink: any SimulationRecordSink) {
        self.sink = sink
        recordsLifecycle = sink.recordsLifecycle
        (records, ringIsMapped) = Self.allocateRing()
        (next, end) = (records, records + Self.batchCount)
        emptied = Mutex(Array((1..<Self.depth).reversed()))
    }

    deinit {   // after `finish()`: each queued hand-off holds the sink until it has run; every batch is empty
        #if canImport(Glibc)
        if ringIsMapped { munmap(records, Self.ringBytes); return }
        #endif
        records.deallocate()
    }

    /// The batches' storage: on Linux, an anonymous mapping the kernel is asked to back with 2 MiB pages. A dense
    /// run's writer falls a dozen batches (5 MB) behind, and the caller faulted in each new 4 KiB page (1.8 µs each on
    /// the 2-core VM: 2 ms of the engine's thread, a fifth of what sampling every minute cost); with huge pages that
    /// is three faults. Where the hint is off (`transparent_hugepage=never`) or unknown, it is ordinary memory; where
    /// memory is fragmented the kernel compacts it first (at most six such faults: 11.5 MB) or falls back to 4 KiB pages.
    private static let ringBytes = depth * batchCount * MemoryLayout<Record>.stride

    /// The ring's storage, and whether it is a mapping (freed by `munmap`) rather than `allocate`'s.
    private static func allocateRing() -> (UnsafeMutablePointer<Record>, mapped: Bool) {
        #if canImport(Glibc)
        if let mapped = mmap(nil, ringBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), mapped != MAP_FAILED {
            _ = madvise(mapped, ringBytes, MADV_HUGEPAGE)   // a hint: refused, the pages are 4 KiB ones
            return (mapped.bindMemory(to: Record.self, capacity: depth * batchCount), true)
        }
        #endif
        return (.allocate(capacity: depth * batchCount), false)
    }

    /// Where batch `k`'s records start.
    @inline(__always)
    private func start(of k: Int) -> UnsafeMutablePointer<Record> { records + k * Self.batchCount }

    public func record(_ record: LifecycleRecord) { add(.lifecycle(record)) }
    public func record(kill: KillRecord) { add(.kill(kill)) }
    public func record(sample: MemorySample) { add(.sample(sample)) }
    public func record(sample: MemorySample, repeated count: Int, every interval: Int) { add(.samples(sample, count: count, interval: interval)) }
    public func record(growing: GrowingSamples, count: Int, every interval: Int) {
        if end - next < 2 { handOff() }   // both records in one batch, which the writer empties in order
        add(.growth(growing.growth, fileBackedBytes: growing.fileBackedBytes))
        add(.growingSamples(growing.state, count: count, interval: interval))
    }

    @inline(__always)
    private func add(_ record: Record) {
        next.initialize(to: record)
        next += 1
        if next == end { handOff() }
    }

    /// Gives the queue the caller's batch, then waits for an empty one to fill.
    private func handOff() {
        let batch = filling, count = next - start(of: filling)
        queue.async { [self] in
            let batchRecords = UnsafeMutableBufferPointer(start: start(of: batch), count: count)
            for i in batchRecords.indices {
                switch batchRecords[i] {
                case let .lifecycle(r): sink.record(r)
                case let .kill(k): sink.record(kill: k)
                case let .sample(s): sink.record(sample: s)
                case let .samples(s, count, interval): sink.record(sample: s, repeated: count, every: interval)
                case .growth: break   // read with the record after it (a growth kept across the loop cost every record a spill)
                case let .growingSamples(s, count, interval):
                    guard i > 0, case let .growth(g, fileBacked) = batchRecords[i - 1] else {
                        preconditionFailure("WriteBehindSink: a growing stretch without its growth")
                    }
                    sink.record(growing: GrowingSamples(state: s, fileBackedBytes: fileBacked, growth: g), count: count, every: interval)
                }
            }
            _ = batchRecords.deinitialize()
            emptied.withLock { $0.append(batch) }
            free.signal()
        }
        free.wait()
        guard let empty = emptied.withLock({ $0.popLast() }) else { preconditionFailure("WriteBehindSink: no empty batch after a signal") }
        filling = empty
        next = start(of: empty)
        end = next + Self.batchCount
    }

    /// Runs `body` with a `WriteBehindSink` in front of `sink`; `sink` has every record when this returns or throws.
    public static func writing<R>(to sink: any SimulationRecordSink, _ body: (WriteBehindSink) throws -> R) rethrows -> R {
        let writer = WriteBehindSink(sink)
        defer { writer.finish() }
        return try body(writer)
    }

    /// Hands over the records not yet passed on and waits until the sink has all of them.
    public func finish() {
        if next != start(of: filling) { handOff() }
        queue.sync {}   // the queue is serial: every batch handed off before has been written
    }
}
