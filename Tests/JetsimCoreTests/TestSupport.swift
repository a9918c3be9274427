@testable import JetsimCore
import Testing

func mb(_ x: Int) -> Int { x * Units.mebibyte }
func sec(_ x: Int) -> Int { x * Units.microsPerSecond }

/// A device with round numbers: no OS reserve, compressor and freezer off, thresholds 5 / 10 / 15 % of RAM.
func testDevice(ramMB: Int = 1000, limitMB: Int = 900) -> Device {
    var d = Device(name: "test", physicalBytes: mb(ramMB), appLimitBytes: mb(limitMB))
    d.reserveBytes = 0
    d.killThresholds = .init(criticalPercent: 5, idlePercent: 10, softPercent: 15)
    d.compressor.enabled = false
    d.freezer.enabled = false
    return d
}

/// A bare app: only dirty memory, no caches, no UI, instant launches.
func bareApp(_ name: String, dirtyMB: Int, configure: (inout AppProfile) -> Void = { _ in }) -> AppProfile {
    var p = AppProfile(name: name, dirtyBytes: mb(dirtyMB))
    p.cacheDropOnBackground = .zero
    p.coldLaunchMillis = 1000
    p.resumeMillis = 100
    configure(&p)
    return p
}

/// Drives a simulator event by event, checking every invariant after each step.
struct Harness<Policy: EvictionPolicy> {
    var sim: Simulator<Policy, RecordingObserver>
    let catalog: AppCatalog

    init(device: Device = testDevice(), apps: [AppProfile], policy: Policy, options: SimulationOptions = .init()) throws {
        catalog = try AppCatalog(apps)
        sim = Simulator(device: device, catalog: catalog, policy: policy, observer: RecordingObserver(), options: options)
    }

    func id(_ name: String) -> Int32 { catalog.id(of: name) ?? -1 }

    mutating func event(_ seconds: Double, _ kind: TraceEventKind, _ app: String? = nil, value: Int = 0,
                        sourceLocation: SourceLocation = #_sourceLocation) {
        let t = Int((seconds * 1_000_000).rounded())
        sim.process(TraceEvent(time: t, app: app.map(id) ?? TraceEvent.noApp, kind: kind, value: value))
        #expect(sim.invariantViolations() == [], sourceLocation: sourceLocation)
    }

    mutating func open(_ app: String, at t: Double) { event(t, .open, app) }
    mutating func home(at t: Double) { event(t, .home) }
    mutating func bgTask(_ app: String, seconds: Int, at t: Double) { event(t, .bgTask, app, value: sec(seconds)) }
    mutating func bgLaunch(_ app: String, seconds: Int, at t: Double) { event(t, .bgLaunch, app, value: sec(seconds)) }
    mutating func alloc(_ app: String, mb size: Int, at t: Double) { event(t, .alloc, app, value: mb(size)) }
    mutating func mode(_ app: String, _ mode: BackgroundModes, start: Bool, at t: Double) {
        event(t, start ? .modeStart : .modeStop, app, value: Int(mode.rawValue))
    }

    func state(_ app: String) -> AppState { sim.state(of: id(app)) }
    func footprint(_ app: String) -> Int { sim.footprint(of: id(app)) }

    /// Lifecycle records of one app as (from, to, callback).
    func steps(_ app: String) -> [Step] {
        sim.observer.records.filter { $0.app == id(app) }.map { Step($0.from, $0.to, $0.callback) }
    }

    func records(_ app: String) -> [LifecycleRecord] { sim.observer.records.filter { $0.app == id(app) } }

    mutating func finish() -> SimulationResult { sim.finish() }
}

struct Step: Equatable, CustomStringConvertible {
    var from: AppState, to: AppState, callback: LifecycleCallback
    init(_ from: AppState, _ to: AppState, _ callback: LifecycleCallback) {
        self.from = from
        self.to = to
        self.callback = callback
    }
    var description: String { "\(from)→\(to) \(callback)" }
}

/// `list`'s members in order, following its links.
func members(of list: RankedList) -> [Int32] {
    var out: [Int32] = []
    var at = list.head
    while at >= 0 {
        out.append(at)
        at = list.nodes[Int(at)].next
    }
    return out
}
