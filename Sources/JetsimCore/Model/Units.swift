/// Units used throughout Jetsim. All accounting is in integer bytes and integer microseconds,
/// so results are exact and can be cross-checked against other simulators to the last byte.
public enum Units {
    /// One mebibyte. Catalog and report columns named `*_mb` are in MiB, as iOS reports them
    /// (`rpages × 16384 / 2^20`).
    public static let mebibyte = 1 << 20
    public static let kibibyte = 1 << 10
    public static let microsPerSecond = 1_000_000
    public static let microsPerMilli = 1_000

    /// `value` rounded up to a multiple of `granule` (`granule` > 0, `value` ≥ 0).
    @inlinable
    public static func roundUp(_ value: Int, to granule: Int) -> Int {
        let rest = value % granule
        return rest == 0 ? value : value + (granule - rest)
    }

    /// `value` rounded down to a multiple of `granule` (`granule` > 0, `value` ≥ 0).
    @inlinable
    public static func roundDown(_ value: Int, to granule: Int) -> Int {
        value - value % granule
    }

    /// `value` rounded down to whole pages of `page` bytes, by `mask` (`page − 1`) when `page` is a power of two (every
    /// preset; `mask` is −1 otherwise) and `value` ≥ 0: the division it replaces is the slowest instruction on the growth
    /// and compression paths.
    @inlinable @inline(__always)
    public static func roundDown(_ value: Int, toPage page: Int, mask: Int) -> Int {
        mask >= 0 && value >= 0 ? value & ~mask : roundDown(value, to: page)
    }

    /// `a × b / divisor`, truncated, and its remainder, for `a`, `b` ≥ 0 and `divisor` > 0. Exact: the product is
    /// taken at full width when it does not fit in 64 bits (then one 128-bit division instead of a 64-bit one).
    /// nil when the quotient might not fit in an `Int` (it would be at least 2^62).
    @inlinable @inline(__always)
    public static func multiplyDivide(_ a: Int, _ b: Int, by divisor: Int) -> (quotient: Int, remainder: Int)? {
        let (product, overflow) = a.multipliedReportingOverflow(by: b)
        if !overflow { return (product / divisor, product % divisor) }
        let (high, low) = a.multipliedFullWidth(by: b)
        // The quotient fits when the dividend is below divisor × 2^63; high < divisor / 2 keeps it so.
        guard high < divisor >> 1 else { return nil }
        return divisor.dividingFullWidth((high, low))
    }
}

