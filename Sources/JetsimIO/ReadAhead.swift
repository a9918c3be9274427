import Dispatch
import JetsimCore
import Synchronization

/// Reads a stream one batch ahead on a second thread, so parsing overlaps the work on the batches: while the caller
/// works on one batch the reader fills the next. Batches arrive in stream order, so no result changes; a reader's error
/// reaches the caller after every batch read before it, where a serial read would have thrown it.
///
/// `cachesim` reads its requests so (`ReadAhead(requests:)`, or from memory, `ReadAhead(kept:)`), `run` its events
/// (`EventSource.readingAhead`).
///
/// Batches are swapped, never copied: `next(into:)` gives the caller the filled batch and the reader the caller's
/// previous one to refill, so three batches circulate and nothing is allocated once they have grown (their decayed
/// counts' columns included).
///
/// Invariant: each slot is owned either by the reader (from a `free` signal until its `filled` signal) or by the
/// caller (from `filled` until the caller signals `free`); the semaphores order every access to it, and to `failure`.
public final class ReadAhead<Batch>: @unchecked Sendable {
    private final class Slot {
        var batch: Batch
        var finished = false
        init(_ batch: Batch) { self.batch = batch }
    }

    /// Empties `batch` and refills it from the stream; false at the end of the stream.
    public typealias Fill = (inout Batch) throws(InputError) -> Bool

    private let fill: Fill
    private let waits: ReadAheadWaits?
    private let slots: [Slot]
    private var failure: InputError?
    private let filled = DispatchSemaphore(value: 0)
    /// Starts at 0 and is signalled twice: libdispatch traps when a semaphore is released below its initial value.
    private let free = DispatchSemaphore(value: 0)
    private var current = 0
    private var started = false
    private var done = false

    /// - Parameters:
    ///   - empty: makes an empty batch (called for each of the reader's two slots).
    ///   - fill: runs on the reader's thread only, one call at a time.
    ///   - waits: where the two threads add up how long each waited for the other, when the fill asks.
    public init(empty: () -> Batch, fill: @escaping Fill, waits: ReadAheadWaits? = nil) {
        self.fill = fill
        self.waits = waits
        slots = [Slot(empty()), Slot(empty())]
        free.signal()
        free.signal()
    }

    private func startReader() {
        started = true
        DispatchQueue(label: "jetsim.read-ahead").async { [self] in
            var index = 0
            while true {
                if let waits { waits.wait(on: free, .reader) } else { free.wait() }
                let slot = slots[index]
                var more = false
                do throws(InputError) { more = try fill(&slot.batch) } catch { failure = error }
                slot.finished = !more
                filled.signal()
                if !more { return }
                index ^= 1
            }
        }
    }

    /// Swaps the next filled batch into `batch` (whose old contents the reader reuses); false, leaving `batch` as it
    /// was, at the end of the stream. Throws the reader's error where the stream is malformed.
    public func next(into batch: inout Batch) throws(InputError) -> Bool {
        if done { return false }
        let first = !started
        if first { startReader() }
        if let waits, !first { waits.wait(on: filled, .consumer) } else { filled.wait() }   // (every consumer waits for the first batch: not counted)
        let slot = slots[current]
        if slot.finished {
            done = true
            if let failure { throw failure }
            return false
        }
        swap(&batch, &slot.batch)
        free.signal()
        current ^= 1
        return true
    }
}

extension ReadAhead where Batch == RequestBatch {
    /// A libCacheSim stream's requests, `batchCapacity` a batch, each with the decayed counts `needs` asks
    /// (`RequestBatch.fillDecayedCounts`, on the reader's thread) until the reader is the slower side, or to the end when
    /// not `stoppingWhenSlower` (`DecayedCountStages`).
    public convenience init(requests stream: LibCacheSimStream, batchCapacity: Int = 1 << 16, decayedCounts needs: [DecayedCountStage.Need] = [],
                            stoppingWhenSlower: Bool = true) {
        self.init(empty: { RequestBatch(capacity: batchCapacity) }, decayedCounts: needs, stoppingWhenSlower: stoppingWhenSlower) {
            (batch: inout RequestBatch) throws(InputError) -> Bool in
            if batch.capacity != batchCapacity { batch = RequestBatch(capacity: batchCapacity) }   // the caller's first, once
            return try stream.next(into: &batch)
        }
    }

