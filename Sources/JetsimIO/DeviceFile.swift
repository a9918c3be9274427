import JetsimCore
import Yams

/// Reads a custom device (YAML; JSON is valid YAML too). Every key is optional except what `base` does not
/// provide: start from a preset with `base: iphone-xs`, or give `ram_mb` and `app_limit_mb`.
/// Keys are documented in Reports/README.md ("Device files"); unknown keys are errors.
public enum DeviceFile {
    public static let keys = [
        "name", "base", "ram_mb", "reserve_mb", "page_size_kb", "app_limit_mb", "app_limit_active_mb",
        "app_limit_inactive_mb", "app_limit_fatal", "critical_pct", "idle_pct", "soft_pct",
        "pressure_warning_pct", "pressure_warning_exit_pct", "pressure_critical_pct", "pressure_critical_exit_pct",
        "compressor", "compress_ratio", "compressor_pool_mb", "os_era", "bg_task_budget_s", "launch_watchdog_s",
        "aging_s", "sustained_pressure_s", "purgeable_ripen_s", "freezer", "freezer_pct", "freezer_max_frozen",
        "freezer_daily_write_mb", "freezer_min_resident_mb", "thaw_ms_per_mb", "freezer_suspended_threshold", "freezer_wake_s", "kernel", "reaper", "reaper_pct",
        "reaper_min_age_s", "reaper_rescan_s", "platform", "android_version", "minfree_mb", "process_limit",
    ]

    /// Keys of XNU's rules, refused on an Android device (README, "Android 4.x"), and Android's, refused on iOS.
    static let iosOnlyKeys: Set<String> = [
        "app_limit_mb", "app_limit_active_mb", "app_limit_inactive_mb", "app_limit_fatal", "critical_pct", "idle_pct", "soft_pct",
        "pressure_warning_pct", "pressure_warning_exit_pct", "pressure_critical_pct", "pressure_critical_exit_pct",
        "compress_ratio", "compressor_pool_mb", "os_era", "bg_task_budget_s", "aging_s", "sustained_pressure_s",
        "purgeable_ripen_s", "freezer_pct", "freezer_max_frozen", "freezer_daily_write_mb", "freezer_min_resident_mb",
        "thaw_ms_per_mb", "freezer_suspended_threshold", "freezer_wake_s", "kernel", "reaper_pct", "reaper_min_age_s", "reaper_rescan_s",
    ]
    static let androidOnlyKeys: Set<String> = ["android_version", "minfree_mb", "process_limit"]

    /// The largest value each kind of key accepts (documented in Reports/README.md, "Device files"): far beyond any
    /// phone, and small enough that nothing the engine computes from them overflows — times reach at most 2^60 µs
    /// (trace times) plus 10 years, and sizes of at most 1 PiB stay far from overflow when multiplied by a
    /// percentage or summed.
    public enum Limits {
        /// Sizes (`*_mb`): 1 PiB, in MiB.
        public static let mebibytes = DecimalParser.maxBytes / Units.mebibyte
        /// Durations (`*_s`): 10 years of 365 days, in seconds.
        public static let seconds = 10 * 365 * 86_400
        /// Page sizes, in KiB: powers of two from 4 to 64.
        public static let pageSizesKiB = [4, 8, 16, 32, 64]
        /// The compression ratio: 1000 : 1 (as for an app's `compress_ratio` in the catalog).
        public static let compressRatio = 1000
        /// `thaw_ms_per_mb`: 10 s per MiB.
        public static let thawMillisPerMebibyte = 10_000
        /// Counts of apps (`freezer_max_frozen`, `freezer_suspended_threshold`).
        public static let apps = 1_000_000
    }

    public static func read(path: String) throws(InputError) -> Device {
        try parse(bytes: YAMLInput.bytes(path: path, what: "a device file"), file: path)
    }

    /// A device file's bytes (`file` names it in messages): UTF-8, a leading byte-order mark allowed.
    public static func parse(bytes: [UInt8], file: String) throws(InputError) -> Device {
        try parse(YAMLInput.text(bytes, file: file), file: file)
    }

