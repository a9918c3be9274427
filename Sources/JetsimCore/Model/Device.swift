/// A modelled device: memory, kernel thresholds, per-app limits, compressor and OS-era timings.
///
/// Invariants: `reserveBytes < physicalBytes`; thresholds are ordered critical < idle < soft;
/// every byte quantity is a multiple of `pageSize` once `normalized()` has run.
public struct Device: Sendable, Equatable, Codable {
    public var name: String
    public var physicalBytes: Int
    /// Wired memory and system daemons: memory apps can never have.
    public var reserveBytes: Int
    /// 16 KiB on arm64 iOS.
    public var pageSize: Int
    public var killThresholds: KillThresholds
    public var pressureThresholds: PressureThresholds
    /// Per-app memory limit while the app holds a foreground assertion.
    public var appLimitActiveBytes: Int
    /// Per-app memory limit otherwise.
    public var appLimitInactiveBytes: Int
    /// Exceeding a fatal limit kills at once (`per-process-limit`); a soft one makes the app an early
    /// `highwater` victim under pressure.
    public var appLimitFatal: Bool
    public var compressor: Compressor
    public var freezer: Freezer
    /// The kernel whose rules apply (README: Kernel versions); it decides the reaper's default.
    public var kernel: Kernel
    public var reaper: Reaper
    /// Background-task time the OS grants after an app leaves the foreground (OS era: 600 / 180 / 30 s).
    public var backgroundTaskBudgetMicros: Int
    /// Kernel and system timers (xnu-jetsam.md §9, ios-app-lifecycle.md).
    public var timers: SystemTimers
    /// A note on where the numbers come from (shown by `jetsim devices`).
    public var source: String
    /// A cache-equivalent device (`cache:CAPACITY`): memory is a plain cache of app footprints. No reserve,
    /// thresholds, pressure levels, warnings, purgeable memory, discards, compression or background running;
    /// an app is suspended the moment it leaves the foreground and a kill happens only when the app being
    /// opened does not fit. Used to cross-check Jetsim against cache simulators such as libCacheSim.
    public var cacheEquivalent = false
    /// Whose memory management applies: iOS's (XNU's jetsam, the default) or Android 4.x's (ActivityManager's oom_adj and
    /// the kernel's lowmemorykiller: README, "Android 4.x").
    public var platform = Platform.ios
    /// Android 4.x's lowmemorykiller levels and process cap (used only when `platform` is `.android`).
    public var android = AndroidSettings()

    public enum Platform: String, Sendable, CaseIterable, Codable {
        case ios, android
    }

    public struct KillThresholds: Sendable, Equatable, Codable {
        /// Percent of physical memory; kills start when *available* memory falls below.
        public var criticalPercent: Int, idlePercent: Int, softPercent: Int
        public init(criticalPercent: Int, idlePercent: Int, softPercent: Int) {
            self.criticalPercent = criticalPercent
            self.idlePercent = idlePercent
            self.softPercent = softPercent
        }
        /// XNU's defaults by RAM class (xnu-jetsam.md §3).
        public static func forPhysicalMemory(_ bytes: Int) -> KillThresholds {
            let gib = 1 << 30
            if bytes <= 3 * gib { return .init(criticalPercent: 5, idlePercent: 10, softPercent: 15) }
            if bytes <= 6 * gib { return .init(criticalPercent: 4, idlePercent: 9, softPercent: 15) }
            return .init(criticalPercent: 4, idlePercent: 8, softPercent: 12)
        }
    }

    /// Hysteresis on the share of non-compressed memory (xnu-jetsam.md §6), in percent.
    public struct PressureThresholds: Sendable, Equatable, Codable {
        public var warningEnter = 50, warningExit = 60, criticalEnter = 30, criticalExit = 35
        public init() {}
    }

    /// The memory compressor as `osfmk/vm/vm_compressor.c` (xnu-11417) sizes it on iOS.
    ///
    /// - `compressor_pool_size = max_mem` (vm_compressor.c:851): room for about RAM's worth of compressed
    ///   segments, each `C_SEG_BUFSIZE_DEFAULT` = 256 KiB of data in an allocation one page larger
    ///   (vm_compressor.c:90, 882): `c_segments_limit = pool / (256 KiB + page)` (vm_compressor.c:888).
    /// - `c_segment_pages_compressed_limit = c_segments_limit × (256 KiB / page) × multiplier`, the multiplier 2 at
    ///   ≤ 2 GiB of RAM and 1 above (vm_compressor.c:857–861, 902), and never below RAM's page count
    ///   (vm_compressor.c:904–911): the most uncompressed data the compressor may hold.
    /// - "Low on space" is either count above 98 % of its limit (vm_compressor.c:565–568, 899, 914); it makes the
    ///   system unhealthy (kern_memorystatus_policy.c:87–88, 116–125) and so kills by itself.
    public struct Compressor: Sendable, Equatable, Codable {
        public var enabled: Bool
        /// Default compression ratio in thousandths (2000 = 2 : 1); apps may override.
        public var ratioMilli: Int
        /// The compressor pool's size (`compressor_pool_size`): physical bytes of segments it may occupy.
        public var poolLimitBytes: Int
        /// Bytes of compressed data a segment holds (`C_SEG_BUFSIZE_DEFAULT`, 256 KiB on iOS).
        public var segmentBytes = 256 * Units.kibibyte
        public init(enabled: Bool, ratioMilli: Int, poolLimitBytes: Int) {
            self.enabled = enabled
            self.ratioMilli = ratioMilli
            self.poolLimitBytes = poolLimitBytes
        }
    }

