import JetsimCore
@testable import JetsimWorkloads
import Testing

@Suite struct TraceStatisticsSpanTests {
    /// Two opens 1.15e12 s apart: the working set is kept for the two hours that have opens, not for 319 million.
    @Test func hoursAreKeptOnlyWhereThereAreOpens() {
        var s = TraceStatistics()
        let last = 1_150_000_000_000 * Units.microsPerSecond
        s.add(TraceEvent(time: 0, app: 0, kind: .open))
        s.add(TraceEvent(time: last, app: 1, kind: .open))
        #expect(s.activeHours.map(\.hour) == [0, last / (3600 * Units.microsPerSecond)])
        #expect(s.hourCount == 319_444_445)
        #expect(s.spanMicros == last)
    }

    @Test func anEventBeforeTheLastHourIsCountedInItsOwnHour() {
        let hour = 3600 * Units.microsPerSecond
        var s = TraceStatistics()
        for (t, app) in [(0, 0), (3 * hour, 1), (hour + 5, 2), (hour + 6, 0)] { s.add(TraceEvent(time: t, app: Int32(app), kind: .open)) }
        #expect(s.hours.map(\.opens) == [1, 2, 0, 1])
        #expect(s.activeHours.map(\.hour) == [0, 1, 3])
    }
}
