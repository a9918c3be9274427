import JetsimCore

/// Resolves `--device`: a preset name, `cache:CAPACITY` (a cache-equivalent device), or a path to a device file
/// (anything with a `/` or a YAML/JSON suffix).
public enum DeviceSource {
    public static func resolve(_ argument: String) throws(InputError) -> Device {
        let lower = argument.lowercased()
        if lower.hasPrefix("cache:") {
            let text = String(argument.dropFirst("cache:".count))
            guard let bytes = parseCapacity(text), bytes > 0, bytes <= DecimalParser.maxBytes else {
                throw InputError(file: "--device", message: "expected cache:CAPACITY of at most 1 PiB, such as cache:2GiB, cache:500MB or cache:1048576 (bytes), found '\(InputError.excerpt(argument))'",
                                 exitCode: InputError.usage)
            }
            return Device.cache(capacityBytes: bytes, name: argument)
        }
        if let path = file(argument) { return try DeviceFile.read(path: path) }
        guard let device = DevicePresets.named(argument) else {
            throw InputError(file: "--device", message: "unknown device '\(InputError.excerpt(argument))'\(NameSuggestion.hint(for: argument, among: DevicePresets.names)) (presets: \(DevicePresets.names.joined(separator: ", ")); or give a device file path)",
                             exitCode: InputError.usage)
        }
        return device
    }

    /// The device file `argument` names, as `resolve` reads it; nil for a preset or a cache device (for manifest.json).
    public static func file(_ argument: String) -> String? {
        let lower = argument.lowercased()
        guard !lower.hasPrefix("cache:"),
              argument.contains("/") || lower.hasSuffix(".yaml") || lower.hasSuffix(".yml") || lower.hasSuffix(".json") else { return nil }
        return argument
    }

    /// A size's units: binary KiB…TiB, decimal KB…TB, in any case (`2gib`, `500mb`); bytes when none.
    private static let units: [(suffix: String, unit: Int)] = [
        ("tib", 1 << 40), ("gib", 1 << 30), ("mib", 1 << 20), ("kib", 1 << 10),
        ("tb", 1_000_000_000_000), ("gb", 1_000_000_000), ("mb", 1_000_000), ("kb", 1000), ("b", 1)]

    /// `2GiB`, `1.5GB`, `512MiB`, `100kb`, `1048576` (bytes): binary units for KiB/MiB/GiB/TiB, decimal for KB/MB/GB/TB.
    public static func parseCapacity(_ text: String) -> Int? {
        let lower = text.lowercased()
        for (suffix, unit) in units where lower.hasSuffix(suffix) {
            return Array(lower.dropLast(suffix.count).utf8).withUnsafeBufferPointer { DecimalParser.scaled($0, unit: unit) }
        }
        return Array(text.utf8).withUnsafeBufferPointer { DecimalParser.scaled($0, unit: 1) }
    }

    /// True when `text` is a size in a decimal unit (KB, MB, GB, TB in any case), which libCacheSim reads differently.
    public static func hasDecimalUnit(_ text: String) -> Bool {
        let lower = text.lowercased()
        return ["tb", "gb", "mb", "kb"].contains { lower.hasSuffix($0) } && !lower.hasSuffix("ib")
    }

    /// One line for the sizes among `sizes` written in decimal units, saying what Jetsim read (10^9 bytes a GB) and
    /// that libCacheSim's cachesim reads KB/MB/GB/TB as KiB/MiB/GiB/TiB (`conv_size_str_to_byte_ul` in
    /// libCacheSim/bin/cachesim/cli_parser.c, commit 0db2eba); nil when none is. `option` names where they came from.
    public static func decimalUnitNote(option: String, sizes: [String]) -> String? {
        let decimal = sizes.filter(hasDecimalUnit)
        guard !decimal.isEmpty else { return nil }
        let read = decimal.map { "\($0) = \(parseCapacity($0).map(String.init) ?? "?") bytes" }.joined(separator: ", ")
        return "note: \(option) \(read) (decimal units: 1 GB = 10^9 bytes); libCacheSim reads GB as GiB (2^30 bytes): write GiB, MiB, KiB for its sizes"
    }
}
