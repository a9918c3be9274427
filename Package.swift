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

// Profile-guided optimisation: release builds of the tool's own Swift targets use the execution profile committed at
// Benchmarks/Profile/jetsim.profdata (LLVM's IR-level profile), which Benchmarks/refresh-profile.sh writes from a
// training set of runs of a build made with JETSIM_PROFILE=generate (the same targets instrumented, no profile in use).
// A function changed since the profile was taken is built without its counts: the same results, only slower until the
// profile is refreshed. JETSIM_PROFILE=off builds without it (side-by-side measurements); so do the fuzzing build and
// debug builds.
// The profile's format is Swift 6.3's LLVM's: an older toolchain, which could not read it, builds without it.
let profile = Context.packageDirectory + "/Benchmarks/Profile/jetsim.profdata"
let environment = ProcessInfo.processInfo.environment
#if compiler(>=6.3)
let toolchainReadsProfile = true
#else
let toolchainReadsProfile = false
#endif
// A function of internal linkage (a closure, a thunk) is named in the profile after its object file; by the file's name
// alone, not its path, so that a build in another directory than the training's finds its counts.
let profileNaming = ["-Xllvm", "-static-func-full-module-prefix=false"]
// Selects (`a < b ? x : y`) are neither counted nor weighed: LLVM turns a select its profile calls one-sided into a
// branch, and which way a comparison of heap keys or scores goes follows the trace, not the training set's (the four-ary
// heap's choice of a child became a branch that mispredicted 0.7 times a request of `lfu`'s at 0.1 % of the 10 M-request
// binary, where the select it replaced costs a cycle). Both sides of the profile must agree on it.
let profileSelects = ["-Xllvm", "-pgo-instr-select=false"]
// What the instrumented build and the build that uses its profile must agree on.
let profileAgreement = profileNaming + profileSelects
let profileFlags: [String] =
    switch environment["JETSIM_PROFILE"] {
    // Counts written where LLVM_PROFILE_FILE says; every counter updated atomically, so that code run on several threads
    // at once (a grid's cells on `--jobs` threads) loses no counts and a training set gives the same profile each time.
    case "generate": ["-Xfrontend", "-ir-profile-generate", "-Xllvm", "-instrprof-atomic-counter-update-all"] + profileAgreement
    case "off": []
    default: toolchainReadsProfile && environment["JETSIM_FUZZ"] == nil && FileManager.default.fileExists(atPath: profile)
        ? ["-Xfrontend", "-ir-profile-use=\(profile)"] + profileAgreement : []
    }
let profileGuided: [SwiftSetting] = profileFlags.isEmpty ? [] : [.unsafeFlags(profileFlags, .when(configuration: .release))]

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
        .target(name: "JetsimCore", dependencies: ["CPrefetch"], swiftSettings: profileGuided),
        .target(name: "JetsimWorkloads", dependencies: ["JetsimCore"], swiftSettings: profileGuided),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(
            name: "JetsimIO",
            dependencies: [
                "JetsimCore", "JetsimWorkloads", "CZlib", "CPrefetch", "CFileSpace",
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: profileGuided,
            plugins: ["EmbedPolicyFiles"]   // Policies/*.yaml built into the binary (Sources/JetsimIO/PolicyFiles.swift)
        ),
        .plugin(name: "EmbedPolicyFiles", capability: .buildTool()),
        .target(name: "JetsimRealMemory", dependencies: ["JetsimCore"], swiftSettings: profileGuided),
        .target(name: "JetsimExperiment", dependencies: ["JetsimCore", "JetsimIO", "JetsimWorkloads"], swiftSettings: profileGuided),
        .target(
            name: "JetsimCLI",
            dependencies: [
                "JetsimCore", "JetsimIO", "JetsimWorkloads", "JetsimRealMemory", "JetsimExperiment",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: profileGuided
        ),
        .executableTarget(name: "jetsim", dependencies: ["JetsimCLI"], swiftSettings: profileGuided),
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
