import Dispatch

/// Reads a stream one batch ahead on a second thread, so parsing overlaps the work on the batches: while the caller
/// works on one batch the reader fills the next. Batches arrive in stream order, so no result changes; a reader's error
/// reaches the caller after every batch read before it, where a serial read would have thrown it.
///
/// `cachesim` reads its requests so (`ReadAhead(requests:)`, or from memory, `ReadAhead(kept:)`), `run` its events
/// (`EventSource.readingAhead`).
///
/// Batches are swapped, never copied: `next(into:)` gives the caller the filled batch and the reader the caller's
/// previous one to refill, so three batches circulate and nothing is allocated once they have grown.
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
    public init(empty: () -> Batch, fill: @escaping Fill) {
        self.fill = fill
        slots = [Slot(empty()), Slot(empty())]
        free.signal()
        free.signal()
    }

    private func startReader() {
        started = true
        DispatchQueue(label: "jetsim.read-ahead").async { [self] in
            var index = 0
            while true {
                free.wait()
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
        if !started { startReader() }
        filled.wait()
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
    /// A libCacheSim stream's requests, `batchCapacity` a batch.
    public convenience init(requests stream: LibCacheSimStream, batchCapacity: Int = 1 << 16) {
        self.init(empty: { RequestBatch(capacity: batchCapacity) }, fill: { (batch: inout RequestBatch) throws(InputError) -> Bool in
            if batch.capacity != batchCapacity { batch = RequestBatch(capacity: batchCapacity) }   // the caller's first, once
            return try stream.next(into: &batch)
        })
    }

    /// Requests a first pass kept in memory (`LibCacheSimStream.workingSet(…, keepingAtMost:)`), handed out in order,
    /// each let go of once handed out.
    public convenience init(kept batches: [RequestBatch]) {
        let kept = KeptBatches(batches)
        self.init(empty: { RequestBatch(capacity: 1) }, fill: { (batch: inout RequestBatch) throws(InputError) -> Bool in kept.next(into: &batch) })
    }
}

/// The queue behind `ReadAhead(kept:)`: touched by the reader's thread only, one call at a time.
private final class KeptBatches: @unchecked Sendable {
    private var batches: [RequestBatch]
    private var index = 0

    init(_ batches: [RequestBatch]) { self.batches = batches }

    func next(into batch: inout RequestBatch) -> Bool {
        guard index < batches.count else { return false }
        batch = batches[index]
        batches[index] = RequestBatch(capacity: 1)
        index += 1
        return true
    }
}
