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
    @inlinable
    public static func append(_ numerator: Int, over denominator: Int, decimals: Int, to out: inout [UInt8]) {
        guard denominator != 0 else {
            out.append(48)
            if decimals > 0 {
                out.append(46)
                appendDigits(0, width: decimals, to: &out)
            }
            return
        }
        var scale: UInt = 1
        for _ in 0..<decimals { scale *= 10 }
        let negative = (numerator < 0) != (denominator < 0) && numerator != 0
        let n = numerator.magnitude, d = denominator.magnitude
        // n × scale at full width only when it overflows 64 bits (large byte counts): a 128-bit division costs more.
        let (product, overflow) = n.multipliedReportingOverflow(by: scale)
        let (q, r) = overflow ? d.dividingFullWidth(n.multipliedFullWidth(by: scale)) : (product / d, product % d)
        let rounded = r * 2 >= d ? q + 1 : q
        if negative && rounded != 0 { out.append(45) }
        appendDigits(rounded / scale, to: &out)
        if decimals > 0 {
            out.append(46)
            appendDigits(rounded % scale, width: decimals, to: &out)
        }
    }

    /// The decimal digits of `value` at the end of `out`, zero-padded on the left to `width` digits.
    @inlinable
    public static func appendDigits(_ value: UInt, width: Int = 1, to out: inout [UInt8]) {
        var digits = 1, rest = value / 10
        while rest > 0 { digits += 1; rest /= 10 }
        digits = max(digits, width)
        let start = out.count
        for _ in 0..<digits { out.append(48) }
        var v = value, at = start + digits - 1
        while v > 0 {
            out[at] = 48 + UInt8(v % 10)
            v /= 10
            at -= 1
        }
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

/// A share in parts per million (0 … 1 000 000), parsed exactly from decimals such as `0.35`.
public struct Share: Sendable, Hashable, Comparable {
    public static let scale = 1_000_000
    public var partsPerMillion: Int
    public init(partsPerMillion: Int) { self.partsPerMillion = partsPerMillion }
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
