import JetsimCore

/// Where `jetsim run` gets its events: a streamed trace in either format, a loaded array, or a streamed trace read
/// one batch ahead on a second thread (`readingAhead`).
public enum EventSource {
    case jetsim(TraceReader)
    case libCacheSim(LibCacheSimTrace)
    case loaded([TraceEvent], position: Int)
    case readAhead(EventsReadAhead)
    /// A streamed trace whose malformed line `nextBatch` met after other events of a batch: they went out first, and
    /// every later read throws the line's error.
    case failed(InputError)

    public mutating func next() throws(InputError) -> TraceEvent? {
        switch self {
        case let .failed(error): throw error
        case let .jetsim(r): return try r.next()
        case let .libCacheSim(r): return try r.next()
        case let .readAhead(r): return try r.next()
        case let .loaded(events, position):
            guard position < events.count else { return nil }
            self = .loaded(events, position: position + 1)
            return events[position]
        }
    }

    /// Appends the next events to `events` until it holds `count` or the source ends: `next()`'s events, and its error
    /// after the events before it, but a Jetsim trace reads its common rows in one pass (`TraceReader.next(into:upTo:)`).
    public mutating func next(into events: inout [TraceEvent], upTo count: Int) throws(InputError) {
        if case let .jetsim(r) = self { return try r.next(into: &events, upTo: count) }
        while events.count < count, let e = try next() { events.append(e) }
    }

    /// Replaces `batch` with the next events (at least one, at most `EventsReadAhead.batchCount`, so a loaded trace is not
    /// copied whole), the source's own batch where it reads ahead (swapped, not
    /// copied, so a caller that passes the same array back allocates nothing); false, leaving `batch` empty, at the
    /// end. The events and any error are `next()`'s: the events before a malformed line come first, then its error
    /// (with `batch` empty). A loop over batches spends nothing per event on the source (`simulate` handed out each
    /// event through this enum, a class and its exclusivity checks: about 207 instructions an event).
    public mutating func nextBatch(into batch: inout [TraceEvent]) throws(InputError) -> Bool {
        batch.removeAll(keepingCapacity: true)
        switch self {
        case let .readAhead(r):
            return try r.nextBatch(into: &batch)
        case let .loaded(events, position):
            // A batch's worth at a time: the whole rest at once would double a loaded trace's memory.
            guard position < events.count else { return false }
            let end = min(events.count, position + EventsReadAhead.batchCount)
            batch.append(contentsOf: events[position..<end])
            self = .loaded(events, position: end)
            return true
        case .jetsim, .libCacheSim:
            do throws(InputError) {
                try next(into: &batch, upTo: EventsReadAhead.batchCount)
            } catch {
                guard !batch.isEmpty else { throw error }
                self = .failed(error)   // the events before the malformed line first
            }
            return !batch.isEmpty
        case let .failed(error):
            throw error
        }
    }

    /// Reads everything that is left (for policies that need the future).
    public mutating func readAll() throws(InputError) -> [TraceEvent] {
        var events: [TraceEvent] = []
        while let e = try next() { events.append(e) }
        return events
    }

    /// The same events, a streamed trace's parsed on a second thread while the caller works (`run`: the parse no
    /// longer adds to the simulation's time). Events, their order and any error are the same; the reader is the other
    /// thread's from now on. A loaded array stays as it is.
    public func readingAhead() -> EventSource {
        switch self {
        case .loaded, .readAhead, .failed: return self
        case .jetsim, .libCacheSim: return .readAhead(EventsReadAhead(self))
        }
    }
}

/// A streamed `EventSource` read in batches by `ReadAhead`, handed out one event at a time.
public final class EventsReadAhead {
    private let ahead: ReadAhead<[TraceEvent]>
    private var batch: [TraceEvent] = []
    private var position = 0

    /// Events a batch: two semaphore hand-offs per batch are nothing beside parsing it, and three batches stay small.
    static let batchCount = 8192

    init(_ source: EventSource) {
        let reader = SourceBox(source)
        // The source's own batches: the events before a bad line first, as a serial read gives them, then its error.
        ahead = ReadAhead(empty: { [] }, fill: { (batch: inout [TraceEvent]) throws(InputError) -> Bool in
            try reader.source.nextBatch(into: &batch)
        })
    }

    /// The next event, or nil at the end; throws where the trace is malformed, after every event before that line.
    public func next() throws(InputError) -> TraceEvent? {
        while position == batch.count {
            guard try ahead.next(into: &batch) else { return nil }
            position = 0
        }
        defer { position += 1 }
        return batch[position]
    }

    /// The rest of the current batch, or the next batch, in place of `batch` (see `EventSource.nextBatch(into:)`;
    /// `batch` comes in empty and stays so on a throw: the reader refills whatever array it is given).
    public func nextBatch(into batch: inout [TraceEvent]) throws(InputError) -> Bool {
        if position < self.batch.count {
            batch.append(contentsOf: self.batch[position...])
            position = self.batch.count
            return true
        }
        while true {
            guard try ahead.next(into: &batch) else { return false }   // `batch` left as it was: empty
            if !batch.isEmpty { return true }
        }
    }

    /// The source, owned by the reader's thread (the only one that touches it once reading ahead).
    private final class SourceBox: @unchecked Sendable {
        var source: EventSource
        init(_ source: EventSource) { self.source = source }
    }
}
