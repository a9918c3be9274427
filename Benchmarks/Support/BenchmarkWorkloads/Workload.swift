import Foundation
import JetsimCore
import JetsimWorkloads

/// A generated workload held in memory: the catalog and its events as the engine sees them.
public struct Workload: Sendable {
    public let catalog: AppCatalog
    public let events: [TraceEvent]

    public init(apps: Int, users: Int, days: Int) {
        var options = WorkloadOptions()
        options.apps = apps
        options.users = users
        options.days = days
        options.seed = 42
        let generator = WorkloadGenerator(options: options)
        catalog = (try? AppCatalog(generator.catalog)) ?? (try! AppCatalog([AppProfile(name: "a", dirtyBytes: 1 << 20)]))
        var events: [TraceEvent] = []
        for user in 0..<users {
            for e in generator.events(user: user, startDay: user * days) {
                events.append(TraceEvent(time: e.timeMillis * 1000, app: e.app, kind: e.kind,
                                         value: e.kind.valueKind == .seconds ? e.value * 1000
                                             : e.kind.valueKind == .signedMebibytes ? e.value << 20 : e.value))
            }
        }
        self.events = events
    }

    /// Runs the whole workload; `backing` mirrors it in real memory (real-memory mode). Inlinable, so a caller passing
    /// `XNUPolicy` gets the engine specialised for it, as `jetsim run` and `compare` do.
    @inlinable
    public func run<P: EvictionPolicy>(_ policy: P, device: Device, backing: (any MemoryBacking)? = nil,
                                       pressureSource: PressureSource = .model) -> SimulationResult {
        var options = SimulationOptions()
        options.sampleIntervalMicros = 3_600_000_000
        options.pressureSource = pressureSource
        var sim = Simulator(device: device, catalog: catalog, policy: policy, observer: NullObserver(), options: options, backing: backing)
        for e in events { sim.process(e) }
        return sim.finish()
    }
}

/// Writes `events` as a Jetsim trace and as a libCacheSim CSV into a temporary directory, removed when the process
/// exits.
public func traceFiles(_ w: Workload) -> (native: String, libcachesim: String, bytes: Int) {
    let dir = benchmarkDirectory
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    var native = "time,app,event,value\n", lcs = "time,obj_id,obj_size\n"
    for e in w.events where e.kind == .open {
        native += "\(e.time / 1_000_000).\(String(format: "%06d", e.time % 1_000_000)),\(w.catalog[e.app].name),open,\n"
        lcs += "\(e.time / 1_000_000),\(e.app + 1),\(w.catalog[e.app].dirtyBytes)\n"
    }
    try? native.write(toFile: dir + "/trace.csv", atomically: true, encoding: .utf8)
    try? lcs.write(toFile: dir + "/lcs.csv", atomically: true, encoding: .utf8)
    return (dir + "/trace.csv", dir + "/lcs.csv", native.utf8.count)
}

/// The benchmark process's temporary directory; an exit handler removes it.
private let benchmarkDirectory: String = {
    atexit { try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "jetsim-bench-\(getpid())") }
    return NSTemporaryDirectory() + "jetsim-bench-\(getpid())"
}()
