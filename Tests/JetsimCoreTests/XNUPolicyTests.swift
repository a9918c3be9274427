@testable import JetsimCore
import Testing

/// `xnu`: the oldest entrant of the lowest band dies first (xnu-jetsam.md §2).
@Suite struct XNUPolicyTests {
    func candidate(_ app: Int32, band: Int, entered: UInt64, footprintMB: Int = 100) -> KillCandidate {
        KillCandidate(app: app, band: band, bandEntrySequence: entered, bandEntryTime: Int(entered), footprintBytes: mb(footprintMB),
                      launchCount: 1, relaunchCostMillis: 1000)
    }

    @Test func picksTheLowestBandThenTheOldestEntrant() {
        var p = XNUPolicy()
        let context = KillContext(now: 0, reason: .vmPageShortage, availableBytes: 0)
        let c = [candidate(0, band: 20, entered: 1), candidate(1, band: 0, entered: 7), candidate(2, band: 0, entered: 3),
                 candidate(3, band: 40, entered: 0, footprintMB: 900)]
        #expect(p.selectVictim(among: c, context: context) == 2)
        #expect(p.selectVictim(among: [c[0], c[3]], context: context) == 0)
    }

    @Test func bandsAreParameters() throws {
        let p = try XNUPolicy(parameters: ["audio_band": "30", "task_band": "50"])
        #expect(p.band(for: .audio) == 30 && p.band(for: .backgroundWork) == 50 && p.band(for: .idle) == 0)
        #expect(p.descriptor.displayName == "xnu(foreground_band=100,audio_band=30,task_band=50,aging_band=20,idle_band=0,frozen_band=75)")
        #expect(throws: PolicySpecError.unknownParameter(policy: "xnu", parameter: "x", known: XNUPolicy.parameterNames)) {
            try XNUPolicy(parameters: ["x": "1"])
        }
        #expect(throws: PolicySpecError.badValue(policy: "xnu", parameter: "idle_band", value: "low", expected: "an integer")) {
            try XNUPolicy(parameters: ["idle_band": "low"])
        }
    }

    @Test func inTheEngineTheOldestSuspendedAppDiesFirst() throws {
        var h = try Harness(device: testDevice(limitMB: 2000),
                            apps: [bareApp("first", dirtyMB: 100), bareApp("second", dirtyMB: 100), bareApp("third", dirtyMB: 100),
                                   bareApp("big", dirtyMB: 620)], policy: XNUPolicy())
        h.open("first", at: 0)
        h.open("second", at: 10)
        h.open("third", at: 20)
        h.open("big", at: 30)        // 920 used: available 80 < idle 100: one idle-exit kill suffices
        #expect(h.state("first") == .notRunning)
        #expect(h.state("second") == .suspended && h.state("third") == .suspended)
        #expect(h.finish().kills.first?.reason == .idleExit)
    }

    @Test func theAgingBandProtectsAJustSuspendedApp() throws {
        var h = try Harness(device: testDevice(limitMB: 2000),
                            apps: [bareApp("aging", dirtyMB: 100), bareApp("idle", dirtyMB: 100), bareApp("big", dirtyMB: 720)],
                            policy: XNUPolicy())
        h.open("idle", at: 0)
        h.open("aging", at: 5)       // "idle" leaves at 5 s: band 20 until 7 s, then band 0
        h.open("big", at: 10.5)      // "aging" left 0.5 s ago: still band 20; available 80 < idle
        #expect(h.sim.priorityClass(of: h.id("aging")) == .aging)
        #expect(h.state("idle") == .notRunning)
        #expect(h.state("aging") == .suspended)
        h.event(13, .alloc, "big", value: 0)
        #expect(h.sim.priorityClass(of: h.id("aging")) == .idle)   // 2 s later it ages into band 0
    }

    @Test func policySpecsParse() throws {
        #expect(try PolicySpec(parsing: "xnu") == PolicySpec(name: "xnu"))
        #expect(try PolicySpec(parsing: "xnu:audio_band=100,task_band=30") == PolicySpec(name: "xnu", parameters: ["audio_band": "100", "task_band": "30"]))
        #expect(throws: PolicySpecError.self) { try PolicySpec(parsing: "xnu:audio_band") }
        #expect(throws: PolicySpecError.self) { try PolicySpec(parsing: ":a=1") }
        #expect(throws: PolicySpecError.self) { try PolicySpec(parsing: "xnu:a=1,a=2") }
        #expect(throws: PolicySpecError.unknownPolicy("nope", known: PolicyRegistry.builtIns.map(\.name))) {
            try PolicyRegistry.make(PolicySpec(name: "nope"), environment: PolicyEnvironment(seed: 1, device: testDevice()))
        }
    }
}
