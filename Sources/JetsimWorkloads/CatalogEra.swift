/// Which era's app sizes an imported catalog gets (`--catalog-era`): the category of an app comes from the name table
/// either way (`AppNameCategories`), its footprint and launch profile from the era's table. Phones of 2013 ran apps of
/// a fraction of today's size (a 2 GB Nexus 4 capped an app's Java heap at 192 MB), so replaying a 2013 trace with
/// 2020s sizes (Chrome 396 MB at launch) overstates memory pressure many times. Sources per number: README,
/// "StudentLife".
public struct CatalogEra: Sendable, Equatable {
    public let name: String
    /// One profile per category name of `AppCategory.all` and `AppCategory.importOnly`, in that order.
    public let categories: [AppCategory]

    /// Today's sizes: the categories as generated catalogs use them (README, "Workloads").
    public static let current = CatalogEra(name: "2020s", categories: AppCategory.all + AppCategory.importOnly)

    /// Android 4.x phones of 2013 (Nexus 4/5 class, 2 GB): PSS-scale footprints of the era's apps. Every size is an
    /// estimate anchored on the era's measurements (README, "StudentLife": a KitKat `dumpsys meminfo` of SystemUI,
    /// 42.7 MB PSS of which 29.5 MB private dirty; AOSP's 2 GB phone heap configuration, 8 MB initial and 192 MB
    /// largest Java heap); launch times, modes and background tasks stay today's. Purgeable memory is 0: Android
    /// apps of the era had no counterpart of iOS's purgeable data outside the browser's ashmem caches.
    public static let android2013 = CatalogEra(name: "android-2013", categories: [
        era2013("messaging", dirty: 30, growth: 0.5, cache: 10, backing: 12, image: 6, file: 20),
        era2013("social", dirty: 45, growth: 2, cache: 30, backing: 12, image: 20, file: 25),
        era2013("browser", dirty: 70, growth: 3, cache: 30, backing: 12, image: 15, file: 30),
        era2013("video", dirty: 45, growth: 1, cache: 20, backing: 12, image: 10, file: 25),
        era2013("music", dirty: 30, growth: 0.5, cache: 10, backing: 12, image: 8, file: 20),
        era2013("navigation", dirty: 70, growth: 1.5, cache: 20, backing: 12, image: 10, file: 30),
        era2013("game", dirty: 150, growth: 3, cache: 20, backing: 12, image: 10, file: 60),
        era2013("camera", dirty: 40, growth: 1, cache: 10, backing: 12, image: 10, file: 20),
        era2013("mail", dirty: 35, growth: 0.5, cache: 15, backing: 12, image: 5, file: 20),
        era2013("system", dirty: 20, growth: 0.25, cache: 5, backing: 12, image: 3, file: 15),
        era2013("casual-game", dirty: 60, growth: 0.5, cache: 10, backing: 12, image: 10, file: 30),
        era2013("other", dirty: 30, growth: 1, cache: 10, backing: 12, image: 6, file: 20),
    ])

    public static let all = [current, android2013]

    public static func named(_ name: String) -> CatalogEra? { all.first { $0.name == name } }

    /// `category` with this era's sizes (the category itself when the era has no entry of its name).
    public func sized(_ category: AppCategory) -> AppCategory {
        categories.first { $0.name == category.name } ?? category
    }

    /// Today's category `name` with the 2013 sizes in MB; purgeable 0.
    private static func era2013(_ name: String, dirty: Double, growth: Double, cache: Double, backing: Double, image: Double,
                                file: Double) -> AppCategory {
        guard var c = AppCategory.named(name) else { preconditionFailure("no category \(name)") }
        (c.dirtyMB, c.growthMBPerMinute, c.cacheMB, c.purgeableMB) = (dirty, growth, cache, 0)
        (c.backingStoreMB, c.imageCacheMB, c.fileBackedMB) = (backing, image, file)
        return c
    }
}
