// Real-memory mode: every change to an app's memory is mirrored to the backing (real allocations), and with
// `--pressure-source measured` kill decisions also count what the allocator retains beyond the model.
// Without a backing every call here is one nil check: only that check is inlined into the engine's memory operations,
// the calls to the backing stay out of line (inlined, they cost the model without a backing 1.5 % of its speed).

extension Simulator {
    /// Mirrors app `i`'s memory to the backing. `reclaim`: the OS took memory back (see `MemoryBacking.update`).
    @inline(__always)
    func mirror(_ i: Int, reclaim: Bool) {
        if backing != nil { mirrorToBacking(i, reclaim: reclaim) }
    }

    @inline(never)
    private func mirrorToBacking(_ i: Int, reclaim: Bool) {
        guard let backing else { return }
        backing.update(app: i, to: BackedMemory(dirty: apps[i].dirtyResident, cache: apps[i].cache, purgeable: apps[i].purgeable,
                                                backingStore: apps[i].backingStore, imageCache: apps[i].imageCache), reclaim: reclaim)
    }

    /// App `i`'s process ended: the backing returns all of its memory.
    @inline(__always)
    func mirrorRelease(_ i: Int) {
        if backing != nil { releaseInBacking(i) }
    }

    @inline(never)
    private func releaseInBacking(_ i: Int) {
        backing?.release(app: i)
    }

    /// Before a kill decision: with measured pressure, re-reads what the allocator retains.
    @inline(__always)
    mutating func refreshMeasured() {
        if options.pressureSource == .measured && backing != nil { refreshRetainedBytes() }
    }

    @inline(never)
    private mutating func refreshRetainedBytes() {
        guard let backing else { return }
        backing.refresh()
        retainedBytes = backing.totalRetainedBytes
    }

    /// The footprint kill decisions see: the model's, plus what the allocator retains with measured pressure.
    @inline(__always)
    func decisionFootprint(_ i: Int) -> Int {
        options.pressureSource == .measured && backing != nil ? measuredFootprint(i) : apps[i].footprint
    }

    @inline(never)
    private func measuredFootprint(_ i: Int) -> Int {
        apps[i].footprint + (backing?.retainedBytes(app: i) ?? 0)
    }
}
