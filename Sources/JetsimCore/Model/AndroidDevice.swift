// Android 4.x as a platform (README, "Android 4.x"): the parameters ActivityManager gives the kernel's lowmemorykiller.
//
// Sources, as stored in the index (aosp-mirror/platform_frameworks_base, services/java/com/android/server/am/ProcessList.java):
// - Jelly Bean (4.1–4.3), commit 7a0437b8 ("ProcessList JB" below);
// - KitKat (4.4): the 4.4 release tag is not in the index; the nearest stored version is commit 04cca35b on master just
//   after 4.4 ("ProcessList KK"), whose oom_adj constants, minfree tables, process limit and empty-process share are
//   KitKat's (it writes the levels to lmkd, as Android 5 does, rather than to /sys/module/lowmemorykiller/parameters).

/// The oom_adj values ActivityManager gives processes (ProcessList JB:41–85, KK:49–97); lower survives longer. The
/// model uses those an app of the catalog can hold (the launcher, the backup agent and heavy-weight apps are not
/// catalog apps).
public enum AndroidOomAdj {
    /// The top activity's process (`FOREGROUND_APP_ADJ`).
    public static let foreground = 0
    /// A process with a visible activity that is not on top (`VISIBLE_APP_ADJ`).
    public static let visible = 1
    /// Perceptible though not visible, e.g. background music (`PERCEPTIBLE_APP_ADJ`).
    public static let perceptible = 2
    /// A process running a started service (`SERVICE_ADJ`).
    public static let service = 5
    /// The launcher (`HOME_APP_ADJ`): part of the OS reserve in the model, never a catalog app.
    public static let home = 6
    /// The process of the previous activity the user was in (`PREVIOUS_APP_ADJ`).
    public static let previous = 7
    /// The cached (JB: hidden) range, spread over by LRU position (`CACHED_APP_MIN_ADJ` … `CACHED_APP_MAX_ADJ`).
    public static let cachedMin = 9, cachedMax = 15
}

extension Device {
    /// Android releases whose ProcessList tables differ.
    public enum AndroidRelease: String, Sendable, CaseIterable, Codable {
        /// Jelly Bean, 4.1–4.3 (the Nexus 4 shipped with 4.2).
        case jellyBean = "4.2"
        /// KitKat, 4.4 (the Nexus 5 shipped with it).
        case kitKat = "4.4"

        /// The release a version string names: 4.1, 4.2 and 4.3 are Jelly Bean, 4.4 KitKat.
        public static func named(_ version: String) -> AndroidRelease? {
            switch version {
            case "4.1", "4.2", "4.3": .jellyBean
            case "4.4": .kitKat
            default: nil
            }
        }

        /// `mOomAdj`: the lowmemorykiller's six adj levels (JB:134–137, where `BACKUP_APP_ADJ` is 4 (:67); KK:160–163,
        /// where it is 3 (:84)).
        public var oomAdj: [Int] { self == .jellyBean ? [0, 1, 2, 4, 9, 15] : [0, 1, 2, 3, 9, 15] }
        /// `TRIM_EMPTY_APPS`: Jelly Bean's is 3 (JB:115); KitKat's is `MAX_EMPTY_APPS / 2`, with `MAX_EMPTY_APPS =
        /// computeEmptyProcessLimit(MAX_CACHED_APPS)` = 24 × 2 / 3 = 16 (KK:125, :289–291): 8.
        public var trimEmptyApps: Int { self == .jellyBean ? 3 : 8 }
        /// `mOomMinFreeLow`, KiB: the levels of a phone with 300 MB or less (JB:140–143, KK:166–169).
        public var minfreeLowKiB: [Int] { [8192, 12288, 16384, 24576, 28672, 32768] }
        /// `mOomMinFreeHigh`, KiB: the levels from 700 MB of RAM on (JB:146–149, KK:172–175).
        public var minfreeHighKiB: [Int] {
            self == .jellyBean ? [32768, 40960, 49152, 57344, 65536, 81920] : [49152, 61440, 73728, 86016, 98304, 122880]
        }

        /// The lowmemorykiller levels `updateOomLevels` writes for `totalBytes` of RAM (JB:175–203, KK:206–236):
        /// `scale = (total MB − 300) / 400` clamped to 0…1, each level `low + (high − low) × scale` KiB, written as
        /// 4 KiB pages (JB:202, KK:278). The display-size scale is left out: it only raises the levels of phones
        /// with less than 700 MB (the larger of the two scales is taken, JB:189, KK:221).
        public func levels(totalBytes: Int) -> [MinfreeLevel] {
            let scaled = min(max(totalBytes / Units.mebibyte - 300, 0), 400)
            return zip(oomAdj, zip(minfreeLowKiB, minfreeHighKiB)).map { adj, range in
                let kib = range.0 + (range.1 - range.0) * scaled / 400
                return MinfreeLevel(oomAdj: adj, minfreeBytes: kib / 4 * 4 * Units.kibibyte)
            }
        }
    }

