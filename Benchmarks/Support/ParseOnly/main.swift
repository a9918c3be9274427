// Reads a trace with Jetsim's own readers and does nothing else, for Benchmarks/parse-vs-c.sh (the C loop it is
// measured against: Support/CLoop/parse_loop.c).
//
//   ParseOnly libcachesim FILE        `jetsim cachesim`'s one-pass byte reader (LibCacheSimStream), on this thread;
//   ParseOnly jetsim FILE CATALOG     `jetsim run`'s reader of Jetsim's trace format (TraceReader), in its batches.
//
// Prints the rows, the distinct ids and a checksum of what was read, so that no work can be left out.
import JetsimCore
import JetsimIO

#if canImport(Glibc)
import Glibc
#endif

func complain(_ message: String) {
    var message = message + "\n"
    message.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

func main() throws(InputError) -> Int32 {
    let arguments = CommandLine.arguments
    var rows = 0, checksum = 0
    switch (arguments.count, arguments.count > 1 ? arguments[1] : "") {
    case (3, "libcachesim"):
        let stream = try LibCacheSimStream(path: arguments[2])
        var batch = RequestBatch()
        while try stream.next(into: &batch) {
            rows += batch.count
            for k in 0..<batch.count { checksum &+= batch.times[k] &+ Int(batch.objects[k]) &+ batch.sizes[k] }
        }
        print("\(rows) rows, \(stream.objectCount) objects, checksum \(checksum)")
    case (4, "jetsim"):
        let catalog = try CatalogFile.read(path: arguments[3])
        let reader = try TraceReader(path: arguments[2], catalog: catalog)
        var events: [TraceEvent] = []
        events.reserveCapacity(8192)
        repeat {
            events.removeAll(keepingCapacity: true)
            try reader.next(into: &events, upTo: 8192)   // as `run` reads it (EventsReadAhead)
            rows += events.count
            for e in events { checksum &+= e.time &+ Int(e.app) &+ Int(e.kind.rawValue) &+ e.value }
        } while events.count == 8192
        print("\(rows) rows, \(catalog.count) apps, checksum \(checksum)")
    default:
        complain("usage: ParseOnly libcachesim FILE | ParseOnly jetsim FILE CATALOG")
        return 64
    }
    return 0
}

do {
    exit(try main())
} catch {
    complain("ParseOnly: \(error.description)")
    exit(error.exitCode)
}
