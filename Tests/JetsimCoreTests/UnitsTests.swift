@testable import JetsimCore
import Testing

/// Exact integer arithmetic the accounting relies on.
@Suite struct UnitsTests {
    @Test func multiplyDivideIsExactWithinSixtyFourBits() {
        #expect(Units.multiplyDivide(7, 3, by: 2)! == (10, 1))
        #expect(Units.multiplyDivide(0, 123, by: 7)! == (0, 0))
    }

    @Test func multiplyDivideIsExactWhenTheProductNeedsMoreThanSixtyFourBits() {
        // 2^56 bytes × 60 000 000 µs overflows 64 bits; divided by 1 000 000 it is 2^56 × 60, with nothing left over.
        let r = Units.multiplyDivide(1 << 56, 60_000_000, by: 1_000_000)!
        #expect(r == ((1 << 56) * 60, 0))
        // (2^62 + 1) × 3 / 4 = 3 × 2^60 remainder 3.
        #expect(Units.multiplyDivide((1 << 62) + 1, 3, by: 4)! == (3 << 60, 3))
        #expect(Units.multiplyDivide(1 << 61, 4, by: 2)! == (1 << 62, 0))
    }

    @Test func multiplyDivideRefusesAQuotientThatMightNotFit() {
        #expect(Units.multiplyDivide(Int.max, Int.max, by: 3) == nil)
        // The dividend's high word is below the divisor, yet the quotient (≈ 1.2 × 10^19) is above Int.max: the check a
        // plain `high < divisor` makes would let the 128-bit division trap.
        #expect(Units.multiplyDivide(1 << 56, 60_000_000, by: 400_000) == nil)
    }

    /// A share built in code outside 0 … 1 is clamped to it: the engine's rules assume a share of memory is neither
    /// negative nor more than the whole (catalog files are refused before, at their line).
    @Test func aShareIsClampedToNoneAndAll() {
        #expect(Share(partsPerMillion: -1) == .zero)
        #expect(Share(partsPerMillion: Int.min) == .zero)
        #expect(Share(partsPerMillion: 1_000_001) == .all)
        #expect(Share(partsPerMillion: Int.max).of(1 << 40, granule: 4096) == 1 << 40)
        #expect(Share(partsPerMillion: -250_000).of(1 << 40, granule: 4096) == 0)
        #expect(Share(partsPerMillion: 250_000).partsPerMillion == 250_000)
    }

    @Test func aShareOfAHugeSizeIsExact() {
        let half = Share(partsPerMillion: 500_000)
        #expect(half.of(1 << 60, granule: 16_384) == 1 << 59)
        #expect(Share.all.of(Int.max - 1, granule: 2) == Int.max - 1)
    }

    /// The engine rounds to pages by mask when the page size is a power of two: the same answers as `Units`, negative
    /// sizes and odd page sizes included.
    @Test(arguments: [16384, 4096, 1, 1000] as [Int])
    func pageRoundingByMaskMatchesDivision(page: Int) throws {
        var device = testDevice()
        device.pageSize = page
        let sim = Simulator(device: device, catalog: try AppCatalog([bareApp("a", dirtyMB: 1)]), policy: XNUPolicy(), observer: NullObserver())
        #expect((sim.limits.pageMask >= 0) == (page != 1000))
        var rng = SplitMix64(seed: UInt64(page))
        let values = [0, 1, -1, page - 1, page, page + 1, -page, -page - 1, Int.max / 2] + (0..<2000).map { _ in
            Int(truncatingIfNeeded: rng.next() % (1 << 40)) - (1 << 39)
        }
        for v in values {
            #expect(sim.roundUpToPage(v) == Units.roundUp(v, to: page), "\(v)")
            #expect(Units.roundDown(v, toPage: page, mask: sim.limits.pageMask) == Units.roundDown(v, to: page), "\(v)")
        }
    }

