import ArgumentParser

/// What a trace is read with, one set of options under one name in `run` and `compare`: the app catalog, the trace
/// format and libCacheSim's field numbers. The traces themselves are each command's own (`run` replays one trace,
/// `compare` a grid of several), and so are the checks that depend on them (`compare` may take these from `--config`).
struct TraceInputOptions: ParsableArguments {
    @Option(help: "App catalog CSV (columns: Reports/README.md); not with --format libcachesim.")
    var apps: String?

    @Option(help: "Trace format: 'jetsim' (default) or 'libcachesim' (time, obj-id, obj-size; each request opens the object's app).")
    var format: String?

    @Option(help: "libCacheSim CSV field numbers (1-based), e.g. 'time=1,obj-id=2,obj-size=3' (with --format libcachesim).")
    var csvFields: String?

    /// The formats a trace may have.
    static let formats = ["jetsim", "libcachesim"]

    /// Refuses a format other than `formats`, and field numbers for a trace that is not libCacheSim's.
    static func check(format: String, csvFields: String?) throws {
        guard formats.contains(format) else {
            throw ValidationError("--format must be 'jetsim' or 'libcachesim', found '\(format)'")
        }
        if csvFields != nil && format != "libcachesim" { throw ValidationError("--csv-fields applies to --format libcachesim only") }
    }
}
