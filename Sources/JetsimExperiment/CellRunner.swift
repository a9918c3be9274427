import Dispatch
import JetsimCore
import JetsimIO

/// Something done with a policy as its own type (`withSpecializedPolicy`).
public protocol PolicyVisitor {
    associatedtype Output
    associatedtype Failure: Error
    mutating func visit<P: EvictionPolicy>(_ policy: P) throws(Failure) -> Output
}

/// Calls `visitor` with `policy` as its own type where the engine is specialised for it ahead of time
/// (`Simulator.process`), and as the generic engine's otherwise: the one place that knows which policies those are.
public func withSpecializedPolicy<V: PolicyVisitor>(_ policy: any EvictionPolicy, _ visitor: inout V) throws(V.Failure) -> V.Output {
    if let xnu = policy as? XNUPolicy { return try visitor.visit(xnu) }
    return try visitor.visit(policy)
}

/// Runs one grid cell over events already loaded; `keepKillsAndSamples` for the charted cell only (the others keep
/// counters only, so a grid's memory does not grow with its cells' kills). With `residency`, the result carries what
/// its probes saw.
public func runCell(_ policy: any EvictionPolicy, device: Device, catalog: AppCatalog, events: [TraceEvent], options: SimulationOptions,
                    future: NextUseTable?, keepKillsAndSamples: Bool, residency: ResidencyProbes.Schedule? = nil) -> SimulationResult {
    struct Cell: PolicyVisitor {
        var device: Device, catalog: AppCatalog, events: [TraceEvent], options: SimulationOptions, future: NextUseTable?, keep: Bool
        var residency: ResidencyProbes.Schedule?
        typealias Failure = Never
        func visit<P: EvictionPolicy>(_ policy: P) -> SimulationResult {
            keep ? run(policy, NullObserver()) : run(policy, CountersOnlyObserver())
        }
        func run<P: EvictionPolicy, O: SimulationObserver>(_ policy: P, _ observer: O) -> SimulationResult {
            var simulator = Simulator(device: device, catalog: catalog, policy: policy, observer: observer, options: options, future: future)
            guard let residency else {
                for e in events { simulator.process(e) }
                return simulator.finish()
            }
            var probes = ResidencyProbes(residency)
            for e in events {
                probes.probe(before: e.time, &simulator)
                simulator.process(e)
            }
            probes.probe(before: nil, &simulator)
            var result = simulator.finish()
            result.residency = probes.records
            result.residencyTruncated = probes.truncated
            return result
        }
    }
    var cell = Cell(device: device, catalog: catalog, events: events, options: options, future: future, keep: keepKillsAndSamples,
                    residency: residency)
    return withSpecializedPolicy(policy, &cell)
}

/// Runs a whole trace through one simulator as it is read (`jetsim run`), records streaming to `observer`.
/// - Parameter progress: called every 262 144 events with the count, the simulated time reached and the events per second.
public func simulate(
    _ policy: any EvictionPolicy, observer: SinkObserver, device: Device, catalog: AppCatalog, options: SimulationOptions,
    source: inout EventSource, future: NextUseTable?, backing: (any MemoryBacking)? = nil, residency: ResidencyProbes.Schedule? = nil,
    progress: ((_ events: Int, _ time: Int, _ eventsPerSecond: Int) -> Void)? = nil
) throws(InputError) -> SimulationResult {
    struct Stream: PolicyVisitor {
        var observer: SinkObserver, device: Device, catalog: AppCatalog, options: SimulationOptions, source: EventSource
        var future: NextUseTable?, backing: (any MemoryBacking)?, residency: ResidencyProbes.Schedule?, progress: ((Int, Int, Int) -> Void)?
        mutating func visit<P: EvictionPolicy>(_ policy: P) throws(InputError) -> SimulationResult {
            var simulator = Simulator(device: device, catalog: catalog, policy: policy, observer: observer, options: options,
                                      future: future, backing: backing)
            let started = DispatchTime.now().uptimeNanoseconds
            var count = 0
            var probes = residency.map(ResidencyProbes.init)
            var batch: [TraceEvent] = []
            while try source.nextBatch(into: &batch) {
                for event in batch {
                    probes?.probe(before: event.time, &simulator)
                    simulator.process(event)
                    count += 1
                    if let progress, count & 0x3FFFF == 0 {
                        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
                        progress(count, event.time, Int(Double(count) / max(seconds, 1e-9)))
                    }
                }
            }
            probes?.probe(before: nil, &simulator)
            var result = simulator.finish()
            if let probes {
                result.residency = probes.records
                result.residencyTruncated = probes.truncated
            }
            return result
        }
    }
    var stream = Stream(observer: observer, device: device, catalog: catalog, options: options, source: source, future: future,
                        backing: backing, residency: residency, progress: progress)
    defer { source = stream.source }
    return try withSpecializedPolicy(policy, &stream)
}
