import JetsimCore
import JetsimWorkloads

/// Writes catalogs and traces in Jetsim's formats (for the generator and the importers): plain RFC 4180, the header
/// first and no comment lines (their columns are documented in Reports/README.md), so any CSV reader takes them.
public enum WorkloadFiles {
    /// `apps.csv` with every column, sizes in exact MB.
    public static func catalogCSV(_ profiles: [AppProfile]) -> String {
        var out = CSVLine.of(CatalogFile.columns)
        func share(_ s: Share) -> String {
            var t = FixedPoint.format(s.partsPerMillion, over: Share.scale, decimals: 6)
            while t.hasSuffix("0") { t.removeLast() }
            return t.hasSuffix(".") ? String(t.dropLast()) : t
        }
        for p in profiles {
            out += CSVLine.of([
                p.name, FixedPoint.exactMebibytes(p.dirtyBytes), FixedPoint.exactMebibytes(p.growthBytesPerMinute),
                FixedPoint.exactMebibytes(p.maxDirtyBytes), FixedPoint.exactMebibytes(p.cacheBytes), share(p.cacheDropOnBackground),
                share(p.cacheDropOnWarning), FixedPoint.exactMebibytes(p.purgeableBytes), FixedPoint.exactMebibytes(p.backingStoreBytes),
                FixedPoint.exactMebibytes(p.imageCacheBytes), FixedPoint.exactMebibytes(p.fileBackedBytes),
                p.compressRatioMilli.map { FixedPoint.format($0, over: 1000, decimals: 3) } ?? "",
                String(p.coldLaunchMillis), String(p.resumeMillis), p.backgroundModes.reportName, String(p.exitsOnSuspend),
                FixedPoint.format(p.backgroundTaskMicros, over: Units.microsPerSecond, decimals: 3), String(p.endsTaskOnExpiry),
                FixedPoint.format(p.enterBackgroundMicros, over: Units.microsPerMilli, decimals: 3),
                FixedPoint.format(p.willTerminateMicros, over: Units.microsPerMilli, decimals: 3),
            ])
        }
        return out
    }

    public static let traceHeader = "time,app,event,value,user\n"

    /// One trace row; `names` maps app ids to names.
    public static func traceLine(_ e: WorkloadEvent, names: [String]) -> String {
        let value: String
        switch e.kind.valueKind {
        case .none: value = ""
        case .seconds: value = FixedPoint.format(e.value, over: 1000, decimals: 3)
        case .signedMebibytes: value = String(e.value)
        case .mode: value = BackgroundModes(rawValue: UInt16(truncatingIfNeeded: e.value)).reportName
        }
        let app = e.app >= 0 && Int(e.app) < names.count ? names[Int(e.app)] : ""
        return CSVLine.of([FixedPoint.format(e.timeMillis, over: 1000, decimals: 3), app, e.kind.traceName, value, String(e.user + 1)])
    }

    /// A generated workload without files (`compare --workload-seeds`): the bytes `jetsim generate` writes (users one
    /// after another in one trace), read back by the same readers, so a generated cell equals a run on generate's files.
    public static func load(_ generator: WorkloadGenerator, name: String) throws(InputError) -> (catalog: AppCatalog, events: [TraceEvent]) {
        let catalog = try CatalogFile.read(CSVReader(bytes: Array(catalogCSV(generator.catalog).utf8), name: name + "/apps.csv"))
        let names = generator.catalog.map(\.name)
        var trace = traceHeader
        for user in 0..<generator.options.users {
            for e in generator.events(user: user, startDay: user * generator.options.days) { trace += traceLine(e, names: names) }
        }
        let reader = try TraceReader(reader: CSVReader(bytes: Array(trace.utf8), name: name + "/trace.csv"), catalog: catalog)
        return (catalog, try reader.readAll())
    }
}
