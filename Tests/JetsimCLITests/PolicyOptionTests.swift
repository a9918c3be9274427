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
        #expect(listed.status == 0 && listed.stdout.contains("keeper"), "\(listed.stderr)")
        #expect(!listed.stdout.contains("recent-keeper"), "the default directory was listed instead")
    }
}
