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
        "reaper_min_age_s", "reaper_rescan_s",
    ]

    public static func read(path: String) throws(InputError) -> Device {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw InputError(file: path, message: "cannot read the device file", exitCode: InputError.noInput)
        }
        return try parse(text, file: path)
    }

    public static func parse(_ text: String, file: String) throws(InputError) -> Device {
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw InputError(file: file, message: "not valid YAML: \(error)")
        } catch {
            throw InputError(file: file, message: "not valid YAML")
        }
        guard let mapping = node?.mapping else { throw InputError(file: file, message: "expected a mapping of device keys") }
        var values: [String: (Node, Int?)] = [:]
        for (k, v) in mapping {
            guard let key = k.string else { throw InputError(file: file, line: line(k), message: "keys must be strings") }
            guard keys.contains(key) else {
                throw InputError(file: file, line: line(k), field: key, message: "unknown key (known: \(keys.joined(separator: ", ")))")
            }
            values[key] = (v, line(k))
        }
        func fail(_ key: String, _ message: String) -> InputError {
            InputError(file: file, line: values[key]?.1, field: key, message: message)
        }
        func scalar(_ key: String) throws(InputError) -> String? {
            guard let (node, _) = values[key] else { return nil }
            guard let s = node.scalar?.string else { throw fail(key, "expected a single value") }
            return s
        }
        func number(_ key: String, unit: Int, expected: String) throws(InputError) -> Int? {
            guard let s = try scalar(key) else { return nil }
            let v = Array(s.utf8).withUnsafeBufferPointer { DecimalParser.scaled($0, unit: unit) }
            guard let v, v >= 0 else { throw fail(key, "expected \(expected), found '\(s)'") }
            return v
        }
        func flag(_ key: String) throws(InputError) -> Bool? {
            guard let s = try scalar(key) else { return nil }
            guard let v = Array(s.utf8).withUnsafeBufferPointer(DecimalParser.boolean) else { throw fail(key, "expected true or false, found '\(s)'") }
            return v
        }
        func percent(_ key: String) throws(InputError) -> Int? {
            guard let v = try number(key, unit: 1, expected: "a whole percentage 0–100") else { return nil }
            guard v <= 100 else { throw fail(key, "expected a whole percentage 0–100, found \(v)") }
            return v
        }
        let mb = Units.mebibyte
        var device: Device
        if let base = try scalar("base") {
            guard let preset = DevicePresets.named(base) else {
                throw fail("base", "unknown device '\(base)' (presets: \(DevicePresets.names.joined(separator: ", ")))")
            }
            device = preset
            if let ram = try number("ram_mb", unit: mb, expected: "a size in MB") {
                device.physicalBytes = ram
                device.killThresholds = .forPhysicalMemory(ram)
                device.reserveBytes = ram / 5
                device.compressor.poolLimitBytes = ram
                device.reaper.thresholdPercent = Device.Reaper.thresholdPercent(forPhysicalMemory: ram)
            }
        } else {
            guard let ram = try number("ram_mb", unit: mb, expected: "a size in MB") else {
                throw InputError(file: file, field: "ram_mb", message: "required unless 'base' names a preset")
            }
            let general = try number("app_limit_mb", unit: mb, expected: "a size in MB")
            let active = try number("app_limit_active_mb", unit: mb, expected: "a size in MB")
            guard let limit = general ?? active else {
                throw InputError(file: file, field: "app_limit_mb", message: "required unless 'base' names a preset")
            }
            device = Device(name: "custom", physicalBytes: ram, appLimitBytes: limit, source: "device file \(file)")
        }
        device.source = "device file \(file)"
        if let v = try scalar("name") { device.name = v }
        if let v = try number("reserve_mb", unit: mb, expected: "a size in MB") { device.reserveBytes = v }
        if let v = try number("page_size_kb", unit: Units.kibibyte, expected: "a page size in KiB") {
            guard v > 0 else { throw fail("page_size_kb", "must be positive") }
            device.pageSize = v
        }
        if let v = try number("app_limit_mb", unit: mb, expected: "a size in MB") {
            device.appLimitActiveBytes = v
            device.appLimitInactiveBytes = v
        }
        if let v = try number("app_limit_active_mb", unit: mb, expected: "a size in MB") { device.appLimitActiveBytes = v }
        if let v = try number("app_limit_inactive_mb", unit: mb, expected: "a size in MB") { device.appLimitInactiveBytes = v }
        if let v = try flag("app_limit_fatal") { device.appLimitFatal = v }
        if let v = try percent("critical_pct") { device.killThresholds.criticalPercent = v }
        if let v = try percent("idle_pct") { device.killThresholds.idlePercent = v }
        if let v = try percent("soft_pct") { device.killThresholds.softPercent = v }
        if let v = try percent("pressure_warning_pct") { device.pressureThresholds.warningEnter = v }
        if let v = try percent("pressure_warning_exit_pct") { device.pressureThresholds.warningExit = v }
        if let v = try percent("pressure_critical_pct") { device.pressureThresholds.criticalEnter = v }
        if let v = try percent("pressure_critical_exit_pct") { device.pressureThresholds.criticalExit = v }
        if let v = try flag("compressor") { device.compressor.enabled = v }
        if let v = try number("compress_ratio", unit: 1000, expected: "a ratio of at least 1.0") { device.compressor.ratioMilli = v }
        if let v = try number("compressor_pool_mb", unit: mb, expected: "a size in MB") { device.compressor.poolLimitBytes = v }
        if let v = try scalar("os_era") {
            guard let era = Device.OSEra(rawValue: v) else {
                throw fail("os_era", "expected one of \(Device.OSEra.allCases.map(\.rawValue).joined(separator: ", ")), found '\(v)'")
            }
            device.backgroundTaskBudgetMicros = era.backgroundTaskBudgetMicros
        }
        if let v = try number("bg_task_budget_s", unit: Units.microsPerSecond, expected: "seconds") { device.backgroundTaskBudgetMicros = v }
        if let v = try number("launch_watchdog_s", unit: Units.microsPerSecond, expected: "seconds") { device.timers.launchWatchdogMicros = v }
        if let v = try number("aging_s", unit: Units.microsPerSecond, expected: "seconds") { device.timers.agingMicros = v }
        if let v = try number("sustained_pressure_s", unit: Units.microsPerSecond, expected: "seconds") { device.timers.sustainedPressureMicros = v }
        if let v = try number("purgeable_ripen_s", unit: Units.microsPerSecond, expected: "seconds") { device.timers.purgeableRipenMicros = v }
        if let v = try flag("freezer") { device.freezer.enabled = v }
        if let v = try percent("freezer_pct") { device.freezer.thresholdPercent = v }
        if let v = try number("freezer_max_frozen", unit: 1, expected: "a whole number of apps") { device.freezer.maxFrozen = v }
        if let v = try number("freezer_daily_write_mb", unit: mb, expected: "a size in MB") { device.freezer.dailyWriteBudgetBytes = v }
        if let v = try number("freezer_min_resident_mb", unit: mb, expected: "a size in MB") { device.freezer.minResidentBytes = v }
        if let v = try number("thaw_ms_per_mb", unit: Units.microsPerMilli, expected: "milliseconds per MB") { device.freezer.thawMicrosPerMebibyte = v }
        if let v = try number("freezer_suspended_threshold", unit: 1, expected: "a whole number of apps") { device.freezer.suspendedThreshold = v }
        if let v = try number("freezer_wake_s", unit: Units.microsPerSecond, expected: "seconds") { device.freezer.wakeIntervalMicros = v }
        if let v = try scalar("kernel") {
            guard let kernel = Device.Kernel(rawValue: v) else {
                throw fail("kernel", "expected one of \(Device.Kernel.allCases.map(\.rawValue).joined(separator: ", ")), found '\(v)'")
            }
            device.setKernel(kernel)
        }
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
        if let v = try number("reaper_min_age_s", unit: Units.microsPerSecond, expected: "seconds") { device.reaper.minIdleAgeMicros = v }
        if let v = try number("reaper_rescan_s", unit: Units.microsPerSecond, expected: "seconds") { device.reaper.rescanMicros = v }
        if let problem = device.validationProblems().first { throw InputError(file: file, message: "invalid device: \(problem)") }
        return device.normalized()
    }

    private static func line(_ node: Node) -> Int? { node.mark.map { $0.line } }
}
