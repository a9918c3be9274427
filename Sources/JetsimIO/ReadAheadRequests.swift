import Dispatch

/// Reads a `LibCacheSimStream` one batch ahead on a second thread, so parsing overlaps the replay: while the caller
/// replays one batch the reader fills the other. Batches arrive in trace order, so results do not change.
///
/// Invariant: each slot is owned either by the reader (from a `free` signal until its `filled` signal) or by the
/// caller (from `filled` until the caller signals `free`); the semaphores order every access to it.
public final class ReadAheadRequests: @unchecked Sendable {
    private final class Slot {
        var batch: RequestBatch
        var finished = false
        init(capacity: Int) { batch = RequestBatch(capacity: capacity) }
    }

    private let stream: LibCacheSimStream
    private let slots: [Slot]
    private var failure: InputError?
    private let filled = DispatchSemaphore(value: 0)
    /// Starts at 0 and is signalled twice: libdispatch traps when a semaphore is released below its initial value.
    private let free = DispatchSemaphore(value: 0)
    private var current = 0
    private var started = false
    private var done = false

    public init(_ stream: LibCacheSimStream, batchCapacity: Int = 1 << 16) {
        self.stream = stream
        slots = [Slot(capacity: batchCapacity), Slot(capacity: batchCapacity)]
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
                do throws(InputError) { more = try stream.next(into: &slot.batch) } catch { failure = error }
                slot.finished = !more
                filled.signal()
                if !more { return }
                index ^= 1
            }
        }
    }

    /// Calls `body` with the next batch; false (without calling it) at the end of the trace. Throws the reader's
    /// error where the trace is malformed.
    public func next(_ body: (borrowing RequestBatch) -> Void) throws(InputError) -> Bool {
        if done { return false }
        if !started { startReader() }
        filled.wait()
        let slot = slots[current]
        if slot.finished {
            done = true
            if let failure { throw failure }
            return false
        }
        body(slot.batch)
        free.signal()
        current ^= 1
        return true
    }
}
