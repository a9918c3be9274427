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

    /// Records stretches apart: each call to `record(sample:repeated:every:)` (idle) and `record(growing:count:every:)`
    /// (a growing foreground app), and the samples it stands for.
    struct StretchCounting: SimulationObserver {
        var samples: [MemorySample] = []
        var stretches: [(first: MemorySample, count: Int, interval: Int)] = []
        var growingStretches: [(growing: GrowingSamples, count: Int, interval: Int)] = []
        var recordsLifecycle: Bool { false }
        mutating func record(_ record: LifecycleRecord) {}
        var retainsKillsAndSamples: Bool { false }
        mutating func record(sample: MemorySample) { samples.append(sample) }
        mutating func record(sample: MemorySample, repeated count: Int, every interval: Int) {
            stretches.append((sample, count, interval))
            sample.repeated(count, every: interval) { samples.append($0) }
        }
        mutating func record(growing: GrowingSamples, count: Int, every interval: Int) {
            growingStretches.append((growing, count, interval))
            growing.samples(count, every: interval) { samples.append($0) }
        }
    }

    /// Opens, backgrounds, background tasks (timers inside idle stretches), growth in the foreground and long idle
    /// gaps, sampled every `interval` seconds.
    /// `oneSamplePerCall`: the run is stopped at every sample time (`fireTimers(through:)`, which changes no result), so
    /// no stretch can form: each sample is taken by its own timer, at its own time.
    func idleRun<O: SimulationObserver>(_ observer: O, interval: Int, maxSamples: Int = 1_000_000,
                                        oneSamplePerCall: Bool = false) throws -> (SimulationResult, O) {
        let catalog = try AppCatalog((0..<6).map { k in
            bareApp("a\(k)", dirtyMB: 140) { $0.growthBytesPerMinute = k % 2 == 0 ? mb(20) : 0 }
        })
        var options = SimulationOptions()
        options.sampleIntervalMicros = sec(interval)
        options.maxSamples = maxSamples
        var sim = Simulator(device: testDevice(), catalog: catalog, policy: XNUPolicy(), observer: observer, options: options)
        var t = 0, nextSample = sec(interval)
        func process(_ event: TraceEvent) {
            while oneSamplePerCall && nextSample <= event.time {
                sim.fireTimers(through: nextSample)
                nextSample += sec(interval)
            }
            sim.process(event)
        }
        for k in 0..<30 {
            let app = Int32(k % 6)
            process(TraceEvent(time: t, app: app, kind: .open))
            t += sec(7 + 13 * (k % 5))
            process(TraceEvent(time: t, app: TraceEvent.noApp, kind: .home))
            if k % 3 == 0 { process(TraceEvent(time: t + sec(1), app: app, kind: .bgTask, value: sec(95 + k))) }
            if k % 3 == 1 {   // a background launch that ends exactly at a sample time: the timer goes first
                let aligned = (t + sec(2) + sec(interval) - 1) / sec(interval) * sec(interval)
                process(TraceEvent(time: aligned, app: Int32((k + 3) % 6), kind: .bgLaunch, value: sec(3 * interval)))
            }
            t += sec(60 * (1 + k % 7) + k)   // idle, a few samples to several hundred
        }
        return (sim.finish(), sim.observer)
    }

    /// The engine hands an idle stretch's samples over in one call; they are the samples a retaining run keeps, in
    /// the same number.
    @Test func anIdleStretchsSamplesArriveInOneCallAndAreTheRetainedOnes() throws {
        let (kept, _) = try idleRun(NullObserver(), interval: 5)
        let (result, counted) = try idleRun(StretchCounting(), interval: 5)
        #expect(counted.stretches.count > 10 && counted.stretches.contains { $0.count > 50 })
        #expect(counted.samples == kept.samples && result.sampleCount == kept.samples.count)
        #expect(zip(kept.samples, kept.samples.dropFirst()).allSatisfy { $1.time - $0.time == sec(5) })
        #expect(result.measured == kept.measured)
    }

    /// An idle stretch's samples are the ones a timer per sample takes, each at its own time (a stretch that ran past
    /// a timer or an event, or stopped short of one, shows), at intervals that end stretches at different places. A run
    /// cut at `maxSamples` inside a stretch keeps exactly that many.
    @Test func anIdleStretchsSamplesAreTheOnesATimerPerSampleTakes() throws {
        for interval in [5, 7, 15, 21] {
            let (stretched, observer) = try idleRun(StretchCounting(), interval: interval)
            let (single, reference) = try idleRun(StretchCounting(), interval: interval, oneSamplePerCall: true)
            #expect(reference.stretches.isEmpty && !observer.stretches.isEmpty)
            #expect(observer.samples == reference.samples && observer.samples.count > 100, "every \(interval) s")
            #expect(stretched.measured == single.measured && stretched.sampleCount == single.sampleCount)
        }
        let fine = try idleRun(StretchCounting(), interval: 5).1.samples
        let (cut, cutObserver) = try idleRun(StretchCounting(), interval: 5, maxSamples: 1234)
        #expect(cut.sampleCount == 1234 && cut.samplesTruncated && cutObserver.samples == Array(fine.prefix(1234)))
    }

    /// A growing foreground app's stretch reaches the observer in one call (the state and the growth), and the samples
    /// projected from it are the ones a timer per sample measures, each at its own time: the footprint rising with the
    /// growth within the stretch, available and free memory falling with it.
    @Test func aGrowingStretchArrivesInOneCallAndProjectsTheSamplesATimerPerSampleTakes() throws {
        for interval in [5, 7, 15] {
            let (stretched, observer) = try idleRun(StretchCounting(), interval: interval)
            let (single, reference) = try idleRun(StretchCounting(), interval: interval, oneSamplePerCall: true)
            #expect(reference.growingStretches.isEmpty && observer.growingStretches.contains { $0.count > 2 }, "every \(interval) s")
            for (growing, count, interval) in observer.growingStretches {
                let first = growing.sample(at: growing.state.time), last = growing.sample(at: growing.state.time + (count - 1) * interval)
                #expect(count == 1 || last.footprintBytes > first.footprintBytes)
                #expect(last.footprintBytes - first.footprintBytes == first.availableBytes - last.availableBytes)
            }
            #expect(observer.samples == reference.samples, "every \(interval) s")
            #expect(stretched.measured == single.measured && stretched.sampleCount == single.sampleCount)
        }
    }

    /// Growth takes free pages first, then clean ones: free memory shows below zero only by what clean pages cannot cover.
    @Test func aProjectedSampleTakesFreePagesThenCleanOnes() {
        let state = MemorySample(time: 0, availableBytes: mb(300), freeBytes: mb(10), pressure: .normal, residentApps: 1,
                                 suspendedApps: 0, compressorBytes: 0, footprintBytes: mb(100))
        func projected(grown: Int, clean: Int) -> MemorySample {
            GrowingSamples.project(state, grown: mb(grown), fileBackedBytes: mb(clean), at: sec(60))
        }
        #expect(projected(grown: 4, clean: 0).freeBytes == mb(6))
        #expect(projected(grown: 15, clean: 8).freeBytes == 0)
        #expect(projected(grown: 15, clean: 3).freeBytes == -mb(2))
        let grown = projected(grown: 15, clean: 3)
        #expect(grown.time == sec(60) && grown.availableBytes == mb(285) && grown.footprintBytes == mb(115))
        #expect(grown.residentApps == 1 && grown.pressure == .normal)
    }

    /// The growth formula: the rate from the session's start over its base, in whole pages, at most the cap, never below
    /// the dirty memory the app has.
    @Test func foregroundGrowthIsWholePagesOfTheRateUpToTheCap() {
        let page = 16_384
        var growth = ForegroundGrowth(bytesPerMinute: mb(20), start: sec(100), base: mb(50), cap: mb(80), dirtyResident: mb(50),
                                      pageSize: page, pageMask: page - 1)
        #expect(growth.dirty(at: sec(100)) == mb(50) && growth.unapplied(at: sec(100)) == 0)
        #expect(growth.dirty(at: sec(130)) == mb(60))
        let partial = mb(20) / 60   // a second's growth, before it is rounded down to a page
        #expect(growth.dirty(at: sec(101)) == mb(50) + partial / page * page)
        #expect(growth.dirty(at: sec(10_000)) == mb(80))
        growth.dirtyResident = mb(70)
        #expect(growth.dirty(at: sec(130)) == mb(70) && growth.unapplied(at: sec(160)) == 0 && growth.unapplied(at: sec(190)) == mb(10))
        growth.dirtyResident = mb(50)
        growth.pageMask = -1   // a page size that is not a power of two rounds by division
        growth.pageSize = 12_288
        #expect(growth.dirty(at: sec(101)) == mb(50) + partial / 12_288 * 12_288)
    }
}
