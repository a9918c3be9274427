import JetsimCore

/// Resolves `--device`: a preset name, or a path to a device file (anything with a `/` or a YAML/JSON suffix).
public enum DeviceSource {
    public static func resolve(_ argument: String) throws(InputError) -> Device {
        let lower = argument.lowercased()
        if argument.contains("/") || lower.hasSuffix(".yaml") || lower.hasSuffix(".yml") || lower.hasSuffix(".json") {
            return try DeviceFile.read(path: argument)
        }
        guard let device = DevicePresets.named(argument) else {
            throw InputError(file: "--device", message: "unknown device '\(argument)' (presets: \(DevicePresets.names.joined(separator: ", ")); or give a device file path)",
                             exitCode: InputError.usage)
        }
        return device
    }
}