    /// Kernel versions with different rules. Every difference is listed in README ("Kernel versions").
    public enum Kernel: String, Sendable, CaseIterable, Codable {
        /// iOS 18.4's kernel (xnu-11417.101.15), the one the rules cite: the long-idle reaper is on.
        case xnu11417 = "xnu-11417"
        /// iOS 17's kernel (xnu-10063): no long-idle reaper (absent in xnu-10063 and xnu-11215).
        case xnu10063 = "xnu-10063"
    }

    /// The long-idle reaper of xnu-11417 (`bsd/kern/kern_memorystatus.c`): below `thresholdPercent` of RAM available,
    /// a sweep kills every app that has sat in band 0 for at least `minIdleAgeMicros` and is not likely to be
    /// relaunched, one at a time, until none is left; the next sweep may start `rescanMicros` after it ends.
    public struct Reaper: Sendable, Equatable, Codable {
        /// On by default on iOS (kern_memorystatus.c:308–312) from xnu-11417 on.
        public var enabled = true
        /// 4 × the critical threshold, 18/4 × between 3 and 6 GiB: 20 / 18 / 16 % (kern_memorystatus.c:292–295, 2088–2097).
        public var thresholdPercent = 20
        /// `MEMORYSTATUS_REAPER_MIN_AGE_SECS_DEFAULT` 300 s (kern_memorystatus.c:313), measured from the band entry
        /// (`p_memstat_prio_start`, kern_memorystatus.c:2829, 6697–6699).
        public var minIdleAgeMicros = 300 * Units.microsPerSecond
        /// `MEMORYSTATUS_REAPER_RESCAN_SECS_DEFAULT` 300 s (kern_memorystatus.c:315, 4121–4146).
        public var rescanMicros = 300 * Units.microsPerSecond
        public init() {}
        /// The threshold for a RAM class.
        public static func thresholdPercent(forPhysicalMemory bytes: Int) -> Int {
            let gib = 1 << 30
            return bytes <= 3 * gib ? 20 : bytes <= 6 * gib ? 18 : 16
        }
    }

    /// iOS's freezer (xnu-jetsam.md §8): when available memory is below `thresholdPercent` of RAM, idle suspended
    /// apps (least recently used first, with a footprint of at least `minResidentBytes`) have their dirty memory compressed
    /// and written to NAND and move to the frozen band. Frozen pages still count in the footprint; a resume thaws
    /// them (slower than a plain resume, far faster than a cold launch). On by default, as iOS's kernel builds it
    /// (`FREEZE_ENABLED_DEFAULT`, kern_memorystatus_freeze.c:124–129; xnu-jetsam.md §8); its thread runs only on a
    /// device with freezer swap (freeze.c:1678–1707), so a study of a phone without it sets `freezer: false`.
    public struct Freezer: Sendable, Equatable, Codable {
        public var enabled = true
        /// Freeze only while more than this many suspended apps are unfrozen (`FREEZE_SUSPENDED_THRESHOLD_DEFAULT`).
        public var suspendedThreshold = 4
        /// Page-driven wake-ups of the freezer at most this often (`memorystatus_apps_idle_delay_time` × 1, 10 s).
        public var wakeIntervalMicros = 10 * Units.microsPerSecond
        public var thresholdPercent = 50
        public var maxFrozen = 20
        /// NAND writes allowed per simulated day (2048 MB).
        public var dailyWriteBudgetBytes = 2048 * Units.mebibyte
        /// Smallest app worth freezing, by footprint (XNU counts the task's footprint pages, so clean file-backed
        /// pages, which the VM may take at any moment, do not decide it).
        public var minResidentBytes = 8 * Units.mebibyte
        /// Extra resume latency per MiB of frozen memory read back (2 ms, a model choice).
        public var thawMicrosPerMebibyte = 2_000
        public init() {}
    }

