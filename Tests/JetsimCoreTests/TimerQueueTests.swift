@testable import JetsimCore
import Testing

/// The timer queue: a heap plus one slot per kind of which only one timer can be current.
@Suite struct TimerQueueTests {
    func drain(_ q: inout TimerQueue, through time: Int = .max - 1) -> [(TimerKind, Int)] {
        var out: [(TimerKind, Int)] = []
        while let t = q.popDue(atOrBefore: time, unlessAfter: .max, .max) { out.append((t.kind, t.time)) }
        return out
    }

    @Test func heapAndSlotsComeOutInTimeThenSchedulingOrder() {
        var q = TimerQueue()
        q.schedule(.agingEnd, at: 30)
        q.schedule(.growthStep, at: 20)
        q.schedule(.sustainedPressure, at: 30)   // same time as the aging end, scheduled after it
        q.schedule(.wakeEnd, at: 10)
        q.schedule(.pressureRecheck, at: 30)
        q.schedule(.launchWatchdog, at: 20)   // same time as the growth check, scheduled after it
        #expect(drain(&q).map(\.0) == [.wakeEnd, .growthStep, .launchWatchdog, .agingEnd, .sustainedPressure, .pressureRecheck])
        #expect(q.count == 0)
    }

    @Test func aSlotKeepsOnlyTheLatestTimerOfItsKind() {
        var q = TimerQueue()
        q.schedule(.growthStep, at: 50, token: 1)
        q.schedule(.growthStep, at: 40, token: 2)
        q.schedule(.agingEnd, at: 45)
        #expect(q.count == 2)
        #expect(q.pendingTime(of: .growthStep) == 40 && q.pendingTime(of: .pressureRecheck) == nil)
        #expect(drain(&q).map(\.1) == [40, 45])
    }

    /// The engine's samples keep their own clock with a reserved place in the order (`Simulator.nextSampleTime`): a
    /// timer comes out only if it comes before the caller's own event, by time, then by place.
    @Test func aTimerComesOutOnlyBeforeTheCallersOwnEvent() {
        var q = TimerQueue()
        q.schedule(.agingEnd, at: 50)
        let sample = q.reserveSequence()   // due at 50 too, placed after the aging end
        q.schedule(.wakeEnd, at: 50)       // placed after the sample
        #expect(q.popDue(atOrBefore: 100, unlessAfter: 40, sample) == nil)   // the sample at 40 first
        #expect(q.popDue(atOrBefore: 100, unlessAfter: 50, sample)?.kind == .agingEnd)
        #expect(q.popDue(atOrBefore: 100, unlessAfter: 50, sample) == nil)   // then the sample, before the wake end
        #expect(q.popDue(atOrBefore: 100, unlessAfter: 60, q.reserveSequence())?.kind == .wakeEnd)
        #expect(q.count == 0)
    }

    @Test func aCancelledSlotIsEmpty() {
        var q = TimerQueue()
        q.schedule(.sustainedPressure, at: 10)
        q.schedule(.agingEnd, at: 20)
        q.cancel(.sustainedPressure)
        #expect(drain(&q).map(\.0) == [.agingEnd])
    }

    @Test func aReservedPlaceOrdersATimerAsIfScheduledThen() {
        var q = TimerQueue()
        let early = q.reserveSequence()
        q.schedule(.taskWorkEnd, at: 100)
        q.schedule(.taskExpiry, at: 100, sequence: early)   // scheduled last, but its place was reserved first
        #expect(drain(&q).map(\.0) == [.taskExpiry, .taskWorkEnd])
    }

    @Test func onlyDueTimersComeOut() {
        var q = TimerQueue()
        q.schedule(.pressureRecheck, at: 5)
        q.schedule(.agingEnd, at: 9)
        #expect(drain(&q, through: 7).map(\.1) == [5])
        #expect(q.count == 1)
    }

    /// The heap against a sorted list: random times (many equal), pops interleaved with schedules.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func theHeapPopsInTimeThenSequenceOrder(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var q = TimerQueue(capacity: 4)   // grows past its reserved room
        var pending: [(time: Int, app: Int32)] = []
        var popped: [Int32] = [], expected: [Int32] = []
        for k in 0..<3000 {
            if rng.next() % 3 != 0 {
                let time = Int(rng.next() % 200)
                q.schedule(.agingEnd, at: time, app: Int32(k))
                pending.append((time, Int32(k)))
            } else if let t = q.popDue(atOrBefore: .max - 1, unlessAfter: .max, .max) {
                popped.append(t.app)
                // The earliest time, and among equal times the first scheduled (apps are numbered in schedule order).
                let best = pending.indices.min { (pending[$0].time, pending[$0].app) < (pending[$1].time, pending[$1].app) }!
                expected.append(pending.remove(at: best).app)
            }
        }
        #expect(popped == expected && q.count == pending.count)
    }

    /// Slots and heap against a list: slot timers replaced and cancelled at random (the slot's earliest is kept
    /// incrementally), heap timers scheduled, pops interleaved.
    @Test(arguments: [4, 5, 6] as [UInt64])
    func slotsAndHeapTogetherPopInTimeThenSequenceOrder(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var q = TimerQueue()
        let slotKinds: [TimerKind] = [.growthStep, .sustainedPressure, .pressureRecheck]
        var pending: [(time: Int, app: Int32, kind: TimerKind)] = []   // apps number the timers in schedule order
        var popped: [Int32] = [], expected: [Int32] = []
        for k in 0..<3000 {
            let time = Int(rng.next() % 100) + k / 10   // times drift forward, many equal
            switch rng.next() % 6 {
            case 0, 1:
                q.schedule(.agingEnd, at: time, app: Int32(k))
                pending.append((time, Int32(k), .agingEnd))
            case 2:
                let kind = slotKinds[Int(rng.next() % 3)]
                q.schedule(kind, at: time, app: Int32(k))
                pending.removeAll { $0.kind == kind }
                pending.append((time, Int32(k), kind))
            case 3:
                let kind = slotKinds[Int(rng.next() % 3)]
                q.cancel(kind)
                pending.removeAll { $0.kind == kind }
            default:
                if let t = q.popDue(atOrBefore: .max - 1, unlessAfter: .max, .max) {
                    popped.append(t.app)
                    let best = pending.indices.min { (pending[$0].time, pending[$0].app) < (pending[$1].time, pending[$1].app) }!
                    expected.append(pending.remove(at: best).app)
                }
            }
            #expect(q.count == pending.count)
        }
        #expect(popped == expected && !popped.isEmpty)
    }
}
