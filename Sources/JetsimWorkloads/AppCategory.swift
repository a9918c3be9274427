import JetsimCore

/// App categories with their memory and launch profiles: the building blocks of generated and imported
/// catalogs. Footprints follow android-lmkd.md (PSS after launch: WhatsApp 68 MB, Instagram 106 MB, Evernote
/// 92 MB; GB-scale games) and launch times its measurements (cold 0.15–1.4 s for stock apps, ~2 s and more for
/// heavy ones); the table is documented in README ("Workloads").
public struct AppCategory: Sendable, Equatable {
    public var name: String
    public var dirtyMB: Double
    public var growthMBPerMinute: Double
    public var cacheMB: Double
    public var purgeableMB: Double
    public var backingStoreMB: Double
    public var imageCacheMB: Double
    public var fileBackedMB: Double
    public var coldLaunchMillis: Int
    public var resumeMillis: Int
    public var modes: BackgroundModes
    public var backgroundTaskSeconds: Int
    /// Share of a generated catalog in this category.
    public var share: Double

    public static let all: [AppCategory] = [
        .init(name: "messaging", dirtyMB: 68, growthMBPerMinute: 1, cacheMB: 30, purgeableMB: 10, backingStoreMB: 24, imageCacheMB: 12,
              fileBackedMB: 45, coldLaunchMillis: 700, resumeMillis: 150, modes: [.voip, .remoteNotification], backgroundTaskSeconds: 10, share: 0.15),
        .init(name: "social", dirtyMB: 106, growthMBPerMinute: 5, cacheMB: 90, purgeableMB: 40, backingStoreMB: 30, imageCacheMB: 60,
              fileBackedMB: 55, coldLaunchMillis: 1400, resumeMillis: 250, modes: [.fetch, .remoteNotification], backgroundTaskSeconds: 0, share: 0.15),
        .init(name: "browser", dirtyMB: 180, growthMBPerMinute: 6, cacheMB: 80, purgeableMB: 60, backingStoreMB: 36, imageCacheMB: 40,
              fileBackedMB: 60, coldLaunchMillis: 900, resumeMillis: 200, modes: [], backgroundTaskSeconds: 5, share: 0.08),
        .init(name: "video", dirtyMB: 150, growthMBPerMinute: 4, cacheMB: 60, purgeableMB: 80, backingStoreMB: 30, imageCacheMB: 30,
              fileBackedMB: 70, coldLaunchMillis: 1300, resumeMillis: 220, modes: [.audio], backgroundTaskSeconds: 0, share: 0.08),
        .init(name: "music", dirtyMB: 90, growthMBPerMinute: 1, cacheMB: 30, purgeableMB: 20, backingStoreMB: 20, imageCacheMB: 20,
              fileBackedMB: 50, coldLaunchMillis: 800, resumeMillis: 150, modes: [.audio], backgroundTaskSeconds: 0, share: 0.05),
        .init(name: "navigation", dirtyMB: 200, growthMBPerMinute: 3, cacheMB: 60, purgeableMB: 30, backingStoreMB: 40, imageCacheMB: 40,
              fileBackedMB: 80, coldLaunchMillis: 1420, resumeMillis: 260, modes: [.location], backgroundTaskSeconds: 10, share: 0.04),
        .init(name: "game", dirtyMB: 700, growthMBPerMinute: 10, cacheMB: 80, purgeableMB: 120, backingStoreMB: 60, imageCacheMB: 40,
              fileBackedMB: 150, coldLaunchMillis: 5000, resumeMillis: 500, modes: [], backgroundTaskSeconds: 0, share: 0.10),
        .init(name: "camera", dirtyMB: 140, growthMBPerMinute: 2, cacheMB: 20, purgeableMB: 0, backingStoreMB: 48, imageCacheMB: 30,
              fileBackedMB: 50, coldLaunchMillis: 600, resumeMillis: 180, modes: [], backgroundTaskSeconds: 8, share: 0.05),
        .init(name: "mail", dirtyMB: 92, growthMBPerMinute: 1, cacheMB: 40, purgeableMB: 30, backingStoreMB: 20, imageCacheMB: 10,
              fileBackedMB: 45, coldLaunchMillis: 148, resumeMillis: 110, modes: [.fetch, .remoteNotification], backgroundTaskSeconds: 15, share: 0.05),
        .init(name: "system", dirtyMB: 40, growthMBPerMinute: 0.5, cacheMB: 10, purgeableMB: 5, backingStoreMB: 16, imageCacheMB: 5,
              fileBackedMB: 30, coldLaunchMillis: 300, resumeMillis: 100, modes: [], backgroundTaskSeconds: 0, share: 0.25),
    ]

