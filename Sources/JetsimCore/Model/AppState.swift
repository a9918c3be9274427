/// The five execution states of an iOS app (ios-app-lifecycle.md, "The five execution states").
public enum AppState: UInt8, Sendable, CaseIterable, BitwiseCopyable, Codable, StaticReportName {
    case notRunning, inactive, active, background, suspended

    /// The name used in reports.
    public var staticReportName: StaticString {
        switch self {
        case .notRunning: "not-running"
        case .inactive: "inactive"
        case .active: "active"
        case .background: "background"
        case .suspended: "suspended"
        }
    }

    /// In memory (anything but Not running).
    @inlinable public var isResident: Bool { self != .notRunning }
    /// Executes code: Inactive, Active or Background.
    @inlinable public var isRunning: Bool { self == .inactive || self == .active || self == .background }
}
