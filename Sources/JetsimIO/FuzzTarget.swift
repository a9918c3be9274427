import Foundation
import JetsimCore

/// One entry point per kind of input a user can hand Jetsim, shared by the libFuzzer harness (`Sources/JetsimFuzz`,
/// built only with `JETSIM_FUZZ=1`) and the regression corpus (`Tests/FuzzCorpus/KIND/`, replayed by the tests).
///
/// `consume` takes one input's bytes and goes as far as a command would: it reads them with the command's reader and,
/// when they are accepted, runs what they drive (a trace, catalog, device or policy file through the engine) on a
/// small fixed workload. It returns the reader's verdict; an input is refused only by a `InputError` that is one
/// located line (`FuzzTarget.check`). A trap anywhere is the failure the fuzzer looks for.
public enum FuzzTarget: String, CaseIterable, Sendable {
    case trace, catalog, device, policy, config, libcachesim

    /// What an input came to.
    public enum Verdict: Equatable, Sendable { case accepted, refused(InputError) }

    /// Reads `bytes` as this kind of input (`name` stands for the file) and runs what it drives.
    public func consume(_ bytes: [UInt8], name: String = "input") -> Verdict {
        do {
            try run(bytes, name: name)
            return .accepted
        } catch {
            return .refused(error)
        }
    }

    /// The promise every refusal keeps: one line, short, naming the input, with a documented exit code.
    /// Returns what is wrong, or nil.
    public static func check(_ error: InputError, name: String) -> String? {
        let text = error.description
        if text.contains("\n") || text.contains("\r") { return "the message spans lines: \(text.prefix(300))" }
        if text.count > 1000 { return "the message is \(text.count) characters long: \(text.prefix(300))" }
        if !text.hasPrefix(name) { return "the message does not name the input first: \(text.prefix(300))" }
        if ![InputError.usage, InputError.dataError, InputError.noInput].contains(error.exitCode) {
            return "exit code \(error.exitCode) for bad input: \(text.prefix(300))"
        }
        return nil
    }

    private func run(_ bytes: [UInt8], name: String) throws(InputError) {
        switch self {
        case .trace:
            let catalog = Self.workload.catalog
            let events = try TraceReader(reader: CSVReader(bytes: bytes, name: name), catalog: catalog).readAll()
            Self.simulate(device: Self.workload.device, catalog: catalog, events: events)
        case .catalog:
            let catalog = try CatalogFile.read(CSVReader(bytes: bytes, name: name))
            let events = (0..<min(catalog.count, 64)).flatMap { k in
                [TraceEvent(time: k * 60_000_000, app: Int32(k), kind: .open, value: 0),
                 TraceEvent(time: k * 60_000_000 + 30_000_000, app: TraceEvent.noApp, kind: .home, value: 0)]
            }
            Self.simulate(device: Self.workload.device, catalog: catalog, events: events)
        case .device:
            let device = try DeviceFile.parse(bytes: bytes, file: name)
            Self.simulate(device: device, catalog: Self.workload.catalog, events: Self.workload.events)
        case .policy:
            let policy = try PolicyFiles.parse(bytes: bytes, file: name)
            Self.simulate(device: Self.workload.device, catalog: Self.workload.catalog, events: Self.workload.events, policy: policy)
        case .config:
            _ = try ExperimentConfig.parse(bytes: bytes, file: name)
        case .libcachesim:
            // The readers open paths (gzip is detected on the file): the bytes go through a private file.
            let path = NSTemporaryDirectory() + "jetsim-fuzz-\(getpid()).csv"
            defer { unlink(path) }
            guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
                throw InputError(file: name, message: "cannot write \(path)", exitCode: InputError.cannotCreate)
            }
            let stream = try LibCacheSimStream(path: path, name: name)
            var batch = RequestBatch()
            var cache = CacheReplay(capacityBytes: 1 << 20, policy: LRUPolicy())
            while try stream.next(into: &batch) {
                for k in 0..<batch.count { cache.request(batch.objects[k], size: batch.sizes[k], time: batch.times[k]) }
            }
            let trace = try LibCacheSimTrace(path: path, name: name)
            var source = EventSource.libCacheSim(trace)
            let events = try source.readAll()
            Self.simulate(device: .cache(capacityBytes: 1 << 20, name: "cache:1MiB"), catalog: trace.catalog, events: events)
        }
    }

    /// Runs `events` through the engine with `policy`, or with xnu and lru when none is given.
    private static func simulate(device: Device, catalog: AppCatalog, events: [TraceEvent], policy: (any EvictionPolicy)? = nil) {
        func run<P: EvictionPolicy>(_ policy: P) {
            var simulator = Simulator(device: device, catalog: catalog, policy: policy, observer: NullObserver())
            for e in events { simulator.process(e) }
            _ = simulator.finish()
        }
        if let policy {
            run(policy)
        } else {
            run(XNUPolicy())
            run(LRUPolicy())
        }
    }

    /// A small fixed workload for the kinds that change one part of a run.
    private static let workload: (device: Device, catalog: AppCatalog, events: [TraceEvent]) = {
        let apps = """
        app,dirty_mb,growth_mb_per_min,max_dirty_mb,cache_mb,purgeable_mb,backing_store_mb,background_modes,bg_task_s
        Maps,300,5,600,40,20,30,location,30
        Music,150,0,150,10,0,10,audio,
        Chat,90,1,120,20,10,20,,10
        Game,700,10,1200,100,50,60,,
        """
        let trace = """
        time,app,event,value
        0,Maps,open,
        30,,home,
        31,Music,open,
        32,Music,mode_start,audio
        40,Game,open,
        50,Game,alloc,400
        60,Chat,open,
        61,Chat,bg_task,20
        90,,home,
        200,Maps,open,
        400,Game,open,
        4000,Chat,bg_launch,
        """
        // Fixed text: it parses, or the tests of this file fail at once.
        let catalog = (try? CatalogFile.read(CSVReader(text: apps, name: "fuzz-apps.csv"))) ?? (try? AppCatalog([]))!
        let events = (try? TraceReader(reader: CSVReader(text: trace, name: "fuzz-trace.csv"), catalog: catalog).readAll()) ?? []
        return (DevicePresets.named("iphone-x") ?? .cache(capacityBytes: 1 << 30, name: "cache:1GiB"), catalog, events)
    }()

    /// The fixed workload's sizes, for a test that it parsed.
    public static var workloadCounts: (apps: Int, events: Int) { (workload.catalog.count, workload.events.count) }
}
