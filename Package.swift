// swift-tools-version:6.1
import Foundation
import PackageDescription

// Layers, top-down: jetsim (executable) → JetsimCLI (commands: options to plans) → JetsimExperiment (grids as data:
// plans of cells, the one driver that runs any subset of them, shards and their merge) → JetsimIO (files at the edges)
// → JetsimWorkloads (synthetic users, trace statistics) → JetsimCore (model, engine, policies).
// JetsimRealMemory (real-memory mode: jemalloc arenas behind the model) sits beside JetsimIO at the edge. CPrefetch, under
// JetsimCore, is one C header: the cache-prefetch hint Swift lacks; CFileSpace, under JetsimIO, one C call: Linux's
// `fallocate`, which Swift's Glibc module does not export.
// Only JetsimIO touches the file system (JetsimRealMemory reads /proc to measure the process).
// Nothing beyond the toolchain and zlib is needed to build: real-memory mode loads jemalloc at run time.
let package = Package(
    name: "jetsim",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "jetsim", targets: ["jetsim"]),
        .library(name: "JetsimCore", targets: ["JetsimCore"]),
        .library(name: "JetsimIO", targets: ["JetsimIO"]),
        .library(name: "JetsimWorkloads", targets: ["JetsimWorkloads"]),
        .library(name: "JetsimRealMemory", targets: ["JetsimRealMemory"]),
        .library(name: "JetsimExperiment", targets: ["JetsimExperiment"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.6.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        .target(name: "CPrefetch"),
        .target(name: "CFileSpace"),
        .target(name: "JetsimCore", dependencies: ["CPrefetch"]),
        .target(name: "JetsimWorkloads", dependencies: ["JetsimCore"]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(
            name: "JetsimIO",
            dependencies: [
                "JetsimCore", "JetsimWorkloads", "CZlib", "CPrefetch", "CFileSpace",
                .product(name: "Yams", package: "Yams"),
            ],
            plugins: ["EmbedPolicyFiles"]   // Policies/*.yaml built into the binary (Sources/JetsimIO/PolicyFiles.swift)
        ),
        .plugin(name: "EmbedPolicyFiles", capability: .buildTool()),
        .target(name: "JetsimRealMemory", dependencies: ["JetsimCore"]),
        .target(name: "JetsimExperiment", dependencies: ["JetsimCore", "JetsimIO", "JetsimWorkloads"]),
        .target(
            name: "JetsimCLI",
            dependencies: [
                "JetsimCore", "JetsimIO", "JetsimWorkloads", "JetsimRealMemory", "JetsimExperiment",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "jetsim", dependencies: ["JetsimCLI"]),
        .testTarget(name: "JetsimCoreTests", dependencies: ["JetsimCore"]),
        .testTarget(name: "JetsimIOTests", dependencies: ["JetsimIO", "JetsimCore"]),
        .testTarget(name: "JetsimWorkloadsTests", dependencies: ["JetsimWorkloads", "JetsimIO", "JetsimCore"]),
        .testTarget(name: "JetsimRealMemoryTests", dependencies: ["JetsimRealMemory", "JetsimCore", "JetsimIO"]),
        .testTarget(name: "JetsimExperimentTests", dependencies: ["JetsimExperiment", "JetsimIO", "JetsimCore"]),
        .testTarget(name: "JetsimCLITests", dependencies: ["JetsimCLI", "JetsimIO", "JetsimCore", "JetsimRealMemory"]),
    ]
)

// The libFuzzer harness (README: Fuzzing) exists only when asked for: it needs -sanitize=fuzzer, which plain builds lack.
if ProcessInfo.processInfo.environment["JETSIM_FUZZ"] != nil {
    package.targets.append(.executableTarget(name: "JetsimFuzz", dependencies: ["JetsimIO"], swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
    package.products.append(.executable(name: "jetsim-fuzz", targets: ["JetsimFuzz"]))
}
