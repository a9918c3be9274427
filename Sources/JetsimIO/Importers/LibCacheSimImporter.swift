import JetsimCore

/// Converts a libCacheSim CSV trace to Jetsim's format: each request an `open` of the object's app, each object
/// an app whose footprint is its size (exact to the byte in `apps.csv`).
public enum LibCacheSimImporter {
    public static func run(path: String, writer: ImportWriter, fields: LibCacheSimTrace.Fields) throws(InputError) {
        try run(LibCacheSimTrace(path: path, fields: fields), writer: writer)
    }

    /// The same over bytes in memory (`name` stands for the file in messages); reads and writes no file.
    public static func run(bytes: [UInt8], name: String, writer: ImportWriter, fields: LibCacheSimTrace.Fields = .init()) throws(InputError) {
        try run(LibCacheSimTrace(bytes: bytes, name: name, fields: fields), writer: writer)
    }

    static func run(_ trace: LibCacheSimTrace, writer: ImportWriter) throws(InputError) {
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
