/// Why an app was killed. The first group are the kernel's jetsam reasons with XNU's report strings
/// (xnu-jetsam.md §4); the last two are lifecycle kills by the system's watchdogs
/// (ios-app-lifecycle.md: the launch watchdog, and an unfinished background task at expiry).
public enum KillReason: UInt8, Sendable, CaseIterable, Codable {
    case perProcessLimit
    case highwater
    case idleExit
    case vmPageShortage
    case vmCompressorSpaceShortage
    case sustainedMemoryPressure
    /// The long-idle reaper (xnu-11417 on): apps idle in band 0 for long, swept below the reaper threshold.
    case longIdleExit
    case launchWatchdog
    case backgroundTaskExpired
    /// The app's `applicationDidEnterBackground` handler overran its deadline (ios-app-lifecycle.md: about 5 s).
    case enterBackgroundWatchdog
    /// The app's `applicationWillTerminate` handler overran the same deadline.
    case willTerminateWatchdog

    /// The string in reports; jetsam reasons use XNU's own.
    public var reportName: String {
        switch self {
        case .perProcessLimit: "per-process-limit"
        case .highwater: "highwater"
        case .idleExit: "idle-exit"
        case .vmPageShortage: "vm-pageshortage"
        case .vmCompressorSpaceShortage: "vm-compressor-space-shortage"
        case .sustainedMemoryPressure: "sustained-memory-pressure"
        case .longIdleExit: "long-idle-exit"
        case .launchWatchdog: "launch-watchdog"
        case .backgroundTaskExpired: "background-task-expired"
        case .enterBackgroundWatchdog: "enter-background-watchdog"
        case .willTerminateWatchdog: "will-terminate-watchdog"
        }
    }

    /// A jetsam (memory) kill, as opposed to a lifecycle watchdog kill.
    public var isJetsam: Bool { self != .launchWatchdog && self != .backgroundTaskExpired && self != .enterBackgroundWatchdog
        && self != .willTerminateWatchdog }
}
