/// A jetsam policy: it ranks kill candidates and nothing else. The engine decides *when* to kill and
/// *which candidates* are eligible (the reason's walk: band 0 for idle-exit and the reaper, every band, the foreground
/// app's included, for page shortage), performs the kill and owns every byte of accounting. A policy that ignores
/// bands may therefore pick the foreground app.
public protocol EvictionPolicy: Sendable {
    /// Name and effective parameters, as printed in every report row.
    var descriptor: PolicyDescriptor { get }

    /// The jetsam band of a priority class (higher survives longer).
    func band(for priorityClass: PriorityClass) -> Int

    /// The index in `candidates` of the app to kill next, or nil to refuse every candidate.
    /// `candidates` is never empty.
    mutating func selectVictim(among candidates: [KillCandidate], context: KillContext) -> Int?

    /// Told when the user opens an app (a cold launch or a resume), for policies that keep their own history
    /// (frequencies). The default does nothing.
    mutating func didOpen(_ app: Int32, at time: Int)

    /// For a policy whose ranking is a fixed total order on a per-app key (smaller dies first), built from the
    /// candidate's band, band entry, launch and last use (all a `RankingInputs` holds): that key. The engine then
    /// keeps candidates in an index instead of scanning every resident app at each kill (debug builds check both
    /// agree). nil, the default: the engine scans and asks `selectVictim`.
    func rankingKey(_ inputs: RankingInputs) -> RankingKey?

    /// Whether the ranking key orders the apps of one band by their entry into it, whatever it does across bands (`xnu`'s
    /// key: band, then entry). The idle band's victim (idle-exit, the reaper) is then its earliest entrant, which the
    /// engine keeps anyway (`Simulator.idleOrder`), so those kills take it from there and the index of candidates is
    /// brought up to date only for the others (debug builds check every victim against a scan). false, the default.
    var ranksBandByEntry: Bool { get }

    /// For a policy that kills the candidate of smallest decaying score first, ties to the smallest
    /// `lastUseSequence` (`lfu`, `cost`, and `largest`'s constant −footprint): the candidate's score as a
    /// function of time. `selectVictim` must pick exactly that candidate, comparing `value(at: context.now)` as doubles
    /// (or an order proved identical: `largest` compares footprints); the score may change only when the
    /// policy is told of an open of that app (`didOpen`) or the candidate's footprint or relaunch cost changes. An open
    /// changes only `count` and `since`, to the count decayed to the open's time plus 1 (`DecayedFrequency.record`):
    /// offset, weight and half-life depend on the footprint and relaunch cost alone (`CacheReplay.stillStaleCountLimit`
    /// relies on both; its debug check would catch a policy that did otherwise).
    /// The cache replay then keeps its candidates in an index by the score's kind (`CrossingScoreIndex`,
    /// `DecayingCountHeap`, `FixedScoreHeap`; debug builds check them against `selectVictim`). nil, the default: the
    /// replay scans. The full engine always scans for these policies: its kill scopes take the minimum over a subset
    /// (idle band, idle long enough), which an index cannot answer without visiting the refused, and `cost`'s footprint
    /// changes at every growth, compression or purge of a suspended app.
    func decayingScore(_ candidate: KillCandidate) -> DecayingScore?
    /// For a policy whose choice depends only on how many candidates there are (`random`: a uniform draw by
    /// position): the index it picks among `count` candidates, drawing exactly what `selectVictim` draws. The cache
    /// replay then takes that position of its resident set at once instead of building every candidate (debug builds
    /// check it against `selectVictim`). nil, the default: the replay scans. Only asked when `selectsByIndex`.
    mutating func selectIndex(count: Int) -> Int?
    /// Whether `selectIndex` answers.
    var selectsByIndex: Bool { get }
    /// A hint that `app` will be opened soon: a policy with per-app state starts loading it (a cache replay calls this
    /// a few requests ahead, so that the state is in cache when `didOpen` reads it). Changes nothing; the default does
    /// nothing.
    func prefetchState(of app: Int32)
    /// Makes room for per-app state of app ids below `count` at once (a cache replay that knows how many objects its trace
    /// names calls this before the first request), where growing with each new id would copy the state as it grows.
    /// Changes no result; the default does nothing.
    mutating func reserveState(forApps count: Int)
    /// Copies the per-app state that a copy of this policy shares with it, if any, so that `didOpenInPlace` may write it
    /// without a copy-on-write check. Changes no result; the default does nothing.
    mutating func makeStateUnique()
    /// `didOpen`, for a driver that called `makeStateUnique()` and has not copied the policy since: a policy whose state
    /// is written in place (`lfu`'s and `cost`'s counts) then skips its copy-on-write check, a runtime call (the cache
    /// replay makes the state unique once a batch of requests). The same result as `didOpen`; the default calls it.
    mutating func didOpenInPlace(_ app: Int32, at time: Int)
    /// For a policy whose per-app state is a decayed use count and nothing else (`DecayedFrequency`: an open adds 1 to
    /// the count decayed to its time; `lfu`'s and `cost`'s), its half-life in µs. Such a state is a function of the opens
    /// alone, so `cachesim`'s reader computes it ahead, on its own thread, once for every cell of that half-life
    /// (`DecayedCountStage`), and each cell's replay hands the policy the count (`didOpenInPlace(_:at:count:)`) instead of
    /// having it decay and add. Such a policy must score every candidate (`decayingScore` never nil), so that it never
    /// refuses a victim: the stage's rule of opens counts on an object that fits the cache being admitted (the replay
    /// traps otherwise). nil, the default: the policy computes its own state.
    var decayedCountHalfLifeMicros: Double? { get }
    /// `didOpenInPlace(_:at:)` when the count that open leaves is known (`DecayedCountStage`, bit for bit what the
    /// policy's own arithmetic gives: debug builds check it). Only asked of a policy with `decayedCountHalfLifeMicros`;
    /// the default ignores the count.
    mutating func didOpenInPlace(_ app: Int32, at time: Int, count: Double)
    /// For a policy with `decayedCountHalfLifeMicros`: whether its decaying score is that count itself (offset 0, weight
    /// 1 / 1: `lfu`'s), which the heap of counts keys by its log2 (`DecayingCountHeap`), so that `cachesim`'s reader
    /// computes the log2 ahead with the count. false, the default: no index takes it (`cost`'s scores, offset 1, go to
    /// the index of crossing scores) and the reader computes none. Changes no result either way: without the log2 the
    /// heap computes it.
    var decayingScoreIsItsCount: Bool { get }
}

