/// CSV fields rendered once (`ReportFiles.field`: quoted where needed), one after another in one allocation, read as
/// buffer pointers. A streamed row copies its app's and policy's bytes from here without retaining and releasing an
/// array for each: two of each a `kills.csv` row were 3 % of `run`'s CPU time over `W2` (743 k rows), on the writer's thread.
///
/// A value of plain pointers, so copies share the storage: its owner calls `deallocate()` once, after the last row.
///
/// Invariant: `ends` has one entry per field, non-decreasing, the last at most `bytes.count`; field `i` is
/// `bytes[ends[i − 1] ..< ends[i]]` (from 0 for the first).
struct ReadyFields {
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    private let ends: UnsafeMutableBufferPointer<Int>

    init(_ texts: [String]) {
        let fields = texts.map(ReportFiles.field)
        bytes = .allocate(capacity: fields.reduce(0) { $0 + $1.count })
        ends = .allocate(capacity: fields.count)
        var end = 0
        for (i, field) in fields.enumerated() {
            _ = UnsafeMutableBufferPointer(rebasing: bytes[end..<end + field.count]).initialize(from: field)
            end += field.count
            ends.initializeElement(at: i, to: end)
        }
    }

    var count: Int { ends.count }

    /// Field `i`'s bytes; none for an `i` out of range (an id the names do not cover, as `ReportFiles.appField`).
    @inline(__always)
    subscript(_ i: Int32) -> UnsafeBufferPointer<UInt8> {
        let i = Int(i)
        guard i >= 0 && i < ends.count, let base = bytes.baseAddress else { return UnsafeBufferPointer(start: nil, count: 0) }
        let start = i == 0 ? 0 : ends[i - 1]
        return UnsafeBufferPointer(start: base + start, count: ends[i] - start)
    }

    func deallocate() {
        bytes.deallocate()
        ends.deallocate()
    }
}