    /// Requests a first pass kept in memory (`LibCacheSimStream.workingSet(…, keepingAtMost:)`), handed out in order,
    /// each let go of once handed out, with the decayed counts `needs` asks (as `init(requests:…)`).
    public convenience init(kept batches: [RequestBatch], decayedCounts needs: [DecayedCountStage.Need] = [], stoppingWhenSlower: Bool = true) {
        let kept = KeptBatches(batches)
        self.init(empty: { RequestBatch(capacity: 1) }, decayedCounts: needs, stoppingWhenSlower: stoppingWhenSlower) {
            (batch: inout RequestBatch) throws(InputError) -> Bool in kept.next(into: &batch)
        }
    }

    /// Batches from `next`, each given its decayed counts by the stages of `needs` once it is read.
    private convenience init(empty: () -> RequestBatch, decayedCounts needs: [DecayedCountStage.Need], stoppingWhenSlower: Bool, next: @escaping Fill) {
        let stages = DecayedCountStages(needs, stoppingWhenSlower: stoppingWhenSlower)
        self.init(empty: empty, fill: { (batch: inout RequestBatch) throws(InputError) -> Bool in
            guard try next(&batch) else { return false }
            stages.fill(&batch)
            return true
        }, waits: needs.isEmpty || !stoppingWhenSlower ? nil : stages.waits)
    }
}

/// How long each side of a `ReadAhead` has waited for the other, in ns: the reader for a slot to refill (its consumer is
/// slower), the consumer for a batch (its reader is slower), the very first batch not counted.
public final class ReadAheadWaits: Sendable {
    let reader = Atomic<UInt64>(0)
    let consumer = Atomic<UInt64>(0)

    public init() {}

    enum Side { case reader, consumer }

    /// Waits on `semaphore`, adding the time to `side`'s.
    func wait(on semaphore: DispatchSemaphore, _ side: Side) {
        let start = DispatchTime.now().uptimeNanoseconds
        semaphore.wait()
        let waited = DispatchTime.now().uptimeNanoseconds &- start
        switch side {
        case .reader: reader.add(waited, ordering: .relaxed)
        case .consumer: consumer.add(waited, ordering: .relaxed)
        }
    }

    /// How much longer the consumer has waited than the reader (negative: shorter), in ns: how far the reader is the
    /// slower side.
    public var readerBehind: Int64 {
        Int64(truncatingIfNeeded: consumer.load(ordering: .relaxed)) &- Int64(truncatingIfNeeded: reader.load(ordering: .relaxed))
    }
}

/// The stages behind a read-ahead's decayed counts: touched by the reader's thread only, one call at a time.
///
/// The counts move work from the cells' replays to the reader, which pays when the replays are the slower side (`lfu`
/// and `cost` where most requests miss: their replays run longer than the parse) and costs when the reader is (a CSV's
/// parse, where most requests hit). So the stages stop for good, from the third batch on, once the consumer has waited
/// longer than the reader by more than half the stages' own time (`ReadAheadWaits`): then the replays, had they counted
/// themselves (less work than the stages': a log2 only where a score is placed), would still not have made the reader
/// wait. The cells then compute the counts from their policies' own state, which holds every count stored so far.
/// Either way each count is the same double (`DecayedCountStage`), so this choice, made by the clock, changes no result.
private final class DecayedCountStages: @unchecked Sendable {
    private var stages: [DecayedCountStage]
    private let stoppingWhenSlower: Bool
    let waits = ReadAheadWaits()
    private var batches = 0
    /// The stages' time so far, ns.
    private var spent: UInt64 = 0

    init(_ needs: [DecayedCountStage.Need], stoppingWhenSlower: Bool) {
        stages = needs.map(DecayedCountStage.init)
        self.stoppingWhenSlower = stoppingWhenSlower
    }

    func fill(_ batch: inout RequestBatch) {
        if stages.isEmpty { return }
        batches += 1
        if stoppingWhenSlower && batches > 2 && waits.readerBehind > Int64(truncatingIfNeeded: spent / 2) {
            stages = []
            return
        }
        let start = DispatchTime.now().uptimeNanoseconds
        batch.fillDecayedCounts(&stages)
        spent &+= DispatchTime.now().uptimeNanoseconds &- start
    }
}

/// The queue behind `ReadAhead(kept:)`: touched by the reader's thread only, one call at a time.
private final class KeptBatches: @unchecked Sendable {
    private var batches: [RequestBatch]
    private var index = 0

    init(_ batches: [RequestBatch]) { self.batches = batches }

    func next(into batch: inout RequestBatch) -> Bool {
        guard index < batches.count else { return false }
        // The decayed counts' storage goes on to the next batch, emptied (refilled in place, or left empty once the stages stop).
        batch.emptyDecayedCounts()
        let columns = batch.decayedCounts
        batch = batches[index]
        batch.decayedCounts = columns
        batches[index] = RequestBatch(capacity: 1)
        index += 1
        return true
    }
}
