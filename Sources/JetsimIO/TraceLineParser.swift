import JetsimCore

/// A Jetsim trace's common row read in one pass over its bytes, for `TraceReader`'s batches (`run` reads its trace so):
/// the columns in their usual order (`time,app,event,value`, then anything else, such as `user`), no quote anywhere,
/// no space around the time, app or event, times and durations with at most 12 whole and 6 decimal digits, an app
/// the table knows, a time not before the last.
///
/// Every other row it declines (nil, nothing changed) and `TraceReader.next()` reads that row by the trace's rules,
/// giving the same event or the error that names the row. So the rules live in `next()`; this is a faster way to the
/// same events, checked by reading inputs both ways (`TraceLineParserTests`, and the fuzz target on every input).
struct TraceLineParser {
    /// The catalog's apps, then any interned (`TraceReader` interns; this only looks up).
    var names: AppNameTable
    /// The time of the last event read (either way), µs.
    var lastTime = Int.min
    /// `TraceEventKind` raw value + 1 by `min(name length, 15) << 8 | first byte` (0: no event); each key is one
    /// name's (checked when built), and the name is compared in full after.
    private let kinds: [UInt8]
    /// Every event's name, one after another, and where each ends (by raw value).
    private let eventBytes: [UInt8]
    private let eventEnds: [Int]
    /// Background modes' names, for `mode_start` and `mode_stop`.
    private let modes: [(name: [UInt8], value: Int)]

    init(names: AppNameTable) {
        self.names = names
        var kinds = [UInt8](repeating: 0, count: 16 << 8)
        var bytes: [UInt8] = [], ends: [Int] = []
        for kind in TraceEventKind.allCases {
            let name = Array(kind.traceName.utf8)
            bytes += name
            ends.append(bytes.count)
            let key = name.withUnsafeBufferPointer(Self.key)
            // The vocabulary is the program's, not the input's: two names alike are a programming error.
            precondition(key > 0 && kinds[key] == 0, "event names '\(kind.traceName)' and another share a length and first byte")
            kinds[key] = kind.rawValue + 1
        }
        self.kinds = kinds
        eventBytes = bytes
        eventEnds = ends
        modes = BackgroundModes.names.map { (Array($0.0.utf8), Int($0.1.rawValue)) }
    }

    private static let comma = UInt8(ascii: ","), quote = UInt8(ascii: "\""), minus = UInt8(ascii: "-")

    @inline(__always)
    private static func isSpace(_ b: UInt8) -> Bool { b == 32 || b == 9 }

    /// Where `name` would be in `kinds` (0 for an empty name, which no event has).
    @inline(__always)
    private static func key(_ name: UnsafeBufferPointer<UInt8>) -> Int {
        guard let first = name.first else { return 0 }
        return min(name.count, 15) << 8 | Int(first)
    }

    /// The event kind named exactly `name` (its bytes, untrimmed), or nil: the one lookup of event names, for this
    /// fast path and `TraceReader.next()` alike.
    @inline(__always)
    func kind(named name: UnsafeBufferPointer<UInt8>) -> TraceEventKind? {
        let k = Int(kinds[Self.key(name)]) - 1
        guard k >= 0, k < eventEnds.count, let kind = TraceEventKind(rawValue: UInt8(k)) else { return nil }
        let nameStart = k == 0 ? 0 : eventEnds[k - 1]
        guard eventBytes.withUnsafeBufferPointer({ sameBytes(UnsafeBufferPointer(rebasing: $0[nameStart..<eventEnds[k]]), name) }) else {
            return nil
        }
        return kind
    }

    /// The event `line` (its line end excluded) holds, or nil to leave the row to `TraceReader.next()`.
    @inline(__always)
    mutating func parse(_ line: UnsafeBufferPointer<UInt8>) -> TraceEvent? {
        guard let base = line.baseAddress else { return nil }
        let end = base + line.count
        // time
        guard let (time, afterTime) = DecimalParser.millionths(base, end), afterTime < end, afterTime.pointee == Self.comma,
              time >= lastTime else { return nil }
        // app: hashed on the way to its comma
        let appStart = afterTime + 1
        var p = appStart, hash = AppNameTable.hashSeed
        while p < end, p.pointee != Self.comma {
            if p.pointee == Self.quote { return nil }
            hash = AppNameTable.step(hash, p.pointee)
            p += 1
        }
        guard p < end else { return nil }
        let appEnd = p
        // event
        let eventStart = p + 1
        p = eventStart
        while p < end, p.pointee != Self.comma { p += 1 }
        guard let kind = kind(named: UnsafeBufferPointer(start: eventStart, count: p - eventStart)) else { return nil }
        // the app's id (none only for `home`)
        var app = TraceEvent.noApp
        if appEnd == appStart {
            guard kind == .home else { return nil }
        } else {
            guard !Self.isSpace(appStart.pointee), !Self.isSpace((appEnd - 1).pointee),
                  let id = names.id(of: UnsafeBufferPointer(start: appStart, count: appEnd - appStart), hash: AppNameTable.finish(hash))
            else { return nil }
            app = id
        }
        // value, and no quote from it to the line's end (a quote would change the general reader's fields)
        let valueStart = p < end ? p + 1 : end
        p = valueStart
        while p < end, p.pointee != Self.comma {
            if p.pointee == Self.quote { return nil }
            p += 1
        }
        let valueEnd = p
        while p < end {
            if p.pointee == Self.quote { return nil }
            p += 1
        }
        var value = 0
        switch kind.valueKind {
        case .none:
            break
        case .seconds:
            guard let (v, next) = DecimalParser.millionths(valueStart, valueEnd), next == valueEnd else { return nil }
            value = v
        case .signedMebibytes:
            let negative = valueStart < valueEnd && valueStart.pointee == Self.minus
            let digits = negative ? valueStart + 1 : valueStart
            guard let (m, next) = DecimalParser.millionths(digits, valueEnd), next == valueEnd else { return nil }
            // m / 10⁶ MiB in bytes, rounded half up: DecimalParser.scaled's rounding of the same quotient.
            let bytes = (m / 1_000_000) << 20 + ((m % 1_000_000) << 20 + 500_000) / 1_000_000
            guard bytes <= DecimalParser.maxBytes else { return nil }
            value = negative ? -bytes : bytes
        case .mode:
            let field = UnsafeBufferPointer(start: valueStart, count: valueEnd - valueStart)
            guard let mode = modes.first(where: { $0.name.withUnsafeBufferPointer { sameBytes($0, field) } }) else { return nil }
            value = mode.value
        }
        lastTime = time
        return TraceEvent(time: time, app: app, kind: kind, value: value)
    }

    /// The events of the whole lines in `reader`'s read buffer, appended to `events` while they are common rows and
    /// `events` holds fewer than `count` (`CSVReader.takeBufferedLines`).
    mutating func take(from reader: CSVReader, into events: inout [TraceEvent], upTo count: Int) {
        reader.takeBufferedLines { line in
            guard events.count < count, let event = parse(line) else { return false }
            events.append(event)
            return true
        }
    }
}