extension EvictionPolicy {
    public mutating func didOpen(_ app: Int32, at time: Int) {}
    public func rankingKey(_ inputs: RankingInputs) -> RankingKey? { nil }
    public var ranksBandByEntry: Bool { false }
    public func decayingScore(_ candidate: KillCandidate) -> DecayingScore? { nil }
    public mutating func selectIndex(count: Int) -> Int? { nil }
    public var selectsByIndex: Bool { false }
    public func prefetchState(of app: Int32) {}
    public mutating func reserveState(forApps count: Int) {}
    public mutating func makeStateUnique() {}
    public mutating func didOpenInPlace(_ app: Int32, at time: Int) { didOpen(app, at: time) }
    public var decayedCountHalfLifeMicros: Double? { nil }
    public mutating func didOpenInPlace(_ app: Int32, at time: Int, count: Double) { didOpenInPlace(app, at: time) }
    public var decayingScoreIsItsCount: Bool { false }

    /// Whether the policy ranks by a key (`rankingKey`), so the engine can index its candidates.
    public var hasRankingKey: Bool { rankingKey(RankingInputs()) != nil }

    /// Whether the policy ranks by a decaying score (`decayingScore`), so the cache replay can index its candidates.
    public var hasDecayingScore: Bool { decayingScore(KillCandidate(app: 0)) != nil }
}

/// The part of a `KillCandidate` a ranking key may be built from. A key that sees only these can change only when
/// they do, so the engine re-keys an app only where one of them may have changed, and builds no whole candidate to
/// do so.
public struct RankingInputs: Sendable, Equatable {
    /// The band of the candidate's priority class.
    public var band: Int
    /// Order of entry into the current band (`KillCandidate.bandEntrySequence`).
    public var bandEntrySequence: UInt64
    /// Global order of the current instance's launch (`KillCandidate.launchSequence`).
    public var launchSequence: UInt64
    /// Global order of the last use (`KillCandidate.lastUseSequence`).
    public var lastUseSequence: UInt64

