/// Built-in devices (devices.md): RAM and the measured per-app limit, named in lower case with hyphens; and two Android
/// 4.x phones.
public enum DevicePresets {
    private struct Row {
        let name: String, ramMB: Int, limitMB: Int, ios: String, note: String
    }

    // RAM and app limit in MB as measured (StackOverflow q. 5887248); newer phones are estimates.
    private static let rows: [Row] = [
        Row(name: "iphone-5s", ramMB: 1024, limitMB: 646, ios: "", note: "measured limit"),
        Row(name: "iphone-6", ramMB: 1024, limitMB: 645, ios: "8", note: "measured limit"),
        Row(name: "iphone-6s", ramMB: 2048, limitMB: 1396, ios: "9.2", note: "measured limit"),
        Row(name: "iphone-se", ramMB: 2048, limitMB: 1395, ios: "9.3", note: "measured limit (1st generation)"),
        Row(name: "iphone-7", ramMB: 2048, limitMB: 1395, ios: "10.2", note: "measured limit"),
        Row(name: "iphone-7-plus", ramMB: 3072, limitMB: 2040, ios: "10.2.1", note: "measured limit"),
        Row(name: "iphone-8", ramMB: 1990, limitMB: 1364, ios: "12.1", note: "measured limit"),
        Row(name: "iphone-x", ramMB: 2785, limitMB: 1392, ios: "11.2.1", note: "measured limit"),
        Row(name: "iphone-xr", ramMB: 2813, limitMB: 1792, ios: "12.1", note: "measured limit"),
        Row(name: "iphone-xs", ramMB: 3754, limitMB: 2040, ios: "12.1", note: "measured limit"),
        Row(name: "iphone-xs-max", ramMB: 3735, limitMB: 2039, ios: "12.1", note: "measured limit"),
        Row(name: "iphone-11", ramMB: 3844, limitMB: 2068, ios: "13.1.3", note: "measured limit"),
        Row(name: "iphone-11-pro-max", ramMB: 3740, limitMB: 2067, ios: "13.2.3", note: "measured limit"),
        Row(name: "ipad-air-2", ramMB: 2048, limitMB: 1383, ios: "10.2.1", note: "measured limit"),
        Row(name: "ipad-10-2", ramMB: 2998, limitMB: 1844, ios: "13.2.3", note: "measured limit (iPad 10.2\")"),
        Row(name: "ipad-pro-11", ramMB: 3769, limitMB: 2858, ios: "12.1", note: "measured limit (2018)"),
        Row(name: "ipad-pro-12-9", ramMB: 5650, limitMB: 4598, ios: "12.1", note: "measured limit (2018, 1 TB)"),
        Row(name: "iphone-13", ramMB: 4096, limitMB: 2150, ios: "", note: "estimated limit (≈ 52 % of RAM)"),
        Row(name: "iphone-15-pro", ramMB: 8192, limitMB: 4300, ios: "", note: "estimated limit (≈ 52 % of RAM)"),
    ]

    /// The phones of the StudentLife study's era (README, "Android 4.x"): 2 GB of RAM, so ProcessList's memory scale is
    /// 1 and the minfree levels are its high table — Jelly Bean's on the Nexus 4 (8192, 10240, 12288, 14336, 16384,
    /// 20480 pages, as ProcessList JB's own comment lists them, :211), KitKat's on the Nexus 5 (12288, 15360, 18432,
    /// 21504, 24576, 30720 pages).
    private static let androidPhones: [Device] = [
        .androidPhone(name: "nexus-4", physicalBytes: 2048 * Units.mebibyte, release: .jellyBean,
                      source: "Android 4.2 (2012): ProcessList's minfree for 2 GB (32/40/48/56/64/80 MB)"),
        .androidPhone(name: "nexus-5", physicalBytes: 2048 * Units.mebibyte, release: .kitKat,
                      source: "Android 4.4 (2013): ProcessList's minfree for 2 GB (48/60/72/84/96/120 MB)"),
    ]

    /// Every preset, in table order: the iOS devices, then the Android phones.
    public static var all: [Device] { rows.map(device) + androidPhones.map { $0.normalized() } }

    public static var names: [String] { rows.map(\.name) + androidPhones.map(\.name) }

    /// The preset named `name` in any case (`iPhone-X` is `iphone-x`), or nil.
    public static func named(_ name: String) -> Device? {
        let lower = name.lowercased()
        if let phone = androidPhones.first(where: { $0.name == lower }) { return phone.normalized() }
        return rows.first(where: { $0.name == lower }).map(device)
    }

    private static func device(_ row: Row) -> Device {
        let source = row.ios.isEmpty ? row.note : "\(row.note), iOS \(row.ios)"
        return Device(name: row.name, physicalBytes: row.ramMB * Units.mebibyte,
                      appLimitBytes: row.limitMB * Units.mebibyte, source: source).normalized()
    }
}