    public struct SystemTimers: Sendable, Equatable, Codable {
        /// An app that just lost its last assertion sits in the aging band this long (2 s).
        public var agingMicros = 2 * Units.microsPerSecond
        /// The launch watchdog (about 20 s).
        public var launchWatchdogMicros = 20 * Units.microsPerSecond
        /// Deadline of `didEnterBackground` and `willTerminate` (about 5 s).
        public var callbackDeadlineMicros = 5 * Units.microsPerSecond
        /// Pressure at warning or worse this long triggers `sustained-memory-pressure` kills (600 s) …
        public var sustainedPressureMicros = 600 * Units.microsPerSecond
        /// … one every 500 ms.
        public var sustainedKillSpacingMicros = 500_000
        /// Volatile purgeable memory "ripens" (xnu-jetsam.md §7) this long after it became volatile; the pressure
        /// purge takes only ripe memory until available memory is below the critical threshold (30 s, a model choice).
        public var purgeableRipenMicros = 30 * Units.microsPerSecond
        public init() {}
    }

    /// Budgets by OS era (ios-app-lifecycle.md): before iOS 7, iOS 7–12, iOS 13 and later.
    public enum OSEra: String, Sendable, CaseIterable, Codable {
        case ios6, ios7, ios13
        public var backgroundTaskBudgetMicros: Int {
            switch self {
            case .ios6: 600 * Units.microsPerSecond
            case .ios7: 180 * Units.microsPerSecond
            case .ios13: 30 * Units.microsPerSecond
            }
        }
    }

    /// A device with the documented defaults for everything but RAM and app limit:
    /// reserve 20 % of RAM, XNU thresholds for its RAM class, fatal limits, compressor on at 2 : 1 with the
    /// kernel's pool of RAM's size, the reaper on (xnu-11417), a 30 s background-task budget (iOS 13+).
    public init(name: String, physicalBytes: Int, appLimitBytes: Int, source: String = "") {
        self.name = name
        self.physicalBytes = physicalBytes
        pageSize = 16 * Units.kibibyte
        reserveBytes = physicalBytes / 5
        killThresholds = .forPhysicalMemory(physicalBytes)
        pressureThresholds = .init()
        appLimitActiveBytes = appLimitBytes
        appLimitInactiveBytes = appLimitBytes
        appLimitFatal = true
        compressor = .init(enabled: true, ratioMilli: 2000, poolLimitBytes: physicalBytes)
        freezer = .init()
        kernel = .xnu11417
        reaper = .init()
        reaper.thresholdPercent = Reaper.thresholdPercent(forPhysicalMemory: physicalBytes)
        backgroundTaskBudgetMicros = OSEra.ios13.backgroundTaskBudgetMicros
        timers = .init()
        self.source = source
    }

    /// The cache-equivalent device of `capacityBytes` (see `cacheEquivalent`); byte-sized pages, so sizes are exact.
    public static func cache(capacityBytes: Int, name: String? = nil) -> Device {
        var d = Device(name: name ?? "cache:\(capacityBytes)", physicalBytes: capacityBytes, appLimitBytes: capacityBytes,
                       source: "cache-equivalent device")
        d.pageSize = 1
        d.reserveBytes = 0
        d.killThresholds = .init(criticalPercent: 0, idlePercent: 0, softPercent: 0)
        d.compressor = .init(enabled: false, ratioMilli: 1000, poolLimitBytes: 0)
        d.freezer.enabled = false
        d.reaper.enabled = false
        d.timers.agingMicros = 0
        d.cacheEquivalent = true
        return d
    }

    // Thresholds in bytes of *available* memory.
    public var criticalBytes: Int { physicalBytes / 100 * killThresholds.criticalPercent }
    public var idleBytes: Int { physicalBytes / 100 * killThresholds.idlePercent }
    public var softBytes: Int { physicalBytes / 100 * killThresholds.softPercent }
    public var freezerBytes: Int { physicalBytes / 100 * freezer.thresholdPercent }
    public var reaperBytes: Int { physicalBytes / 100 * reaper.thresholdPercent }

    /// `c_segments_limit` (see `Compressor`).
    public var compressorSegmentsLimit: Int {
        compressor.poolLimitBytes / max(1, compressor.segmentBytes + pageSize)
    }

    /// The most uncompressed bytes the compressor may hold (`c_segment_pages_compressed_limit` × page size).
    public var compressedLimitBytes: Int {
        let multiplier = physicalBytes <= 2 << 30 ? 2 : 1
        let pagesPerSegment = compressor.segmentBytes / max(1, pageSize)
        let pages = compressorSegmentsLimit.multipliedReportingOverflow(by: pagesPerSegment * multiplier)
        let limit = pages.overflow ? Int.max / max(1, pageSize) : pages.partialValue
        let atLeast = physicalBytes / max(1, pageSize)
        let total = max(limit, atLeast).multipliedReportingOverflow(by: pageSize)
        return total.overflow ? Int.max : total.partialValue
    }

