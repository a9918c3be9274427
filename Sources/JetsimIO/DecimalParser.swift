/// Exact parsing of decimal numbers from bytes into scaled integers (no floating point anywhere).
public enum DecimalParser {
    /// Largest time or duration accepted from input, µs (about 36 000 years): sums of two stay far from overflow.
    public static let maxMicros = 1 << 60
    /// Largest size accepted from input, bytes (1 PiB).
    public static let maxBytes = 1 << 50

    /// Trims ASCII spaces and tabs.
    @inline(__always)
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var lo = 0, hi = bytes.count
        while lo < hi && (bytes[lo] == 32 || bytes[lo] == 9) { lo += 1 }
        while hi > lo && (bytes[hi - 1] == 32 || bytes[hi - 1] == 9) { hi -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[lo..<hi])
    }

    /// Parses `[+-]digits[.digits]` and returns `value × unit`, rounded half up, or nil when the text is not
    /// such a number or the result does not fit. `unit` is what 1 means (e.g. 1 000 000 for seconds → µs).
    public static func scaled(_ raw: UnsafeBufferPointer<UInt8>, unit: Int) -> Int? {
        let bytes = trimmed(raw)
        var i = 0
        var negative = false
        if i < bytes.count && (bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+")) {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        var whole = 0
        var digits = 0
        while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 {
            let (m, o1) = whole.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(Int(bytes[i] - 48))
            if o1 || o2 { return nil }
            whole = s
            digits += 1
            i += 1
        }
        var fraction = 0, fractionScale = 1
        if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 {
                if fractionScale < 1_000_000_000_000_000 {   // digits beyond 18 cannot change the rounded result
                    fraction = fraction * 10 + Int(bytes[i] - 48)
                    fractionScale *= 10
                }
                digits += 1
                i += 1
            }
        }
        guard digits > 0, i == bytes.count else { return nil }
        let (wholeScaled, o) = whole.multipliedReportingOverflow(by: unit)
        if o { return nil }
        // fraction × unit / fractionScale, rounded: in 64 bits when the product fits (always for times and MB), else
        // at full width (a 128-bit division, several times slower).
        let q: Int, r: Int
        let (product, o1) = fraction.multipliedReportingOverflow(by: unit)
        if o1 {
            (q, r) = fractionScale.dividingFullWidth(fraction.multipliedFullWidth(by: unit))
        } else {
            (q, r) = (product / fractionScale, product % fractionScale)
        }
        let (sum, o2) = wholeScaled.addingReportingOverflow(q + (r * 2 >= fractionScale ? 1 : 0))
        if o2 { return nil }
        return negative ? -sum : sum
    }

    /// `scaled(_:unit:)`'s common case for `unit` 10⁶ at its cheapest, for a reader's fast path: unsigned
    /// `digits[.digits]` with at most 12 whole and 6 fraction digits (so exact, and below `maxMicros`), read from `p`
    /// up to the first byte that cannot continue it, which the caller checks. Returns the value × 10⁶ and where it
    /// stopped; nil for anything else (a sign, more digits, no digit), which `scaled` reads with the same rules.
    @inline(__always)
    static func millionths(_ p: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> (value: Int, next: UnsafePointer<UInt8>)? {
        var p = p, whole = 0
        let wholeStart = p
        while p < end, p.pointee &- 48 < 10 { whole = whole &* 10 &+ Int(p.pointee &- 48); p += 1 }
        let wholeDigits = p - wholeStart
        guard wholeDigits <= 12 else { return nil }
        var fraction = 0, fractionDigits = 0
        if p < end, p.pointee == UInt8(ascii: ".") {
            p += 1
            let fractionStart = p
            while p < end, p.pointee &- 48 < 10 { fraction = fraction &* 10 &+ Int(p.pointee &- 48); p += 1 }
            fractionDigits = p - fractionStart
            guard fractionDigits <= 6 else { return nil }
        }
        guard wholeDigits + fractionDigits > 0 else { return nil }
        while fractionDigits < 6 { fraction *= 10; fractionDigits += 1 }
        return (whole * 1_000_000 + fraction, p)
    }

    /// `true`/`false`, `yes`/`no`, `1`/`0` (case-insensitive); nil otherwise.
    public static func boolean(_ raw: UnsafeBufferPointer<UInt8>) -> Bool? {
        switch String(decoding: trimmed(raw), as: UTF8.self).lowercased() {
        case "true", "yes", "1": true
        case "false", "no", "0": false
        default: nil
        }
    }

    public static func isBlank(_ raw: UnsafeBufferPointer<UInt8>) -> Bool { trimmed(raw).isEmpty }
}