    public static func parse(_ text: String, file: String) throws(InputError) -> Device {
        let yaml = YAMLValues(file: file)
        guard let mapping = try YAMLInput.root(text, file: file)?.mapping else {
            throw InputError(file: file, message: "expected a mapping of device keys")
        }
        var values: [String: Node] = [:]
        for (k, v) in mapping {
            let key = try yaml.keyName(k, in: "")
            guard keys.contains(key) else {
                throw InputError(file: file, at: k, key: key, "unknown key (known: \(keys.joined(separator: ", ")))")
            }
            values[key] = v
        }
        func fail(_ key: String, _ message: String) -> InputError { yaml.fail(values[key], key, message) }
        func scalar(_ key: String) throws(InputError) -> String? {
            guard let node = values[key] else { return nil }
            return try yaml.scalar(node, key)
        }
        func amount(_ key: String, unit: Int, in range: ClosedRange<Int>, _ expected: String) throws(InputError) -> Int? {
            guard let node = values[key] else { return nil }
            return try yaml.amount(node, key, unit: unit, in: range, expected: expected)
        }
        let mb = Units.mebibyte, second = Units.microsPerSecond
        func size(_ key: String) throws(InputError) -> Int? {
            try amount(key, unit: mb, in: 0...Limits.mebibytes * mb, "a size in MB from 0 to \(Limits.mebibytes) (1 PiB)")
        }
        func seconds(_ key: String) throws(InputError) -> Int? {
            try amount(key, unit: second, in: 0...Limits.seconds * second, "seconds from 0 to \(Limits.seconds) (10 years)")
        }
        func count(_ key: String) throws(InputError) -> Int? {
            try amount(key, unit: 1, in: 0...Limits.apps, "a whole number of apps from 0 to \(Limits.apps)")
        }
        func flag(_ key: String) throws(InputError) -> Bool? {
            guard let node = values[key] else { return nil }
            return try yaml.flag(node, key)
        }
        func percent(_ key: String) throws(InputError) -> Int? {
            try amount(key, unit: 1, in: 0...100, "a whole percentage 0–100")
        }
        var device: Device
        let platform = try values["platform"].map { node throws(InputError) in try yaml.choice(node, "platform", Device.Platform.self) }
        var release: Device.AndroidRelease?
        if let node = values["android_version"] {
            let v = try yaml.scalar(node, "android_version", expected: "an Android version: 4.1, 4.2, 4.3 or 4.4")
            guard let r = Device.AndroidRelease.named(v) else {
                throw yaml.fail(node, "android_version", "expected an Android version: 4.1, 4.2, 4.3 or 4.4, found \(yaml.found(node))")
            }
            release = r
        }
        if let base = try scalar("base") {
            guard let preset = DevicePresets.named(base) else {
                throw fail("base", "unknown device '\(InputError.excerpt(base))'\(NameSuggestion.hint(for: base, among: DevicePresets.names)) (presets: \(DevicePresets.names.joined(separator: ", ")))")
            }
            if let platform, platform != preset.platform {
                throw fail("platform", "the base device '\(preset.name)' is an \(preset.platform.rawValue) device")
            }
            device = preset
            if device.platform == .android {
                let ram = try size("ram_mb") ?? device.physicalBytes
                device = .androidPhone(name: device.name, physicalBytes: ram, release: release ?? device.android.release, source: device.source)
            } else if let ram = try size("ram_mb") {
                device.physicalBytes = ram
                device.killThresholds = .forPhysicalMemory(ram)
                device.reserveBytes = ram / 5
                device.compressor.poolLimitBytes = ram
                device.reaper.thresholdPercent = Device.Reaper.thresholdPercent(forPhysicalMemory: ram)
            }
        } else if platform == .android {
            guard let ram = try size("ram_mb") else {
                throw InputError(file: file, key: "ram_mb", message: "required unless 'base' names a preset")
            }
            device = .androidPhone(name: "custom", physicalBytes: ram, release: release ?? .kitKat)
        } else {
            guard let ram = try size("ram_mb") else {
                throw InputError(file: file, key: "ram_mb", message: "required unless 'base' names a preset")
            }
            let general = try size("app_limit_mb"), active = try size("app_limit_active_mb")
            guard let limit = general ?? active else {
                throw InputError(file: file, key: "app_limit_mb", message: "required unless 'base' names a preset")
            }
            device = Device(name: "custom", physicalBytes: ram, appLimitBytes: limit)
        }
        let refused = device.platform == .android ? iosOnlyKeys : androidOnlyKeys
        if let key = values.keys.filter(refused.contains).min(by: { (values[$0]?.mark?.line ?? 0, $0) < (values[$1]?.mark?.line ?? 0, $1) }) {
            throw fail(key, "not a key of \(device.platform == .android ? "an Android device (platform: android)" : "an iOS device")")
        }
        device.source = "device file \(file)"
        if let node = values["minfree_mb"] {
            let expected = "a list of \(device.android.levels.count) sizes in MB, ascending (one per oom_adj level \(device.android.release.oomAdj.map(String.init).joined(separator: ", ")))"
            guard let items = node.sequence, items.count == device.android.levels.count else {
                throw yaml.fail(node, "minfree_mb", "expected \(expected), found \(yaml.found(node))")
            }
            for (k, item) in items.enumerated() {
                device.android.levels[k].minfreeBytes = try yaml.amount(item, "minfree_mb[\(k)]", unit: mb, in: 0...Limits.mebibytes * mb,
                                                                       expected: "a size in MB from 0 to \(Limits.mebibytes) (1 PiB)")
            }
        }
        if let v = try count("process_limit") { device.android.processLimit = v }
        if let v = try scalar("name") { device.name = v }
        if let v = try size("reserve_mb") { device.reserveBytes = v }
        if let node = values["page_size_kb"] {
            let expected = "a page size in KiB: \(Limits.pageSizesKiB.map(String.init).joined(separator: ", "))"
            let v = try yaml.amount(node, "page_size_kb", unit: Units.kibibyte, in: 0...Int.max, expected: expected)
            guard Limits.pageSizesKiB.contains(where: { $0 * Units.kibibyte == v }) else {
                throw yaml.fail(node, "page_size_kb", "expected \(expected), found \(yaml.found(node))")
            }
            device.pageSize = v
        }
        if let v = try size("app_limit_mb") {
            device.appLimitActiveBytes = v
            device.appLimitInactiveBytes = v
        }
        if let v = try size("app_limit_active_mb") { device.appLimitActiveBytes = v }
        if let v = try size("app_limit_inactive_mb") { device.appLimitInactiveBytes = v }
        if let v = try flag("app_limit_fatal") { device.appLimitFatal = v }
        if let v = try percent("critical_pct") { device.killThresholds.criticalPercent = v }
        if let v = try percent("idle_pct") { device.killThresholds.idlePercent = v }
        if let v = try percent("soft_pct") { device.killThresholds.softPercent = v }
        if let v = try percent("pressure_warning_pct") { device.pressureThresholds.warningEnter = v }
        if let v = try percent("pressure_warning_exit_pct") { device.pressureThresholds.warningExit = v }
        if let v = try percent("pressure_critical_pct") { device.pressureThresholds.criticalEnter = v }
        if let v = try percent("pressure_critical_exit_pct") { device.pressureThresholds.criticalExit = v }
        if let v = try flag("compressor") {
            device.compressor.enabled = v
            if !v { device.freezer.enabled = false }   // it freezes compressed memory; `freezer: true` with it is refused
        }
        if let v = try amount("compress_ratio", unit: 1000, in: 1000...Limits.compressRatio * 1000,
                              "a ratio from 1.0 to \(Limits.compressRatio)") { device.compressor.ratioMilli = v }
        if let v = try size("compressor_pool_mb") { device.compressor.poolLimitBytes = v }
        if let node = values["os_era"] { device.backgroundTaskBudgetMicros = try yaml.choice(node, "os_era", Device.OSEra.self).backgroundTaskBudgetMicros }
        if let v = try seconds("bg_task_budget_s") { device.backgroundTaskBudgetMicros = v }
        if let v = try seconds("launch_watchdog_s") { device.timers.launchWatchdogMicros = v }
        if let v = try seconds("aging_s") { device.timers.agingMicros = v }
        if let v = try seconds("sustained_pressure_s") { device.timers.sustainedPressureMicros = v }
        if let v = try seconds("purgeable_ripen_s") { device.timers.purgeableRipenMicros = v }
        if let v = try flag("freezer") { device.freezer.enabled = v }
        if let v = try percent("freezer_pct") { device.freezer.thresholdPercent = v }
        if let v = try count("freezer_max_frozen") { device.freezer.maxFrozen = v }
        if let v = try size("freezer_daily_write_mb") { device.freezer.dailyWriteBudgetBytes = v }
        if let v = try size("freezer_min_resident_mb") { device.freezer.minResidentBytes = v }
        if let v = try amount("thaw_ms_per_mb", unit: Units.microsPerMilli, in: 0...Limits.thawMillisPerMebibyte * Units.microsPerMilli,
                              "milliseconds per MB from 0 to \(Limits.thawMillisPerMebibyte)") { device.freezer.thawMicrosPerMebibyte = v }
        if let v = try count("freezer_suspended_threshold") { device.freezer.suspendedThreshold = v }
        if let v = try seconds("freezer_wake_s") { device.freezer.wakeIntervalMicros = v }
        if let node = values["kernel"] { device.setKernel(try yaml.choice(node, "kernel", Device.Kernel.self)) }
        if let v = try flag("reaper") {
            guard !v || device.kernel != .xnu10063 else { throw fail("reaper", "xnu-10063 has no long-idle reaper") }
            device.reaper.enabled = v
        }
        if let v = try percent("reaper_pct") {
            device.reaper.thresholdPercent = v
        } else if values["critical_pct"] != nil {   // 4 × critical, 18/4 × between 3 and 6 GiB (kern_memorystatus.c:2088–2097)
            let gib = 1 << 30, medium = device.physicalBytes > 3 * gib && device.physicalBytes <= 6 * gib
            device.reaper.thresholdPercent = min(100, medium ? device.killThresholds.criticalPercent * 18 / 4 : device.killThresholds.criticalPercent * 4)
        }
        if let v = try seconds("reaper_min_age_s") { device.reaper.minIdleAgeMicros = v }
        if let v = try seconds("reaper_rescan_s") { device.reaper.rescanMicros = v }
        let normalized = device.normalized()
        try checkWholePages(normalized, values: values, yaml: yaml)
        try checkThresholds(normalized, values: values, yaml: yaml)
        // The device as written too: normalizing turns off what it cannot have (a freezer without a compressor).
        if let problem = (normalized.validationProblems() + device.validationProblems()).first {
            throw InputError(file: file, message: "invalid device: \(problem)")
        }
        return normalized
    }

