@testable import JetsimCore
@testable import JetsimIO
import Testing

@Suite struct TimeseriesRowTemplateTests {
    /// The time field `ReportFiles.sampleTime` renders for `time`, then `state`.
    func freshRow(_ time: Int, state: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        RowWriter.appending(to: &out, capacity: 64) { ReportFiles.sampleTime(time, into: &$0) }
        return out + state
    }

    /// Rows advanced digit by digit are the fresh renderings of their times: across carries through the milliseconds,
    /// the point and every digit of the seconds (999.999 + 0.001, 9 999 999.5 s + 1 h), from 0 µs and from times near
    /// 2^60 µs, with steps from 1 ms to 11.6 days and with the half-millisecond rounding of the first time; each step
    /// both after another and after itself.
    @Test func advancedRowsAreTheFreshRenderingsOfTheirTimes() {
        var random = SplitMix64(seed: 41)
        let state = Array(",12.500,normal,3,2,0.000,11.000,1.250\n".utf8)
        let template = TimeseriesRowTemplate(stateCapacity: 256)
        state.withUnsafeBufferPointer { template.setState($0) }
        let starts = [0, 1, 499, 500, 999, 999_499, 999_500, 999_999_000, 9_999_999_500_000, 1 << 60, (1 << 60) - 1_234_567]
        let steps = [1_000, 7_000, 999_000, 1_000_000, 60_000_000, 3_600_000_000, 999_999_000, 1_000_000_000_000]
        var cases = starts.flatMap { t in steps.map { (t, $0) } }
        cases += steps.flatMap { step in starts.map { ($0, step) } }   // one step at many starts: its digits are reused
        for _ in 0..<300 {
            cases.append((Int.random(in: 0...(1 << 60), using: &random), 1_000 * Int.random(in: 1...10_000_000, using: &random)))
        }
        for (start, step) in cases {
            #expect(template.start(at: start, step: step))
            for k in 0..<200 {
                if k > 0 { template.advance() }
                let expected = freshRow(start + k * step, state: state)
                guard Array(template.row) == expected else {
                    Issue.record("start \(start) µs, step \(step) µs, row \(k): \(String(decoding: Array(template.row), as: UTF8.self)) is not \(String(decoding: expected, as: UTF8.self))")
                    break
                }
            }
        }
    }

    /// `copyRow` writes the row's bytes and returns its length; past the row it writes at most `copySlack` bytes, so
    /// `copyRoom` holds it. Every row length from a 5-byte time field with an empty state to one
    /// of 17 bytes (2^60 µs: 13 digits of seconds) with the state's capacity, and rows of a stretch whose time gains a digit.
    @Test func aCopiedRowIsTheRowAndStaysWithinItsRoom() {
        let template = TimeseriesRowTemplate(stateCapacity: 48)
        for stateLength in [0, 1, 15, 16, 17, 31, 32, 33, 48] {
            let state = Array(repeating: UInt8(97 + stateLength % 26), count: stateLength)
            state.withUnsafeBufferPointer { template.setState($0) }
            for (start, step) in [(0, 1_000), (999_999_000, 1_000_000), (99_999_940_000_000, 60_000_000), (1 << 60, 3_600_000_000)] {
                #expect(template.start(at: start, step: step))
                for k in 0..<3 {
                    if k > 0 { template.advance() }
                    let room = template.copyRoom
                    var out = [UInt8](repeating: 0xEE, count: room + 16)
                    let count = out.withUnsafeMutableBufferPointer { template.copyRow(to: $0.baseAddress! + 8) }
                    #expect(count == template.row.count && Array(out[8..<(8 + count)]) == Array(template.row))
                    #expect(out[0..<8].allSatisfy { $0 == 0xEE } && out[(8 + room)...].allSatisfy { $0 == 0xEE },
                            "state \(stateLength) B, start \(start) µs, row \(k): written outside its room")
                }
            }
        }
    }

    /// Where the rounding of each time could differ from the first's (a step that is not whole milliseconds) or the
    /// time is negative, the template declines and the caller renders every time.
    @Test func aStepOfPartMillisecondsOrANegativeTimeIsDeclined() {
        let template = TimeseriesRowTemplate(stateCapacity: 16)
        #expect(!template.start(at: 0, step: 1_500))
        #expect(!template.start(at: 0, step: 999))
        #expect(!template.start(at: 0, step: 0))
        #expect(!template.start(at: 0, step: -1_000))
        #expect(!template.start(at: -1, step: 1_000))
        #expect(!template.start(at: Int.max, step: 1_000))
        #expect(template.start(at: 0, step: 1_000))
    }
}
