import Foundation
import Testing

/// `--policy` / `--policies` name policies in every command and `--policy-dir` is where policy files are found
/// (issue 20: `cachesim --policies fifo,lfu` ran lru alone, `run --policies lru` ran xnu, both with exit 0).
@Suite struct PolicyOptionTests {
    @Test func policiesIsAPolicyListInEveryCommand() throws {
        let dir = try scratch()
        let trace = try CacheSimCommandTests.trace(in: dir)
        let cache = try CLI.run(["cachesim", "--trace", trace, "--capacity", "20000", "--policies", "fifo,lfu", "--out", dir + "/c", "--quiet"])
        #expect(cache.status == 0, "\(cache.stderr)")
        #expect(try CacheSimCommandTests.rows(dir + "/c/cache.csv").map { $0["policy"] ?? "" } == ["fifo", "lfu(half_life_h=24)"])

        let run = try CLI.run(["run", "--device", "iphone-x", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace,
                               "--policies", "lru", "--out", dir + "/r", "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        let summary = try String(contentsOfFile: dir + "/r/summary.csv", encoding: .utf8).split(separator: "\n")
        #expect(summary.count == 2 && summary[1].hasPrefix("lru,"), "\(summary)")

        let compare = try CLI.run(["compare", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--policy", "lru,fifo",
                                   "--devices", "iphone-x", "--out", dir + "/cmp", "--quiet"])
        #expect(compare.status == 0, "\(compare.stderr)")
        let rows = try String(contentsOfFile: dir + "/cmp/summary.csv", encoding: .utf8).split(separator: "\n").dropFirst()
        #expect(rows.map { $0.split(separator: ",").first.map(String.init) ?? "" } == ["lru", "fifo"])
    }

    @Test func aMissingPolicyDirectoryIsAnErrorNotOnlyTheBuiltIns() throws {
        let dir = try scratch()
        for args in [["policies"],
                     ["run", "--device", "iphone-x", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--out", dir + "/r"],
                     ["compare", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--devices", "iphone-x", "--out", dir + "/c"]] {
            let r = try CLI.run(args + ["--policy-dir", dir + "/no-such-dir"])
            #expect(r.status == 66, "\(args[0]): \(r.stderr)")
            #expect(r.stderr.contains("--policy-dir"), "\(args[0]): \(r.stderr)")
        }
        // A directory of one's own is searched by name.
        try FileManager.default.createDirectory(atPath: dir + "/mine", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.packageRoot + "/Policies/swam.yaml", toPath: dir + "/mine/keeper.yaml")
        let listed = try CLI.run(["policies", "--policy-dir", dir + "/mine"])
        #expect(listed.status == 0 && listed.stdout.contains("(file \(dir)/mine/keeper.yaml)"), "\(listed.stderr)")
    }

    /// The policy files of Policies/ are built into jetsim: found by name from any working directory (issue 20).
    @Test func builtInPolicyFilesAreFoundOutsideTheRepository() throws {
        let elsewhere = try scratch()
        let run = try CLI.run(["run", "--device", "iphone-x", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace,
                               "--policy", "swam", "--out", elsewhere + "/r", "--quiet"], in: elsewhere)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try String(contentsOfFile: elsewhere + "/r/summary.csv", encoding: .utf8).split(separator: "\n").dropFirst().first?
            .hasPrefix("swam,") == true)
        let listed = try CLI.run(["policies"], in: elsewhere)
        #expect(listed.status == 0, "\(listed.stderr)")
        for name in ["swam", "recent-keeper", "xnu"] {
            #expect(listed.stdout.contains("(built in from Policies/\(name).yaml)"), "\(listed.stdout)")
        }
        // A name in neither the directory nor the built-ins stays a clear error, listing what is known.
        let unknown = try CLI.run(["run", "--device", "iphone-x", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace,
                                   "--policy", "nosuch", "--out", elsewhere + "/n"], in: elsewhere)
        #expect(unknown.status == 64, "\(unknown.stderr)")
        #expect(unknown.stderr.contains("unknown policy 'nosuch'") && unknown.stderr.contains("recent-keeper, swam"), "\(unknown.stderr)")
    }

    /// `--policy-dir` is searched before the built-in files: a file of the same name there wins, and says so.
    @Test func aPolicyDirectoryOverridesBuiltInFilesByName() throws {
        let dir = try scratch()
        let mine = try String(contentsOfFile: CLI.packageRoot + "/Policies/lru.yaml", encoding: .utf8)
            .replacingOccurrences(of: "name: lru", with: "name: my-swam")
        try mine.write(toFile: dir + "/swam.yaml", atomically: true, encoding: .utf8)
        let listed = try CLI.run(["policies", "--policy-dir", dir], in: dir)
        #expect(listed.stdout.contains("(file \(dir)/swam.yaml, instead of the built-in one)"), "\(listed.stdout)")
        #expect(!listed.stdout.contains("Policies/swam.yaml"), "\(listed.stdout)")
        let run = try CLI.run(["run", "--device", "iphone-x", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace,
                               "--policy", "swam", "--policy-dir", dir, "--out", dir + "/r", "--quiet"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try String(contentsOfFile: dir + "/r/summary.csv", encoding: .utf8).split(separator: "\n").dropFirst().first?
            .hasPrefix("my-swam,") == true)
    }
}
