#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import JetsimCore

/// Requests read from a trace, a batch at a time, in storage reused from batch to batch.
///
/// Each column is `capacity` entries long from the start (plain integers, left uninitialised until written); the first
/// `count` are the batch's requests, which `objects`, `sizes` and `times` show. A reader writes them in place through
/// `write(_:)`, one uniqueness check a column a fill: an `Array`'s append paid one (a runtime call) and a capacity check
/// per column per request, a third of the binary reader's time in its loop. Invariant: `count ≤ capacity` = each
/// column's length.
public struct RequestBatch {
    private var objectColumn: [Int32]
    private var sizeColumn: [Int]
    private var timeColumn: [Int]
    /// The decayed use counts of these requests for the half-lives some cell's policy keeps, when the reader computed
    /// them (`fillDecayedCounts`); each column's length is the batch's then, 0 before.
    public internal(set) var decayedCounts: [DecayedCountColumn] = []
    public let capacity: Int
    public private(set) var count = 0

    public init(capacity: Int = 1 << 16) {
        self.capacity = max(1, capacity)
        objectColumn = Self.column(self.capacity)
        sizeColumn = Self.column(self.capacity)
        timeColumn = Self.column(self.capacity)
    }

    /// `n` entries, not initialised (plain integers: each is written before it is read, `count` says which).
    private static func column<T: FixedWidthInteger>(_ n: Int) -> [T] {
        [T](unsafeUninitializedCapacity: n) { _, initialized in initialized = n }
    }

    /// Dense object numbers (order of first appearance in the trace).
    public var objects: ArraySlice<Int32> { objectColumn[..<count] }
    public var sizes: ArraySlice<Int> { sizeColumn[..<count] }
    /// Request times, µs.
    public var times: ArraySlice<Int> { timeColumn[..<count] }

    /// The bytes its requests' storage holds (what a kept batch costs: it has no decayed counts while kept).
    public var memoryBytes: Int { capacity * (MemoryLayout<Int32>.stride + 2 * MemoryLayout<Int>.stride) }

    mutating func removeAll() {
        count = 0
        emptyDecayedCounts()
    }

    /// A reader's in-place access to a batch's columns (`RequestBatch.write`): `count` requests written, room for
    /// `capacity`. Valid only inside `write`'s body.
    struct Writer {
        let objects: UnsafeMutablePointer<Int32>
        let sizes: UnsafeMutablePointer<Int>
        let times: UnsafeMutablePointer<Int>
        let capacity: Int
        private(set) var count: Int

        /// Appends a request (`count < capacity`: the readers fill while there is room).
        @inline(__always)
        mutating func append(_ object: Int32, size: Int, time: Int) {
            precondition(count < capacity, "RequestBatch: a request past the batch's capacity")
            objects[count] = object
            sizes[count] = size
            times[count] = time
            count &+= 1
        }

        /// Gives request `k` (< `count`) its object number (the reader appends a request before it numbers its id).
        @inline(__always)
        func setObject(_ k: Int, _ object: Int32) {
            assert(k >= 0 && k < count, "RequestBatch: request \(k) is not in the batch")
            objects[k] = object
        }
    }

    /// Appends one request (`count < capacity`): for tests and small producers; a reader writes a fill's requests
    /// through `write`.
    mutating func append(_ object: Int32, size: Int, time: Int) {
        write { (batch: inout Writer) in batch.append(object, size: size, time: time) }
    }

    /// Runs `body` with the columns open for writing after the batch's requests; the requests it appends are the batch's
    /// afterwards, also when it throws.
    mutating func write<E: Error>(_ body: (inout Writer) throws(E) -> Void) throws(E) {
        // Moved out while written, so that each is uniquely referenced (a batch shared with a copy is copied here, once).
        var objects = [Int32](), sizes = [Int](), times = [Int]()
        swap(&objects, &objectColumn)
        swap(&sizes, &sizeColumn)
        swap(&times, &timeColumn)
        defer {
            swap(&objects, &objectColumn)
            swap(&sizes, &sizeColumn)
            swap(&times, &timeColumn)
        }
        var written = count
        defer { count = written }
        try objects.withUnsafeMutableBufferPointer { (o) throws(E) in
            try sizes.withUnsafeMutableBufferPointer { (z) throws(E) in
                try times.withUnsafeMutableBufferPointer { (t) throws(E) in
                    guard let ob = o.baseAddress, let zb = z.baseAddress, let tb = t.baseAddress else { return }   // (capacity ≥ 1)
                    var writer = Writer(objects: ob, sizes: zb, times: tb, capacity: capacity, count: written)
                    defer { written = writer.count }
                    try body(&writer)
                }
            }
        }
    }

