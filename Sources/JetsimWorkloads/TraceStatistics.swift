import JetsimCore

/// What `jetsim inspect` reports about a trace, accumulated in one streaming pass: events by type, time span,
/// users, distinct apps, launches per hour, top apps by opens, the reuse-distance distribution and the working
/// set per hour.
///
/// Reuse distance of an open = the number of distinct apps opened since the previous open of the same app
/// (LRU with room for d + 1 apps keeps it). Computed exactly with a Fenwick tree over open positions, in
/// O(log n) per open.
public struct TraceStatistics: Sendable {
    public private(set) var events = 0
    public private(set) var eventsByKind = [Int](repeating: 0, count: TraceEventKind.allCases.count)
    public private(set) var firstTime: Int?
    public private(set) var lastTime = 0
    public private(set) var opensByApp: [Int] = []
    public private(set) var appsSeen = Set<Int32>()
    public private(set) var users = Set<String>()
    /// Reuse distances: distance → count; first opens counted apart.
    public private(set) var reuseDistances: [Int: Int] = [:]
    public private(set) var firstOpens = 0
    /// The hours since the first event that have opens, in order: (hour, opens, distinct apps opened). Sparse, so
    /// memory grows with the events, not with the time they span.
    public private(set) var activeHours: [(hour: Int, opens: Int, distinctApps: Int)] = []

    /// Hours from the first event through the last hour with an open (0 without opens).
    public var hourCount: Int { (activeHours.last?.hour ?? -1) + 1 }

    /// Per hour since the first event through the last with an open: (opens, distinct apps opened). Dense: check
    /// `hourCount` before asking for it on a trace spanning a long time.
    public var hours: [(opens: Int, distinctApps: Int)] {
        var dense = [(opens: Int, distinctApps: Int)](repeating: (0, 0), count: hourCount)
        for h in activeHours { dense[h.hour] = (h.opens, h.distinctApps) }
        return dense
    }

    private var opens = 0
    private var lastOpenPosition: [Int] = []
    private var fenwick: [Int] = [0]
    private var lastHourOfApp: [Int] = []

    public init() {}

    public mutating func add(_ e: TraceEvent, user: String? = nil) {
        events += 1
        eventsByKind[Int(e.kind.rawValue)] += 1
        if firstTime == nil { firstTime = e.time }
        lastTime = e.time
        if let user { users.insert(user) }
        guard e.app >= 0 else { return }
        appsSeen.insert(e.app)
        guard e.kind == .open else { return }
        let a = Int(e.app)
        if a >= opensByApp.count {
            opensByApp += Array(repeating: 0, count: a + 1 - opensByApp.count)
            lastOpenPosition += Array(repeating: -1, count: a + 1 - lastOpenPosition.count)
            lastHourOfApp += Array(repeating: -1, count: a + 1 - lastHourOfApp.count)
        }
        opensByApp[a] += 1
        // Reuse distance: distinct apps whose latest open lies between this app's previous open and now.
        let position = opens
        opens += 1
        growFenwick(to: opens)
        if lastOpenPosition[a] >= 0 {
            let previous = lastOpenPosition[a]
            let distance = prefix(position - 1) - prefix(previous)
            reuseDistances[distance, default: 0] += 1
            update(previous, -1)
        } else {
            firstOpens += 1
        }
        update(position, 1)
        lastOpenPosition[a] = position
        // Working set per hour (events come in time order: the hour is the last one or a new one).
        let hour = max(0, e.time &- (firstTime ?? e.time)) / (3600 * Units.microsPerSecond)
        var slot = activeHours.count - 1
        if let last = activeHours.last, last.hour == hour {
            // the current hour
        } else if let last = activeHours.last, last.hour > hour {
            // An earlier hour (events out of order, which Jetsim's readers refuse), kept in order.
            let k = activeHours.firstIndex { $0.hour >= hour } ?? 0
            if activeHours[k].hour != hour { activeHours.insert((hour, 0, 0), at: k) }
            slot = k
        } else {
            activeHours.append((hour, 0, 0))
            slot = activeHours.count - 1
        }
        activeHours[slot].opens += 1
        if lastHourOfApp[a] != hour {
            lastHourOfApp[a] = hour
            activeHours[slot].distinctApps += 1
        }
    }

    // Fenwick tree (1-based inside) over open positions; grows by doubling.
    private mutating func growFenwick(to size: Int) {
        guard size >= fenwick.count else { return }
        var values = [Int](repeating: 0, count: max(16, fenwick.count * 2))
        // Rebuild from point values: recover them by differences of prefix sums.
        let old = fenwick.count - 1
        var points = [Int](repeating: 0, count: old + 1)
        for i in stride(from: 1, through: old, by: 1) { points[i] = prefix(i - 1) - (i >= 2 ? prefix(i - 2) : 0) }
        fenwick = values
        for i in stride(from: 1, through: old, by: 1) where points[i] != 0 { update(i - 1, points[i]) }
        values = []
    }

    private mutating func update(_ position: Int, _ delta: Int) {
        var i = position + 1
        while i < fenwick.count { fenwick[i] += delta; i += i & -i }
    }

    /// Σ markers at positions 0…position (0 for a negative position).
    private func prefix(_ position: Int) -> Int {
        var i = position + 1, sum = 0
        while i > 0 { sum += fenwick[i]; i -= i & -i }
        return sum
    }

    public var spanMicros: Int { lastTime - (firstTime ?? lastTime) }

    /// Buckets of the reuse-distance distribution: 0, 1, 2, 3, 4, 5–7, 8–15, 16–31, 32–63, 64+.
    public static let distanceBuckets: [(label: String, range: ClosedRange<Int>)] = [
        ("0", 0...0), ("1", 1...1), ("2", 2...2), ("3", 3...3), ("4", 4...4), ("5-7", 5...7), ("8-15", 8...15),
        ("16-31", 16...31), ("32-63", 32...63), ("64+", 64...Int.max),
    ]

    public func bucketCounts() -> [Int] {
        Self.distanceBuckets.map { b in reuseDistances.filter { b.range.contains($0.key) }.map(\.value).reduce(0, +) }
    }

    /// The p-th percentile (nearest rank) of reuse distances, nil when nothing was reused.
    public func reuseDistancePercentile(_ percent: Int) -> Int? {
        let total = reuseDistances.values.reduce(0, +)
        guard total > 0 else { return nil }
        let rank = (percent * total + 99) / 100
        var seen = 0
        for (d, c) in reuseDistances.sorted(by: { $0.key < $1.key }) {
            seen += c
            if seen >= rank { return d }
        }
        return nil
    }

    /// Apps by opens, most first (ties by id).
    public func topApps(_ n: Int) -> [(app: Int32, opens: Int)] {
        opensByApp.enumerated().filter { $0.element > 0 }.sorted { $0.element != $1.element ? $0.element > $1.element : $0.offset < $1.offset }
            .prefix(n).map { (Int32($0.offset), $0.element) }
    }
}