    /// The profile of apps no table entry recognises: a mid-sized app (never part of a generated mix).
    public static let other = AppCategory(name: "other", dirtyMB: 80, growthMBPerMinute: 2, cacheMB: 30, purgeableMB: 15, backingStoreMB: 24,
                                          imageCacheMB: 15, fileBackedMB: 45, coldLaunchMillis: 1000, resumeMillis: 180, modes: [],
                                          backgroundTaskSeconds: 0, share: 0)

    /// Casual games (solitaire, match-3, word and puzzle games): small 2D apps, not the GB-scale 3D `game` profile that
    /// made Klondike Solitaire 700 MB growing 10 MB/min (issue 20). An estimate, as most of the table: README, "Workloads".
    /// Imports only, never part of a generated mix (which stays as it was).
    public static let casualGame = AppCategory(name: "casual-game", dirtyMB: 120, growthMBPerMinute: 1, cacheMB: 30, purgeableMB: 20,
                                               backingStoreMB: 24, imageCacheMB: 20, fileBackedMB: 50, coldLaunchMillis: 1500, resumeMillis: 200,
                                               modes: [], backgroundTaskSeconds: 0, share: 0)

    /// Categories that imports use and generated catalogs do not.
    public static let importOnly = [casualGame, other]

    public static func named(_ name: String) -> AppCategory? { (all + importOnly).first { $0.name == name } }

    /// The long-running modes an app of the category keeps on after the user leaves it, when an import asks for it
    /// (`--background-play`): a music player goes on playing, a navigation app navigating. Video apps declare audio too
    /// but are left out: most pause when left (background play is a paid or opt-in feature).
    public static let playedWhenLeft: [String: BackgroundModes] = ["music": .audio, "navigation": .location]

    /// The category's app profile named `appName`, with every size scaled by `scale` (1 = the table).
    public func profile(named appName: String, scale: Double = 1) -> AppProfile {
        // Whole KiB, so the sizes are written exactly in a catalog's decimal MB.
        func bytes(_ mb: Double) -> Int { Int((mb * scale * 1024).rounded()) * 1024 }
        var p = AppProfile(name: appName, dirtyBytes: bytes(dirtyMB))
        p.growthBytesPerMinute = bytes(growthMBPerMinute)
        p.maxDirtyBytes = p.dirtyBytes * 2
        p.cacheBytes = bytes(cacheMB)
        p.purgeableBytes = bytes(purgeableMB)
        p.backingStoreBytes = bytes(backingStoreMB)
        p.imageCacheBytes = bytes(imageCacheMB)
        p.fileBackedBytes = bytes(fileBackedMB)
        p.coldLaunchMillis = coldLaunchMillis
        p.resumeMillis = resumeMillis
        p.backgroundModes = modes
        p.backgroundTaskMicros = backgroundTaskSeconds * Units.microsPerSecond
        return p
    }

    /// `count` apps drawn from the category shares (largest remainder, so small catalogs still get every big
    /// category), sizes jittered ±30 % per app from `random`. Names are `<category>-<n>`.
    public static func catalog(count: Int, random: inout SeededRandom) -> [AppProfile] {
        var quotas = all.map { Int(($0.share * Double(count)).rounded(.down)) }
        var order = Array(all.indices).sorted {
            let ra = all[$0].share * Double(count) - Double(quotas[$0]), rb = all[$1].share * Double(count) - Double(quotas[$1])
            return ra != rb ? ra > rb : $0 < $1
        }
        var k = 0
        while quotas.reduce(0, +) < count {
            quotas[order[k % order.count]] += 1
            k += 1
        }
        order = Array(all.indices)
        var categories: [Int] = []
        for c in order { categories += Array(repeating: c, count: quotas[c]) }
        random.shuffle(&categories)
        var numbering = [Int](repeating: 0, count: all.count)
        return categories.map { c in
            numbering[c] += 1
            return all[c].profile(named: "\(all[c].name)-\(numbering[c])", scale: 0.7 + 0.6 * random.unit())
        }
    }
}