    /// The per-app warning level, in bytes: an app is warned when its footprint goes *above* it. Memorystatus writes
    /// every app's limit to the ledger as a number of MB, the default one included (`memstat_set_memlimits_locked`
    /// turns "default" into its value, kern_memorystatus.c:3135–3160; written at 262–264), so the ledger warns at
    /// `PHYS_FOOTPRINT_WARNING_LEVEL`, 80 % (task.c:430–431), kept scaled by 65 536 and truncated (`le_warn_percent`,
    /// ledger.c:1375, compared at 793). (task.c's "100 MB below the default limit" applies only to processes left
    /// with the system-wide default, which apps are not.)
    public func warningLevel(forLimit limit: Int) -> Int {
        let scaled = 80 * 65_536 / 100
        return Units.multiplyDivide(limit, scaled, by: 65_536)?.quotient ?? Int.max
    }

    /// Runs under `kernel`'s rules: the reaper exists from xnu-11417 on (and is on there by default).
    public mutating func setKernel(_ kernel: Kernel) {
        self.kernel = kernel
        reaper.enabled = kernel == .xnu11417 && !cacheEquivalent
    }

    /// Every byte quantity rounded to whole pages.
    public func normalized() -> Device {
        var d = self
        d.physicalBytes = Units.roundDown(physicalBytes, to: pageSize)
        d.reserveBytes = Units.roundUp(reserveBytes, to: pageSize)
        d.appLimitActiveBytes = Units.roundDown(appLimitActiveBytes, to: pageSize)
        d.appLimitInactiveBytes = Units.roundDown(appLimitInactiveBytes, to: pageSize)
        d.compressor.poolLimitBytes = Units.roundDown(compressor.poolLimitBytes, to: pageSize)
        // The freezer writes the compressor's segments: without it there is none (files and options asking for one
        // are refused by `validationProblems`; a device built in code gets none rather than a freezer of nothing).
        if !compressor.enabled { d.freezer.enabled = false }
        return d
    }

    /// Problems that make the device unusable, in words; empty when valid.
    public func validationProblems() -> [String] {
        var problems: [String] = []
        if pageSize <= 0 { problems.append("page size must be positive") }
        if physicalBytes <= 0 { problems.append("physical memory must be positive") }
        if reserveBytes < 0 || reserveBytes >= physicalBytes { problems.append("the OS reserve must be at least 0 and below physical memory") }
        let t = killThresholds
        if !(0 <= t.criticalPercent && t.criticalPercent <= t.idlePercent && t.idlePercent <= t.softPercent && t.softPercent < 100) {
            problems.append("kill thresholds must satisfy 0 ≤ critical ≤ idle ≤ soft < 100 (percent)")
        }
        let p = pressureThresholds
        if !(0 <= p.criticalEnter && p.criticalEnter <= p.criticalExit && p.criticalExit <= p.warningEnter
             && p.warningEnter <= p.warningExit && p.warningExit <= 100) {
            problems.append("pressure thresholds must satisfy critical_enter ≤ critical_exit ≤ warning_enter ≤ warning_exit ≤ 100")
        }
        if appLimitActiveBytes <= 0 || appLimitInactiveBytes <= 0 { problems.append("app memory limits must be positive") }
        if compressor.ratioMilli < 1000 { problems.append("the compression ratio must be at least 1.0") }
        if compressor.poolLimitBytes < 0 { problems.append("the compressor pool limit must not be negative") }
        if freezer.thresholdPercent < 0 || freezer.thresholdPercent > 100 || freezer.maxFrozen < 0 || freezer.dailyWriteBudgetBytes < 0 {
            problems.append("freezer settings must be non-negative (threshold a percentage)")
        }
        if freezer.enabled && !compressor.enabled {
            problems.append("the freezer writes the compressor's segments to NAND: it needs the compressor (set freezer: false)")
        }
        if backgroundTaskBudgetMicros < 0 { problems.append("the background-task budget must not be negative") }
        if reaper.thresholdPercent < 0 || reaper.thresholdPercent > 100 || reaper.minIdleAgeMicros < 0 || reaper.rescanMicros < 0 {
            problems.append("reaper settings must be non-negative (threshold a percentage)")
        }
        if reaper.enabled && kernel == .xnu10063 { problems.append("xnu-10063 has no long-idle reaper: set reaper: false or kernel: xnu-11417") }
        if platform == .android { problems += androidProblems() }
        return problems
    }
}
