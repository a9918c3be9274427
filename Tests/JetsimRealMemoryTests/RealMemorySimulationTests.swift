import Foundation
import JetsimCore
import JetsimIO
import JetsimRealMemory
import Testing

/// The engine driving real memory: decisions against the model's, with and without measured pressure.
@Suite(.serialized, .enabled(if: Jemalloc.unavailableReason == nil, "jemalloc cannot be loaded in this process: install libjemalloc2 and run with GLIBC_TUNABLES=glibc.rtld.optional_static_tls=16384 (README: Real-memory mode)")) struct RealMemorySimulationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    let mib = 1 << 20

    struct Run {
        var result: SimulationResult
        var rows: [LiveSample]
        var backing: JemallocBacking?
    }

    final class Rows { var all: [LiveSample] = [] }

    func run(device: Device, catalog: AppCatalog, events: [TraceEvent], backing scale: BackingScale?,
             source: PressureSource = .model) throws -> Run {
        var options = SimulationOptions()
        options.pressureSource = source
        let rows = Rows()
        let backing = try scale.map {
            try JemallocBacking(scale: $0, appCount: catalog.count, budgetBytes: 2 << 30, pressureSource: source, sink: { rows.all.append($0) })
        }
        var simulator = Simulator(device: device, catalog: catalog, policy: XNUPolicy(), observer: NullObserver(), options: options,
                                  backing: backing)
        for e in events { simulator.process(e) }
        let result = simulator.finish()
        #expect(simulator.invariantViolations() == [])
        #expect(backing?.failure == nil)
        return Run(result: result, rows: rows.all, backing: backing)
    }

    func victims(_ r: SimulationResult) -> [String] { r.kills.map { "\($0.time) \($0.app) \($0.reason)" } }

    /// The example day on an iPhone XS: discards, purges, warnings and kills return pages at once, so nothing is
    /// left behind in the allocator and measured pressure kills exactly the apps the model kills, at the same times.
    @Test func realMemoryChoosesTheModelsVictimsWithoutFragmentation() throws {
        let catalog = try CatalogFile.read(path: Self.root + "/Examples/day/apps.csv")
        let events = try TraceReader(path: Self.root + "/Examples/day/trace.csv", catalog: catalog).readAll()
        let device = try #require(DevicePresets.named("iphone-xs"))
        let model = try run(device: device, catalog: catalog, events: events, backing: nil)
        let measured = try run(device: device, catalog: catalog, events: events, backing: .default, source: .measured)
        #expect(!model.result.kills.isEmpty)
        #expect(victims(measured.result) == victims(model.result))
        #expect(measured.result.apps == model.result.apps)
        #expect(measured.backing?.summary.retainedBytesMax == 0)
        #expect(!measured.rows.isEmpty)
        // Plain page allocations: measured footprints exceed modelled ones only by rounding to whole real pages.
        let page = try Jemalloc.pageSize()
        for row in measured.rows {
            #expect(row.measuredBytes >= row.modelledBytes && row.measuredBytes - row.modelledBytes < 5 * page * 256)
        }
    }

    /// Apps that free memory themselves leave dirty pages with their allocator. The model forgets them; measured
    /// pressure counts them, so memory runs short sooner and an app dies that the model keeps.
    @Test func measuredPressureSeesWhatTheAllocatorRetains() throws {
        var device = Device(name: "small", physicalBytes: 1000 * mib, appLimitBytes: 900 * mib)
        device.reserveBytes = 0
        device.compressor.enabled = false
        device.killThresholds = .init(criticalPercent: 5, idlePercent: 10, softPercent: 15)
        let profiles = (0..<4).map { i -> AppProfile in
            var p = AppProfile(name: "app\(i)", dirtyBytes: 150 * mib)
            p.cacheDropOnBackground = .zero
            return p
        }
        let catalog = try AppCatalog(profiles)
        var events: [TraceEvent] = []
        var t = 1_000_000
        for app in Int32(0)..<4 {
            // Each app loads 100 MiB of data, works with it, then frees it before the user leaves.
            events += [TraceEvent(time: t, app: app, kind: .open), TraceEvent(time: t + 1_000_000, app: app, kind: .alloc, value: 100 * mib),
                       TraceEvent(time: t + 2_000_000, app: app, kind: .alloc, value: -100 * mib),
                       TraceEvent(time: t + 3_000_000, app: TraceEvent.noApp, kind: .home)]
            t += 60_000_000
        }
        let model = try run(device: device, catalog: catalog, events: events, backing: nil)
        let measuring = try run(device: device, catalog: catalog, events: events, backing: BackingScale(numerator: 1, denominator: 16))
        let measured = try run(device: device, catalog: catalog, events: events, backing: BackingScale(numerator: 1, denominator: 16),
                               source: .measured)
        #expect(model.result.kills.isEmpty)                                   // 4 × 150 MiB fit in 1000 MiB
        #expect(victims(measuring.result) == victims(model.result))           // measuring alone changes no decision
        #expect((measuring.backing?.summary.retainedBytesMax ?? 0) >= 300 * mib)
        #expect(measured.result.kills.count >= 1)                             // 4 × (150 + 100 retained) do not
        #expect(measured.result.kills.first?.app == 0)                        // the least recently used goes first
    }
}
