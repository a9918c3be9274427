#if canImport(Glibc)
import Glibc
#endif
import JetsimCore
@testable import JetsimIO
import Testing

/// Reading ahead on a second thread changes neither what is read nor where an error is reported.
@Suite struct ReadAheadTests {
    let catalog = try! AppCatalog([AppProfile(name: "a", dirtyBytes: 1), AppProfile(name: "b", dirtyBytes: 1)])

    /// `count` rows over both apps and several event kinds, then `tail`.
    func trace(rows count: Int, tail: String = "") -> String {
        var text = "time,app,event,value\n"
        for k in 0..<count {
            switch k % 4 {
            case 0: text += "\(k),a,open,\n"
            case 1: text += "\(k).5,b,open,\n"
            case 2: text += "\(k),,home,\n"
            default: text += "\(k),a,bg_task,\(k % 7).25\n"
            }
        }
        return text + tail
    }

    /// Every event `source` gives, and the error it ends with (if any).
    func drain(_ source: EventSource) -> (events: [TraceEvent], error: InputError?) {
        var source = source
        var events: [TraceEvent] = []
        do {
            while let e = try source.next() { events.append(e) }
            return (events, nil)
        } catch {
            return (events, error)
        }
    }

    /// `drain`, a batch at a time (`EventSource.nextBatch`, as `simulate` reads), after `first` events one at a time.
    func drainBatches(_ source: EventSource, first: Int = 0) -> (events: [TraceEvent], error: InputError?) {
        var source = source
        var events: [TraceEvent] = []
        var batch: [TraceEvent] = [TraceEvent(time: -1, app: 0, kind: .open)]   // replaced, never appended to
        do {
            for _ in 0..<first { if let e = try source.next() { events.append(e) } }
            while try source.nextBatch(into: &batch) {
                #expect(!batch.isEmpty && batch.count <= EventsReadAhead.batchCount)
                events += batch
            }
            #expect(batch.isEmpty)
            #expect(try source.nextBatch(into: &batch) == false)
            return (events, nil)
        } catch {
            #expect(batch.isEmpty, "a throw leaves nothing in the batch")
            return (events, error)
        }
    }

