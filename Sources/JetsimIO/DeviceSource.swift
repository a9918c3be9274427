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
            throw InputError(file: "--device", message: "unknown device '\(InputError.excerpt(argument))' (presets: \(DevicePresets.names.joined(separator: ", ")); or give a device file path)",
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

    /// `2GiB`, `1.5GB`, `512MiB`, `100KB`, `1048576` (bytes): binary units for KiB/MiB/GiB/TiB, decimal for KB/MB/GB/TB.
    public static func parseCapacity(_ text: String) -> Int? {
        let units: [(String, Int)] = [("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10),
                                      ("TB", 1_000_000_000_000), ("GB", 1_000_000_000), ("MB", 1_000_000), ("KB", 1000), ("B", 1)]
        for (suffix, unit) in units where text.hasSuffix(suffix) {
            let number = String(text.dropLast(suffix.count))
            return Array(number.utf8).withUnsafeBufferPointer { DecimalParser.scaled($0, unit: unit) }
        }
        return Array(text.utf8).withUnsafeBufferPointer { DecimalParser.scaled($0, unit: 1) }
    }
}
