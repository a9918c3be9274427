import Foundation
@testable import JetsimCore
@testable import JetsimIO
import Testing

@Suite struct ReportStreamTests {
    /// A sample of an unchanged state reuses the previous row after its time: the file must still read as if every
    /// row were rendered afresh, whichever single field changes after a run of repeats.
    @Test func streamedTimeseriesRowsAreTheFreshRenderings() throws {
        let s = try Scratch()
        var random = SplitMix64(seed: 23)
        var samples: [MemorySample] = []
        var current = MemorySample(time: 0, availableBytes: 900 << 20, freeBytes: 800 << 20, pressure: .normal, residentApps: 3,
                                   suspendedApps: 2, compressorBytes: 0, footprintBytes: 100 << 20)
        for step in 0..<5_000 {
            current.time = step * 60_000_000 + Int.random(in: 0..<1000, using: &random)
            if Int.random(in: 0..<10, using: &random) < 3 {   // one field changes, by as little as one byte
                let delta = Bool.random(using: &random) ? 1 : Int.random(in: 1...(1 << 30), using: &random)
                switch Int.random(in: 0..<7, using: &random) {
                case 0: current.availableBytes -= delta
                case 1: current.freeBytes += delta
                case 2: current.pressure = PressureLevel.allCases.filter { $0 != current.pressure }.randomElement(using: &random)!
                case 3: current.residentApps += 1
                case 4: current.suspendedApps += 1
                case 5: current.compressorBytes += delta
                default: current.footprintBytes += delta
                }
            }
            samples.append(current)
        }
        let stream = try ReportStream(directory: s.path, appNames: ["a"], policy: "xnu", events: false)
        for sample in samples { stream.record(sample: sample) }
        #expect(stream.failure == nil)
        try stream.timeseries.commit()
        let written = try String(contentsOfFile: s.path + "/timeseries.csv", encoding: .utf8)
        let expected = CSVLine.of(ReportFiles.timeseriesHeader) + samples.map(ReportFiles.sampleLine).joined()
        #expect(written == expected)
    }

    /// Stretches of an unchanged state (`record(sample:repeated:every:)`), between single samples of changed states, at
    /// sub-millisecond times and intervals (rounded per row) and at whole-millisecond intervals (time fields advanced
    /// digit by digit): the rows are each sample's fresh rendering.
    @Test func aStretchsRowsAreItsSamplesFreshRenderings() throws {
        let s = try Scratch()
        var random = SplitMix64(seed: 31)
        let stream = try ReportStream(directory: s.path, appNames: ["a"], policy: "xnu", events: false)
        var expected = CSVLine.of(ReportFiles.timeseriesHeader)
        var current = MemorySample(time: 0, availableBytes: 900 << 20, freeBytes: 800 << 20, pressure: .normal, residentApps: 3,
                                   suspendedApps: 2, compressorBytes: 0, footprintBytes: 100 << 20)
        for _ in 0..<2_000 {
            current.time += Int.random(in: 1...90_000_000, using: &random)
            current.freeBytes -= Int.random(in: 0...2, using: &random)   // unchanged a third of the time
            if Bool.random(using: &random) {
                stream.record(sample: current)
                expected += ReportFiles.sampleLine(current)
            } else {
                let count = Int.random(in: 1...40, using: &random)
                let interval = Bool.random(using: &random)
                    ? Int.random(in: 1...70_000_000, using: &random) : 1_000 * Int.random(in: 1...70_000, using: &random)
                stream.record(sample: current, repeated: count, every: interval)
                current.repeated(count, every: interval) { expected += ReportFiles.sampleLine($0) }
                current.time += (count - 1) * interval
            }
        }
        #expect(stream.failure == nil)
        try stream.timeseries.commit()
        #expect(try String(contentsOfFile: s.path + "/timeseries.csv", encoding: .utf8) == expected)
    }

    /// A growing foreground app's stretches (`record(growing:count:every:)`, rendered a room's worth of rows at a time),
    /// some long enough to fill the file's buffer more than once and some whose growth stops at its cap (rows of one
    /// state), between single samples and stretches of an unchanged state, which reuse the last rendered state: the rows
    /// are each projected sample's fresh rendering.
    @Test func aGrowingStretchsRowsAreItsProjectedSamplesFreshRenderings() throws {
        let s = try Scratch()
        var random = SplitMix64(seed: 47)
        let stream = try ReportStream(directory: s.path, appNames: ["a"], policy: "xnu", events: false)
        var expected = CSVLine.of(ReportFiles.timeseriesHeader)
        var current = MemorySample(time: 0, availableBytes: 900 << 20, freeBytes: 300 << 20, pressure: .normal, residentApps: 3,
                                   suspendedApps: 2, compressorBytes: 0, footprintBytes: 100 << 20)
        for _ in 0..<600 {
            current.time += Int.random(in: 1...90_000_000, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                stream.record(sample: current)
                expected += ReportFiles.sampleLine(current)
            case 1:
                let count = Int.random(in: 1...40, using: &random), interval = 60_000_000
                stream.record(sample: current, repeated: count, every: interval)
                current.repeated(count, every: interval) { expected += ReportFiles.sampleLine($0) }
                current.time += (count - 1) * interval
            default:
                let dirty = Int.random(in: 10...200, using: &random) << 20
                let growth = ForegroundGrowth(bytesPerMinute: Int.random(in: 1...(8 << 20), using: &random), start: current.time,
                                              base: dirty, cap: dirty + (Int.random(in: 0...64, using: &random) << 20),
                                              dirtyResident: dirty, pageSize: 16_384, pageMask: 16_383)
                let growing = GrowingSamples(state: current, fileBackedBytes: Int.random(in: 0...(400 << 20), using: &random),
                                             growth: growth)
                let count = Int.random(in: 0..<8, using: &random) == 0 ? Int.random(in: 1_000...3_000, using: &random)
                    : Int.random(in: 1...60, using: &random)
                let interval = Int.random(in: 1...120, using: &random) * 1_000_000
                stream.record(growing: growing, count: count, every: interval)
                growing.samples(count, every: interval) { expected += ReportFiles.sampleLine($0) }
                current = growing.sample(at: current.time + (count - 1) * interval)
            }
        }
        #expect(stream.failure == nil)
        try stream.timeseries.commit()
        #expect(try String(contentsOfFile: s.path + "/timeseries.csv", encoding: .utf8) == expected)
    }
}
