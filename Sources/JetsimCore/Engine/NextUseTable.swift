/// For every event of a trace, the position of the next `open` of the same app (`Int.max`: none), computed in
/// one backward pass. The offline optimum (`oracle`) and the `next_use` feature of policy files read it.
public struct NextUseTable: Sendable {
    public let nextOpen: [Int]

    public init(events: [TraceEvent], appCount: Int) {
        var next = [Int](repeating: Int.max, count: appCount)
        var table = [Int](repeating: Int.max, count: events.count)
        for k in stride(from: events.count - 1, through: 0, by: -1) {
            let app = Int(events[k].app)
            guard app >= 0 && app < appCount else { continue }
            table[k] = next[app]
            if events[k].kind == .open { next[app] = k }
        }
        nextOpen = table
    }
}
