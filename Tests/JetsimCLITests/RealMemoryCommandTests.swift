import Foundation
import JetsimRealMemory
import Testing

/// `jetsim run --backing jemalloc`, as a user runs it.
@Suite struct RealMemoryCommandTests {
    @Test(.enabled(if: Jemalloc.isInstalled, "jemalloc is not installed (apt-get install libjemalloc2)")) func aRealMemoryRunOnTheExampleWritesLiveCSVAndDivergenceColumns() throws {
        let dir = try scratch()
        var summaries: [String] = []
        for (name, extra) in [("model", [String]()), ("real", ["--backing", "jemalloc:scale=1/256", "--pressure-source", "measured"])] {
            let r = try CLI.run(["run", "--device", "iphone-xs", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace,
                                 "--out", "\(dir)/\(name)"] + extra)
            #expect(r.status == 0, "\(r.stderr)")
            summaries.append(try String(contentsOfFile: "\(dir)/\(name)/summary.csv", encoding: .utf8))
        }
        #expect(files(in: "\(dir)/real") == ["apps.csv", "kills.csv", "live.csv", "summary.csv", "timeseries.csv"])
        let live = try String(contentsOfFile: "\(dir)/real/live.csv", encoding: .utf8).split(separator: "\n")
        #expect(live.first == "time,app,modelled_bytes,measured_bytes,dirty_freed_bytes,dirty_freed_pages,muzzy_bytes,arena_resident_bytes,arena_mapped_bytes")
        #expect(live.count > 100)
        #expect(live.dropFirst().allSatisfy { $0.split(separator: ",").count == 9 })
        let header = summaries[0].split(separator: "\n")[0]
        #expect(header.hasSuffix(",backing,pressure_source,live_rows,footprint_error_mean,footprint_error_max,allocator_retained_mb_max,trace_path,user"))
        let model = summaries[0].split(separator: "\n")[1], real = summaries[1].split(separator: "\n")[1]
        #expect(model.hasSuffix(",model,model,,,,,\(CLI.exampleTrace),"))
        #expect(real.contains(",jemalloc:scale=1/256,measured,\(live.count - 1),"))
        // Nothing retained on this workload, so measured pressure made the model's decisions.
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/real/kills.csv")) == Data(contentsOf: URL(fileURLWithPath: "\(dir)/model/kills.csv")))
        // Real memory is measured, yet the same inputs give the same bytes, live.csv included.
        let again = try CLI.run(["run", "--device", "iphone-xs", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--out", "\(dir)/again",
                                 "--backing", "jemalloc:scale=1/256", "--pressure-source", "measured", "--quiet"])
        #expect(again.status == 0, "\(again.stderr)")
        for file in files(in: "\(dir)/real") {
            #expect(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/real/\(file)")) == Data(contentsOf: URL(fileURLWithPath: "\(dir)/again/\(file)")), "\(file)")
        }
    }

    /// The arenas' resident bytes (jemalloc's statistics) against the growth of the process's resident set
    /// (`/proc/self/statm`), in a process of its own: at 1/16 the arenas hold tens of MiB, and the two agree within
    /// a tenth of that (the gap is Jetsim's own heap).
    @Test(.enabled(if: Jemalloc.isInstalled, "jemalloc is not installed (apt-get install libjemalloc2)")) func theArenasAgreeWithTheKernelsResidentSet() throws {
        let dir = try scratch()
        let r = try CLI.run(["run", "--device", "iphone-xs", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace, "--out", "\(dir)/o",
                             "--backing", "jemalloc:scale=1/16", "--sample-interval", "10m"])
        #expect(r.status == 0, "\(r.stderr)")
        // "arenas resident A MiB at the last sample; … tracked the arenas within G MiB"
        let line = try #require(r.stderr.split(separator: "\n").first { $0.contains("arenas resident") })
        let resident = try #require(Double(line.components(separatedBy: "arenas resident ").last?.split(separator: " ").first ?? ""))
        let gap = try #require(Double(line.components(separatedBy: "within ").last?.split(separator: " ").first ?? ""))
        #expect(resident > 20)
        #expect(gap < resident / 10, "\(line)")
    }

    @Test func badBackingsAreRefusedBeforeAnythingIsWritten() throws {
        let dir = try scratch()
        let cases: [([String], String)] = [
            (["--pressure-source", "measured"], "needs real memory to measure"),
            (["--backing", "jemalloc:scale=3/2"], "scale must be a fraction"),
            (["--backing", "tcmalloc"], "--backing must be"),
            (["--pressure-source", "guess", "--backing", "jemalloc"], "--pressure-source must be"),
        ]
        for (arguments, message) in cases {
            let r = try CLI.run(["run", "--device", "iphone-xs", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace,
                                 "--out", "\(dir)/out"] + arguments)
            #expect(r.status == 64, "\(arguments)")
            #expect(r.stderr.contains(message), "\(r.stderr)")
        }
        // A 64 GiB cache at full scale would take more than a quarter of any test machine. (Without jemalloc the
        // run stops earlier, at the missing library: the next test.)
        guard Jemalloc.isInstalled else { return }
        let trace = "\(dir)/requests.csv"
        try "1,1,4096\n2,2,4096\n".write(toFile: trace, atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", "--device", "cache:64GiB", "--format", "libcachesim", "--trace", trace, "--policy", "lru",
                             "--out", "\(dir)/out", "--backing", "jemalloc:scale=1/1"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("safe share"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/out"))
    }

    /// The default build links no jemalloc: without the library, real-memory mode alone stops, naming the package.
    @Test(.enabled(if: !Jemalloc.isInstalled, "jemalloc is installed here; this test covers machines without it"))
    func withoutJemallocRealMemoryModeSaysWhatToInstall() throws {
        let dir = try scratch()
        let r = try CLI.run(["run", "--device", "iphone-xs", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace,
                             "--out", "\(dir)/out", "--backing", "jemalloc"])
        #expect(r.status == 69)
        #expect(r.stderr.contains("apt-get install libjemalloc2"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/out"))
        let plain = try CLI.run(["run", "--device", "iphone-xs", "--apps", CLI.exampleApps, "--trace", CLI.exampleTrace,
                                 "--out", "\(dir)/plain", "--quiet"])
        #expect(plain.status == 0, "\(plain.stderr)")
    }
}
