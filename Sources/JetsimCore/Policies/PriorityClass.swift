/// What the kernel knows about an app's importance, before any policy turns it into a number.
/// A policy maps classes to bands (`EvictionPolicy.band(for:)`); the engine tracks when an app entered its band.
public enum PriorityClass: UInt8, Sendable, CaseIterable, BitwiseCopyable, Codable, StaticReportName {
    /// Not running: no band.
    case none
    /// Suspended for longer than the aging time (XNU band IDLE 0).
    case idle
    /// Just lost its last assertion (XNU AGING_BAND2 20, for 2 s).
    case aging
    /// Running in the background: an open background task, a long-running mode other than audio, or a
    /// background wake (XNU ELEVATED_INACTIVE 40 suggests it).
    case backgroundWork
    /// Suspended and frozen (XNU FREEZER 75).
    case frozen
    /// The frontmost app (XNU FOREGROUND 100).
    case foreground
    /// Playing audio in the background (XNU AUDIO_AND_ACCESSORY 120).
    case audio

    public var staticReportName: StaticString {
        switch self {
        case .none: "none"
        case .idle: "idle"
        case .aging: "aging"
        case .backgroundWork: "background-work"
        case .frozen: "frozen"
        case .foreground: "foreground"
        case .audio: "audio"
        }
    }
}
