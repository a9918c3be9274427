import Foundation
import JetsimCore
@testable import JetsimIO
import Testing

@Suite struct PolicyFileTests {
    static let policiesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Policies").path

    let context = KillContext(now: 3_600_000_000, reason: .idleExit, availableBytes: 0)

    func choose(_ policy: DeclarativePolicy, _ c: [KillCandidate]) -> Int32? {
        var p = policy
        return p.selectVictim(among: c, context: context).map { c[$0].app }
    }

    @Test func bandsScoresTieBreakersAndProtection() throws {
        let policy = try PolicyFiles.parse("""
        name: test
        protect: { class: audio }
        bands:
          - name: big-idle
            when: { class: [idle], footprint_mb_at_least: 200 }
          - name: idle
            when: { class: idle }
        order:
          score: { relaunch_cost_ms: 1 }
          tie_breakers: [fifo]
        """, file: "t.yaml")
        let audio = KillCandidate(app: 0, state: .background, priorityClass: .audio, footprintBytes: 900 << 20, backgroundActivity: .audio)
        let smallIdle = KillCandidate(app: 1, footprintBytes: 100 << 20, relaunchCostMillis: 100)
        let bigIdleCostly = KillCandidate(app: 2, footprintBytes: 300 << 20, launchSequence: 5, relaunchCostMillis: 2000)
        let bigIdleCheap = KillCandidate(app: 3, footprintBytes: 300 << 20, launchSequence: 9, relaunchCostMillis: 500)
        let bigIdleCheapOlder = KillCandidate(app: 4, footprintBytes: 400 << 20, launchSequence: 2, relaunchCostMillis: 500)
        let worker = KillCandidate(app: 5, state: .background, priorityClass: .backgroundWork, footprintBytes: 50 << 20, backgroundActivity: .task)
        #expect(choose(policy, [audio, smallIdle, bigIdleCostly, bigIdleCheap, bigIdleCheapOlder, worker]) == 4)  // band, score, fifo
        #expect(choose(policy, [audio, smallIdle, bigIdleCostly, bigIdleCheap]) == 3)                          // lower score
        #expect(choose(policy, [audio, smallIdle, worker]) == 1)                                              // idle before the rest
        #expect(choose(policy, [audio, worker]) == 5)                                                         // the unbanded rest
        #expect(choose(policy, [audio]) == nil)                                                               // protected
    }

    @Test func predicatesOnIdleTimeStateAndActivity() throws {
        let policy = try PolicyFiles.parse("""
        name: p
        bands:
          - when: { idle_s_at_least: 600, state: suspended }
          - when: { running_task: true }
          - when: { mode: [location] }
        """, file: "p.yaml")
        let now = context.now
        let stale = KillCandidate(app: 0, lastForegroundTime: now - 700_000_000, lastUseSequence: 9)
        let fresh = KillCandidate(app: 1, lastForegroundTime: now - 10_000_000, lastUseSequence: 1)
        let task = KillCandidate(app: 2, state: .background, priorityClass: .backgroundWork, lastUseSequence: 0, backgroundActivity: .task)
        let nav = KillCandidate(app: 3, state: .background, priorityClass: .backgroundWork, lastUseSequence: 0, backgroundActivity: .otherMode)
        #expect(choose(policy, [fresh, task, nav, stale]) == 0)
        #expect(choose(policy, [fresh, nav, task]) == 2)
        #expect(choose(policy, [fresh, nav]) == 3)
        #expect(policy.bands.map(\.name) == ["band 0", "band 1", "band 2"])
    }

    @Test func capabilitiesFollowTheFeaturesUsed() throws {
        #expect(try PolicyFiles.parse("name: a\norder: { score: { next_use: -1 } }", file: "a").descriptor.capabilities == [.needsFuture])
        #expect(try PolicyFiles.parse("name: a\norder: { tie_breakers: [largest] }", file: "a").descriptor.capabilities == [.sizeAware])
        #expect(try PolicyFiles.parse("name: a", file: "a").descriptor.capabilities == [])
    }

    @Test func everyShippedFileLoads() throws {
        let files = PolicyFiles.list(in: Self.policiesDirectory)
        #expect(Set(files.map(\.name)).isSuperset(of: ["xnu", "lru", "fifo", "largest", "oracle", "swam", "recent-keeper"]))
        for f in files {
            let p = try PolicyFiles.load(path: f.path)
            #expect(p.name == f.name, "\(f.path)")
            #expect(!p.summary.isEmpty, "\(f.path) has no description")
        }
    }

