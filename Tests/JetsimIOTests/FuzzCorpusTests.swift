import Foundation
import JetsimCore
@testable import JetsimIO
import Testing

/// The regression corpus under Tests/FuzzCorpus/KIND/, one directory per `FuzzTarget`, replayed through the same
/// entry point the fuzzer drives: a file whose name holds `bad-` is refused with one located line of bad data; every
/// other one is accepted, read back where it is an import, and run through the engine. None traps.
@Suite struct FuzzCorpusTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let directory = packageRoot + "/Tests/FuzzCorpus"

    @Test(arguments: FuzzTarget.allCases)
    func everyCorpusFileIsAcceptedOrOneLocatedLine(_ target: FuzzTarget) throws {
        let folder = target.rawValue
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.directory + "/" + folder).sorted()
        #expect(names.count >= 5, "\(folder): a corpus of \(names.count)")
        #expect(names.contains { !$0.contains("bad-") } && names.contains { $0.contains("bad-") }, "\(folder) needs accepted and refused inputs")
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.directory + "/\(folder)/\(name)")))
            switch target.consume(bytes, name: name) {
            case .accepted:
                #expect(!name.contains("bad-"), "\(folder)/\(name) was accepted")
            case .refused(let error):
                #expect(name.contains("bad-"), "\(folder)/\(name): \(error)")
                #expect(error.exitCode == InputError.dataError, "\(folder)/\(name): \(error)")
                #expect(error.description.hasPrefix(name), "\(folder)/\(name): \(error)")
                #expect(FuzzTarget.check(error) == nil, "\(folder)/\(name): \(FuzzTarget.check(error) ?? "")")
            }
        }
    }

    @Test func theFixedWorkloadParses() {
        #expect(FuzzTarget.workloadCounts.apps == 4 && FuzzTarget.workloadCounts.events == 12)
    }

    /// Issue 19, 5: whatever a device file accepts, the engine runs without trapping — at every limit at once, at
    /// the smallest device, and with trace times at the largest a trace may hold.
    @Test func theEngineRunsDevicesAtTheLimits() throws {
        let corpus = Self.directory + "/device/"
        let catalog = try CatalogFile.read(path: Self.packageRoot + "/Examples/day/apps.csv")
        let events = try TraceReader.readAll(path: Self.packageRoot + "/Examples/day/trace.csv", catalog: catalog, threads: 1)
        let shift = DecimalParser.maxMicros - (events.last?.time ?? 0)
        let late = events.map { TraceEvent(time: $0.time + shift, app: $0.app, kind: $0.kind, value: $0.value) }
        let extremePolicy = try PolicyFiles.load(path: Self.directory + "/policy/ok-largest-values.yaml")
        func run<P: EvictionPolicy>(_ policy: P, _ device: Device, _ trace: [TraceEvent]) -> (events: Int, violations: [String]) {
            let future = policy.descriptor.capabilities.contains(.needsFuture) ? NextUseTable(events: trace, appCount: catalog.count) : nil
            var simulator = Simulator(device: device, catalog: catalog, policy: policy, observer: NullObserver(), future: future)
            for e in trace { simulator.process(e) }
            let violations = simulator.invariantViolations()
            return (simulator.finish().events, violations)
        }
        for name in ["ok-largest-values.yaml", "ok-largest-ram-no-reserve.yaml", "ok-smallest-values.yaml"] {
            let device = try DeviceFile.read(path: corpus + name)
            let policies: [any EvictionPolicy] = try [extremePolicy] + PolicyRegistry.builtIns.map {
                try PolicyRegistry.make(PolicySpec(name: $0.name), environment: PolicyEnvironment(seed: 1, device: device))
            }
            for trace in [events, late] {
                for policy in policies {
                    let result = run(policy, device, trace)
                    #expect(result.events == trace.count && result.violations == [], "\(name), \(policy.descriptor.name)")
                }
            }
        }
    }
}
