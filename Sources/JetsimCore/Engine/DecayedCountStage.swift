#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The decayed use counts a request stream leaves, for one half-life, by request: what `cachesim`'s reader computes
/// ahead (`DecayedCountStage`) for the cells whose policy keeps such a count (`EvictionPolicy.decayedCountHalfLifeMicros`:
/// `lfu`, `cost`), so that their replays store a count instead of decaying and adding (`CacheReplay.requests`).
///
/// Invariant: `counts` and `log2Counts` have one entry per request of the batch they were filled for; `log2Counts[k]` is
/// `log2(counts[k])` as libm computes it (the first term of `DecayingCountHeap`'s key), or NaN in every entry when the
/// stage computes no log2 (`DecayedCountStage.Need.log2`: then the heap, if it takes the count, computes it).
public struct DecayedCountColumn: Sendable {
    /// A batch's columns as the replay reads them (`CacheReplay.requests(objects:sizes:times:counted:)`).
    public typealias Buffers = (counts: UnsafeBufferPointer<Double>, log2Counts: UnsafeBufferPointer<Double>)

    public let halfLifeMicros: Double
    /// The count request k's open leaves (`DecayedFrequency.recordInPlace`'s double); for a request that repeats the one
    /// before, which opens nothing, the count as it stands.
    public internal(set) var counts: [Double] = []
    public internal(set) var log2Counts: [Double] = []

    public init(halfLifeMicros: Double) { self.halfLifeMicros = halfLifeMicros }

    /// Empties both columns, keeping their storage.
    public mutating func removeAll() {
        counts.removeAll(keepingCapacity: true)
        log2Counts.removeAll(keepingCapacity: true)
    }
}

/// Computes `DecayedCountColumn`s over a stream, batch after batch, on the reader's thread: the trace-only part of `lfu`'s
/// and `cost`'s state, once for every cell of a half-life, where each cell's replay would compute it again (an exp2 or a
/// lookup of the decay memo, and the key's log2, per request).
///
/// The rule of opens is the cache replay's (`CacheReplay.uniqueRequest`): a request opens its object unless that object
/// is the foreground one and resident, which for an object no larger than the cache is exactly when it was the request
/// before's: such an object is admitted at its miss, since a policy that keeps a decayed count scores every candidate
/// and so never refuses a victim (`EvictionPolicy.decayedCountHalfLifeMicros`; the replay checks it), and the
/// foreground object is never a victim. The replay uses a column only for objects that fit its cache
/// (`size ≤ capacityBytes`); an object larger than the cache is never admitted, so each of its requests opens it, and the
/// replay computes its count itself. The arithmetic is the policy's own (`DecayedFrequency.recordInPlace`), so each count
/// is the double the policy would store (debug builds check it: `DecayedFrequency.setInPlace`).
///
/// The log2 serves `lfu`'s heap only (`cost`'s index does not take it): a stage computes it only when a cell of its
/// half-life keys its scores by the count (`Need.log2`), where it cost `cost`'s reader some 50 of its 140 instructions a
/// request for nothing.
public struct DecayedCountStage {
    /// What a stage computes: the counts of a half-life, and their log2 when some cell of that half-life takes it
    /// (`EvictionPolicy.decayingScoreIsItsCount`).
    public struct Need: Equatable, Sendable {
        public var halfLifeMicros: Double
        public var log2: Bool
        public init(halfLifeMicros: Double, log2: Bool) {
            self.halfLifeMicros = halfLifeMicros
            self.log2 = log2
        }
    }

    @usableFromInline var frequency: DecayedFrequency
    /// Whether `fill` computes the log2 column (NaN otherwise).
    public let computesLog2: Bool
    /// The object of the request before (-1 at the start).
    @usableFromInline var previous: Int32 = -1

    public init(halfLifeMicros: Double, log2: Bool = true) {
        frequency = DecayedFrequency(halfLifeMicros: halfLifeMicros)
        computesLog2 = log2
    }

    public init(_ need: Need) { self.init(halfLifeMicros: need.halfLifeMicros, log2: need.log2) }

    public var halfLifeMicros: Double { frequency.halfLifeMicros }

    /// Refills `column` (of this stage's half-life) for the requests `objects` at `times`, the stream's next ones.
    public mutating func fill(_ column: inout DecayedCountColumn, objects: UnsafeBufferPointer<Int32>, times: UnsafeBufferPointer<Int>) {
        precondition(column.halfLifeMicros == frequency.halfLifeMicros && objects.count == times.count,
                     "DecayedCountStage: a column of another half-life, or columns of different lengths")
        frequency.makeUnique()
        // Sized first, then written in place, each entry once: no append's checks a request, and the columns' storage
        // is kept from batch to batch.
        column.removeAll()
        column.counts.append(contentsOf: repeatElement(0, count: objects.count))
        column.log2Counts.append(contentsOf: repeatElement(computesLog2 ? 0 : .nan, count: objects.count))
        column.counts.withUnsafeMutableBufferPointer { counts in
            column.log2Counts.withUnsafeMutableBufferPointer { log2Counts in
                // One loop each, so that the loop without the log2 tests nothing a request for it.
                if computesLog2 {
                    fill(counts: counts, log2Counts: log2Counts, objects: objects, times: times)
                } else {
                    fill(counts: counts, log2Counts: nil, objects: objects, times: times)
                }
            }
        }
    }

    @inline(__always)
    mutating func fill(counts: UnsafeMutableBufferPointer<Double>, log2Counts: UnsafeMutableBufferPointer<Double>?,
                       objects: UnsafeBufferPointer<Int32>, times: UnsafeBufferPointer<Int>) {
        let d = 12   // (as the replay's prefetch distance: the counts are indexed by a random object id)
        for k in 0..<objects.count {
            let object = objects[k]
            precondition(object >= 0, "DecayedCountStage: object ids are numbers from 0")   // (the readers number them so)
            if k + d < objects.count { frequency.prefetch(objects[k + d]) }
            if object != previous { frequency.recordInPlace(object, at: times[k]) }
            previous = object
            let count = frequency.lastCount(object)
            counts[k] = count
            if let log2Counts { log2Counts[k] = log2(count) }
        }
    }
}
