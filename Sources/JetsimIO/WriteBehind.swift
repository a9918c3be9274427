import Dispatch
import JetsimCore

/// Passes a run's records to `sink` on a second thread, in batches, so that rendering and writing the report rows
/// (kills.csv, timeseries.csv, events.csv: `ReportStream`) overlaps the simulation; `ReadAhead`'s mirror. The sink
/// gets every record in the engine's order, from one thread at a time, so its files hold the same bytes.
///
/// `finish()` must be called once the run is over (or has failed), before the sink is read (`writing(to:_:)` does).
///
/// Invariant: `spare` belongs to the writer's queue from a hand-off until the queue signals `idle`, and to the
/// caller otherwise; `idle` is 1 whenever no batch is in flight (libdispatch traps when a semaphore is released at a
/// value below its initial one, and the queue's closure keeps `self` alive until it has signalled).
public final class WriteBehindSink: SimulationRecordSink, @unchecked Sendable {
    private enum Record {
        case lifecycle(LifecycleRecord)
        case kill(KillRecord)
        case sample(MemorySample)
        case samples(MemorySample, count: Int, interval: Int)
    }

    private let sink: any SimulationRecordSink
    public let recordsLifecycle: Bool
    /// The caller's batch, filling.
    private var filling: [Record] = []
    /// The batch the queue writes, or an emptied one.
    private var spare: [Record] = []
    private let queue = DispatchQueue(label: "jetsim.write-behind")
    private let idle = DispatchSemaphore(value: 1)

    /// Records a batch: a hand-off (two semaphore operations and a dispatch) is nothing beside rendering its rows.
    static let batchCount = 4096

    public init(_ sink: any SimulationRecordSink) {
        self.sink = sink
        recordsLifecycle = sink.recordsLifecycle
        filling.reserveCapacity(Self.batchCount)
        spare.reserveCapacity(Self.batchCount)
    }

    public func record(_ record: LifecycleRecord) { add(.lifecycle(record)) }
    public func record(kill: KillRecord) { add(.kill(kill)) }
    public func record(sample: MemorySample) { add(.sample(sample)) }
    public func record(sample: MemorySample, repeated count: Int, every interval: Int) { add(.samples(sample, count: count, interval: interval)) }

    @inline(__always)
    private func add(_ record: Record) {
        filling.append(record)
        if filling.count == Self.batchCount { handOff() }
    }

    /// Waits for the queue to finish the last batch, then gives it this one.
    private func handOff() {
        idle.wait()
        swap(&filling, &spare)
        queue.async { [self] in
            for record in spare {
                switch record {
                case let .lifecycle(r): sink.record(r)
                case let .kill(k): sink.record(kill: k)
                case let .sample(s): sink.record(sample: s)
                case let .samples(s, count, interval): sink.record(sample: s, repeated: count, every: interval)
                }
            }
            spare.removeAll(keepingCapacity: true)
            idle.signal()
        }
    }

    /// Runs `body` with a `WriteBehindSink` in front of `sink`; `sink` has every record when this returns or throws.
    public static func writing<R>(to sink: any SimulationRecordSink, _ body: (WriteBehindSink) throws -> R) rethrows -> R {
        let writer = WriteBehindSink(sink)
        defer { writer.finish() }
        return try body(writer)
    }

    /// Hands over the records not yet passed on and waits until the sink has all of them.
    public func finish() {
        if !filling.isEmpty { handOff() }
        idle.wait()
        idle.signal()
    }
}
