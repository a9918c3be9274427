import Dispatch
@testable import JetsimCore
@testable import JetsimIO
import Testing

/// `run` renders its report rows on a second thread (`WriteBehindSink`): the sink must get every record, in order.
@Suite struct WriteBehindTests {
    /// Keeps what it is given, as one list, to check the order across kinds.
    final class Recorder: SimulationRecordSink, @unchecked Sendable {
        enum Entry: Equatable {
            case lifecycle(Int), kill(Int), sample(Int), stretch(Int, count: Int, interval: Int)
            case growing(GrowingSamples, count: Int, interval: Int)
        }
        var entries: [Entry] = []
        var recordsLifecycle: Bool { true }
        func record(_ record: LifecycleRecord) { entries.append(.lifecycle(record.time)) }
        func record(kill: KillRecord) { entries.append(.kill(kill.time)) }
        func record(sample: MemorySample) { entries.append(.sample(sample.time)) }
        func record(sample: MemorySample, repeated count: Int, every interval: Int) {
            entries.append(.stretch(sample.time, count: count, interval: interval))
        }
        func record(growing: GrowingSamples, count: Int, every interval: Int) {
            entries.append(.growing(growing, count: count, interval: interval))
        }
    }

    /// Records of every kind, twice the ring's batches and more and a partial one, reach the sink in the order given,
    /// once `finish()` returns; a stretch of samples stays one record, a growing one arrives whole (its two records in
    /// one batch, wherever the batch's end falls).
    @Test func everyRecordReachesTheSinkInOrder() {
        var random = SplitMix64(seed: 5)
        let recorder = Recorder()
        let writer = WriteBehindSink(recorder)
        #expect(writer.recordsLifecycle)
        var expected: [Recorder.Entry] = []
        let sample = MemorySample(time: 0, availableBytes: 1, freeBytes: 1, pressure: .normal, residentApps: 0, suspendedApps: 0,
                                  compressorBytes: 0, footprintBytes: 0)
        for time in 0..<((2 * WriteBehindSink.depth + 3) * WriteBehindSink.batchCount + 123) {
            switch random.next() % 5 {
            case 0:
                writer.record(LifecycleRecord(time: time, app: 0, from: .suspended, to: .background, callback: .none, footprintBytes: 0,
                                              deadlineMicros: 0, cause: .user))
                expected.append(.lifecycle(time))
            case 1:
                writer.record(kill: KillRecord(time: time, app: 0, reason: .idleExit, state: .suspended, priorityClass: .idle, band: 0,
                                               footprintBytes: 0, idleMicros: 0, availableBefore: 0, availableAfter: 0, userVisible: false))
                expected.append(.kill(time))
            case 2:
                var s = sample
                s.time = time
                writer.record(sample: s)
                expected.append(.sample(time))
            case 3:
                var s = sample
                s.time = time
                writer.record(sample: s, repeated: 1 + time % 9, every: 7)
                expected.append(.stretch(time, count: 1 + time % 9, interval: 7))
            default:
                var s = sample
                s.time = time
                let growing = GrowingSamples(
                    state: s, fileBackedBytes: time % 11,
                    growth: ForegroundGrowth(bytesPerMinute: time, start: time - 5, base: 1, cap: 2 * time, dirtyResident: 3,
                                             pageSize: 4096, pageMask: 4095))
                writer.record(growing: growing, count: 2 + time % 5, every: 3)
                expected.append(.growing(growing, count: 2 + time % 5, interval: 3))
            }
        }
        writer.finish()
        #expect(recorder.entries == expected)
    }

    /// While the writer is stuck on a burst, the caller goes on filling batches, up to the ring's; then the batches are
    /// reused, and every record arrives in order.
    @Test func theCallerRunsAheadOfAStuckWriterByTheRingsBatches() {
        final class Gated: SimulationRecordSink, @unchecked Sendable {
            let gate = DispatchSemaphore(value: 0)
            var times: [Int] = []
            var recordsLifecycle: Bool { false }
            func record(_ record: LifecycleRecord) {}
            func record(kill: KillRecord) {
                if times.isEmpty { gate.wait() }
                times.append(kill.time)
            }
            func record(sample: MemorySample) {}
        }
        @Sendable func kill(_ time: Int) -> KillRecord {
            KillRecord(time: time, app: 0, reason: .idleExit, state: .suspended, priorityClass: .idle, band: 0, footprintBytes: 0,
                       idleMicros: 0, availableBefore: 0, availableAfter: 0, userVisible: false)
        }
        let sink = Gated()
        let writer = WriteBehindSink(sink)
        // The writer holds the first batch at its first record; the caller fills and hands off the others.
        let ahead = (WriteBehindSink.depth - 1) * WriteBehindSink.batchCount
        let filled = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            for time in 0..<ahead { writer.record(kill: kill(time)) }
            filled.signal()
        }
        let ranAhead = filled.wait(timeout: .now() + 60) == .success   // a caller that waits for the writer never gets there
        #expect(ranAhead, "the caller waited for the stuck writer")
        sink.gate.signal()
        if !ranAhead { filled.wait() }
        let total = 3 * ahead + 17
        for time in ahead..<total { writer.record(kill: kill(time)) }
        writer.finish()
        #expect(sink.times == Array(0..<total))
    }

    /// A sink that does not take stretches gets each of their samples, at their times (through `writing(to:)`).
    @Test func aStretchReachesAPlainSinkSampleBySample() {
        final class Plain: SimulationRecordSink, @unchecked Sendable {
            var times: [Int] = []
            var recordsLifecycle: Bool { false }
            func record(_ record: LifecycleRecord) {}
            func record(kill: KillRecord) {}
            func record(sample: MemorySample) { times.append(sample.time) }
        }
        let plain = Plain()
        WriteBehindSink.writing(to: plain) { writer in   // every record has arrived when it returns
            writer.record(sample: MemorySample(time: 100, availableBytes: 1, freeBytes: 1, pressure: .normal, residentApps: 0, suspendedApps: 0,
                                               compressorBytes: 0, footprintBytes: 0), repeated: 4, every: 30)
        }
        #expect(plain.times == [100, 130, 160, 190])
    }
}