    /// `numerator / denominator` with `decimals` digits, rounded half away from zero, in plain 128-bit arithmetic.
    static func reference(_ numerator: Int, over denominator: Int, decimals: Int) -> String {
        var scale: Int128 = 1
        for _ in 0..<decimals { scale *= 10 }
        let n = Int128(numerator).magnitude * UInt128(scale), d = UInt128(Int128(denominator).magnitude)
        let (q, r) = (n / d, n % d)
        let rounded = r * 2 >= d ? q + 1 : q
        let negative = (numerator < 0) != (denominator < 0) && numerator != 0 && rounded != 0
        let whole = String(rounded / UInt128(scale)), fraction = String(rounded % UInt128(scale))
        return (negative ? "-" : "") + whole + (decimals > 0 ? "." + String(repeating: "0", count: decimals - fraction.count) + fraction : "")
    }

    /// What `body` writes into a fresh row: with room to spare (the renderers' short paths) and with just the room of
    /// one number at its widest (their general paths), which must agree.
    static func rendered(_ body: (inout RowWriter) -> Void) -> String {
        var roomy: [UInt8] = [], tight: [UInt8] = []
        RowWriter.appending(to: &roomy, capacity: 64, body)
        RowWriter.appending(to: &tight, capacity: RowWriter.fixedCapacity(decimals: 3), body)
        #expect(roomy == tight, "the short and the general path differ")
        return String(decoding: roomy, as: UTF8.self)
    }

    /// `RowWriter` renders every report number in place (digits two at a time, MiB by shifts): against a plain
    /// reference rendering in 128-bit arithmetic, for random values, denominators (powers of two and not) and widths.
    @Test func rowWriterRendersNumbersAsThePlainArithmeticDoes() {
        // The MiB and seconds renderers against the reference, at their edges (the 2^53 bytes above which MiB falls back
        // to the general rule; exact halves: 2^16 bytes is 62.5 thousandths of a MiB; the extremes) and at random.
        var edges = [0, 1, -1, 499, 500, 501, -500, 1 << 16, -(3 << 16), 1 << 19, (1 << 19) - 1, 1 << 53, (1 << 53) - 1, -(1 << 53), Int.max, Int.min]
        edges += edges.map { $0 / 3 }
        // Each length of the integer part up to 13 digits (the short path renders up to 12), and the values rounding up to it.
        for w in (0...12).map({ (0..<$0).reduce(1) { p, _ in p * 10 } }) {
            for whole in [w, w - 1, 10 * w - 1] {
                // (Values past Int's range, at 13 digits, are left out: Int.max and Int.min above stand for them.)
                let (mebibytes, beyond) = whole.multipliedReportingOverflow(by: 1 << 20)
                if !beyond { edges += [mebibytes, mebibytes - 1, -mebibytes] }
                let (micros, past) = whole.multipliedReportingOverflow(by: 1_000_000)
                if !past { edges += [micros, micros - 1, micros - 500] }
            }
        }
        var rng = SplitMix64(seed: 23)
        let denominators = [1, 3, 1000, 1_000_000, Units.mebibyte, 1 << 40, 7_919, Int.max]
        for k in 0..<20_000 {
            let bits = Int(rng.next() % 64)
            var n = Int(truncatingIfNeeded: rng.next() >> UInt64(bits))
            if k % 3 == 0 { n = 0 &- n }
            let d = denominators[k % denominators.count]
            let decimals = k % 5
            #expect(FixedPoint.format(n, over: d, decimals: decimals) == Self.reference(n, over: d, decimals: decimals), "\(n) / \(d), \(decimals)")
            var padded: [UInt8] = []
            let v = UInt(truncatingIfNeeded: rng.next() >> UInt64(bits))
            FixedPoint.appendDigits(v, width: k % 25, to: &padded)
            let plain = String(v)
            #expect(String(decoding: padded, as: UTF8.self) == String(repeating: "0", count: max(0, k % 25 - plain.count)) + plain)
            edges.append(n)
        }
        for n in Array(-20...20) + [99, 100, 101, 999, 1_000, 9_999, 10_000, 10_001, 99_999, 100_000] + edges {
            #expect(Self.rendered { $0.integer(n) } == String(n))
        }
        for n in edges {
            #expect(Self.rendered { $0.mebibytes(n) } == Self.reference(n, over: Units.mebibyte, decimals: 3), "\(n) bytes")
            #expect(Self.rendered { $0.seconds(n) } == Self.reference(n, over: Units.microsPerSecond, decimals: 3), "\(n) µs")
        }
    }

