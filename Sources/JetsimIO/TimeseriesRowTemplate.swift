/// The last rendered `timeseries.csv` row of a state, reused for the rows of that state at later times: an idle
/// device sampled every minute writes the same state row after row, and only the time field changes.
///
/// Along an idle stretch (times t, t + step, t + 2 step, …) the time field is kept as decimal digits and advanced by a
/// digit-wise addition of the step (for a step of whole seconds, eight digits in one word): a row costs one copy and an
/// addition, where rendering its time (`ReportFiles.sampleTime`: seconds to the millisecond, rounded half up) cost two
/// divisions of the time. The bytes are those `ReportFiles.sampleTime` renders (tested against it, carries and 2^60 µs
/// included).
///
/// Layout of `bytes`: `[0, pointIndex)` whole seconds, right-aligned with `first` their first significant digit and
/// zeros to its left (room for carries); `pointIndex` '.'; three digits of milliseconds; then `stateCount` bytes of
/// state (the row after its time, from the first comma to the newline).
///
/// Invariants: `0 <= first < pointIndex`; `bytes[first..<stateStart]` is the time field of the row last started or
/// advanced to; every byte before `first` is '0'.
final class TimeseriesRowTemplate {
    /// Whole seconds' digits: 2^63 µs is 9.2 × 10^12 s (13 digits); an idle stretch cannot carry past 20.
    static let pointIndex = 20
    static let stateStart = pointIndex + 4
    private let bytes: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private(set) var stateCount = 0
    private var first = TimeseriesRowTemplate.pointIndex - 1
    /// The step's digits at the time field's positions (0 at the point), its rightmost non-zero one and its leftmost.
    private let stepDigits = UnsafeMutablePointer<UInt8>.allocate(capacity: TimeseriesRowTemplate.stateStart)
    private var stepLowest = TimeseriesRowTemplate.stateStart - 1, stepHighest = TimeseriesRowTemplate.stateStart - 1
    /// The step `stepDigits` holds (0: none).
    private var digitsStep = 0
    /// The step's whole seconds as eight digit bytes, the ones in the lowest byte, each plus 246 (`advancedRows`'s
    /// carry bias); 0 when the step is not whole seconds below 10^8 s.
    private var stepWord: UInt64 = 0

    init(stateCapacity: Int) {
        capacity = Self.stateStart + stateCapacity
        bytes = .allocate(capacity: capacity + Self.copySlack)   // `advancedRows` reads up to `copySlack` bytes past a row
        bytes.initialize(repeating: 48, count: capacity + Self.copySlack)
        bytes[Self.pointIndex] = 46
        stepDigits.initialize(repeating: 0, count: Self.stateStart)
    }

    deinit {
        bytes.deallocate()
        stepDigits.deallocate()
    }

