@testable import JetsimCore
import Testing

/// Kills and samples either stay in the result or stream to the observer; the run is the same either way.
@Suite struct ObserverTests {
    struct Streaming: SimulationObserver {
        var kills: [KillRecord] = []
        var samples: [MemorySample] = []
        var recordsLifecycle: Bool { false }
        mutating func record(_ record: LifecycleRecord) {}
        var retainsKillsAndSamples: Bool { false }
        mutating func record(kill: KillRecord) { kills.append(kill) }
        mutating func record(sample: MemorySample) { samples.append(sample) }
    }

    /// Eight 150 MB apps opened in turn on a 1000 MB device: kills are certain.
    func run<O: SimulationObserver>(_ observer: O) throws -> (SimulationResult, O) {
        let catalog = try AppCatalog((0..<8).map { bareApp("a\($0)", dirtyMB: 150) })
        var sim = Simulator(device: testDevice(), catalog: catalog, policy: XNUPolicy(), observer: observer)
        for k in 0..<40 {
            sim.process(TraceEvent(time: sec(30 * k), app: Int32(k % 8), kind: .open))
            sim.process(TraceEvent(time: sec(30 * k + 10), app: TraceEvent.noApp, kind: .home))
        }
        return (sim.finish(), sim.observer)
    }

    @Test func streamedKillsAndSamplesAreTheOnesARetainingRunKeeps() throws {
        let (kept, _) = try run(NullObserver())
        let (streamedResult, streamed) = try run(Streaming())
        #expect(!kept.kills.isEmpty && !kept.samples.isEmpty)
        #expect(streamed.kills == kept.kills)
        #expect(streamed.samples == kept.samples)
        #expect(streamedResult.kills.isEmpty && streamedResult.samples.isEmpty)
        #expect(streamedResult.sampleCount == kept.samples.count)
        #expect(streamedResult.measured == kept.measured)
    }

    final class Sink: SimulationRecordSink {
        var kills: [KillRecord] = []
        var samples: [MemorySample] = []
        var lifecycle: [LifecycleRecord] = []
        var recordsLifecycle: Bool { true }
        func record(_ record: LifecycleRecord) { lifecycle.append(record) }
        func record(kill: KillRecord) { kills.append(kill) }
        func record(sample: MemorySample) { samples.append(sample) }
    }

    /// `jetsim run`'s observer (the engine is specialised for it): every record reaches the sink, in order.
    @Test func aSinkObserverForwardsEveryRecord() throws {
        let (kept, _) = try run(NullObserver())
        let (recorded, recording) = try run(RecordingObserver())
        let sink = Sink()
        let (result, _) = try run(SinkObserver(sink))
        #expect(sink.kills == kept.kills && sink.samples == kept.samples && sink.lifecycle == recording.records)
        #expect(!sink.lifecycle.isEmpty && result.kills.isEmpty && result.measured == recorded.measured)
    }

    @Test func countersOnlyKeepsNothingAndChangesNoCounter() throws {
        let (kept, _) = try run(NullObserver())
        let (counted, _) = try run(CountersOnlyObserver())
        #expect(counted.kills.isEmpty && counted.samples.isEmpty)
        #expect(counted.totalKills == kept.totalKills && counted.totalKills > 0)
        #expect(counted.measured == kept.measured)
        #expect(counted.apps == kept.apps)
    }
}
