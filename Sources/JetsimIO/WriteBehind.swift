#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
import JetsimCore
import Synchronization

/// Passes a run's records to `sink` on a second thread, in batches, so that rendering and writing the report rows
/// (kills.csv, timeseries.csv, events.csv: `ReportStream`) overlaps the simulation; `ReadAhead`'s mirror. The sink
/// gets every record in the engine's order, from one thread at a time, so its files hold the same bytes.
///
/// Up to `depth` batches wait for the writer: a run's rows come in bursts (minute samples of a day's changes, then
/// hours with few), and with one batch in flight the engine stalls behind every burst while the writer idles after it.
///
/// The writer is a thread of its own at the lowest priority (Linux's `SCHED_IDLE`): it renders on a core the run's
/// other threads leave idle, and never takes one from the engine or the trace reader (at normal priority, sharing two
/// cores with them, it cost a run with minute samples 3–6 points of its time more). It can therefore be starved, by a
/// machine busy with other work; so whenever every batch waits for it, and at `finish()`, the caller renders the oldest
/// waiting records itself. Rendering goes in chunks of `chunkCount` records under `renderLock`, whoever renders, oldest
/// first: the order holds, and a caller that must wait for a starved writer waits for a chunk, not a batch.
///
/// `finish()` must be called once the run is over (or has failed), before the sink is read (`writing(to:_:)` does).
///
/// Invariant: each of the `depth` batches is the caller's (the one filling, at `filling`), waiting (in `queue.waiting`,
/// oldest first, rendered up to its `rendered` records), or empty and listed in `queue.emptied` (`depth - 1` of them at
/// rest). The batches are one block of raw storage, `batchCount` records each: an append is a store and an increment
/// (an array's append also checked its uniqueness and capacity); the queue's two short lists are read and written
/// under its lock only, and the sink under `renderLock` only.
public final class WriteBehindSink: SimulationRecordSink, @unchecked Sendable {
    private enum Record {
        case lifecycle(LifecycleRecord)
        case kill(KillRecord)
        case sample(MemorySample)
        case samples(MemorySample, count: Int, interval: Int)
    }

    /// A batch handed off and not yet rendered whole.
    private struct Waiting {
        var batch: Int
        var count: Int
        var rendered = 0
    }

    private struct Queue {
        var waiting: [Waiting] = []
        var emptied: [Int]
        var stopping = false
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
    /// Empty batches (the one emptied last on top: refilled while still in cache, and a run whose writer keeps up
    /// touches two or three batches' memory, not all of it) and the waiting ones.
    private let queue: Mutex<Queue>
    /// Held while a chunk is rendered: one renderer at a time, the oldest records first.
    private let renderLock = Mutex(())
    /// Signalled at each hand-off (and to stop): the writer renders whatever waits.
    private let work = DispatchSemaphore(value: 0)
    private let writerDone = DispatchSemaphore(value: 0)
    private let hasWriter: Bool
    private var finished = false

    /// Records a batch: a hand-off (a lock and a signal) is nothing beside rendering its rows.
    static let batchCount = 4096
    /// Batches the caller may run ahead of the writer by, filling included (about 88 bytes a record: 11 MB at most).
    static let depth = 32
    /// Records rendered under one hold of `renderLock`.
    static let chunkCount = 512

    public convenience init(_ sink: any SimulationRecordSink) { self.init(sink, writerThread: true) }

    /// - Parameter writerThread: false in tests only: no writer (as if starved), so the caller renders every record
    ///   itself, when the ring is full and at `finish()`.
    init(_ sink: any SimulationRecordSink, writerThread: Bool) {
        self.sink = sink
        recordsLifecycle = sink.recordsLifecycle
        (records, ringIsMapped) = Self.allocateRing()
        (next, end) = (records, records + Self.batchCount)
        queue = Mutex(Queue(emptied: Array((1..<Self.depth).reversed())))
        hasWriter = writerThread
        if writerThread {
            let thread = Thread { [self] in writerLoop() }
            thread.name = "jetsim.write-behind"
            thread.start()
        }
    }

    deinit {   // after `finish()`: the writer has stopped and every batch is empty
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

    @inline(__always)
    private func add(_ record: Record) {
        next.initialize(to: record)
        next += 1
        if next == end { handOff() }
    }

    /// Hands the caller's batch to the writer and takes an empty one to fill; when none is left (every batch waits for
    /// the writer), renders the oldest waiting records here until one is.
    private func handOff() {
        let batch = filling, count = next - start(of: filling)
        queue.withLock { $0.waiting.append(Waiting(batch: batch, count: count)) }
        work.signal()
        while true {
            if let empty = queue.withLock({ $0.emptied.popLast() }) {
                filling = empty
                next = start(of: empty)
                end = next + Self.batchCount
                return
            }
            renderLock.withLock { _ in _ = renderChunk() }
        }
    }

    /// The writer's thread: renders what waits at each signal, until `finish()` has rendered the rest and stops it.
    private func writerLoop() {
        #if os(Linux)
        // SCHED_IDLE: 5 in Linux's <sched.h> since 2.6.23, which Glibc's module does not export. Refused (a seccomp
        // policy, say), the writer stays at normal priority: a slower run, the same bytes.
        var parameters = sched_param(sched_priority: 0)
        _ = sched_setscheduler(0, 5, &parameters)
        #endif
        while true {
            work.wait()
            while renderLock.withLock({ _ in renderChunk() }) {}
            if queue.withLock({ $0.stopping }) { break }
        }
        writerDone.signal()
    }

    /// Renders the next chunk of the oldest waiting batch, and frees the batch once it is all rendered; false when no
    /// batch waits. Called with `renderLock` held. (Never inlined: the CI gate counts the writer's instructions per row
    /// inside it, whichever thread renders: `Benchmarks/instructions-per-event.sh`.)
    @inline(never)
    private func renderChunk() -> Bool {
        guard let (batch, from, to) = queue.withLock({ q -> (Int, Int, Int)? in
            guard let oldest = q.waiting.first else { return nil }
            return (oldest.batch, oldest.rendered, min(oldest.count, oldest.rendered + Self.chunkCount))
        }) else { return false }
        let chunk = UnsafeMutableBufferPointer(start: start(of: batch) + from, count: to - from)
        for record in chunk {
            switch record {
            case let .lifecycle(r): sink.record(r)
            case let .kill(k): sink.record(kill: k)
            case let .sample(s): sink.record(sample: s)
            case let .samples(s, count, interval): sink.record(sample: s, repeated: count, every: interval)
            }
        }
        _ = chunk.deinitialize()
        queue.withLock { q in
            q.waiting[0].rendered = to
            if to == q.waiting[0].count {
                q.waiting.removeFirst()
                q.emptied.append(batch)
            }
        }
        return true
    }

    /// Runs `body` with a `WriteBehindSink` in front of `sink`; `sink` has every record when this returns or throws.
    public static func writing<R>(to sink: any SimulationRecordSink, _ body: (WriteBehindSink) throws -> R) rethrows -> R {
        let writer = WriteBehindSink(sink)
        defer { writer.finish() }
        return try body(writer)
    }

    /// Renders the records not yet rendered (here: the caller is done, and the writer may be starved) and stops the
    /// writer; the sink has every record when this returns. Later calls do nothing.
    public func finish() {
        guard !finished else { return }
        finished = true
        if next != start(of: filling) { handOff() }
        while renderLock.withLock({ _ in renderChunk() }) {}
        queue.withLock { $0.stopping = true }
        if hasWriter {
            work.signal()
            writerDone.wait()
        }
    }
}
