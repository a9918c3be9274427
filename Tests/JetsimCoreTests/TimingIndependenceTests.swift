@testable import JetsimCore
import Testing

/// A run's decisions depend on the trace, the device, the catalog, the policy and the seed, never on how it is
/// observed (samples, interval windows, warm-up) or on events that change nothing. The kernel responds when
/// something happens; what time alone changes (growth, purgeable memory ripening, the freezer's new day) has a
/// timer of its own.
@Suite struct TimingIndependenceTests {
    /// A small device under steady pressure, compressor and freezer on, with apps holding purgeable memory.
    static func device() -> Device {
        var d = testDevice(ramMB: 1000, limitMB: 600)
        d.compressor = .init(enabled: true, ratioMilli: 2500, poolLimitBytes: mb(150))
        d.freezer.enabled = true
        d.freezer.maxFrozen = 2
        d.freezer.dailyWriteBudgetBytes = mb(60)
        return d
    }

    /// Random opens, homes, allocations and background work over a few simulated days.
    static func events(seed: UInt64) -> [TraceEvent] {
        var rng = SplitMix64(seed: seed)
        var t = 0, out: [TraceEvent] = []
        for _ in 0..<1500 {
            t += Int.random(in: 0...(rng.next() % 8 == 0 ? sec(3600) : sec(40)), using: &rng)
            let kind = [TraceEventKind.open, .open, .home, .alloc, .bgTask, .bgLaunch][Int(rng.next() % 6)]
            let value = kind == .alloc ? Int.random(in: -mb(30)...mb(60), using: &rng) : Int.random(in: 0...sec(90), using: &rng)
            out.append(TraceEvent(time: t, app: Int32(rng.next() % 9), kind: kind, value: value))
        }
        return out
    }

    /// Runs the events; with `padding`, an extra event halfway through every gap: a zero-byte `alloc` of the app
    /// then in the foreground (handled, so the pressure response runs then) or, with none, an ignored `mode_stop`.
    /// With `probing`, the timers due by the middle of every gap fire before its event does (as `validate`'s probes
    /// make them).
    static func run(_ events: [TraceEvent], options: SimulationOptions = .init(), padding: Bool = false,
                    probing: Bool = false) throws -> SimulationResult {
        var h = try Harness(device: device(), apps: StressTests.apps(), policy: XNUPolicy(), options: options)
        for (k, e) in events.enumerated() {
            if probing && k > 0 { h.sim.fireTimers(through: events[k - 1].time + (e.time - events[k - 1].time) / 2) }
            if padding && k > 0 {
                let between = events[k - 1].time + (e.time - events[k - 1].time) / 2
                if let app = h.sim.foregroundApp {
                    h.sim.process(TraceEvent(time: between, app: app, kind: .alloc, value: 0))
                } else {
                    h.sim.process(TraceEvent(time: between, app: 0, kind: .modeStop, value: Int(BackgroundModes.voip.rawValue)))
                }
            }
            h.sim.process(e)
        }
        return h.finish()
    }

    /// Where two kill lists part, in words (nil: equal): the lists themselves are too long for a test log.
    static func firstDifference(_ a: [KillRecord], _ b: [KillRecord]) -> String? {
        let common = min(a.count, b.count)
        guard let k = (0..<common).first(where: { a[$0] != b[$0] }) ?? (a.count == b.count ? nil : common) else { return nil }
        return "kill \(k) of \(a.count) / \(b.count): \(k < a.count ? "\(a[k])" : "none") vs \(k < b.count ? "\(b[k])" : "none")"
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func intervalWindowsAndSampleSpacingChangeNoDecision(seed: UInt64) throws {
        let events = Self.events(seed: seed)
        let plain = try Self.run(events)
        #expect(plain.totalKills > 20 && plain.purgedBytes > 0 && plain.freezes > 0, "the run must be under pressure to test anything")
        for (interval, sample) in [(7 * 60, 60), (3600, 1), (1, 3600)] {
            var options = SimulationOptions()
            options.intervalMicros = sec(interval)
            options.sampleIntervalMicros = sec(sample)
            let observed = try Self.run(events, options: options)
            #expect(Self.firstDifference(observed.kills, plain.kills) == nil, "interval \(interval) s, samples every \(sample) s")
            #expect(observed.apps == plain.apps && observed.purgedBytes == plain.purgedBytes
                    && observed.compressedBytes == plain.compressedBytes && observed.freezes == plain.freezes
                    && observed.memoryWarnings == plain.memoryWarnings && observed.microsAtWarning == plain.microsAtWarning)
        }
    }

    /// Samples between events reuse the last one while nothing has changed; a probe that fires them early (after an
    /// event, before the next) must see the event's changes all the same.
    @Test func firingTimersEarlyChangesNoSample() throws {
        var options = SimulationOptions()
        options.sampleIntervalMicros = sec(7)
        let events = Self.events(seed: 8)
        let plain = try Self.run(events, options: options)
        let probed = try Self.run(events, options: options, probing: true)
        #expect(plain.samples.count > 10_000)
        #expect(Set(plain.samples.map(\.footprintBytes)).count > 100, "the samples must follow the state")
        #expect(probed.samples == plain.samples)
        #expect(Self.firstDifference(probed.kills, plain.kills) == nil)
    }

    @Test func aWarmUpOnlyHidesTheStartOfTheRun() throws {
        let events = Self.events(seed: 4)
        let plain = try Self.run(events)
        var options = SimulationOptions()
        options.warmupMicros = sec(86_400)
        let warmed = try Self.run(events, options: options)
        let start = events[0].time + sec(86_400)
        #expect(!warmed.kills.isEmpty)
        #expect(Self.firstDifference(warmed.kills, plain.kills.filter { $0.time >= start }) == nil)
    }

    @Test func aPressureResponseAtAnyOtherMomentChangesNoDecision() throws {
        for seed in [5, 6] as [UInt64] {
            let events = Self.events(seed: seed)
            let plain = try Self.run(events)
            let padded = try Self.run(events, padding: true)
            let ignored = padded.ignoredEvents - plain.ignoredEvents
            #expect(padded.events == plain.events + events.count - 1 && ignored < (events.count - 1) / 2,
                    "most padding events must be handled, so that a response runs after them")
            #expect(Self.firstDifference(padded.kills, plain.kills) == nil)
            #expect(padded.purgedBytes == plain.purgedBytes && padded.compressedBytes == plain.compressedBytes
                    && padded.freezes == plain.freezes && padded.memoryWarnings == plain.memoryWarnings
                    && padded.microsAtWarning == plain.microsAtWarning && padded.microsAtCritical == plain.microsAtCritical)
        }
    }
}
