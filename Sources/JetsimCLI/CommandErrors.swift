import ArgumentParser
import JetsimCore
import JetsimIO
import JetsimRealMemory

#if canImport(Glibc)
import Glibc
#endif

/// Runs `body`, turning input and policy errors into one line on stderr and the documented exit code
/// (64 usage, 65 bad data, 66 unreadable input, 71 real memory failed, 73 output not writable).
func reportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as InputError {
        printError(error.description)
        throw ExitCode(error.exitCode)
    } catch let error as PolicySpecError {
        printError("--policy: \(InputError.excerpt(String(describing: error), limit: 300))")
        throw ExitCode(InputError.usage)
    } catch let error as RealMemoryError {
        printError(error.description)
        throw ExitCode(error.exitCode)
    }
}

/// `--sample-interval` (`60`, `90s`, `10m`, `1h`) as positive microseconds, at most 2^60 (so the next sample's time
/// cannot overflow); `run` and `compare` share it.
func sampleIntervalMicros(_ text: String) throws -> Int {
    guard let v = Durations.micros(text), v > 0, v <= DecimalParser.maxMicros else {
        throw ValidationError("--sample-interval must be a positive duration such as 60, 90s or 1h (at most 2^60 µs), found '\(text)'")
    }
    return v
}

/// A comma-separated option value (`--policies`, `--capacity`, …) as its non-empty, trimmed items.
func commaSeparated(_ text: String) -> [String] {
    text.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
}

/// Runs `body` with a private staging directory for the reports of `directory` (`ReportDirectory`), then publishes
/// them as one set. When `body` fails, nothing appears and an earlier set at `directory` stays as it was.
/// - Parameter replaceable: the files the command writes; an existing directory holding anything else is refused.
func inReportDirectory<R>(_ directory: String, replaceable: [String], _ body: (_ staging: String) throws -> R) throws -> R {
    let reports = try ReportDirectory(directory, replaceable: replaceable)
    let result: R
    do {
        result = try body(reports.staging)
    } catch {
        reports.discard()
        throw error
    }
    try reports.publish()
    return result
}

/// Prints `DeviceSource.decimalUnitNote` for the sizes an option gave, when any is in a decimal unit (one line).
func noteDecimalUnits(option: String, sizes: [String]) {
    if let note = DeviceSource.decimalUnitNote(option: option, sizes: sizes) { printError(note) }
}

/// The capacities of the `cache:CAPACITY` devices among `devices`, for `noteDecimalUnits`.
func cacheCapacities(_ devices: [String]) -> [String] {
    devices.filter { $0.lowercased().hasPrefix("cache:") }.map { String($0.dropFirst("cache:".count)) }
}

func printError(_ message: String) {
    var stderr = StandardError()
    print("jetsim: \(message)", to: &stderr)
}

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        var bytes = Array(string.utf8)
        bytes.withUnsafeMutableBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(2, raw.baseAddress! + offset, raw.count - offset)
                if n <= 0 { return }
                offset += n
            }
        }
    }
}
