import Foundation
@testable import JetsimIO
import Testing

@Suite struct ChartAxesTests {
    func labels(_ ticks: [ChartAxes.Tick]) -> [String] { ticks.map(\.label) }

    /// The report printed one tick, the maximum (`73430.0`): now 1-2-5 steps from zero past the maximum, counts as integers.
    @Test func linearTicksStepOneTwoOrFiveFromZeroPastTheMaximum() {
        #expect(labels(ChartAxes.linear(0, 73430, integer: true)) == ["0", "20k", "40k", "60k", "80k"])
        #expect(labels(ChartAxes.linear(0, 39, integer: true)) == ["0", "10", "20", "30", "40"])
        #expect(labels(ChartAxes.linear(0, 3, integer: true)) == ["0", "1", "2", "3"])      // no 0.5 steps for counts
        #expect(labels(ChartAxes.linear(0, 1, integer: true)) == ["0", "1"])
        #expect(labels(ChartAxes.linear(0, 0.9)) == ["0", "0.2", "0.4", "0.6", "0.8", "1.0"])
        #expect(labels(ChartAxes.linear(-3.5, 900.5)) == ["-200", "0", "200", "400", "600", "800", "1000"])
        #expect(labels(ChartAxes.linear(0, 100)) == ["0", "20", "40", "60", "80", "100"])
        #expect(labels(ChartAxes.linear(0, 2_500_000, integer: true)) == ["0", "0.5M", "1.0M", "1.5M", "2.0M", "2.5M"])
        #expect(labels(ChartAxes.linear(0, 12_000_000)) == ["0", "5M", "10M", "15M"])
        #expect(labels(ChartAxes.linear(0.001, 0.0042)) == ["0.001", "0.002", "0.003", "0.004", "0.005"])
        // Tick values are the labels' numbers; a flat or empty range still gets an axis.
        #expect(ChartAxes.linear(0, 73430, integer: true).map(\.value) == [0, 20000, 40000, 60000, 80000])
        #expect(labels(ChartAxes.linear(0, 0, integer: true)) == ["0", "1"])
        #expect(labels(ChartAxes.linear(.nan, .infinity)) == ["0", "0.2", "0.4", "0.6", "0.8", "1.0"])
    }

    @Test func logAxesHaveDecadeTicksInTheUnitAReaderSays() {
        #expect(ChartAxes.decades(150, 1400) == 2...4)
        #expect(ChartAxes.decades(100, 1000) == 2...3)
        #expect(ChartAxes.decades(5, 5) == 0...1)
        #expect((-1...5).map(ChartAxes.latencyLabel) == ["0.1 ms", "1 ms", "10 ms", "100 ms", "1 s", "10 s", "100 s"])
    }

    @Test func timeAxesAreReadInMinutesHoursOrDaysAsTheSpanSuggests() {
        #expect(ChartAxes.timeUnit(spanSeconds: 90).name == "s")
        #expect(ChartAxes.timeUnit(spanSeconds: 3600).name == "min")
        #expect(ChartAxes.timeUnit(spanSeconds: 57_991).name == "h")
        #expect(ChartAxes.timeUnit(spanSeconds: 30 * 86_400).name == "days")
        #expect(ChartAxes.value(39) == "39" && ChartAxes.value(39.25) == "39.3" && ChartAxes.value(.nan) == "0")
    }

    /// A month of samples became one point per sample; now each pixel column keeps its lowest and highest value only.
    @Test func theTimelineKeepsTheLowestAndHighestValueOfEachPixelColumn() {
        // 10 000 samples over 100 columns: a sawtooth whose extremes must survive.
        let points = (0..<10_000).map { (time: $0 * 1000, value: ($0 % 37) * 1000 - 5000) }
        let ranges = TimelineColumns.minMax(points, start: 0, end: 9_999_000, columns: 100)
        #expect(ranges.count == 100)
        #expect(ranges.map(\.column) == Array(0..<100))
        #expect(ranges.allSatisfy { $0.low == -5000 && $0.high == 31_000 })
        // Exact at the edges: the last instant falls in the last column, anything outside in none.
        #expect(TimelineColumns.column(of: 9_999_000, start: 0, end: 9_999_000, columns: 100) == 99)
        #expect(TimelineColumns.column(of: 99_989, start: 0, end: 9_999_000, columns: 100) == 0)
        #expect(TimelineColumns.column(of: 99_990, start: 0, end: 9_999_000, columns: 100) == 1)
        #expect(TimelineColumns.column(of: -1, start: 0, end: 10, columns: 10) == nil)
        // A month in microseconds × a wide chart does not overflow.
        #expect(TimelineColumns.column(of: Int.max / 2, start: 0, end: Int.max / 2, columns: 2000) == 1999)
        let few = TimelineColumns.minMax([(0, 5), (10, 7), (10, 2)], start: 0, end: 10, columns: 860)
        #expect(few == [TimelineColumns.Range(column: 0, low: 5, high: 5), TimelineColumns.Range(column: 859, low: 2, high: 7)])
        #expect(TimelineColumns.thousandths("900.5") == 900_500 && TimelineColumns.thousandths("nan") == nil
                && TimelineColumns.thousandths("1e300") == nil && TimelineColumns.thousandths(nil) == nil)
    }

    /// 96 580 kills drew 96 580 markers; now one count per pixel column.
    @Test func killsAreCountedPerPixelColumn() {
        let times = (0..<96_580).map { $0 * 26 } + [-5, 3_000_000]
        let counts = TimelineColumns.counts(times, start: 0, end: 2_511_054, columns: 860)
        #expect(counts.count == 860)
        #expect(counts.reduce(0, +) == 96_580)   // outside the span: not counted
        #expect(counts.allSatisfy { $0 >= 112 && $0 <= 113 })
        #expect(TimelineColumns.counts([5, 5, 6], start: 0, end: 10, columns: 2) == [0, 3])
    }

    @Test func policiesAreLabelledByNameAndOnlyTheParametersThatTellThemApart() {
        let full = "xnu(foreground_band=100,audio_band=120,task_band=40,aging_band=20,idle_band=0,frozen_band=75)"
        #expect(ChartReport.shortLabels([full, "lru", "largest"]) == ["xnu", "lru", "largest"])
        #expect(ChartReport.shortLabels(["cost(alpha=0.5,half_life_h=12)", "cost(alpha=1,half_life_h=12)", "lru"])
                == ["cost(alpha=0.5)", "cost(alpha=1)", "lru"])
        #expect(ChartReport.slug("iPhone X (3 GB)") == "iphone-x-3-gb" && ChartReport.slug("///") == "x")
    }
}
