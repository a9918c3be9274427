/// One app of the catalog (`apps.csv`): its memory make-up, launch costs and background behaviour.
///
/// Sizes are integer bytes, durations integer milliseconds or microseconds. Defaults are the ones documented
/// in `Reports/README.md` ("apps.csv"); `AppProfile(name:dirtyBytes:)` applies them.
public struct AppProfile: Sendable, Equatable {
    public var name: String
    /// Dirty anonymous memory right after launch.
    public var dirtyBytes: Int
    /// Growth of dirty memory per minute while the app is in the foreground.
    public var growthBytesPerMinute: Int
    /// Cap on dirty memory reached by foreground growth (default: twice `dirtyBytes`).
    public var maxDirtyBytes: Int
    /// App caches: dirty memory the app may drop (on backgrounding, on a memory warning).
    public var cacheBytes: Int
    /// Share of its caches the app drops when it enters the background (default 0.5).
    public var cacheDropOnBackground: Share
    /// Share of its caches the app drops on a memory warning (default 1.0).
    public var cacheDropOnWarning: Share
    /// Purgeable data (`NSPurgeableData`, volatile VM): non-volatile while in use in the foreground,
    /// volatile (not footprint, discardable) once the app leaves it.
    public var purgeableBytes: Int
    /// Core Animation backing stores, discarded by the system on backgrounding and rebuilt on return.
    public var backingStoreBytes: Int
    /// System-managed image caches, discarded by the system on backgrounding and rebuilt on return.
    public var imageCacheBytes: Int
    /// Clean file-backed pages (code, mapped files): resident but reclaimable, never footprint.
    public var fileBackedBytes: Int
    /// Compression ratio of the app's dirty memory in thousandths (2500 = 2.5 : 1); nil means the device's.
    public var compressRatioMilli: Int?
    /// Cold-launch latency: what the user waits after a jetsam kill (default 1500 ms).
    public var coldLaunchMillis: Int
    /// Resume latency from Background or Suspended (default 200 ms).
    public var resumeMillis: Int
    /// Declared `UIBackgroundModes`.
    public var backgroundModes: BackgroundModes
    /// `UIApplicationExitsOnSuspend`: terminate instead of entering the background.
    public var exitsOnSuspend: Bool
    /// Background work (µs) the app asks for with `beginBackgroundTask` every time it leaves the foreground.
    public var backgroundTaskMicros: Int
    /// Whether the app ends its task in the expiration handler (then it is suspended) or is terminated.
    public var endsTaskOnExpiry: Bool
    /// How long the app's `applicationDidEnterBackground` handler runs (µs, default 0). The app is suspended when it
    /// returns; one that overruns the system's deadline (about 5 s) is terminated (`enter-background-watchdog`).
    public var enterBackgroundMicros: Int
    /// How long the app's `applicationWillTerminate` handler runs (µs, default 0) when a termination calls it (a
    /// force-quit of a running app, `UIApplicationExitsOnSuspend`). The process ends when it returns; one that overruns
    /// the same deadline (about 5 s) is killed at it (`will-terminate-watchdog`).
    public var willTerminateMicros: Int

    /// The cold-launch latency of a profile that names none (ms).
    public static let defaultColdLaunchMillis = 1500

    public init(name: String, dirtyBytes: Int) {
        self.name = name
        self.dirtyBytes = dirtyBytes
        growthBytesPerMinute = 0
        maxDirtyBytes = dirtyBytes * 2
        cacheBytes = 0
        cacheDropOnBackground = Share(partsPerMillion: 500_000)
        cacheDropOnWarning = .all
        purgeableBytes = 0
        backingStoreBytes = 0
        imageCacheBytes = 0
        fileBackedBytes = 0
        compressRatioMilli = nil
        coldLaunchMillis = AppProfile.defaultColdLaunchMillis
        resumeMillis = 200
        backgroundModes = []
        exitsOnSuspend = false
        backgroundTaskMicros = 0
        endsTaskOnExpiry = true
        enterBackgroundMicros = 0
        willTerminateMicros = 0
    }
}

/// The apps of one run, with dense integer ids (their index).
public struct AppCatalog: Sendable {
    public private(set) var profiles: [AppProfile]
    private var idsByName: [String: Int32]

    /// Fails with the duplicated name if two profiles share a name.
    public init(_ profiles: [AppProfile]) throws(CatalogError) {
        self.profiles = profiles
        idsByName = [:]
        idsByName.reserveCapacity(profiles.count)
        for (i, p) in profiles.enumerated() {
            if idsByName[p.name] != nil { throw .duplicateApp(p.name) }
            idsByName[p.name] = Int32(i)
        }
    }

    public var count: Int { profiles.count }
    public func id(of name: String) -> Int32? { idsByName[name] }
    public subscript(id: Int32) -> AppProfile { profiles[Int(id)] }
}

public enum CatalogError: Error, Equatable, Sendable {
    case duplicateApp(String)
}
