import ArgumentParser
import Dispatch
import Foundation
import JetsimCore
import JetsimExperiment
import JetsimIO

#if canImport(Glibc)
import Glibc
#endif

/// `jetsim cachesim` — the cache-equivalent model alone, at cache-simulator speed: one pass over a libCacheSim
/// trace feeds every policy × capacity cell.
public struct CacheSimCommand: ParsableCommand {
    /// The most memory the working-set pass keeps the trace's requests in (256 MiB: some 13 M requests at 20 bytes);
    /// a larger trace is read again for the replay.
    static let keptRequestBytes = 1 << 28

    public static let configuration = CommandConfiguration(
        commandName: "cachesim",
        abstract: "Replay a libCacheSim trace through cache-equivalent policies at several capacities in one pass; write cache.csv.",
        discussion: reflowed("""
        The rules of `jetsim run --device cache:CAPACITY --format libcachesim` (an object is an app of its first
        request's size; a miss evicts in the policy's order until the object fits; an object larger than the cache
        is a miss never admitted) without the app lifecycle or per-eviction reports, so a 10-million-request trace
        takes about a second. Misses and evictions equal the full engine's (tested) and libCacheSim's for lru and
        fifo (Tests/CrossCheck). Every policy but oracle and belady-size (which need the whole trace in advance) can
        replay.

        Examples:
          jetsim cachesim --trace requests.csv --capacity 1GiB --policy lru
          jetsim cachesim --trace requests.csv.gz --capacity 150311479,1.5GB,15GB --policy lru,fifo,xnu --out /tmp/cache
          jetsim cachesim --trace requests.csv --capacity 0.1%,1%,10% --policy lru,lfu
          jetsim cachesim --trace requests.csv --capacity 0.001,0.01,0.1 --policy 'LRU,cost:alpha=0.5;half_life_h=12'
          jetsim cachesim --trace objects.txt --capacity 1000 --policy lfu --csv-fields obj-id=1
          jetsim cachesim --trace w44.oracleGeneral.bin.zst --capacity 0.01,0.1 --policy lru,fifo --jobs 2
        """)
    )

    @Option(help: "libCacheSim trace: CSV (time, obj-id, obj-size; header detected), txt (one object id per line, size 1) or oracleGeneral binary; gzip and zstd read transparently.")
    var trace: String

    @Option(help: ArgumentHelp("Trace format: csv (also txt) or oracleGeneral (24-byte binary records); default: oracleGeneral when the name holds '.oracleGeneral' (w44.oracleGeneral.bin.zst), as libCacheSim names them, else csv.",
                               valueName: "csv|oracleGeneral"))
    var traceFormat: String?

    @Option(help: "Comma-separated cache capacities: bytes, with a unit in any case (500MB = 500×10^6, 2GiB = 2×2^30), or a share of the working set (1%, or 0.01 as libCacheSim writes it; one more pass over the trace).")
    var capacity: String

    @Option(name: [.customLong("policy"), .customLong("policies")],
            help: "Comma-separated policies, as in `jetsim run` (built-ins with parameters, policy files); parameters separated by ';' or ',': 'cost:alpha=0.5;half_life_h=12,lru'.")
    var policy: String = "lru"

    @Option(help: "libCacheSim CSV field numbers (1-based), e.g. 'time=1,obj-id=2,obj-size=3'.")
    var csvFields: String?

    @OptionGroup var policyDirectory: PolicyDirectoryOption

    @Option(help: "Seed for randomised policies; echoed in cache.csv.")
    var seed: UInt64 = 1

    @Option(help: "Threads the cells are replayed on (default: the number of cores); cache.csv is byte-identical for any value.")
    var jobs: Int?

    @Option(help: "Output directory (default: Reports/out/<trace's directory>-<trace>-cachesim).")
    var out: String?

    @Flag(help: "Print nothing but errors (no progress, no note).")
    var quiet = false

    /// Where `lfu`'s and `cost`'s decayed use counts are computed (`DecayedCountStage`): a knob for benchmarks, since the
    /// default's choice is made by the clock (the instruction gate needs each way fixed).
    enum DecayedCounts: String, ExpressibleByArgument, CaseIterable {
        case auto, reader, replay
    }

    @Option(help: ArgumentHelp("Where lfu's and cost's decayed use counts are computed: on the trace reader's thread, once for every cell of a half-life (reader), in each cell's replay (replay), or the reader's until it is the slower side (auto). cache.csv is byte-identical either way; for benchmarks.",
                               visibility: .hidden))
    var decayedCounts: DecayedCounts = .auto