    /// Empties the decayed counts' columns, keeping their storage: a column of old counts would pass for the batch's
    /// once it holds as many requests again.
    mutating func emptyDecayedCounts() {
        for c in decayedCounts.indices { decayedCounts[c].removeAll() }
    }

    /// Computes the decayed counts of these requests with `stages`, the stream's, one column each (the reader's thread
    /// calls this once a batch, in stream order).
    public mutating func fillDecayedCounts(_ stages: inout [DecayedCountStage]) {
        if decayedCounts.count != stages.count || !zip(decayedCounts, stages).allSatisfy({ $0.halfLifeMicros == $1.halfLifeMicros }) {
            decayedCounts = stages.map { DecayedCountColumn(halfLifeMicros: $0.halfLifeMicros) }   // once a batch's first fill
        }
        objects.withUnsafeBufferPointer { objects in
            times.withUnsafeBufferPointer { times in
                for s in stages.indices { stages[s].fill(&decayedCounts[s], objects: objects, times: times) }
            }
        }
    }
}

extension CacheReplay {
    /// Every request of `batch` in order (`requests(objects:sizes:times:counted:)`), with the decayed counts of the policy's
    /// half-life when the batch has them: what `cachesim`'s cells and the fuzz target run.
    @inlinable
    public mutating func requests(_ batch: borrowing RequestBatch) {
        let halfLife = policy.decayedCountHalfLifeMicros
        let column = halfLife.flatMap { h in batch.decayedCounts.first { $0.halfLifeMicros == h && $0.counts.count == batch.count } }
        batch.objects.withUnsafeBufferPointer { objects in
            batch.sizes.withUnsafeBufferPointer { sizes in
                batch.times.withUnsafeBufferPointer { times in
                    guard let column else { return requests(objects: objects, sizes: sizes, times: times) }
                    column.counts.withUnsafeBufferPointer { counts in
                        column.log2Counts.withUnsafeBufferPointer { log2Counts in
                            requests(objects: objects, sizes: sizes, times: times, counted: (counts, log2Counts))
                        }
                    }
                }
            }
        }
    }
}

/// libCacheSim's trace formats: text (CSV, or txt with one object id per line, told apart by the first row) or the
/// binary `oracleGeneral`.
public enum LibCacheSimFormat: String, Sendable, CaseIterable {
    case csv
    case oracleGeneral

    /// The format libCacheSim's file naming gives `path`: `oracleGeneral` for names holding `.oracleGeneral`
    /// (`w44.oracleGeneral.bin`, `.oracleGeneral.zst`, `.oracleGeneral.bin.zst`), text otherwise.
    public static func named(path: String) -> LibCacheSimFormat {
        path.lowercased().contains(".oraclegeneral") ? .oracleGeneral : .csv
    }

    /// `--trace-format`'s value, in any case: `csv` (also `txt`) or `oracleGeneral` (also `oracleGeneralBin`, libCacheSim's name).
    public init?(option: String) {
        switch option.lowercased() {
        case "csv", "txt": self = .csv
        case "oraclegeneral", "oraclegeneralbin": self = .oracleGeneral
        default: return nil
        }
    }
}

/// libCacheSim's trace formats read in one pass at byte level, for cache replays: the same rules and messages as
/// `LibCacheSimTrace` (fields by 1-based number, header detected, txt format for one-field rows, blank and `#`
/// lines skipped, gzip and zstd read transparently, zero sizes and decreasing times refused with their line) without a
/// catalog pass, and numeric fields only (no quoting, as libCacheSim writes them).
///
/// `oracleGeneral` is libCacheSim's binary format: 24-byte little-endian records {uint32 clock_time (s); uint64
/// obj_id; uint32 obj_size; int64 next_access_vtime} (libCacheSim/traceReader/customizedReader/oracle/oracleGeneralBin.h:9-14,
/// record size :24, field offsets 0, 4, 12, 16 :38-41, commit 08cc880). next_access_vtime is not used (oracle cannot
/// stream). Its errors name the record (1-based) and its byte offset.
public final class LibCacheSimStream {
    public let path: String
    private var scanner: Scanner

