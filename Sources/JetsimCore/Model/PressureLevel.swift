/// System memory pressure level (xnu-jetsam.md §6). Levels are notifications, not kills.
public enum PressureLevel: UInt8, Sendable, Comparable, CaseIterable, Codable, StaticReportName {
    case normal, warning, critical
    public var staticReportName: StaticString {
        switch self {
        case .normal: "normal"
        case .warning: "warning"
        case .critical: "critical"
        }
    }
    public static func < (a: PressureLevel, b: PressureLevel) -> Bool { a.rawValue < b.rawValue }
}
