import Benchmark
import BenchmarkWorkloads
import JetsimCore
import JetsimRealMemory

// The cost of real-memory mode against the plain model, on the same 100-app workload as Engine-xnu-100apps.
// This executable links jemalloc, so "RealMemory-model" is also the plain model under jemalloc's malloc:
// compared with JetsimBenchmarks' Engine-xnu-100apps (system malloc) it measures what linking jemalloc costs.
let benchmarks: @Sendable () -> Void = {
    let device = DevicePresets.named("iphone-x")!
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .peakMemoryResident],
        warmupIterations: 1,
        maxDuration: .seconds(5),
        maxIterations: 20
    )
    let workload = Workload(apps: 100, users: 4, days: 7)

    Benchmark("RealMemory-model-100apps") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(workload.run(XNUPolicy(), device: device)) }
    }
    for source in PressureSource.allCases {
        Benchmark("RealMemory-jemalloc-\(source.rawValue)-100apps") { benchmark in
            for _ in benchmark.scaledIterations {
                let backing = try JemallocBacking(scale: .default, appCount: workload.catalog.count, budgetBytes: 1 << 30,
                                                  pressureSource: source, sink: { blackHole($0) })
                blackHole(workload.run(XNUPolicy(), device: device, backing: backing, pressureSource: source))
            }
        }
    }
}