    /// `name` stands for the file in messages when it is read from a private copy (`ReadOnceInput`). `objectLimit`: how
    /// many distinct objects it numbers before it refuses the trace (Int32's numbers; less in tests).
    public convenience init(path source: String, fields: LibCacheSimTrace.Fields = .init(), format: LibCacheSimFormat = .csv,
                            bufferSize: Int = 1 << 22, name: String? = nil) throws(InputError) {
        try self.init(path: source, fields: fields, format: format, bufferSize: bufferSize, name: name, objectLimit: Int(Int32.max))
    }

    init(path source: String, fields: LibCacheSimTrace.Fields, format: LibCacheSimFormat, bufferSize: Int, name: String?,
         objectLimit: Int) throws(InputError) {
        let path = name ?? source
        self.path = path
        let input = try InputFile(path: source, name: path)
        scanner = Scanner(path: path, input: input, fields: fields, binary: format == .oracleGeneral, bufferSize: max(bufferSize, 64),
                          objectLimit: objectLimit)
    }

    /// Distinct objects seen so far.
    public var objectCount: Int { scanner.ids.count }

    /// The working set of the trace at `path`: distinct objects and the sum of their sizes (each object's first
    /// request's size), in one pass — what capacities given as a share of the working set are taken of. The pass also
    /// keeps the requests it read, in order, while they take at most `budget` bytes (`RequestBatch.memoryBytes`), so that
    /// the replay need not read the trace a second time (`ReadAhead(kept:)`); `requests` is nil past the budget.
    public static func workingSet(path: String, fields: LibCacheSimTrace.Fields = .init(), format: LibCacheSimFormat = .csv,
                                  name: String? = nil, keepingAtMost budget: Int = 0) throws(InputError)
        -> (objects: Int, bytes: Int, requests: [RequestBatch]?) {
        let stream = ReadAhead(requests: try LibCacheSimStream(path: path, fields: fields, format: format, name: name))
        var batch = RequestBatch()
        var seen: [Bool] = []
        var bytes = 0
        var kept: [RequestBatch]? = budget > 0 ? [] : nil
        var keptBytes = 0
        while try stream.next(into: &batch) {
            for k in 0..<batch.count {
                let o = Int(batch.objects[k])
                if o >= seen.count { seen.append(contentsOf: repeatElement(false, count: o + 1 - seen.count)) }
                if !seen[o] {
                    seen[o] = true
                    bytes += batch.sizes[k]   // ≤ 2⁵⁰ each, < 2³¹ objects: no overflow
                }
            }
            guard kept != nil else { continue }
            keptBytes += batch.memoryBytes
            if keptBytes > budget {
                kept = nil   // let go of what was kept: the replay reads the trace again
            } else {
                kept?.append(batch)
                batch = RequestBatch()
            }
        }
        return (seen.count, bytes, kept)   // ids are dense from 0: as many objects as ids
    }

    /// Refills `batch` with the next requests; false (and an empty batch) at the end of the trace.
    public func next(into batch: inout RequestBatch) throws(InputError) -> Bool {
        batch.removeAll()
        try scanner.fill(&batch)
        return batch.count > 0
    }

    /// The byte loop and its state, in a struct so field accesses are not exclusivity-checked per byte.
    struct Scanner {
        let path: String
        let input: InputFile
        let fields: LibCacheSimTrace.Fields
        /// `oracleGeneral` records rather than text lines.
        let binary: Bool
        var ids: ObjectIDTable
        var buffer: [UInt8]
        var position = 0
        var limit = 0
        var atEOF = false
        var line = 0
        /// nil until the first row decides: libCacheSim's txt format (one field per row) or CSV.
        var plainText: Bool?
        var lastTime = Int.min
        var requestIndex = 0
        /// False until the first fill has looked for a UTF-8 byte order mark (skipped).
        var pastStart = false
        /// Requests of the batch being filled are numbered `numberingDelay` requests after they are read, their ids'
        /// slots in `ids` asked for when read (`ObjectIDTable.prefetch`): the lookup of a random id waited for memory, 94 %
        /// of its time. `unnumbered` holds the ids read and not yet numbered, by request index mod 16; requests before
        /// `numbered` have their numbers. Every request is numbered before `fill` returns or throws, so errors still
        /// come in the trace's order; and near the end of the numbers (`ObjectIDTable.limit`) ids are numbered as they are
        /// read, so that running out is reported at its own line.
        var unnumbered = IDRing()
        var numbered = 0
        static let numberingDelay = 12

