import Benchmark
import BenchmarkWorkloads
import JetsimCore
import JetsimRealMemory

// The cost of real-memory mode against the plain model, on the same 100-app workload as Engine-xnu-100apps.
// jemalloc is loaded at run time (start with GLIBC_TUNABLES=glibc.rtld.optional_static_tls=16384); the process's
// own malloc stays glibc's, so "RealMemory-model" is the plain model, the reference for the other two.
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