/// Exact decimal rendering of integer ratios, so reports never depend on floating-point printing.
public enum FixedPoint {
    /// `numerator / denominator` with `decimals` digits, rounded half away from zero.
    /// `format(3, 2, decimals: 2)` is `"1.50"`; a zero denominator renders as `"0"` followed by the decimals.
    public static func format(_ numerator: Int, over denominator: Int, decimals: Int) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        append(numerator, over: denominator, decimals: decimals, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `format` written as ASCII bytes at the end of `out` (report writers build lines without `String`s).
    public static func append(_ numerator: Int, over denominator: Int, decimals: Int, to out: inout [UInt8]) {
        RowWriter.appending(to: &out, capacity: RowWriter.fixedCapacity(decimals: decimals)) { $0.fixed(numerator, over: denominator, decimals: decimals) }
    }

    /// The decimal digits of `value` at the end of `out`, zero-padded on the left to `width` digits.
    public static func appendDigits(_ value: UInt, width: Int = 1, to out: inout [UInt8]) {
        RowWriter.appending(to: &out, capacity: max(width, 0) + 20) { $0.digits(value, width: width) }
    }

    /// Bytes as MiB with three decimals.
    public static func mebibytes(_ bytes: Int) -> String { format(bytes, over: Units.mebibyte, decimals: 3) }

    /// Bytes as MiB written exactly: every byte count is a finite binary fraction of a MiB, so at most 20
    /// decimals, trailing zeros dropped (`1.5`, `0.0000009537`…). Reading it back gives the same bytes.
    public static func exactMebibytes(_ bytes: Int) -> String {
        let negative = bytes < 0
        let magnitude = bytes.magnitude
        var text = (negative ? "-" : "") + String(magnitude >> 20)
        var remainder = magnitude & ((1 << 20) - 1)
        if remainder != 0 {
            text += "."
            while remainder != 0 {
                remainder *= 10
                text += String(remainder >> 20)
                remainder &= (1 << 20) - 1
            }
        }
        return text
    }

    /// Microseconds as seconds with three decimals.
    public static func seconds(_ micros: Int) -> String { format(micros, over: Units.microsPerSecond, decimals: 3) }
}

/// A share in parts per million, parsed exactly from decimals such as `0.35`.
///
/// Invariant: `0 <= partsPerMillion <= scale`. The initializer clamps to it (catalog files are checked before, with a
/// located message): the engine relies on a share of memory being neither negative nor more than the whole, e.g. a
/// memory warning's dropped caches only ever add free memory.
public struct Share: Sendable, Hashable, Comparable {
    public static let scale = 1_000_000
    public let partsPerMillion: Int
    public init(partsPerMillion: Int) { self.partsPerMillion = min(max(partsPerMillion, 0), Share.scale) }
    public static let zero = Share(partsPerMillion: 0)
    public static let all = Share(partsPerMillion: scale)
    /// The share of `bytes`, rounded down to a multiple of `granule`.
    public func of(_ bytes: Int, granule: Int) -> Int {
        // A share is at most 1, so the quotient always fits.
        let q = Units.multiplyDivide(bytes, partsPerMillion, by: Share.scale)?.quotient ?? bytes
        return Units.roundDown(q, to: granule)
    }
    public static func < (a: Share, b: Share) -> Bool { a.partsPerMillion < b.partsPerMillion }
}

/// A report row written in place into a buffer on the stack and appended to its output once: numbers are rendered
/// digit by digit without an append (and its capacity and uniqueness checks) per byte, which was most of a densely
/// sampled run's time. The one renderer of fixed-point numbers (`FixedPoint.append` goes through it).
///
/// A row of many fields is written through a local copy, assigned back once (`var w = row; defer { row = w }`): through
/// an `inout` writer every byte stored might have changed the writer itself (both are memory to the compiler), so each
/// field stored its count and read its base and count again, where a local's stay in registers. So that a call does not
/// make the local memory again, each field's out-of-line part takes the writer by value and returns its count.
///
/// Invariant: `count <= capacity`; writers size the buffer for their row's widest rendering (`fixedCapacity`), and a
/// write that would not fit is a programming error caught in debug builds (release builds drop the bytes).
public struct RowWriter {
    @usableFromInline let base: UnsafeMutablePointer<UInt8>
    @usableFromInline let capacity: Int
    /// Bytes written so far.
    public var count: Int { _count }
    @usableFromInline var _count = 0

    @usableFromInline init(base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        (self.base, self.capacity) = (base, capacity)
    }

    /// The widest `fixed` rendering with `decimals` decimals: a sign, 20 integer digits, the point and the decimals.
    public static func fixedCapacity(decimals: Int) -> Int { 22 + max(decimals, 0) }

    /// Runs `body` on a writer over `capacity` bytes of stack, then appends what it wrote to `out`.
    public static func appending(to out: inout [UInt8], capacity: Int, _ body: (inout RowWriter) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            guard let base = buffer.baseAddress else { return }
            out.append(contentsOf: UnsafeBufferPointer(start: base, count: render(into: base, capacity: capacity, body)))
        }
    }

    /// Runs `body` on a writer over the `capacity` bytes at `base` (the caller's buffer); returns how many it wrote.
    public static func render(into base: UnsafeMutablePointer<UInt8>, capacity: Int, _ body: (inout RowWriter) -> Void) -> Int {
        var writer = RowWriter(base: base, capacity: capacity)
        body(&writer)
        return writer.count
    }