    /// Sizes are checked as the engine sees them, rounded to whole pages (`ram_mb: 0.001` is no page at all): apps
    /// need at least a page beyond the OS reserve, and a limit of at least a page. Blamed on the key given last
    /// among those that decide it (on the RAM alone when it is not even a page).
    private static func checkWholePages(_ device: Device, values: [String: Node], yaml: YAMLValues) throws(InputError) {
        let page = "\(device.pageSize / Units.kibibyte) KiB"
        if device.physicalBytes - device.reserveBytes < device.pageSize {
            let candidates = device.physicalBytes == 0 ? ["ram_mb", "page_size_kb"] : ["ram_mb", "reserve_mb", "page_size_kb"]
            let key = lastGiven(candidates, in: values) ?? "ram_mb"
            throw yaml.fail(values[key], key, "RAM of \(FixedPoint.exactMebibytes(device.physicalBytes)) MB and an OS reserve of "
                            + "\(FixedPoint.exactMebibytes(device.reserveBytes)) MB, in whole pages of \(page), leave no page for apps")
        }
        for (bytes, keys) in [(device.appLimitActiveBytes, ["app_limit_mb", "app_limit_active_mb"]),
                              (device.appLimitInactiveBytes, ["app_limit_mb", "app_limit_inactive_mb"])] where bytes < device.pageSize {
            let key = lastGiven(keys + ["page_size_kb"], in: values) ?? keys[0]
            throw yaml.fail(values[key], key, "an app limit below one page (\(page)) once rounded down to whole pages")
        }
    }