    @inlinable
    public init(band: Int = 0, bandEntrySequence: UInt64 = 0, launchSequence: UInt64 = 0, lastUseSequence: UInt64 = 0) {
        self.band = band
        self.bandEntrySequence = bandEntrySequence
        self.launchSequence = launchSequence
        self.lastUseSequence = lastUseSequence
    }

    /// The candidate's inputs.
    @inlinable
    public init(_ candidate: KillCandidate) {
        self.init(band: candidate.band, bandEntrySequence: candidate.bandEntrySequence,
                  launchSequence: candidate.launchSequence, lastUseSequence: candidate.lastUseSequence)
    }
}

/// A victim order: by `major`, then by `minor` (both ascending: the smallest dies first).
public struct RankingKey: Comparable, Sendable, Hashable, BitwiseCopyable {
    public var major: Int
    public var minor: UInt64
    public init(major: Int, minor: UInt64) {
        self.major = major
        self.minor = minor
    }
    public static func < (a: RankingKey, b: RankingKey) -> Bool { a.major != b.major ? a.major < b.major : a.minor < b.minor }
}

/// What a policy needs or does, so tools can say what it can be compared on.
public struct PolicyCapabilities: OptionSet, Sendable, Hashable, Codable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Needs the whole trace in advance (next-use times): the offline optimum.
    public static let needsFuture = PolicyCapabilities(rawValue: 1)
    /// Draws random numbers (from the run's seed).
    public static let randomized = PolicyCapabilities(rawValue: 2)
    /// Ranks by footprint.
    public static let sizeAware = PolicyCapabilities(rawValue: 4)

    public var names: [String] {
        [(PolicyCapabilities.needsFuture, "needs-future"), (.randomized, "randomized"), (.sizeAware, "size-aware")]
            .filter { contains($0.0) }.map(\.1)
    }
}

/// What a policy may know of the run it is made for.
public struct PolicyEnvironment: Sendable {
    public var seed: UInt64
    public var device: Device
    public init(seed: UInt64, device: Device) {
        self.seed = seed
        self.device = device
    }
}

/// A policy's self-description: its name and every parameter with its effective value.
public struct PolicyDescriptor: Sendable, Equatable {
    public var name: String
    /// Parameters in declaration order, with effective values rendered as given.
    public var parameters: [(name: String, value: String)]
    public var capabilities: PolicyCapabilities

    public init(name: String, parameters: [(name: String, value: String)] = [], capabilities: PolicyCapabilities = []) {
        self.name = name
        self.parameters = parameters
        self.capabilities = capabilities
    }

    /// `name(k=v,k=v)`, or `name` when the policy has no parameters.
    public var displayName: String {
        parameters.isEmpty ? name : "\(name)(" + parameters.map { "\($0.name)=\($0.value)" }.joined(separator: ",") + ")"
    }

    public static func == (a: PolicyDescriptor, b: PolicyDescriptor) -> Bool {
        a.displayName == b.displayName
    }
}

/// Parameters as `[[name, value]]`, in order (a shard's results carry their policy: `jetsim merge`).
extension PolicyDescriptor: Codable {
    private enum CodingKeys: String, CodingKey { case name, parameters, capabilities }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let pairs = try c.decode([[String]].self, forKey: .parameters)
        guard pairs.allSatisfy({ $0.count == 2 }) else {
            throw DecodingError.dataCorruptedError(forKey: .parameters, in: c, debugDescription: "each parameter is [name, value]")
        }
        self.init(name: try c.decode(String.self, forKey: .name), parameters: pairs.map { ($0[0], $0[1]) },
                  capabilities: try c.decode(PolicyCapabilities.self, forKey: .capabilities))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(parameters.map { [$0.name, $0.value] }, forKey: .parameters)
        try c.encode(capabilities, forKey: .capabilities)
    }
}

/// XNU's band numbers (xnu-jetsam.md §1), the default `band(for:)` of every policy.
public struct BandTable: Sendable, Equatable {
    public var foreground = 100, audio = 120, backgroundWork = 40, aging = 20, idle = 0, frozen = 75
    public init() {}

    public func band(for priorityClass: PriorityClass) -> Int {
        switch priorityClass {
        case .none: -1
        case .idle: idle
        case .aging: aging
        case .backgroundWork: backgroundWork
        case .frozen: frozen
        case .foreground: foreground
        case .audio: audio
        }
    }
}