    public init() {}

    public func validate() throws {
        let capacities = commaSeparated(capacity)
        guard !capacities.isEmpty else { throw ValidationError("--capacity needs at least one capacity") }
        for c in capacities where CacheCapacity(parsing: c) == nil {
            throw ValidationError("--capacity: expected bytes up to 1 PiB, a size such as 500MB or 2GiB, or a share of the working set such as 1% or 0.01, found '\(InputError.excerpt(c))'")
        }
        guard !PolicySpec.list(policy).isEmpty else { throw ValidationError("--policy needs at least one policy") }
        if let traceFormat, LibCacheSimFormat(option: traceFormat) == nil {
            throw ValidationError("--trace-format must be csv or oracleGeneral, found '\(InputError.excerpt(traceFormat))'")
        }
        if let jobs, jobs < 1 || jobs > ExperimentConfig.Limits.jobs { throw ValidationError("--jobs must be between 1 and \(ExperimentConfig.Limits.jobs)") }
        if csvFields != nil, format == .oracleGeneral { throw ValidationError("--csv-fields applies to CSV traces, not oracleGeneral") }
    }

    /// The trace's format: `--trace-format`, else by libCacheSim's naming of the file.
    var format: LibCacheSimFormat { traceFormat.flatMap(LibCacheSimFormat.init(option:)) ?? LibCacheSimFormat.named(path: trace) }

    public func run() throws {
        try reportingErrors { try execute() }
    }

    private func execute() throws {
        let fields = try csvFields.map { try LibCacheSimTrace.Fields(parsing: $0) } ?? .init()
        let given = commaSeparated(capacity).compactMap(CacheCapacity.init(parsing:))
        var workingSet = 0, objects = 0
        var kept: [RequestBatch]?
        let input = try ReadOnceInput(trace)   // read twice when a capacity is a share of the working set too large to keep
        if given.contains(where: \.isShare) {
            (objects, workingSet, kept) = try LibCacheSimStream.workingSet(path: input.path, fields: fields, format: format, name: trace,
                                                                     keepingAtMost: Self.keptRequestBytes)
        }
        let capacities = given.map { $0.bytes(workingSet: workingSet) }
        if !quiet { noteDecimalUnits(option: "--capacity", sizes: commaSeparated(capacity)) }
        // A plan of policy × capacity cells (each capacity a cache device), replayed in one pass; cache.csv lists them
        // policies outer, capacities inner.
        let policies = PolicySpec.list(policy)
        let plan = ExperimentPlan(configuration: GridConfiguration(
            traces: [trace], apps: nil, format: "libcachesim", csvFields: csvFields, workloadSeeds: nil, generate: nil, policies: policies,
            deviceNames: capacities.map { "cache:\($0)" }, devices: capacities.map { Device.cache(capacityBytes: $0) }, deviceAdjustments: [],
            seeds: [seed], warmupMicros: 0, intervalMicros: 0, sampleIntervalMicros: 0, baselinePolicy: 0, chartCell: 0,
            policiesDirectory: try policyDirectory.path()), generator: nil)
        let order = policies.indices.flatMap { p in capacities.indices.map { d in d * policies.count + p } }
        var runner: CacheReplayRunner
        do {
            runner = try CacheReplayRunner(plan: plan, cells: order)
        } catch let e as CacheReplayRunner.NeedsFuture {
            let bytes = capacities[plan.configuration.cell(e.cell).device], text = policies[plan.configuration.cell(e.cell).policy]
            throw ValidationError("\(e.policy) needs the whole trace in advance; cachesim streams. "
                                  + "Use `jetsim run --device cache:\(bytes) --format libcachesim --policy \(text)`")
        }
        runner.reserve(objects: objects)   // (0 without a working-set pass: the replays grow as ids come)
        // One pass: each batch goes through every cell (the cells split over --jobs threads) while the next one is
        // parsed on another thread, with the decayed use counts `lfu`'s and `cost`'s cells keep, once a half-life.
        // Each cell sees every request in trace order, so the threads change no result.
        let requests: ReadAhead<RequestBatch>
        let needs = decayedCounts == .replay ? [] : runner.decayedCountNeeds, stops = decayedCounts == .auto
        if let batches = kept {
            requests = ReadAhead(kept: batches, decayedCounts: needs, stoppingWhenSlower: stops)
            kept = nil   // the read-ahead's copy is then the only one: it lets go of each batch as it hands it out
        } else {
            requests = ReadAhead(requests: try LibCacheSimStream(path: input.path, fields: fields, format: format, name: trace),
                                 decayedCounts: needs, stoppingWhenSlower: stops)
        }
        var progress = !quiet && isatty(2) == 1 ? CacheSimProgress() : nil
        try runner.replay(requests, threads: jobs ?? ProcessInfo.processInfo.activeProcessorCount) { progress?.advance(by: $0) }
        progress?.finish()
        withExtendedLifetime(input) {}
        let rows = runner.rows
        guard let total = rows.first?.counters.requests, total > 0 else {
            throw InputError(file: trace, message: "no requests in the trace")
        }
        if rows.contains(where: \.counters.byteTotalsOverflowed) {
            throw InputError(file: trace, message: "the requests add up to more than 8 EiB; byte totals cannot be kept exactly")
        }
        let traceName = baseName(trace)
        let directory = out ?? "Reports/out/\(workloadName(trace))-cachesim"
        try inReportDirectory(directory, replaceable: OutputNames.cachesim) { staging in
            try CacheReport.write(rows, trace: traceName, seed: seed, to: staging)
        }
        if !quiet {
            for r in rows {
                let c = r.counters
                print("\(r.policy) at \(r.capacityBytes) B: misses \(c.misses) of \(c.requests) "
                      + "(\(FixedPoint.format(c.misses, over: c.requests, decimals: 6))), byte miss ratio "
                      + "\(FixedPoint.format(c.missedBytes, over: c.requestedBytes, decimals: 6)), evictions \(c.evictions)")
            }
            print("\(total) requests, \(rows.first?.counters.objects ?? 0) objects; report: \(directory)/cache.csv")
        }
    }
}

