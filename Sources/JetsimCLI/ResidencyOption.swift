import ArgumentParser
import JetsimExperiment
import JetsimCore
import JetsimIO

/// `--residency` (run, compare): probe every started app's state at given times and write residency.csv.
struct ResidencyOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Write residency.csv: every started app's state at probe times: 'every:DURATION' (e.g. every:20m, at its multiples of trace time), or a CSV file with a time column in seconds (and optionally user, matched with --per-user), such as jetsim import's snapshots.csv.",
        valueName: "every:DURATION|FILE"))
    var residency: String?

    /// The option as given, if at all.
    var schedule: String? { residency }

    /// The probe schedule of a run of `user`, or nil without `--residency`. A bad duration is a usage error; a bad file
    /// is the file's (exit 65).
    func probes() throws -> ((_ user: String?) -> ResidencyProbes.Schedule?)? {
        guard let residency else { return nil }
        if residency.hasPrefix("every:") {
            let text = String(residency.dropFirst("every:".count))
            guard let micros = Durations.micros(text), micros >= Units.microsPerSecond, micros <= DecimalParser.maxMicros else {
                throw ValidationError("--residency every:DURATION takes a duration of 1 s or more, such as every:20m, found '\(residency)'")
            }
            return { _ in .every(micros) }
        }
        let file = try ProbeTimesFile.read(path: residency)
        return { user in .at(file.times(forUser: user)) }
    }
}
