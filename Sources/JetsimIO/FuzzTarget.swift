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
    case trace, catalog, device, policy, config, libcachesim, intervals, lsapp, ips, chart, studentlife

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

    /// The promise every refusal keeps: one line, short, naming the input first, with a documented exit code.
    /// Returns what is wrong, or nil.
    public static func check(_ error: InputError) -> String? {
        let text = error.description
        if text.contains("\n") || text.contains("\r") { return "the message spans lines: \(text.prefix(300))" }
        if text.count > 1000 { return "the message is \(text.count) characters long: \(text.prefix(300))" }
        if error.file.isEmpty || !text.hasPrefix(error.file) { return "the message does not name the input first: \(text.prefix(300))" }
        if ![InputError.usage, InputError.dataError, InputError.noInput].contains(error.exitCode) {
            return "exit code \(error.exitCode) for bad input: \(text.prefix(300))"
        }
        return nil
    }

    private func run(_ bytes: [UInt8], name: String) throws(InputError) {
        switch self {
        case .trace:
            let catalog = Self.workload.catalog
            let (events, users) = try Self.throughFile(bytes, name: name) { path throws(InputError) in
                let reader = try TraceReader(path: path, catalog: catalog, name: name)
                let events = try Self.readBothWays(reader, TraceReader(path: path, catalog: catalog, name: name))
                // --per-user's split, when the trace names its users.
                return (events, reader.hasUserColumn ? try TraceReader.readAllByUser(path: path, catalog: catalog, name: name) : [])
            }
            Self.simulate(device: Self.workload.device, catalog: catalog, events: events)
            for (_, own) in users.prefix(8) { Self.simulate(device: Self.workload.device, catalog: catalog, events: own) }
        case .catalog:
            let catalog = try Self.throughFile(bytes, name: name) { path throws(InputError) in try CatalogFile.read(path: path, name: name) }
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
            try Self.throughFile(bytes, name: name) { path throws(InputError) in
                let stream = try LibCacheSimStream(path: path, name: name)
                var batch = RequestBatch()
                var cache = CacheReplay(capacityBytes: 1 << 20, policy: LRUPolicy())
                var decaying = CacheReplay(capacityBytes: 1 << 16, policy: LFUPolicy(halfLifeHours: 0.001))   // the heap of counts
                var crossing = CacheReplay(capacityBytes: 1 << 16, policy: CostPolicy(halfLifeHours: 0.001))   // floors or a tournament
                // The same two given the decayed counts `cachesim`'s reader computes ahead: the same counts.
                var decayingGiven = decaying, crossingGiven = crossing
                var stages = [DecayedCountStage(halfLifeMicros: 0.001 * 3600e6)]
                var streamed: [(Int32, Int, Int)] = []
                while try stream.next(into: &batch) {
                    cache.requests(batch)
                    decaying.requests(batch)
                    crossing.requests(batch)
                    batch.fillDecayedCounts(&stages)
                    decayingGiven.requests(batch)
                    crossingGiven.requests(batch)
                    for k in 0..<batch.count { streamed.append((batch.objects[k], batch.sizes[k], batch.times[k])) }
                }
                precondition(decayingGiven.counters == decaying.counters && crossingGiven.counters == crossing.counters,
                             "the counts computed ahead changed a replay's")
                // The requests `cachesim` keeps from its working-set pass are the streamed ones, in order.
                let kept = try LibCacheSimStream.workingSet(path: path, name: name, keepingAtMost: 1 << 24).requests ?? []
                var k = 0
                for b in kept {
                    for j in 0..<b.count {
                        precondition(k < streamed.count && streamed[k] == (b.objects[j], b.sizes[j], b.times[j]), "kept request \(k) differs")
                        k += 1
                    }
                }
                precondition(k == streamed.count, "kept \(k) of \(streamed.count) requests")
            }
            let (trace, events) = try Self.throughFile(bytes, name: name) { path throws(InputError) in
                let trace = try LibCacheSimTrace(path: path, name: name)
                var source = EventSource.libCacheSim(trace)   // reads the file again, as it replays
                return (trace, try source.readAll())
            }
            Self.simulate(device: .cache(capacityBytes: 1 << 20, name: "cache:1MiB"), catalog: trace.catalog, events: events)
        case .intervals, .lsapp:
            let writer = ImportWriter(inMemory: name)
            if self == .intervals {
                try IntervalsImporter.run(bytes: bytes, name: name, writer: writer)
            } else {
                try LSAppImporter.run(bytes: bytes, name: name, writer: writer)
            }
            try writer.commit()
            // What an import writes, Jetsim reads back and runs (`jetsim import` then `jetsim run`).
            guard let output = writer.output else { return }
            let catalog = try CatalogFile.read(CSVReader(text: output.apps, name: name + " (imported apps.csv)"))
            let events = try TraceReader(reader: CSVReader(text: output.trace, name: name + " (imported trace.csv)"), catalog: catalog).readAll()
            Self.simulate(device: Self.workload.device, catalog: catalog, events: events)
        case .studentlife:
            // Every user in one trace (times clamped non-decreasing by the writer), run on an Android phone; the ground
            // truth read back as `jetsim validate` reads it.
            let writer = ImportWriter(inMemory: name)
            _ = try StudentLifeImporter.run(bytes: bytes, name: name, writer: writer)
            try writer.commit()
            guard let output = writer.output, let device = DevicePresets.named("nexus-5") else { return }
            let catalog = try CatalogFile.read(CSVReader(text: output.apps, name: name + " (imported apps.csv)"))
            let events = try TraceReader(reader: CSVReader(text: output.trace, name: name + " (imported trace.csv)"), catalog: catalog).readAll()
            Self.simulate(device: device, catalog: catalog, events: events)
            let snapshots = writer.extraTexts[StudentLifeImporter.snapshotsFile] ?? ""
            _ = try SnapshotsFile.read(CSVReader(text: snapshots, name: name + " (imported snapshots.csv)"), catalog: catalog)
        case .ips:
            let result = try JetsamEventImporter.parse(bytes: bytes, name: name)
            let catalog = try CatalogFile.read(CSVReader(text: WorkloadFiles.catalogCSV(result.apps), name: name + " (imported apps.csv)"))
            let device = try DeviceFile.parse(result.deviceYAML, file: name + " (imported device.yaml)")
            let events = (0..<min(catalog.count, 64)).map { TraceEvent(time: $0 * 10_000_000, app: Int32($0), kind: .open, value: 0) }
            Self.simulate(device: device, catalog: catalog, events: events)
        case .chart:
            // The table is told by the start of the name (ChartReport.tableKinds); a name that tells none (a fuzzer's
            // input) is tried as each.
            let tables = ChartReport.tableKinds
            let base = name.split(separator: "/").last.map(String.init) ?? name
            for table in tables where base.hasPrefix(table) || !tables.contains(where: base.hasPrefix) {
                _ = try ChartReport.html(csv: bytes, name: base.hasPrefix(table) ? name : "\(table)-\(name)")
            }
        }
    }

    /// `first`'s events in batches (common rows through `TraceLineParser`, as `run` and `compare` read them), checked
    /// against `second`'s, the same file read row by row: the same events and the same error, or a trap.
    private static func readBothWays(_ first: TraceReader, _ second: TraceReader) throws(InputError) -> [TraceEvent] {
        var inBatches: [TraceEvent] = [], rowByRow: [TraceEvent] = []
        var batchError: InputError?, rowError: InputError?
        do throws(InputError) {
            while true {
                let before = inBatches.count
                try first.next(into: &inBatches, upTo: before + 7)
                if inBatches.count < before + 7 { break }
            }
        } catch { batchError = error }
        do throws(InputError) { while let e = try second.next() { rowByRow.append(e) } } catch { rowError = error }
        precondition(inBatches == rowByRow && batchError == rowError,
                     "a trace read in batches differs from the same trace read row by row: \(String(describing: batchError)) against \(String(describing: rowError))")
        if let batchError { throw batchError }
        return inBatches
    }

    /// Runs `body` on a private file holding `bytes`, for the readers that open paths as the commands do (gzip is
    /// recognised on the file).
    private static func throughFile<R>(_ bytes: [UInt8], name: String, _ body: (String) throws(InputError) -> R) throws(InputError) -> R {
        let directory = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let path = directory + "/.jetsim-fuzz-\(UUID().uuidString.prefix(8)).\(getpid()).tmp"   // callers may run in parallel
        defer { unlink(path) }
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw InputError(file: name, message: "cannot write \(path)", exitCode: InputError.cannotCreate)
        }
        return try body(path)
    }

    /// Runs `events` through the engine with `policy`, or with xnu and lru when none is given.
    private static func simulate(device: Device, catalog: AppCatalog, events: [TraceEvent], policy: (any EvictionPolicy)? = nil) {
        // Samples are observations, never decisions (TimingIndependenceTests): one a day, and at most 1 000 of them,
        // keep an input spanning years or millennia (which the readers accept: 0000-01-01 to 9999-12-31) to
        // milliseconds of engine time rather than millions of samples.
        var options = SimulationOptions()
        options.sampleIntervalMicros = 86_400 * Units.microsPerSecond
        options.maxSamples = 1_000
        func run<P: EvictionPolicy>(_ policy: P) {
            var simulator = Simulator(device: device, catalog: catalog, policy: policy, observer: NullObserver(), options: options)
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
        4000,Chat,bg_launch,30
        """
        // Fixed text: it parses, or the tests of this file fail at once.
        let catalog = (try? CatalogFile.read(CSVReader(text: apps, name: "fuzz-apps.csv"))) ?? (try? AppCatalog([]))!
        let events = (try? TraceReader(reader: CSVReader(text: trace, name: "fuzz-trace.csv"), catalog: catalog).readAll()) ?? []
        return (DevicePresets.named("iphone-x") ?? .cache(capacityBytes: 1 << 30, name: "cache:1GiB"), catalog, events)
    }()

    /// The fixed workload's sizes, for a test that it parsed.
    public static var workloadCounts: (apps: Int, events: Int) { (workload.catalog.count, workload.events.count) }
}