        init(path: String, input: InputFile, fields: LibCacheSimTrace.Fields, binary: Bool, bufferSize: Int, objectLimit: Int) {
            self.path = path
            ids = ObjectIDTable(limit: objectLimit)
            self.input = input
            self.fields = fields
            self.binary = binary
            buffer = [UInt8](repeating: 0, count: bufferSize)
        }

        /// Moves the unread tail to the front and reads more; false at the end of the file.
        private mutating func refill() throws(InputError) -> Bool {
            if atEOF { return false }
            let remaining = limit - position
            if remaining > InputLimits.maxLineBytes {
                throw InputLimits.lineTooLong(file: path, line: line + 1)
            }
            if remaining == buffer.count { buffer.append(contentsOf: repeatElement(0, count: buffer.count)) }   // a long line
            let from = position
            buffer.withUnsafeMutableBytes { raw in
                if remaining > 0 && from > 0, let base = raw.baseAddress { memmove(base, base + from, remaining) }
            }
            let n = try input.read(into: &buffer, from: remaining, line: binary ? nil : line + 1)
            position = 0
            limit = remaining
            if n <= 0 { atEOF = true; return false }
            limit += n
            return true
        }

        mutating func fill(_ batch: inout RequestBatch) throws(InputError) {
            try batch.write { (batch: inout RequestBatch.Writer) throws(InputError) in
                numbered = batch.count
                defer { while numbered < batch.count { numberNext(&batch) } }   // on every exit (after a throw the batch is dropped)
                try fillUnnumbered(&batch)
            }
        }

        /// A request read, its id numbered later (`unnumbered`), or now when the numbers are nearly spent.
        @inline(__always)
        private mutating func append(_ id: UInt64, size: Int, time: Int, into batch: inout RequestBatch.Writer) throws(InputError) {
            let k = batch.count
            if ids.count >= ids.limit - 2 * Self.numberingDelay {
                while numbered < k { numberNext(&batch) }
                guard let object = ids.number(id) else {
                    throw binary ? recordError("obj_id", "more than \(ids.limit) distinct objects")
                        : InputError(file: path, line: line, field: "obj-id", message: "more than \(ids.limit) distinct objects")
                }
                batch.append(object, size: size, time: time)
                numbered = k + 1
                return
            }
            batch.append(-1, size: size, time: time)
            unnumbered[k] = id
            ids.prefetch(id)
            if k - numbered >= Self.numberingDelay { numberNext(&batch) }
        }

        /// Numbers the oldest request not yet numbered. Never past the last number: at most `numberingDelay` + 1 ids wait,
        /// and only while more than 2 · `numberingDelay` numbers are left (`append` numbers at once after that).
        @inline(__always)
        private mutating func numberNext(_ batch: inout RequestBatch.Writer) {
            guard let object = ids.number(unnumbered[numbered]) else { preconditionFailure("LibCacheSimStream: a waiting id past the last number") }
            batch.setObject(numbered, object)
            numbered += 1
        }

        /// `fill`'s reading, each request's object number left to `numberNext`.
        private mutating func fillUnnumbered(_ batch: inout RequestBatch.Writer) throws(InputError) {
            if binary { return try fillRecords(&batch) }
            if !pastStart {
                pastStart = true
                while limit - position < 3, try refill() {}
                if limit - position >= 3, buffer[position] == 0xEF, buffer[position + 1] == 0xBB, buffer[position + 2] == 0xBF { position += 3 }
            }
            while batch.count < batch.capacity {
                // A whole line in the buffer (or the last, unterminated one at the end of the file).
                var end = position
                while true {
                    end = buffer.withUnsafeBufferPointer { b in
                        let start = b.baseAddress! + position
                        guard let hit = memchr(start, 10, limit - position) else { return -1 }
                        return position + (UnsafeRawPointer(hit) - UnsafeRawPointer(start))
                    }
                    if end >= 0 { break }
                    if try !refill() {
                        end = limit
                        break
                    }
                }
                if position >= limit && atEOF { return }
                line += 1
                let lineEnd = end
                defer { position = min(lineEnd + 1, limit) }
                try parseLine(from: position, to: end, into: &batch)
            }
        }