    /// Every file of Policies/ is built into jetsim, byte for byte (the EmbedPolicyFiles plugin), and found by name
    /// without a directory; a directory's file of the same name comes first.
    @Test func theShippedFilesAreBuiltIn() throws {
        let files = PolicyFiles.list(in: Self.policiesDirectory)
        #expect(PolicyFiles.builtIn.map(\.name) == files.map(\.name))
        for (built, file) in zip(PolicyFiles.builtIn, files) {
            #expect(Array(built.builtIn?.utf8 ?? "".utf8) == Array(try Data(contentsOf: URL(fileURLWithPath: file.path))), "\(file.path)")
            #expect(try PolicyFiles.load(built).name == built.name)
        }
        #expect(PolicyFiles.find("swam", directory: nil)?.isBuiltIn == true)
        #expect(PolicyFiles.find("swam", directory: Self.policiesDirectory)?.path == Self.policiesDirectory + "/swam.yaml")
        #expect(PolicyFiles.find("nosuch", directory: nil) == nil)
    }

    /// The worked example of Policies/README.md, on the shipped file.
    @Test func theWorkedExampleRanksAsDocumented() throws {
        let policy = try PolicyFiles.load(path: Self.policiesDirectory + "/recent-keeper.yaml")
        let now = context.now
        let big = KillCandidate(app: 0, footprintBytes: 400 << 20, lastForegroundTime: now - 3_600_000_000, lastUseSequence: 1)
        let small = KillCandidate(app: 1, footprintBytes: 100 << 20, lastForegroundTime: now - 3_600_000_000, lastUseSequence: 2)
        let recent = KillCandidate(app: 2, footprintBytes: 900 << 20, lastForegroundTime: now - 120_000_000, lastUseSequence: 3)
        #expect(choose(policy, [recent, small, big]) == 0)
        #expect(choose(policy, [recent, small]) == 1)
        #expect(choose(policy, [recent]) == nil)
    }

    @Test func badFilesNameTheFileKeyAndExpectation() {
        let cases: [(String, String?, Int?, String)] = [
            ("description: x\n", "name", nil, "required"),
            ("name: a\ncolour: red\n", "colour", 2, "unknown key"),
            ("name: a\nbands: {}\n", "bands", 2, "expected a list"),
            ("name: a\nbands:\n  - when: { class: sleepy }\n", "bands[0].when.class", 3, "expected one of"),
            ("name: a\nbands:\n  - when: { footprint_mb_at_least: lots }\n", "bands[0].when.footprint_mb_at_least", 3, "expected a size in MB"),
            ("name: a\nbands:\n  - when: { footprint_mb_at_least: -5 }\n", "bands[0].when.footprint_mb_at_least", 3, "found '-5'"),
            ("name: a\norder:\n  score: { happiness: 1 }\n", "order.score.happiness", 3, "unknown key"),
            ("name: a\norder:\n  tie_breakers: [coin_flip]\n", "order.tie_breakers[0]", 3, "expected one of"),
            ("name: a\nprotect: { running_task: maybe }\n", "protect.running_task", 2, "expected true or false"),
            ("name: 'a b'\n", "name", 1, "expected a name"),
            ("name: a\nbands: [\n", nil, 3, "not valid YAML"),
        ]
        for (yaml, key, line, message) in cases {
            do {
                _ = try PolicyFiles.parse(yaml, file: "bad.yaml")
                Issue.record("accepted: \(yaml)")
            } catch {
                #expect(error.key == key, "\(yaml)")
                #expect(error.line == line, "\(yaml)")
                #expect(error.message.contains(message), "\(yaml): \(error)")
                #expect(error.description.hasPrefix("bad.yaml"))
            }
        }
    }

    @Test func policySourceFindsBuiltInsFilesByNameAndPaths() throws {
        let env = PolicyEnvironment(seed: 1, device: DevicePresets.named("iphone-x")!)
        #expect(try PolicySource.make("cost:alpha=0.5", environment: env, policiesDirectory: Self.policiesDirectory).descriptor.name == "cost")
        #expect(try PolicySource.make("swam", environment: env, policiesDirectory: Self.policiesDirectory) is DeclarativePolicy)
        #expect(try PolicySource.make(Self.policiesDirectory + "/lru.yaml", environment: env) is DeclarativePolicy)
        #expect(try PolicySource.make("lru", environment: env, policiesDirectory: Self.policiesDirectory) is LRUPolicy)
        #expect(throws: PolicySpecError.self) { try PolicySource.make("swam:x=1", environment: env, policiesDirectory: Self.policiesDirectory) }
        do {
            _ = try PolicySource.make("nope", environment: env, policiesDirectory: Self.policiesDirectory)
            Issue.record("accepted")
        } catch let error as PolicySpecError {
            #expect(error.description.contains("recent-keeper"))   // the files are listed among the known policies
        }
    }
}