    /// The state's bytes (the row after its time).
    var state: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: bytes + Self.stateStart, count: stateCount) }

    /// Keeps `state` (at most the capacity given at `init`: a row's widest rendering) as the state of the rows to come.
    func setState(_ state: UnsafeBufferPointer<UInt8>) {
        assert(state.count <= capacity - Self.stateStart, "TimeseriesRowTemplate: the state is wider than its buffer")
        stateCount = min(state.count, capacity - Self.stateStart)
        if let source = state.baseAddress { (bytes + Self.stateStart).update(from: source, count: stateCount) }
    }

    /// Takes `field`, the time field of the row just written as `ReportFiles.sampleTime` renders it (whole seconds, the
    /// point, three decimals), as the time the rows of `advancedRows` follow, each `step` µs after the one before; false
    /// when they cannot be advanced by digits (a negative time, or a step that is not whole milliseconds: the rounding of
    /// each time would differ), and the caller renders each row's time itself. The digits are the rendered ones, copied
    /// (one renderer of times): a time just past a whole millisecond and one just before it render alike, and so do their
    /// later times, each the same whole number of milliseconds further.
    func start(after field: UnsafeBufferPointer<UInt8>, step: Int) -> Bool {
        let width = field.count, wholeDigits = width - 4
        guard step > 0, step % 1000 == 0, wholeDigits >= 1, wholeDigits < Self.pointIndex, let from = field.baseAddress,
              from[0] != 45, from[wholeDigits] == 46 else { return false }
        let zeros = UnsafeMutableRawPointer(bytes)   // the `pointIndex` (20) bytes before the point, '0' in three stores
        zeros.storeBytes(of: 0x3030_3030_3030_3030 as UInt64, as: UInt64.self)
        zeros.storeBytes(of: 0x3030_3030_3030_3030 as UInt64, toByteOffset: 8, as: UInt64.self)
        zeros.storeBytes(of: 0x3030_3030 as UInt32, toByteOffset: 16, as: UInt32.self)
        first = Self.stateStart - width
        (bytes + first).update(from: from, count: width)
        // The step's digits at the time field's positions, kept from the last start at the same step (a run has one
        // sample interval).
        guard step != digitsStep else { return true }
        digitsStep = 0
        stepWord = 0
        for k in 0..<Self.stateStart { stepDigits[k] = 0 }
        if step % 1_000_000 == 0 && step / 1_000_000 < 100_000_000 {
            var seconds = step / 1_000_000
            for digit in 0..<8 {
                stepWord |= UInt64(seconds % 10 + 246) << (8 * digit)
                seconds /= 10
            }
        }
        var stepMillis = step / 1000
        var position = Self.stateStart - 1
        stepLowest = -1
        while stepMillis > 0 {
            if position == Self.pointIndex { position -= 1 }
            guard position >= 0 else { return false }
            let digit = UInt8(stepMillis % 10)
            stepDigits[position] = digit
            if digit != 0 && stepLowest < 0 { stepLowest = position }
            stepHighest = position
            stepMillis /= 10
            position -= 1
        }
        digitsStep = step
        return true
    }

    /// The time field advanced by any step: a digit-wise addition with carries, from the step's rightmost non-zero digit.
    private func advanceDigitByDigit() {
        // Locals, and wrapping byte arithmetic (a digit plus a step digit and a carry is at most 57 + 10): the loop
        // runs once or twice a row, most of an idle stretch's rendering.
        let bytes = self.bytes, stepDigits = self.stepDigits, highest = stepHighest
        var position = stepLowest, carry: UInt8 = 0, leftmost = first
        while position >= 0 {
            if position == Self.pointIndex {
                position -= 1
                continue
            }
            let add = stepDigits[position] &+ carry
            if add == 0 {
                if position <= highest { break }   // no more digits to add and no carry
                position -= 1
                continue
            }
            let sum = bytes[position] &+ add
            carry = sum > 57 ? 1 : 0
            bytes[position] = sum &- carry &* 10
            // The leftmost digit written ends without a carry, so it is not zero: the new first digit.
            if position < leftmost { leftmost = position }
            position -= 1
        }
        first = leftmost
        assert(carry == 0, "TimeseriesRowTemplate: the time outgrew its digits")
    }

    /// The rows of the `count` times after the current one, one after another from `target`; returns their bytes. Each
    /// row's time is the last one's plus the step given to `start` (which returned true), then the row (`row`) is written
    /// in 8- and 16-byte pieces, inline: up to `copySlack` bytes past its end are overwritten too, so the caller's room
    /// must be `count × copyRoom` (the next row, or the file's next bytes, overwrite them). An idle stretch's rows are
    /// most of a densely sampled timeseries.csv: one loop, with the first digit's position and the row's end in registers
    /// (a call per row, of `memmove` or of a closure, cost the writer's thread more than its instructions suggest).
    ///
    /// For a step of whole seconds below 10^8 s, while the sum stays within the last eight digits of the seconds (with
    /// a minute's step, all but one row in 1.6 million), those eight digits are added as one word: each byte of the sum
    /// holds its digit plus the step's plus 246 plus the carry from the byte below, so a byte whose digits sum to 10 or
    /// more passes 255 and carries into the next byte itself, leaving its digit; the others hold the digit plus 246 (their
    /// high bit set), taken off after. Otherwise (a ninth digit, or another step) the digits are added one by one
    /// (`advanceDigitByDigit`).
    ///
    /// Along the loop the eight digits stay in a register and go to the row from there, shifted past their leading
    /// zeros; the rest of the row is copied from the buffer, whose window of eight digits is written back once, at the
    /// end (or before a digit-by-digit step). Stored into the buffer each row, they were read back at once by the
    /// row's first 16-byte copy, a wider load than the store it overlaps, which the processor cannot forward: the load
    /// waited for the store to reach the cache, two thirds of the loop's time in a profile of `W`'s writer.
    func advancedRows(_ count: Int, to target: UnsafeMutablePointer<UInt8>) -> Int {
        let bytes = self.bytes, stepWord = self.stepWord, end = Self.stateStart + stateCount
        let windowStart = Self.pointIndex - 8, ascii: UInt64 = 0x3030_3030_3030_3030
        let window = UnsafeMutableRawPointer(bytes + windowStart)
        // The rest of the row after the seconds: the point, the milliseconds and the state, unchanged along the loop.
        let rest = UnsafeRawPointer(bytes + Self.pointIndex), restWidth = end - Self.pointIndex
        @inline(__always) func copyPieces(from: UnsafeRawPointer, to: UnsafeMutableRawPointer, width: Int) {
            @inline(__always) func piece(_ offset: Int) {
                to.storeBytes(of: from.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self), toByteOffset: offset, as: SIMD16<UInt8>.self)
            }
            if width > 48 && width <= 64 {   // a phone's rows (51 bytes after the seconds over W): four pieces, no loop
                piece(0); piece(16); piece(32); piece(48)
            } else {
                var offset = 0
                repeat {
                    piece(offset)
                    offset &+= 16
                } while offset < width
            }
        }
        var first = self.first, at = target
        var digits = UInt64(bigEndian: window.loadUnaligned(as: UInt64.self)) &- ascii
        for _ in 0..<count {
            let (sum, carriedOut) = digits.addingReportingOverflow(stepWord)
            if stepWord != 0 && !carriedOut {
                digits = sum &- ((sum >> 7) & 0x0101_0101_0101_0101) &* 246
                // The first significant digit: in the window, after its leading zeros (the sum is at least the step).
                if first >= windowStart { first = windowStart + (digits.leadingZeroBitCount >> 3) }
            } else {
                window.storeBytes(of: (digits | ascii).bigEndian, as: UInt64.self)
                self.first = first
                advanceDigitByDigit()
                first = self.first
                digits = UInt64(bigEndian: window.loadUnaligned(as: UInt64.self)) &- ascii
            }
            let to = UnsafeMutableRawPointer(at)
            if first >= windowStart {   // the seconds within the window: its digits after their leading zeros
                to.storeBytes(of: ((digits | ascii) &<< (8 &* (first &- windowStart))).bigEndian, as: UInt64.self)
            } else {   // digits before the window too (at most 12: one piece), unchanged since the last digit-by-digit step
                to.storeBytes(of: UnsafeRawPointer(bytes + first).loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
                to.storeBytes(of: (digits | ascii).bigEndian, toByteOffset: windowStart &- first, as: UInt64.self)
            }
            copyPieces(from: rest, to: to + (Self.pointIndex &- first), width: restWidth)
            at += end &- first
        }
        window.storeBytes(of: (digits | ascii).bigEndian, as: UInt64.self)
        self.first = first
        return at - target
    }

    /// How many bytes past a row's end `advancedRows` may write, and read from this template's buffer.
    static let copySlack = 15

    /// The room a row of `advancedRows` needs: the widest `row` of this state (every digit of the time field, the point,
    /// the milliseconds and the state) and `copySlack`.
    var copyRoom: Int { Self.stateStart + stateCount + Self.copySlack }

    /// The row: the time field, then the state (what `advancedRows` copies).
    @inline(__always)
    var row: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: bytes + first, count: Self.stateStart + stateCount - first)
    }
}
