/// The five execution states of an iOS app (ios-app-lifecycle.md, "The five execution states").
public enum AppState: UInt8, Sendable, CaseIterable, BitwiseCopyable, Codable {
    case notRunning, inactive, active, background, suspended

    /// The name used in reports.
    public var reportName: String { staticReportName.description }

    /// `reportName` as static bytes, which a report row copies (a `String` read per row cost some fifty instructions
    /// and a release).
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