    /// One level of the lowmemorykiller: below `minfreeBytes` of free memory *and* of file cache, processes at or above
    /// `oomAdj` may be killed.
    public struct MinfreeLevel: Sendable, Equatable, Codable {
        public var oomAdj: Int
        public var minfreeBytes: Int
        public init(oomAdj: Int, minfreeBytes: Int) {
            self.oomAdj = oomAdj
            self.minfreeBytes = minfreeBytes
        }
    }

    /// What Android 4.x's ActivityManager and lowmemorykiller are configured with.
    public struct AndroidSettings: Sendable, Equatable, Codable {
        public var release = AndroidRelease.kitKat
        /// The lowmemorykiller's levels in `/sys/module/lowmemorykiller/parameters` order: ascending minfree and adj
        /// (at most six, `lowmem_adj[6]`, lowmemorykiller.c:41–54).
        public var levels: [MinfreeLevel] = []
        /// `mProcessLimit`: cached and empty processes kept at most (`MAX_HIDDEN_APPS` 24, JB:104; `MAX_CACHED_APPS`
        /// 24, KK:125).
        public var processLimit = 24
        /// `TRIM_EMPTY_APPS`: the most recent empty processes spared by the idle rule (`AndroidRelease.trimEmptyApps`).
        /// A constant of ProcessList: changing `processLimit` (as `setProcessLimit` does) leaves it as it is.
        public var emptyProcessTrimCount = AndroidRelease.kitKat.trimEmptyApps
        /// `MAX_EMPTY_TIME`: an empty process beyond `emptyProcessTrimCount` idle longer than this is killed (30 min,
        /// JB:107; KitKat's declaration follows `MAX_CACHED_APPS`, KK:125, with the same value).
        public var emptyProcessMaxIdleMicros = 30 * 60 * Units.microsPerSecond
        public init() {}

        /// Empty processes (no activity) kept at most: `computeEmptyProcessLimit`, two thirds of the limit (KK:289–291;
        /// `updateOomAdjLocked`'s special cases for limits of 0 and 1).
        public var emptyProcessLimit: Int { processLimit <= 0 ? 0 : processLimit == 1 ? 1 : processLimit * 2 / 3 }
        /// Cached processes holding activities kept at most: the rest of the limit (`updateOomAdjLocked`).
        public var cachedProcessLimit: Int { processLimit <= 1 ? 0 : processLimit - emptyProcessLimit }
    }

    /// An Android 4.x phone of `physicalBytes` RAM: 4 KiB pages, the release's minfree levels for its RAM, no compressor
    /// (zram was off on the Nexus phones), no freezer, no reaper and no jetsam thresholds, no per-app kill limit (an
    /// app's limit is the whole RAM: Dalvik's heap limit throws an OutOfMemoryError in the app, not a kill by the
    /// system), and no background-task budget (a started service runs until its work ends). The OS reserve is 20 %
    /// of RAM, as on iOS.
    public static func androidPhone(name: String, physicalBytes: Int, release: AndroidRelease, source: String = "") -> Device {
        var d = Device(name: name, physicalBytes: physicalBytes, appLimitBytes: physicalBytes, source: source)
        d.platform = .android
        d.pageSize = 4 * Units.kibibyte
        d.killThresholds = .init(criticalPercent: 0, idlePercent: 0, softPercent: 0)
        d.compressor = .init(enabled: false, ratioMilli: 1000, poolLimitBytes: 0)
        d.freezer.enabled = false
        d.reaper.enabled = false
        d.backgroundTaskBudgetMicros = androidNoBudgetMicros
        d.android.release = release
        d.android.levels = release.levels(totalBytes: physicalBytes)
        d.android.emptyProcessTrimCount = release.trimEmptyApps
        return d
    }

    /// "No budget": ten years, beyond any trace.
    public static let androidNoBudgetMicros = 10 * 365 * 86_400 * Units.microsPerSecond

    /// The kernel as reports name it: XNU's version on iOS, `android-<release>` on Android.
    public var kernelName: String { platform == .android ? "android-\(android.release.rawValue)" : kernel.rawValue }

    /// What makes an Android device unusable, in words.
    func androidProblems() -> [String] {
        var problems: [String] = []
        if compressor.enabled { problems.append("Android 4.x has no memory compressor here: set compressor: false") }
        if freezer.enabled { problems.append("Android 4.x has no freezer: set freezer: false") }
        if reaper.enabled { problems.append("Android 4.x has no long-idle reaper: set reaper: false") }
        if cacheEquivalent { problems.append("a cache-equivalent device has no platform") }
        let levels = android.levels
        if levels.isEmpty || levels.count > 6 { problems.append("the lowmemorykiller takes 1 to 6 minfree levels") }
        if zip(levels, levels.dropFirst()).contains(where: { $0.minfreeBytes > $1.minfreeBytes || $0.oomAdj > $1.oomAdj })
            || levels.contains(where: { $0.minfreeBytes < 0 || $0.oomAdj < 0 || $0.oomAdj > AndroidOomAdj.cachedMax }) {
            problems.append("minfree levels must be ascending, non-negative, with oom_adj from 0 to 15 ascending")
        }
        if android.processLimit < 0 { problems.append("the process limit must not be negative") }
        return problems
    }
}