        /// The size of an `oracleGeneral` record (oracleGeneralBin.h:24).
        static let recordBytes = 24

        /// `oracleGeneral` records into `batch`: time, id and size little-endian at offsets 0, 4 and 12.
        private mutating func fillRecords(_ batch: inout RequestBatch.Writer) throws(InputError) {
            while batch.count < batch.capacity {
                if limit - position < Self.recordBytes {
                    if try refill() { continue }
                    guard limit == position else {
                        throw InputError(file: path, message: "the file ends inside record \(requestIndex + 1) (byte offset \(requestIndex * Self.recordBytes)): "
                                         + "\(limit - position) of its \(Self.recordBytes) bytes (an oracleGeneral trace is 24-byte records)")
                    }
                    return
                }
                let (seconds, id, size) = buffer.withUnsafeBytes { raw in
                    (UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt32.self)),
                     UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position + 4, as: UInt64.self)),
                     UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: position + 12, as: UInt32.self)))
                }
                position += Self.recordBytes
                requestIndex += 1
                let time = Int(seconds) * Units.microsPerSecond
                guard size > 0 else { throw recordError("obj_size", "a zero-size request (libCacheSim drops these silently; Jetsim refuses them)") }
                guard time >= lastTime else { throw recordError("clock_time", "times must not decrease") }
                lastTime = time
                try append(id, size: Int(size), time: time, into: &batch)
            }
        }

        /// What is wrong with the record just read, located by its number (1-based) and byte offset.
        private func recordError(_ field: String, _ message: String) -> InputError {
            InputError(file: path, field: field, message: "record \(requestIndex) (byte offset \((requestIndex - 1) * Self.recordBytes)): \(message)")
        }

        /// One line `[from, to)` (its `\n` excluded): a request, or nothing for a header, blank or comment line.
        private mutating func parseLine(from: Int, to: Int, into batch: inout RequestBatch.Writer) throws(InputError) {
            var to = to
            if to > from && buffer[to - 1] == 13 { to -= 1 }   // CRLF
            if to == from || buffer[from] == UInt8(ascii: "#") { return }
            let deciding = plainText == nil
            let isText = plainText ?? !buffer[from..<to].contains(UInt8(ascii: ","))
            let idField = isText ? 0 : fields.objectID - 1
            if deciding {   // the first row decides the format, and may be a header
                plainText = isText
                let id = buffer.withUnsafeBufferPointer { field($0, from, to, idField) }.flatMap { LibCacheSimTrace.unsigned($0) }
                if id == nil { return }   // a header row
            }
            requestIndex += 1
            let request: ParsedRequest
            if let fast = fastFields(from: from, to: to, idField: idField, isText: isText) {
                request = fast
            } else {
                request = try generalFields(from: from, to: to, idField: idField, isText: isText)
            }
            guard request.time >= lastTime else { throw LibCacheSimProblem.decreasingTime(path, line: line) }
            lastTime = request.time
            try append(request.id, size: request.size, time: request.time, into: &batch)
        }

        /// One request as read, valid: size in 1…`maxBytes`, time in 0…`maxMicros` µs.
        struct ParsedRequest {
            var id: UInt64
            var size: Int
            var time: Int
        }

        /// The common line — plain digits in every field up to the last one read, integer seconds, a valid size — in
        /// one walk over its bytes; nil for anything else (spaces, decimals, a missing field, 19 digits, a zero
        /// size), which `generalFields` then reads or reports.
        @inline(__always)
        private func fastFields(from: Int, to: Int, idField: Int, isText: Bool) -> ParsedRequest? {
            let sizeField = isText ? -1 : fields.objectSize - 1, timeField = isText ? -1 : fields.time - 1
            let last = max(idField, sizeField, timeField)
            return buffer.withUnsafeBufferPointer { b -> ParsedRequest? in
                guard let base = b.baseAddress else { return nil }
                var id: UInt64 = 0, size: UInt64 = 1, seconds: UInt64 = 0
                var at = from, index = 0
                while index <= last {
                    guard at <= to else { return nil }   // fewer fields than needed
                    var value: UInt64 = 0
                    let start = at
                    while at < to {
                        let digit = base[at] &- 48
                        if digit > 9 { break }
                        value = value &* 10 &+ UInt64(digit)
                        at += 1
                    }
                    if at < to && base[at] != 44 { return nil }   // not a plain number
                    if index == idField || index == sizeField || index == timeField {
                        let digits = at - start
                        guard digits > 0 && digits <= 18 else { return nil }
                        if index == idField { id = value }
                        if index == sizeField { size = value }
                        if index == timeField { seconds = value }
                    }
                    at += 1
                    index += 1
                }
                guard size > 0, size <= UInt64(DecimalParser.maxBytes),
                      seconds <= UInt64(DecimalParser.maxMicros / Units.microsPerSecond) else { return nil }
                return ParsedRequest(id: id, size: Int(size), time: isText ? requestIndex * Units.microsPerSecond : Int(seconds) * Units.microsPerSecond)
            }
        }

        /// Any line: fields trimmed, times with decimals; a malformed field is reported with its line and text.
        private func generalFields(from: Int, to: Int, idField: Int, isText: Bool) throws(InputError) -> ParsedRequest {
            var idBytes: UnsafeBufferPointer<UInt8>?, sizeBytes: UnsafeBufferPointer<UInt8>?, timeBytes: UnsafeBufferPointer<UInt8>?
            let sizeField = isText ? -1 : fields.objectSize - 1, timeField = isText ? -1 : fields.time - 1
            let (path, line) = (self.path, self.line)
            return try buffer.withUnsafeBufferPointer { b throws(InputError) -> ParsedRequest in
                var index = 0, start = from, at = from
                while true {
                    if at == to || b[at] == UInt8(ascii: ",") {
                        let f = UnsafeBufferPointer(rebasing: b[start..<at])
                        if index == idField { idBytes = f }
                        if index == sizeField { sizeBytes = f }
                        if index == timeField { timeBytes = f }
                        if at == to { break }
                        index += 1
                        start = at + 1
                    }
                    at += 1
                }
                func text(_ f: UnsafeBufferPointer<UInt8>?) -> String { f.map { String(decoding: $0, as: UTF8.self) } ?? "" }
                guard let id = idBytes.flatMap({ LibCacheSimTrace.unsigned($0) }) else {
                    throw LibCacheSimProblem.objectID(path, line: line, found: text(idBytes))
                }
                let size = isText ? 1 : sizeBytes.flatMap { LibCacheSimTrace.unsigned($0) }
                guard let size, size <= UInt64(DecimalParser.maxBytes) else {
                    throw LibCacheSimProblem.objectSize(path, line: line, found: text(sizeBytes))
                }
                guard size > 0 else { throw LibCacheSimProblem.zeroSize(path, line: line) }
                if isText { return ParsedRequest(id: id, size: 1, time: requestIndex * Units.microsPerSecond) }
                guard let t = timeBytes.flatMap({ DecimalParser.scaled($0, unit: Units.microsPerSecond) }), t >= 0, t <= DecimalParser.maxMicros else {
                    throw LibCacheSimProblem.time(path, line: line, found: text(timeBytes))
                }
                return ParsedRequest(id: id, size: Int(size), time: t)
            }
        }

        /// Field `index` of the line `[from, to)`, or nil when the line has fewer fields.
        private func field(_ b: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int, _ index: Int) -> UnsafeBufferPointer<UInt8>? {
            var k = 0, start = from
            for at in from...to where at == to || b[at] == UInt8(ascii: ",") {
                if k == index { return UnsafeBufferPointer(rebasing: b[start..<at]) }
                k += 1
                start = at + 1
            }
            return nil
        }
    }
}

/// Sixteen object ids in place, by request index mod 16: the ids a reader has read and not yet numbered
/// (`LibCacheSimStream.Scanner.unnumbered`). A tuple, so that the reader allocates nothing for it and indexes it unchecked.
/// Read in place too (a mutating getter): `withUnsafeBytes(of: ids)` copied the whole tuple, 128 bytes in 16-byte
/// loads, at every request, and the loads that overlapped the id stored the request before (a narrower store) waited
/// for it to reach the cache: a third of the binary reader's samples.
struct IDRing {
    private var ids: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                      UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    subscript(request: Int) -> UInt64 {
        @inline(__always) mutating get {
            withUnsafeMutableBytes(of: &ids) { $0.load(fromByteOffset: (request & 15) * 8, as: UInt64.self) }
        }
        @inline(__always) set {
            withUnsafeMutableBytes(of: &ids) { $0.storeBytes(of: newValue, toByteOffset: (request & 15) * 8, as: UInt64.self) }
        }
    }
}