    /// The bytes written since `start` (a `count` read earlier), valid while the row is being written.
    public func written(from start: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + start, count: _count - start)
    }

    @inlinable @inline(__always)
    public mutating func byte(_ b: UInt8) {
        assert(_count < capacity, "RowWriter: the row is wider than its buffer")
        guard _count < capacity else { return }
        base[_count] = b
        _count += 1
    }

    /// A literal's bytes (a report's names): read in place, copied inline (`bytes(_:)` of a buffer).
    @inlinable @inline(__always)
    public mutating func bytes(_ text: StaticString) {
        guard text.hasPointerRepresentation else { return text.withUTF8Buffer { bytes($0) } }
        bytes(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A string's UTF-8 bytes; a report's names are literals, whose bytes are read in place (no copy, no mutation).
    @inlinable
    public mutating func bytes(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ bytes($0) }) == nil {
            var text = text
            text.withUTF8 { bytes($0) }
        }
    }

    public mutating func bytes(_ text: [UInt8]) {
        text.withUnsafeBufferPointer { bytes($0) }
    }

    /// `text`'s bytes. A report's names and fields are short: up to 32 bytes are copied inline, in two loads and two
    /// stores that may overlap, each within `text` and within the row's room (a `memmove` call per field cost a
    /// kills.csv row about 45 instructions a field). `text` lies outside the room past `count` (the second load would
    /// read what the first store wrote).
    @inlinable @inline(__always)
    public mutating func bytes(_ text: UnsafeBufferPointer<UInt8>) {
        let n = text.count
        assert(n <= capacity &- _count, "RowWriter: the row is wider than its buffer")
        guard let source = text.baseAddress, n <= capacity &- _count else { return }
        let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(base + _count)
        if n >= 8 {
            if n <= 16 {
                to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
                to.storeBytes(of: from.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self), toByteOffset: n &- 8, as: UInt64.self)
            } else if n <= 32 {
                to.storeBytes(of: from.loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
                to.storeBytes(of: from.loadUnaligned(fromByteOffset: n &- 16, as: SIMD16<UInt8>.self), toByteOffset: n &- 16,
                              as: SIMD16<UInt8>.self)
            } else {
                to.copyMemory(from: from, byteCount: n)
            }
        } else if n >= 4 {
            to.storeBytes(of: from.loadUnaligned(as: UInt32.self), as: UInt32.self)
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self), toByteOffset: n &- 4, as: UInt32.self)
        } else if n > 0 {
            // 1 to 3 bytes: the first, the middle and the last (some the same byte).
            to.storeBytes(of: source[0], as: UInt8.self)
            to.storeBytes(of: source[n >> 1], toByteOffset: n >> 1, as: UInt8.self)
            to.storeBytes(of: source[n &- 1], toByteOffset: n &- 1, as: UInt8.self)
        }
        _count &+= n
    }

    /// The decimal digits of `value`, zero-padded on the left to `width` digits.
    @inlinable @inline(__always)
    public mutating func digits(_ value: UInt, width: Int = 1) {
        let length = max(Self.decimalLength(value), width)
        assert(length <= capacity &- _count, "RowWriter: the row is wider than its buffer")
        guard length <= capacity &- _count else { return }
        // Right to left: four digits per division by 10 000 (the rest split in 32 bits), then a pair, then one, each
        // pair two bytes of a table stored at once; once the value is spent, the rest are the padding's zeros.
        let start = base + _count
        var at = start + length, v = value
        while at - start >= 4 {
            let q = v / 10_000
            let r = UInt32(truncatingIfNeeded: v &- q &* 10_000)
            v = q
            at -= 4
            Self.storeFourDigits(r, at: at)
        }
        if at - start >= 2 {
            let q = v / 100
            at -= 2
            Self.storePair(UInt32(truncatingIfNeeded: v &- q &* 100), at: at)
            v = q
        }
        if at > start { start.pointee = 48 &+ UInt8(truncatingIfNeeded: v % 10) }
        _count &+= length
    }

    /// The two digits of `pair` (below 100) at `at`, from `digitPairs`.
    @inlinable @inline(__always)
    static func storePair(_ pair: UInt32, at: UnsafeMutablePointer<UInt8>) {
        let digits = UnsafeRawPointer(digitPairs.utf8Start).loadUnaligned(fromByteOffset: Int(pair &* 2), as: UInt16.self)
        UnsafeMutableRawPointer(at).storeBytes(of: digits, as: UInt16.self)
    }

    /// How many decimal digits `value` has (1 for 0): its bit length times log10 2 (1233 / 4096) is the length or one
    /// more, which a power of ten settles. (`value | 1` has the same length and at least one bit.)
    @inlinable @inline(__always)
    static func decimalLength(_ value: UInt) -> Int {
        let v = value | 1
        let estimate = ((UInt.bitWidth - v.leadingZeroBitCount) * 1233) >> 12   // ≤ 19
        return estimate + (v >= powersOfTen[estimate] ? 1 : 0)
    }

    /// 10⁰ to 10¹⁹, for `decimalLength`: an array literal, which the compiler lays out in read-only data (the array
    /// computed at first use it replaced cost a lazy-initialisation check at every row's every number).
    @usableFromInline static let powersOfTen: [UInt] = [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000, 10_000_000_000,
        100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000, 1_000_000_000_000_000,
        10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
    ]

    /// "00" to "99", for `digits`.
    @usableFromInline static let digitPairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// ".000" to ".996": the three decimals of k/256 MiB (one 4 KiB page is 1/256 MiB) as `mebibytes` rounds them, for
    /// its page-granular fast path, four bytes each (a literal: read-only data, no initialisation check).
    @usableFromInline static let pageFractions: StaticString = """
        .000.004.008.012.016.020.023.027.031.035.039.043.047.051.055.059.063.066.070.074\
        .078.082.086.090.094.098.102.105.109.113.117.121.125.129.133.137.141.145.148.152\
        .156.160.164.168.172.176.180.184.188.191.195.199.203.207.211.215.219.223.227.230\
        .234.238.242.246.250.254.258.262.266.270.273.277.281.285.289.293.297.301.305.309\
        .313.316.320.324.328.332.336.340.344.348.352.355.359.363.367.371.375.379.383.387\
        .391.395.398.402.406.410.414.418.422.426.430.434.438.441.445.449.453.457.461.465\
        .469.473.477.480.484.488.492.496.500.504.508.512.516.520.523.527.531.535.539.543\
        .547.551.555.559.563.566.570.574.578.582.586.590.594.598.602.605.609.613.617.621\
        .625.629.633.637.641.645.648.652.656.660.664.668.672.676.680.684.688.691.695.699\
        .703.707.711.715.719.723.727.730.734.738.742.746.750.754.758.762.766.770.773.777\
        .781.785.789.793.797.801.805.809.813.816.820.824.828.832.836.840.844.848.852.855\
        .859.863.867.871.875.879.883.887.891.895.898.902.906.910.914.918.922.926.930.934\
        .938.941.945.949.953.957.961.965.969.973.977.980.984.988.992.996
        """

    /// A signed integer. (Below 10 000, a report's counts and bands, without `digits`' length table: inlined where it is
    /// written, the rest out of line.)
    @inlinable @inline(__always)
    public mutating func integer(_ v: Int) {
        if v >= 0 && v < 10_000 && capacity &- _count >= 4 {
            _count = Self.storeUpToFourDigits(UInt32(truncatingIfNeeded: v), at: base + _count) - base
            return
        }
        _count = Self.anyInteger(v, after: self)
    }

    /// `integer` beyond its inlined case, written after `w`'s bytes: returns the count. (A copy in and a count out, as
    /// for every field's out-of-line part, so that a writer kept in registers where its fields are inlined is not made
    /// memory by the call: see the type's comment.)
    @usableFromInline @inline(never)
    static func anyInteger(_ v: Int, after w: RowWriter) -> Int {
        var w = w
        if v < 0 { w.byte(45) }
        w.digits(v.magnitude)
        return w._count
    }

    /// Bytes as MiB with three decimals: `fixed(bytes, over: Units.mebibyte, decimals: 3)`, every `_mb` column's
    /// rendering, in shifts and divisions by constants (the general `fixed` divides by its run-time scale). The
    /// page-granular case is inlined where it is written (a call of the whole cost a timeseries.csv row about 150
    /// instructions of its 636, four columns of it), the rest out of line.
    @inlinable @inline(__always)
    public mutating func mebibytes(_ bytes: Int) {
        // Whole 4 KiB pages below 10 000 MiB (a phone's every page-granular column): the whole MiB in up to four digits
        // and the page's fraction from a table, without the multiplication and the division by 1 000; the rounding
        // below gives the same bytes (`pageFractions` is built by it: k/256 MiB never rounds up to a whole one).
        if bytes >= 0 && bytes & 4095 == 0 && bytes < 10_000 << 20 && capacity &- _count >= 8 {
            let at = Self.storeUpToFourDigits(UInt32(truncatingIfNeeded: bytes >> 20), at: base + _count)
            let fractions = UnsafeRawPointer(Self.pageFractions.utf8Start)
            let fraction = fractions.loadUnaligned(fromByteOffset: (bytes >> 12 & 255) &* 4, as: UInt32.self)
            UnsafeMutableRawPointer(at).storeBytes(of: fraction, as: UInt32.self)
            _count = at + 4 - base
            return
        }
        _count = Self.anyMebibytes(bytes, after: self)
    }

    /// `mebibytes` beyond its inlined case (byte counts that are not whole pages, or 10 000 MiB or more), written after
    /// `w`'s bytes: returns the count.
    @usableFromInline @inline(never)
    static func anyMebibytes(_ bytes: Int, after w: RowWriter) -> Int {
        var w = w
        let n = bytes.magnitude
        guard n < 1 << 53 else {   // n × 1000 fits below 2^63
            w.fixed(bytes, over: Units.mebibyte, decimals: 3)
            return w._count
        }
        let product = n &* 1000
        return thousandths(product >> 20 &+ (product & (1 << 20 - 1) >= 1 << 19 ? 1 : 0), negative: bytes < 0, after: w)
    }

    /// Microseconds as seconds with three decimals: `fixed(micros, over: Units.microsPerSecond, decimals: 3)`, every
    /// time column's rendering, with divisions by constants. Times from 0 to 31 700 years are inlined where they are
    /// written (a call cost a timeseries.csv or kills.csv row about 40 instructions more; a generated trace of many
    /// users runs one after another, past 10^8 s), the rest out of line.
    @inlinable @inline(__always)
    public mutating func seconds(_ micros: Int) {
        let rounded = (micros.magnitude &+ 500) / 1000   // magnitude ≤ 2^63: no overflow
        if micros >= 0 && rounded < Self.wholeThousandthsLimit && capacity &- _count >= Self.wholeThousandthsRoom {
            let whole = rounded / 1000
            wholeThousandths(whole, fraction: UInt32(truncatingIfNeeded: rounded &- whole &* 1000))
        } else {
            _count = Self.thousandths(rounded, negative: micros < 0, after: self)
        }
    }

    /// `rounded` thousandths (a rounded magnitude), signed: `fixed`'s rendering of its rounded quotient with three
    /// decimals, written after `w`'s bytes: returns the count.
    @usableFromInline @inline(never)
    static func thousandths(_ rounded: UInt, negative: Bool, after w: RowWriter) -> Int {
        var w = w
        if negative && rounded != 0 { w.byte(45) }
        let whole = rounded / 1000, fraction = UInt32(truncatingIfNeeded: rounded &- whole &* 1000)
        if rounded < Self.wholeThousandthsLimit && w.capacity &- w._count >= Self.wholeThousandthsRoom {
            w.wholeThousandths(whole, fraction: fraction)
            return w._count
        }
        w.digits(whole)
        guard w.capacity &- w._count >= 4 else {
            assertionFailure("RowWriter: the row is wider than its buffer")
            return w._count
        }
        Self.storeFraction(fraction, at: w.base + w._count)
        return w._count &+ 4
    }

    /// The thousandths `wholeThousandths` renders: below 10^15 (a whole part of at most 12 digits).
    @inlinable static var wholeThousandthsLimit: UInt { 1_000_000_000_000_000 }
    /// The room `wholeThousandths` needs: twelve digits, the point and three decimals.
    @inlinable static var wholeThousandthsRoom: Int { 16 }

    /// `whole` (below 10^12) and its three decimals `fraction` (below 1 000), where `wholeThousandthsRoom` bytes are
    /// left: groups of four digits in 32-bit arithmetic, without `digits`' length table (half the instructions of a
    /// report's commonest field). (Twelve digits always, then the significant ones moved to the start, cost more: 134
    /// instructions a time field against 104.)
    @inlinable @inline(__always)
    mutating func wholeThousandths(_ whole: UInt, fraction: UInt32) {
        var at = base + _count
        if whole < 100_000_000 {   // three years of seconds, most times and every phone's MiB: in 32 bits
            var low = UInt32(truncatingIfNeeded: whole)
            if low >= 10_000 {
                let high = low / 10_000
                low &-= high &* 10_000
                at = Self.storeUpToFourDigits(high, at: at)
                Self.storeFourDigits(low, at: at)
                at += 4
            } else {
                at = Self.storeUpToFourDigits(low, at: at)
            }
        } else {
            let high = whole / 10_000, low = UInt32(truncatingIfNeeded: whole &- high &* 10_000)
            let top = UInt32(truncatingIfNeeded: high / 10_000), middle = UInt32(truncatingIfNeeded: high) &- top &* 10_000
            at = Self.storeUpToFourDigits(top, at: at)
            Self.storeFourDigits(middle, at: at)
            Self.storeFourDigits(low, at: at + 4)
            at += 8
        }
        Self.storeFraction(fraction, at: at)
        _count = at + 4 - base
    }

    /// `v` (below 10 000) as four digits, zero-padded, at `at`.
    @inlinable @inline(__always)
    static func storeFourDigits(_ v: UInt32, at: UnsafeMutablePointer<UInt8>) {
        storePair(v / 100, at: at)
        storePair(v % 100, at: at + 2)
    }

    /// The point and three decimals of `fraction` (below 1 000) at `at`.
    @inlinable @inline(__always)
    static func storeFraction(_ fraction: UInt32, at: UnsafeMutablePointer<UInt8>) {
        at[0] = 46
        at[1] = 48 &+ UInt8(truncatingIfNeeded: fraction / 100)
        storePair(fraction % 100, at: at + 2)
    }

    /// `v` (below 10 000) in its 1 to 4 digits at `at`, unpadded; returns the end.
    @inlinable @inline(__always)
    static func storeUpToFourDigits(_ v: UInt32, at: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        if v < 100 {
            if v < 10 {
                at.pointee = 48 &+ UInt8(truncatingIfNeeded: v)
                return at + 1
            }
            storePair(v, at: at)
            return at + 2
        }
        let high = v / 100, low = v &- high &* 100
        if high < 10 {
            at.pointee = 48 &+ UInt8(truncatingIfNeeded: high)
            storePair(low, at: at + 1)
            return at + 3
        }
        storePair(high, at: at)
        storePair(low, at: at + 2)
        return at + 4
    }

    /// `numerator / denominator` with `decimals` digits, rounded half away from zero (`FixedPoint.format`'s rule);
    /// a zero denominator renders as 0 with the decimals.
    @inlinable @inline(__always)   // inlined where the denominator and decimals are constants: divisions become multiplications
    public mutating func fixed(_ numerator: Int, over denominator: Int, decimals: Int) {
        guard denominator != 0 else {
            byte(48)
            if decimals > 0 {
                byte(46)
                digits(0, width: decimals)
            }
            return
        }
        var scale: UInt = 1
        for _ in 0..<decimals { scale *= 10 }
        let negative = (numerator < 0) != (denominator < 0) && numerator != 0
        let n = numerator.magnitude, d = denominator.magnitude
        // n × scale at full width only when it overflows 64 bits (large byte counts): a 128-bit division costs more.
        let (product, overflow) = n.multipliedReportingOverflow(by: scale)
        let whole: UInt, fraction: UInt
        if overflow {
            // n × scale beyond 64 bits (large byte counts): in 128 bits, where the quotient always fits; the whole part
            // is at most n + 1 and the fraction below `scale`, so both come back to 64 bits.
            let wide = UInt128(n) * UInt128(scale), divisor = UInt128(d)
            let rounded = wide / divisor + ((wide % divisor) * 2 >= divisor ? 1 : 0)
            (whole, fraction) = (UInt(rounded / UInt128(scale)), UInt(rounded % UInt128(scale)))
        } else {
            let q: UInt, r: UInt
            if d & (d - 1) == 0 {   // a power of two (MiB): shifts, not a division
                (q, r) = (product >> UInt(d.trailingZeroBitCount), product & (d - 1))
            } else {
                (q, r) = (product / d, product % d)
            }
            let rounded = r * 2 >= d ? q + 1 : q   // r < d ≤ 2^63: no overflow
            (whole, fraction) = (rounded / scale, rounded % scale)
        }
        if negative && (whole != 0 || fraction != 0) { byte(45) }
        digits(whole)
        if decimals > 0 {
            byte(46)
            digits(fraction, width: decimals)
        }
    }
}
