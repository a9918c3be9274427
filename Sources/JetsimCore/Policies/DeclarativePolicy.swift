/// A policy written as data (a file in `Policies/`, Policies/README.md): a protected set, ordered bands with
/// predicates, and, within a band, a weighted sum of named features with tie-breakers.
///
/// Ranking: protected apps are never chosen; an app belongs to the first band whose predicate it satisfies
/// (apps matching none form a last band); the lowest band dies first; within it the lowest score, then the
/// tie-breakers in order. Like every policy it only ranks: the engine owns the accounting.
public struct DeclarativePolicy: EvictionPolicy {
    public var name: String
    public var summary: String
    public var protect: Predicate?
    public var bands: [Band]
    public var weights: [(feature: Feature, weight: Double)]
    public var tieBreakers: [TieBreaker]

    public init(name: String, summary: String = "", protect: Predicate? = nil, bands: [Band] = [],
                weights: [(feature: Feature, weight: Double)] = [], tieBreakers: [TieBreaker] = [.lru]) {
        self.name = name
        self.summary = summary
        self.protect = protect
        self.bands = bands
        self.weights = weights
        self.tieBreakers = tieBreakers
    }

    public struct Band: Sendable {
        public var name: String
        public var when: Predicate
        public init(name: String, when: Predicate) {
            self.name = name
            self.when = when
        }
    }

    /// All given conditions must hold (an empty predicate matches every app). Lists match any of their values.
    public struct Predicate: Sendable {
        public var classes: [PriorityClass]?
        public var states: [AppState]?
        /// Any of these active background activities.
        public var activities: KillCandidate.BackgroundActivity?
        public var runningTask: Bool?
        public var backgroundActivity: Bool?
        public var idleAtLeastMicros: Int?
        public var idleBelowMicros: Int?
        public var footprintAtLeast: Int?
        public var footprintBelow: Int?
        public init() {}

        public func matches(_ c: KillCandidate, now: Int) -> Bool {
            let idle = now - c.lastForegroundTime
            if let classes, !classes.contains(c.priorityClass) { return false }
            if let states, !states.contains(c.state) { return false }
            if let activities, c.backgroundActivity.intersection(activities).isEmpty { return false }
            if let runningTask, c.backgroundActivity.contains(.task) != runningTask { return false }
            if let backgroundActivity, c.backgroundActivity.isEmpty == backgroundActivity { return false }
            if let idleAtLeastMicros, idle < idleAtLeastMicros { return false }
            if let idleBelowMicros, idle >= idleBelowMicros { return false }
            if let footprintAtLeast, c.footprintBytes < footprintAtLeast { return false }
            if let footprintBelow, c.footprintBytes >= footprintBelow { return false }
            return true
        }
    }

    /// Features a score can weigh. Values are in the units of their names.
    public enum Feature: String, Sendable, CaseIterable {
        case footprintMB = "footprint_mb"
        case idleSeconds = "idle_s"
        case launchCount = "launch_count"
        /// Opens per hour since the app was first opened (at least one hour is assumed).
        case useFrequency = "use_frequency"
        case relaunchCostMillis = "relaunch_cost_ms"
        /// Trace events until the app's next open (needs the whole trace; never again counts as 10^12).
        case nextUse = "next_use"

        public func value(_ c: KillCandidate, context: KillContext) -> Double {
            switch self {
            case .footprintMB: return Double(c.footprintBytes) / Double(Units.mebibyte)
            case .idleSeconds: return Double(context.now - c.lastForegroundTime) / 1e6
            case .launchCount: return Double(c.launchCount)
            case .useFrequency:
                guard c.firstUseTime != Int.max else { return 0 }
                return Double(c.launchCount) / max(1, Double(context.now - c.firstUseTime) / 3600e6)
            case .relaunchCostMillis: return Double(c.relaunchCostMillis)
            case .nextUse: return c.nextUse == Int.max ? 1e12 : Double(c.nextUse - context.eventIndex)
            }
        }
    }

    /// Exact orderings for what is left equal.
    public enum TieBreaker: String, Sendable, CaseIterable {
        case lru, fifo, largest, smallest
        /// Oldest entrant of its jetsam band first (XNU's FIFO bands).
        case bandEntry = "band_entry"
        case farthestNextUse = "farthest_next_use"
        /// Lowest catalog id: a total order, so rankings never depend on candidate order.
        case app

        /// True when `a` should die before `b`; nil when they are equal under this rule.
        func prefers(_ a: KillCandidate, _ b: KillCandidate) -> Bool? {
            switch self {
            case .lru: a.lastUseSequence == b.lastUseSequence ? nil : a.lastUseSequence < b.lastUseSequence
            case .fifo: a.launchSequence == b.launchSequence ? nil : a.launchSequence < b.launchSequence
            case .largest: a.footprintBytes == b.footprintBytes ? nil : a.footprintBytes > b.footprintBytes
            case .smallest: a.footprintBytes == b.footprintBytes ? nil : a.footprintBytes < b.footprintBytes
            case .bandEntry: a.bandEntrySequence == b.bandEntrySequence ? nil : a.bandEntrySequence < b.bandEntrySequence
            case .farthestNextUse: a.nextUse == b.nextUse ? nil : a.nextUse > b.nextUse
            case .app: a.app == b.app ? nil : a.app < b.app
            }
        }
    }

    public var descriptor: PolicyDescriptor {
        var capabilities: PolicyCapabilities = []
        if weights.contains(where: { $0.feature == .nextUse }) || tieBreakers.contains(.farthestNextUse) { capabilities.insert(.needsFuture) }
        if weights.contains(where: { $0.feature == .footprintMB }) || tieBreakers.contains(.largest) || tieBreakers.contains(.smallest)
            || bands.contains(where: { $0.when.footprintAtLeast != nil || $0.when.footprintBelow != nil }) {
            capabilities.insert(.sizeAware)
        }
        return PolicyDescriptor(name: name, capabilities: capabilities)
    }

    public func band(for priorityClass: PriorityClass) -> Int { BandTable().band(for: priorityClass) }

    public func bandIndex(_ c: KillCandidate, now: Int) -> Int {
        bands.firstIndex { $0.when.matches(c, now: now) } ?? bands.count
    }

    public func score(_ c: KillCandidate, context: KillContext) -> Double {
        weights.reduce(0) { $0 + $1.weight * $1.feature.value(c, context: context) }
    }

    public mutating func selectVictim(among candidates: [KillCandidate], context: KillContext) -> Int? {
        var best: Int?
        var bestBand = 0, bestScore = 0.0
        for (i, c) in candidates.enumerated() {
            if let protect, protect.matches(c, now: context.now) { continue }
            let band = bandIndex(c, now: context.now), s = score(c, context: context)
            guard let b = best else {
                (best, bestBand, bestScore) = (i, band, s)
                continue
            }
            if band != bestBand {
                if band < bestBand { (best, bestBand, bestScore) = (i, band, s) }
                continue
            }
            if s != bestScore {
                if s < bestScore { (best, bestBand, bestScore) = (i, band, s) }
                continue
            }
            for rule in tieBreakers {
                if let first = rule.prefers(c, candidates[b]) {
                    if first { (best, bestBand, bestScore) = (i, band, s) }
                    break
                }
            }
        }
        return best
    }
}