    /// Times on both sides of the edges of `seconds`' inlined range (0 to just below 10^12 s, rounded) and of its groups
    /// of four digits (10^4 and 10^8 s), and of the signs' rounding to zero: the same bytes as the general rendering.
    @Test func timesAtTheInlinedRangesEdgesRenderAsTheGeneralRule() {
        var times = [0, 1, 499, 500, 501, 999_499, 999_500, -1, -499, -500, -501, Int.max, Int.min, Int.min + 1]
        for edge in [10_000, 100_000_000, 1_000_000_000_000].map({ $0 * Units.microsPerSecond }) {
            times += [edge - 501, edge - 500, edge - 499, edge, edge + 1, edge + 499_999, edge + 500_000, -edge, edge &* 9]
        }
        for n in times {
            #expect(Self.rendered { $0.seconds(n) } == Self.reference(n, over: Units.microsPerSecond, decimals: 3), "\(n) µs")
        }
    }

    /// `bytes` copies fields of up to 32 bytes in overlapping pieces: at every length, after every offset, the row holds
    /// the field's bytes, and nothing past them is written.
    @Test func bytesCopyEveryLengthExactlyAndNothingBeyond() {
        let field = (0..<80).map { UInt8(33 + $0) }
        for length in 0...field.count {
            for offset in 0..<4 {
                let room = offset + length + 40
                let row = UnsafeMutablePointer<UInt8>.allocate(capacity: room)
                defer { row.deallocate() }
                row.initialize(repeating: 0, count: room)
                let written = field.withUnsafeBufferPointer { source in
                    RowWriter.render(into: row, capacity: room) { w in
                        for _ in 0..<offset { w.byte(124) }
                        w.bytes(UnsafeBufferPointer(rebasing: source[0..<length]))
                    }
                }
                #expect(written == offset + length)
                #expect(Array(UnsafeBufferPointer(start: row + offset, count: length)) == Array(field[0..<length]), "\(length) bytes after \(offset)")
                #expect(UnsafeBufferPointer(start: row + offset + length, count: 40).allSatisfy { $0 == 0 }, "\(length) bytes after \(offset)")
            }
        }
        // A literal's bytes (a report's names), read in place.
        for reason in KillReason.allCases {
            var row: [UInt8] = []
            RowWriter.appending(to: &row, capacity: 64) { $0.bytes(reason.staticReportName) }
            #expect(String(decoding: row, as: UTF8.self) == reason.reportName)
        }
    }

    /// Byte counts of whole 4 KiB pages, which `mebibytes` renders from a table of the 256 page fractions: every fraction,
    /// at whole parts of one to five digits, the same bytes as the general rendering (and so as `fixed`).
    @Test func pageMultiplesRenderAsTheGeneralRule() {
        for whole in [0, 1, 9, 10, 99, 100, 999, 1_000, 2_228, 9_998, 9_999, 10_000, 10_001, 65_535] {
            for page in 0..<256 {
                let n = whole << 20 + page << 12
                #expect(Self.rendered { $0.mebibytes(n) } == Self.reference(n, over: Units.mebibyte, decimals: 3), "\(n) bytes")
                #expect(Self.rendered { $0.mebibytes(-n) } == Self.reference(-n, over: Units.mebibyte, decimals: 3), "\(-n) bytes")
            }
        }
    }
}