    /// Rows: the bad line inside the third batch, or starting it (a direct source's batch then ends at the good rows
    /// and the next read meets the line first).
    @Test(arguments: [0, 1, EventsReadAhead.batchCount + 1], [2 * EventsReadAhead.batchCount + 5, 2 * EventsReadAhead.batchCount])
    func batchesGiveTheSameEventsAndErrorAsOneAtATime(first: Int, rows: Int) throws {
        let s = try Scratch()
        let good = try s.write("good.csv", trace(rows: rows))
        let bad = try s.write("bad.csv", trace(rows: rows, tail: "\(rows),zz,open,\n\(rows + 1),a,open,\n"))
        for path in [good, bad] {
            let serial = drain(.jetsim(try TraceReader(path: path, catalog: catalog)))
            let sources: [EventSource] = [
                .jetsim(try TraceReader(path: path, catalog: catalog)),
                EventSource.jetsim(try TraceReader(path: path, catalog: catalog)).readingAhead(),
                .loaded(serial.events, position: 0),
            ]
            for (k, source) in sources.enumerated() {
                let batched = drainBatches(source, first: first)
                #expect(batched.events == serial.events, "source \(k)")
                if k < 2 {   // a loaded array holds the events before the error only
                    #expect(batched.error?.line == serial.error?.line && batched.error?.field == serial.error?.field, "source \(k)")
                }
            }
        }
        let libCacheSim = try s.write("l.csv", "time,obj_id,obj_size\n" + (0..<20_000).map { "\($0),\($0 % 977),\($0 % 13 + 1)\n" }.joined())
        let serial = drain(.libCacheSim(try LibCacheSimTrace(path: libCacheSim)))
        #expect(drainBatches(.libCacheSim(try LibCacheSimTrace(path: libCacheSim)), first: first).events == serial.events)
        #expect(drainBatches(EventSource.libCacheSim(try LibCacheSimTrace(path: libCacheSim)).readingAhead(), first: first).events
                == serial.events)
    }

    @Test func readingAheadGivesTheSameEventsOverSeveralBatches() throws {
        let s = try Scratch()
        let path = try s.write("t.csv", trace(rows: 2 * EventsReadAhead.batchCount + 123))
        let serial = drain(.jetsim(try TraceReader(path: path, catalog: catalog)))
        let ahead = drain(EventSource.jetsim(try TraceReader(path: path, catalog: catalog)).readingAhead())
        #expect(serial.error == nil && ahead.error == nil)
        #expect(serial.events.count == 2 * EventsReadAhead.batchCount + 123)
        #expect(ahead.events == serial.events)
    }

    @Test func anErrorComesAfterEveryEventBeforeItWithTheSameLineAndField() throws {
        let s = try Scratch()
        let rows = EventsReadAhead.batchCount + 5   // the bad row is in the second batch, read while the first is used
        let path = try s.write("t.csv", trace(rows: rows, tail: "\(rows),zz,open,\n\(rows + 1),a,open,\n"))
        let serial = drain(.jetsim(try TraceReader(path: path, catalog: catalog)))
        let ahead = drain(EventSource.jetsim(try TraceReader(path: path, catalog: catalog)).readingAhead())
        #expect(serial.events.count == rows)
        #expect(ahead.events.count == serial.events.count)
        #expect(ahead.events == serial.events)
        #expect(serial.error?.line == rows + 2 && serial.error?.field == "app")
        #expect(ahead.error?.line == serial.error?.line && ahead.error?.field == serial.error?.field
                && ahead.error?.message == serial.error?.message && ahead.error?.file == path)
    }

    @Test func aLibCacheSimTraceReadsAheadToo() throws {
        let s = try Scratch()
        var text = "time,obj_id,obj_size\n"
        for k in 0..<20_000 { text += "\(k),\(k * 7919 % 1000),\(k % 13 + 1)\n" }
        let path = try s.write("t.csv", text)
        let serial = drain(.libCacheSim(try LibCacheSimTrace(path: path)))
        let ahead = drain(EventSource.libCacheSim(try LibCacheSimTrace(path: path)).readingAhead())
        #expect(serial.error == nil && serial.events.count == 20_000)
        #expect(ahead.events == serial.events && ahead.error == nil)
    }

    @Test func requestBatchesSwapThroughTheReaderInOrder() throws {
        let s = try Scratch()
        var text = ""
        for k in 0..<1_000 { text += "\(k),\(k % 37),\(k % 5 + 1)\n" }
        let path = try s.write("t.csv", text)
        let serial = try LibCacheSimStreamTests.requests(path, batch: 64)
        // Batches of 64 requests; the caller's first batch has another capacity and is replaced, once.
        let ahead = ReadAhead(requests: try LibCacheSimStream(path: path), batchCapacity: 64)
        var batch = RequestBatch(capacity: 3)
        var got: [(object: Int32, size: Int, time: Int)] = []
        var batches = 0
        while try ahead.next(into: &batch) {
            #expect(batch.count <= 64)
            batches += 1
            for k in 0..<batch.count { got.append((batch.objects[k], batch.sizes[k], batch.times[k])) }
        }
        #expect(batches == 16)
        #expect(got.count == serial.count && zip(got, serial).allSatisfy { $0 == $1 })
        #expect(try ahead.next(into: &batch) == false)
    }

    /// With half-lives asked for, each batch comes with its requests' decayed use counts, one column a half-life, as one
    /// stage over the whole stream computes them (`DecayedCountStage`), from a file and from batches kept in memory; the
    /// first two batches always, the rest until the reader stops its stages for good (when it is the slower side: the
    /// clock decides, so either may happen here), after which a batch's columns are empty.
    @Test func requestBatchesComeWithTheirDecayedCounts() throws {
        let s = try Scratch()
        var text = ""
        for k in 0..<1_000 { text += "\(k * 600),\(k % 37 == 5 ? 5 : k * k % 41),\(k % 5 + 1)\n" }   // some requests repeat the one before
        let path = try s.write("t.csv", text)
        let serial = try LibCacheSimStreamTests.requests(path, batch: 64)
        let halfLives = [3600e6, 60e6]
        var expected: [[Double]] = []
        for h in halfLives {
            var stage = DecayedCountStage(halfLifeMicros: h)
            var column = DecayedCountColumn(halfLifeMicros: h)
            serial.map(\.object).withUnsafeBufferPointer { o in
                serial.map(\.time).withUnsafeBufferPointer { t in stage.fill(&column, objects: o, times: t) }
            }
            expected.append(column.counts)
        }
        #expect(Set(expected[0]).count > 5 && expected[0] != expected[1])
        let kept = try LibCacheSimStream.workingSet(path: path, keepingAtMost: 1 << 24).requests ?? []
        #expect(kept.count == 1)
        // The first half-life's log2 computed, the second's not (no cell of it would take it).
        let needs = [DecayedCountStage.Need(halfLifeMicros: halfLives[0], log2: true), .init(halfLifeMicros: halfLives[1], log2: false)]
        for ahead in [ReadAhead(requests: try LibCacheSimStream(path: path), batchCapacity: 64, decayedCounts: needs),
                      ReadAhead(kept: kept, decayedCounts: needs)] {
            var batch = RequestBatch()
            var offset = 0, batches = 0, stopped = false
            while try ahead.next(into: &batch) {
                batches += 1
                if batch.decayedCounts.allSatisfy({ $0.counts.isEmpty && $0.log2Counts.isEmpty }) && batches > 2 {
                    stopped = true   // (a batch that never had columns has none)
                } else {
                    #expect(!stopped, "batch \(batches): the stages came back")
                    #expect(batch.decayedCounts.map(\.halfLifeMicros) == halfLives)
                    for (c, column) in batch.decayedCounts.enumerated() {
                        #expect(column.counts == Array(expected[c][offset..<offset + batch.count]), "batch \(batches), column \(c)")
                        if needs[c].log2 {
                            #expect(column.log2Counts == column.counts.map(log2), "batch \(batches), column \(c)")
                        } else {
                            #expect(column.log2Counts.count == column.counts.count && column.log2Counts.allSatisfy(\.isNaN),
                                    "batch \(batches), column \(c): a log2 nobody takes")
                        }
                    }
                }
                offset += batch.count
            }
            #expect(offset == serial.count)
        }
        // None asked: none computed.
        let plain = ReadAhead(requests: try LibCacheSimStream(path: path), batchCapacity: 64)
        var batch = RequestBatch()
        while try plain.next(into: &batch) { #expect(batch.decayedCounts.isEmpty) }
    }

    /// A share-of-the-working-set capacity reads the trace once: the working-set pass keeps the requests within its budget
    /// and the replay reads them from memory, the same requests in the same order; past the budget nothing is kept.
    @Test func theWorkingSetPassKeepsTheRequestsWithinItsBudget() throws {
        let s = try Scratch()
        var text = ""
        for k in 0..<150_000 { text += "\(k),\(k * 7919 % 4000),\(k % 5 + 1)\n" }
        let path = try s.write("t.csv", text)
        let serial = try LibCacheSimStreamTests.requests(path, batch: 1 << 16)
        let sizes = Dictionary(serial.map { ($0.object, $0.size) }, uniquingKeysWith: { first, _ in first })
        let kept = try LibCacheSimStream.workingSet(path: path, keepingAtMost: 1 << 24)
        #expect(kept.objects == 4000 && kept.bytes == sizes.values.reduce(0, +))
        let batches = try #require(kept.requests)
        #expect(batches.count == 3)   // 65 536 requests a batch
        let ahead = ReadAhead(kept: batches)
        var batch = RequestBatch()
        var got: [(object: Int32, size: Int, time: Int)] = []
        while try ahead.next(into: &batch) {
            for k in 0..<batch.count { got.append((batch.objects[k], batch.sizes[k], batch.times[k])) }
        }
        #expect(got.count == serial.count && zip(got, serial).allSatisfy { $0 == $1 })
        // Two batches' storage is past a budget of one and a half: the counts alone.
        let over = try LibCacheSimStream.workingSet(path: path, keepingAtMost: RequestBatch().memoryBytes * 3 / 2)
        #expect(over.requests == nil && over.objects == kept.objects && over.bytes == kept.bytes)
        #expect(try LibCacheSimStream.workingSet(path: path).requests == nil)   // no budget, nothing kept
    }
}
