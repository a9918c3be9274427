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
/// value). The batches are raw storage so that the two threads, each on its own batches, share no Swift array.
public final class WriteBehindSink: SimulationRecordSink, @unchecked Sendable {
    private enum Record {
        case lifecycle(LifecycleRecord)
        case kill(KillRecord)
        case sample(MemorySample)
        case samples(MemorySample, count: Int, interval: Int)
    }

    private let sink: any SimulationRecordSink
    public let recordsLifecycle: Bool
    private let batches: UnsafeMutablePointer<[Record]>
    /// The caller's batch, filling.
    private var filling = 0
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
        batches = .allocate(capacity: Self.depth)
        batches.initialize(repeating: [], count: Self.depth)
        batches[0].reserveCapacity(Self.batchCount)
        emptied = Mutex(Array((1..<Self.depth).reversed()))
    }

    deinit {   // after `finish()`: each queued hand-off holds the sink until it has run
        batches.deinitialize(count: Self.depth)
        batches.deallocate()
    }

    public func record(_ record: LifecycleRecord) { add(.lifecycle(record)) }
    public func record(kill: KillRecord) { add(.kill(kill)) }
    public func record(sample: MemorySample) { add(.sample(sample)) }
    public func record(sample: MemorySample, repeated count: Int, every interval: Int) { add(.samples(sample, count: count, interval: interval)) }

    @inline(__always)
    private func add(_ record: Record) {
        batches[filling].append(record)
        if batches[filling].count == Self.batchCount { handOff() }
    }

    /// Gives the queue the caller's batch, then waits for an empty one to fill.
    private func handOff() {
        let batch = filling
        queue.async { [self] in
            for record in batches[batch] {
                switch record {
                case let .lifecycle(r): sink.record(r)
                case let .kill(k): sink.record(kill: k)
                case let .sample(s): sink.record(sample: s)
                case let .samples(s, count, interval): sink.record(sample: s, repeated: count, every: interval)
                }
            }
            batches[batch].removeAll(keepingCapacity: true)
            emptied.withLock { $0.append(batch) }
            free.signal()
        }
        free.wait()
        guard let next = emptied.withLock({ $0.popLast() }) else { preconditionFailure("WriteBehindSink: no empty batch after a signal") }
        filling = next
        if batches[next].capacity < Self.batchCount { batches[next].reserveCapacity(Self.batchCount) }
    }

    /// Runs `body` with a `WriteBehindSink` in front of `sink`; `sink` has every record when this returns or throws.
    public static func writing<R>(to sink: any SimulationRecordSink, _ body: (WriteBehindSink) throws -> R) rethrows -> R {
        let writer = WriteBehindSink(sink)
        defer { writer.finish() }
        return try body(writer)
    }

    /// Hands over the records not yet passed on and waits until the sink has all of them.
    public func finish() {
        if !batches[filling].isEmpty { handOff() }
        queue.sync {}   // the queue is serial: every batch handed off before has been written
    }
}
