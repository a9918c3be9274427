/// Why an app was killed. The first group are the kernel's jetsam reasons with XNU's report strings
/// (xnu-jetsam.md §4); then lifecycle kills by the system's watchdogs (ios-app-lifecycle.md: the launch watchdog, and
/// an unfinished background task at expiry); then Android 4.x's (README, "Android 4.x"): the lowmemorykiller's levels
/// and ActivityManager's process caps.
public enum KillReason: UInt8, Sendable, CaseIterable, Codable, StaticReportName {
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
    /// Android's in-kernel lowmemorykiller at minfree level 0…5 (0 the most severe: free memory and file cache both
    /// below the smallest minfree, any process at or above its adj, the foreground one too).
    case lmkLevel0, lmkLevel1, lmkLevel2, lmkLevel3, lmkLevel4, lmkLevel5
    /// ActivityManager killed a cached process holding activities beyond its cached-process limit ("cached #N").
    case cachedProcessLimit
    /// ActivityManager killed an empty process (no activity) beyond its empty-process limit ("empty #N").
    case emptyProcessLimit
    /// ActivityManager killed an empty process idle for more than 30 minutes, beyond the 8 most recent empty ones
    /// ("empty for Ns").
    case emptyProcessIdle

    /// The lowmemorykiller's reason for minfree level `level` (0…5; nil beyond).
    public static func lowMemoryKiller(level: Int) -> KillReason? {
        level >= 0 && level < 6 ? KillReason(rawValue: KillReason.lmkLevel0.rawValue + UInt8(level)) : nil
    }

    /// An Android reason (README, "Android 4.x").
    public var isAndroid: Bool { rawValue >= KillReason.lmkLevel0.rawValue }

    /// The reasons with a `kills_<reason>` column in summary.csv and intervals.csv: iOS's. Android's kills count in
    /// `kills` and `jetsam_kills` there, each with its reason in kills.csv (columns are only ever appended, and the
    /// iOS reports stay byte for byte as they were).
    public static let summaryColumns = allCases.filter { !$0.isAndroid }

    /// The string in reports; jetsam reasons use XNU's own.
    public var staticReportName: StaticString {
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
        case .lmkLevel0: "lmk-level-0"
        case .lmkLevel1: "lmk-level-1"
        case .lmkLevel2: "lmk-level-2"
        case .lmkLevel3: "lmk-level-3"
        case .lmkLevel4: "lmk-level-4"
        case .lmkLevel5: "lmk-level-5"
        case .cachedProcessLimit: "cached-process-limit"
        case .emptyProcessLimit: "empty-process-limit"
        case .emptyProcessIdle: "empty-process-idle"
        }
    }

    /// A jetsam (memory) kill, as opposed to a lifecycle watchdog kill.
    public var isJetsam: Bool { self != .launchWatchdog && self != .backgroundTaskExpired && self != .enterBackgroundWatchdog
        && self != .willTerminateWatchdog }
}
