// swift-tools-version:6.1
// The benchmark suite lives in its own package so that `swift test` at the root stays fast
// (../shared/reference/swift-notes.md). Run: `cd Benchmarks && swift package benchmark`.
import PackageDescription

// A path dependency's identity is its folder's name, lower-cased: derive it rather than hard-code the checkout's.
let rootIdentity = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "jetsim").lowercased()

let package = Package(
    name: "JetsimBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // Generated workloads shared by the suites.
        .target(
            name: "BenchmarkWorkloads",
            dependencies: [
                .product(name: "JetsimCore", package: rootIdentity),
                .product(name: "JetsimWorkloads", package: rootIdentity),
            ],
            path: "Support/BenchmarkWorkloads"
        ),
        .executableTarget(
            name: "JetsimBenchmarks",
            dependencies: [
                "BenchmarkWorkloads",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "JetsimCore", package: rootIdentity),
                .product(name: "JetsimIO", package: rootIdentity),
                .product(name: "JetsimWorkloads", package: rootIdentity),
            ],
            path: "Benchmarks/JetsimBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Jetsim's trace readers alone, for parse-vs-c.sh (measured against Support/CLoop/parse_loop.c).
        .executableTarget(
            name: "ParseOnly",
            dependencies: [
                .product(name: "JetsimCore", package: rootIdentity),
                .product(name: "JetsimIO", package: rootIdentity),
            ],
            path: "Support/ParseOnly"
        ),
        // Real-memory mode allocates through jemalloc (loaded at run time, mallocx is not counted by the
        // interposer): it gets its own executable, apart from the allocation-gated suite above.
        .executableTarget(
            name: "RealMemoryBenchmarks",
            dependencies: [
                "BenchmarkWorkloads",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "JetsimCore", package: rootIdentity),
                .product(name: "JetsimRealMemory", package: rootIdentity),
            ],
            path: "Benchmarks/RealMemoryBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