    /// The orderings `Device.validationProblems` asks of the thresholds, blamed on the key given last among them.
    private static func checkThresholds(_ device: Device, values: [String: Node], yaml: YAMLValues) throws(InputError) {
        let t = device.killThresholds, p = device.pressureThresholds
        let killKeys = ["critical_pct", "idle_pct", "soft_pct"]
        if !(t.criticalPercent <= t.idlePercent && t.idlePercent <= t.softPercent && t.softPercent < 100), let key = lastGiven(killKeys, in: values) {
            throw yaml.fail(values[key], key, "kill thresholds must satisfy critical_pct ≤ idle_pct ≤ soft_pct < 100, "
                            + "found \(t.criticalPercent), \(t.idlePercent), \(t.softPercent)")
        }
        let pressureKeys = ["pressure_critical_pct", "pressure_critical_exit_pct", "pressure_warning_pct", "pressure_warning_exit_pct"]
        if !(p.criticalEnter <= p.criticalExit && p.criticalExit <= p.warningEnter && p.warningEnter <= p.warningExit),
           let key = lastGiven(pressureKeys, in: values) {
            throw yaml.fail(values[key], key, "pressure thresholds must satisfy " + pressureKeys.joined(separator: " ≤ ")
                            + ", found \(p.criticalEnter), \(p.criticalExit), \(p.warningEnter), \(p.warningExit)")
        }
    }

    /// Of `candidates`, the key given furthest down the file.
    private static func lastGiven(_ candidates: [String], in values: [String: Node]) -> String? {
        candidates.filter { values[$0] != nil }.max { (values[$0]?.mark?.line ?? 0) < (values[$1]?.mark?.line ?? 0) }
    }
}
