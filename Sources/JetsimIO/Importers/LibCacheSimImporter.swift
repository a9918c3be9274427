import JetsimCore

/// Converts a libCacheSim CSV trace to Jetsim's format: each request an `open` of the object's app, each object
/// an app whose footprint is its size (exact to the byte in `apps.csv`).
public enum LibCacheSimImporter {
    public static func run(path: String, writer: ImportWriter, fields: LibCacheSimTrace.Fields) throws(InputError) {
        let trace = try LibCacheSimTrace(path: path, fields: fields)
        for p in trace.catalog.profiles {
            var q = AppProfile(name: p.name, dirtyBytes: p.dirtyBytes)
            q.maxDirtyBytes = p.dirtyBytes
            q.cacheDropOnBackground = .zero
            writer.define(q)
        }
        let names = trace.catalog.profiles.map(\.name)
        while let e = try trace.next() { try writer.emit(time: e.time, app: names[Int(e.app)], .open) }
    }
}
