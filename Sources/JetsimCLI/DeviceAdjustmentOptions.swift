import ArgumentParser
import JetsimCore
import JetsimIO

/// `--kernel`, `--freezer` / `--no-freezer` and `--os-era`: changes to the device a command simulates, one set of
/// options under one set of names in `run` and `compare` (where they apply to every device of the grid). Each
/// overrides what a preset or a device file says.
struct DeviceAdjustmentOptions: ParsableArguments {
    @Option(help: "Kernel whose rules apply: xnu-11417 (iOS 18, the default: the long-idle reaper is on) or xnu-10063 (iOS 17: no reaper).")
    var kernel: String?

    @Flag(inversion: .prefixedNo, help: "The freezer (on by default, as iOS's kernel builds it; --no-freezer for a phone without freezer swap): at or below 50 % available memory, one idle suspended app per 10 s is written to NAND (band 75), while more than four are suspended unfrozen.")
    var freezer: Bool?

    @Option(help: "OS era, which sets the background-task budget: ios6 (600 s), ios7 (180 s), ios13 (30 s, the default).")
    var osEra: String?

    func validate() throws {
        if let kernel, Device.Kernel(rawValue: kernel) == nil {
            throw ValidationError("--kernel must be one of \(Device.Kernel.allCases.map(\.rawValue).joined(separator: ", ")), found '\(kernel)'")
        }
        if let osEra, Device.OSEra(rawValue: osEra) == nil {
            throw ValidationError("--os-era must be one of \(Device.OSEra.allCases.map(\.rawValue).joined(separator: ", ")), found '\(osEra)'")
        }
    }

    /// Whether any option was given.
    var given: Bool { kernel != nil || freezer != nil || osEra != nil }

    /// The options as given, for manifest.json (`--kernel xnu-10063`, `--no-freezer`).
    var arguments: [String] {
        (kernel.map { ["--kernel", $0] } ?? []) + (freezer.map { [$0 ? "--freezer" : "--no-freezer"] } ?? []) + (osEra.map { ["--os-era", $0] } ?? [])
    }

    /// `device` with the options applied. A cache-equivalent device keeps its semantics: nothing changes it. A device
    /// the options make invalid (`--freezer` on a device without a compressor) is a usage error naming the device.
    func apply(to device: Device) throws(InputError) -> Device {
        guard !device.cacheEquivalent else { return device }
        var d = device
        if let osEra, let era = Device.OSEra(rawValue: osEra) { d.backgroundTaskBudgetMicros = era.backgroundTaskBudgetMicros }
        if let freezer { d.freezer.enabled = freezer }
        // The device's own kernel named again changes nothing: a file's `reaper: false` under xnu-11417 stays.
        if let kernel, let k = Device.Kernel(rawValue: kernel), k != d.kernel { d.setKernel(k) }
        if given, let problem = d.validationProblems().first {
            throw InputError(file: "--kernel/--freezer/--os-era", message: "device '\(d.name)': \(problem)", exitCode: InputError.usage)
        }
        return d
    }
}
