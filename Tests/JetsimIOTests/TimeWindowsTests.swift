import JetsimCore
@testable import JetsimIO
import Testing

@Suite struct TimeWindowsTests {
    @Test func windowsAreCountedAndBoundedOverEveryRun() {
        let hour = 3600 * Units.microsPerSecond
        #expect(TimeWindows.count(spanMicros: 0, intervalMicros: hour) == 1)
        #expect(TimeWindows.count(spanMicros: hour, intervalMicros: hour) == 2)
        let atLimit = (TimeWindows.limit - 1) * hour
        #expect(throws: Never.self) {
            try TimeWindows.check(trace: "t", spanMicros: atLimit, intervalMicros: hour, windows: "w", advice: "a", exitCode: 64)
        }
        #expect(throws: InputError.self) {
            try TimeWindows.check(trace: "t", spanMicros: atLimit + hour, intervalMicros: hour, windows: "w", advice: "a", exitCode: 64)
        }
        #expect(throws: InputError.self) {
            try TimeWindows.check(trace: "t", spanMicros: atLimit / 2, intervalMicros: hour, runs: 3, windows: "w", advice: "a", exitCode: 64)
        }
        do {
            try TimeWindows.check(trace: "t.csv", spanMicros: 1_150_000_000_000 * Units.microsPerSecond, intervalMicros: hour, runs: Int.max,
                                  windows: "--interval 3600 s", advice: "choose a longer --interval", exitCode: 64)
            Issue.record("accepted")
        } catch {
            #expect(error.exitCode == 64)
            #expect(error.description.hasPrefix("t.csv: the trace spans 1 150 000 000 000 s; --interval 3600 s would make 319 444 445 windows in each"))
            #expect(error.description.hasSuffix("(at most 1 000 000); choose a longer --interval"))
        }
        #expect(TimeWindows.seconds(3_600_000_000) == "3600" && TimeWindows.seconds(500_000) == "0.5" && TimeWindows.seconds(1) == "0.000001")
        #expect(TimeWindows.grouped(1_000_000) == "1 000 000" && TimeWindows.grouped(999) == "999" && TimeWindows.grouped(-1234) == "-1 234")
    }
}
