/// "Did you mean …?" for a name the user mistyped (a policy, a device preset): the known name nearest by edit
/// distance, ignoring case, when it is near enough to be a likely typo.
public enum NameSuggestion {
    /// The known name nearest to `name`, or nil when none is within a third of the name's length (at least 2 edits).
    public static func closest(to name: String, among known: [String]) -> String? {
        let typed = Array(name.lowercased().unicodeScalars)
        guard !typed.isEmpty, typed.count <= 200 else { return nil }   // a pasted paragraph is no typo
        let limit = max(2, typed.count / 3)
        var best: (name: String, distance: Int)?
        for candidate in known {
            let d = distance(typed, Array(candidate.lowercased().unicodeScalars))
            if d <= limit, d < (best?.distance ?? Int.max) { best = (candidate, d) }
        }
        return best?.name
    }

    /// ` (did you mean 'lru'?)`, or empty when nothing is near: appended to an "unknown …" message.
    public static func hint(for name: String, among known: [String]) -> String {
        closest(to: name, among: known).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// Levenshtein distance (insertions, deletions, substitutions), two rows of memory.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count), current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
