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

    /// Starts `template`'s rows after a row at `time`, from that row's rendered time field, as `ReportStream` does.
    func startRows(_ template: TimeseriesRowTemplate, at time: Int, step: Int) -> Bool {
        freshRow(time, state: []).withUnsafeBufferPointer { template.start(after: $0, step: step) }
    }

    /// Rows advanced digit by digit are the fresh renderings of their times: across carries through the milliseconds,
    /// the point and every digit of the seconds (999.999 + 0.001, 9 999 999.5 s + 1 h), from 0 µs and from times near
    /// 2^60 µs, with steps from 1 ms to 11.6 days and with the half-millisecond rounding of the first time; each step
    /// both after another and after itself; a row at a time and a run of rows in one call.
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
        let singles = 100, run = 99
        var out = [UInt8](repeating: 0, count: (singles + run) * template.copyRoom)
        for (start, step) in cases {
            #expect(startRows(template, at: start, step: step))
            #expect(Array(template.row) == freshRow(start, state: state), "start \(start) µs")
            for k in 1...singles {
                let width = out.withUnsafeMutableBufferPointer { template.advancedRows(1, to: $0.baseAddress.unsafelyUnwrapped) }
                let expected = freshRow(start + k * step, state: state)
                guard Array(out[..<width]) == expected, Array(template.row) == expected else {
                    Issue.record("start \(start) µs, step \(step) µs, row \(k): \(String(decoding: out[..<width], as: UTF8.self)) is not \(String(decoding: expected, as: UTF8.self))")
                    break
                }
            }
            let width = out.withUnsafeMutableBufferPointer { template.advancedRows(run, to: $0.baseAddress.unsafelyUnwrapped) }
            let expected = ((singles + 1)...(singles + run)).flatMap { freshRow(start + $0 * step, state: state) }
            #expect(Array(out[..<width]) == expected, "start \(start) µs, step \(step) µs: a run of \(run) rows")
        }
    }

    /// `advancedRows` writes its rows' bytes and returns their length; past them it writes at most `copySlack` bytes, so
    /// a room of `copyRoom` a row holds it. Every row length from a 5-byte time field with an empty state to one of 17
    /// bytes (2^60 µs: 13 digits of seconds) with the state's capacity, runs of one to three rows, and rows of a stretch
    /// whose time gains a digit.
    @Test func advancedRowsStayWithinTheirRoom() {
        let template = TimeseriesRowTemplate(stateCapacity: 48)
        for stateLength in [0, 1, 15, 16, 17, 31, 32, 33, 48] {
            let state = Array(repeating: UInt8(97 + stateLength % 26), count: stateLength)
            state.withUnsafeBufferPointer { template.setState($0) }
            for (start, step) in [(0, 1_000), (999_999_000, 1_000_000), (99_999_940_000_000, 60_000_000), (1 << 60, 3_600_000_000)] {
                #expect(startRows(template, at: start, step: step))
                var time = start
                for rows in 1...3 {
                    let room = rows * template.copyRoom
                    var out = [UInt8](repeating: 0xEE, count: room + 16)
                    let count = out.withUnsafeMutableBufferPointer { template.advancedRows(rows, to: $0.baseAddress.unsafelyUnwrapped + 8) }
                    let expected = (1...rows).flatMap { freshRow(time + $0 * step, state: state) }
                    time += rows * step
                    #expect(count == expected.count && Array(out[8..<(8 + count)]) == expected)
                    #expect(out[0..<8].allSatisfy { $0 == 0xEE } && out[(8 + room)...].allSatisfy { $0 == 0xEE },
                            "state \(stateLength) B, start \(start) µs, \(rows) rows: written outside their room")
                }
            }
        }
    }

    /// Where the rounding of each time could differ from the first's (a step that is not whole milliseconds) or the
    /// time renders negative, the template declines and the caller renders every time. A time within half a
    /// millisecond below 0 renders as 0.000, and so do its later times as whole milliseconds after it: accepted.
    @Test func aStepOfPartMillisecondsOrANegativeTimeIsDeclined() {
        let template = TimeseriesRowTemplate(stateCapacity: 16)
        #expect(!startRows(template, at: 0, step: 1_500))
        #expect(!startRows(template, at: 0, step: 999))
        #expect(!startRows(template, at: 0, step: 0))
        #expect(!startRows(template, at: 0, step: -1_000))
        #expect(!startRows(template, at: -500, step: 1_000))
        #expect(!startRows(template, at: -60_000_000, step: 1_000))
        #expect(startRows(template, at: 0, step: 1_000))
        for time in [-1, -499] {
            #expect(startRows(template, at: time, step: 1_000))
            var out = [UInt8](repeating: 0, count: 3 * template.copyRoom)
            let width = out.withUnsafeMutableBufferPointer { template.advancedRows(3, to: $0.baseAddress.unsafelyUnwrapped) }
            #expect(Array(out[..<width]) == (1...3).flatMap { freshRow(time + $0 * 1_000, state: []) }, "from \(time) µs")
        }
    }
}