/// `cachesim`'s progress line on a terminal's stderr: requests so far and their rate, redrawn at most twice a second.
struct CacheSimProgress {
    private let started = Date()
    private var lastDrawn = Date.distantPast
    private var requests = 0

    mutating func advance(by count: Int) {
        requests += count
        let now = Date()
        guard now.timeIntervalSince(lastDrawn) >= 0.5 else { return }
        lastDrawn = now
        draw(final: false)
    }

    func finish() { draw(final: true) }

    private func draw(final: Bool) {
        let elapsed = Date().timeIntervalSince(started)
        let rate = elapsed > 0 ? Double(requests) / elapsed / 1e6 : 0
        var stderr = StandardError()
        print("\r\u{1B}[Krequests \(requests), \(String(format: "%.1f", elapsed)) s elapsed, \(String(format: "%.2f", rate)) M/s",
              terminator: final ? "\n" : "", to: &stderr)
    }
}

/// A `--capacity` item: bytes, or a share of the working set in millionths of a percent (`1%`, or `0.01` as libCacheSim
/// writes it).
enum CacheCapacity: Equatable {
    case bytes(Int)
    case share(microPercent: Int)

    init?(parsing text: String) {
        if text.hasSuffix("%") {
            let number = Array(text.dropLast().utf8)
            guard let p = number.withUnsafeBufferPointer({ DecimalParser.scaled($0, unit: 1_000_000) }), p > 0, p <= 100_000_000 else { return nil }
            self = .share(microPercent: p)
        } else if text.contains("."), !text.contains(where: \.isLetter) {
            // A bare number with a decimal point is a fraction of the working set, as libCacheSim's cachesim reads it
            // (conv_cache_sizes in libCacheSim/bin/cachesim/cli_parser.c): 0.1 is 10 %.
            let number = Array(text.utf8)
            guard let p = number.withUnsafeBufferPointer({ DecimalParser.scaled($0, unit: 100_000_000) }), p > 0, p <= 100_000_000 else { return nil }
            self = .share(microPercent: p)
        } else {
            guard let b = DeviceSource.parseCapacity(text), b > 0, b <= DecimalParser.maxBytes else { return nil }   // 1 PiB, as cache:
            self = .bytes(b)
        }
    }

    var isShare: Bool { if case .share = self { true } else { false } }

    /// The capacity in bytes: a share is rounded down (as libCacheSim's fractions of the working set).
    func bytes(workingSet: Int) -> Int {
        switch self {
        case let .bytes(b): return b
        case let .share(p):
            let (high, low) = workingSet.magnitude.multipliedFullWidth(by: UInt(p))
            return Int((100_000_000 as UInt).dividingFullWidth((high, low)).quotient)   // ≤ the working set: fits
        }
    }
}
