// Real-memory mode: every change to an app's memory is mirrored to the backing (real allocations), and with
// `--pressure-source measured` kill decisions also count what the allocator retains beyond the model.
// Without a backing every call here is one nil check.

extension Simulator {
    /// Mirrors app `i`'s memory to the backing. `reclaim`: the OS took memory back (see `MemoryBacking.update`).
    @inline(__always)
    func mirror(_ i: Int, reclaim: Bool) {
        guard let backing else { return }
        let a = apps[i]
        backing.update(app: i, to: BackedMemory(dirty: a.dirtyResident, cache: a.cache, purgeable: a.purgeable,
                                                backingStore: a.backingStore, imageCache: a.imageCache), reclaim: reclaim)
    }

    /// App `i`'s process ended: the backing returns all of its memory.
    @inline(__always)
    func mirrorRelease(_ i: Int) {
        backing?.release(app: i)
    }

    /// Before a kill decision: with measured pressure, re-reads what the allocator retains.
    @inline(__always)
    mutating func refreshMeasured() {
        guard options.pressureSource == .measured, let backing else { return }
        backing.refresh()
        retainedBytes = backing.totalRetainedBytes
    }

    /// The footprint kill decisions see: the model's, plus what the allocator retains with measured pressure.
    @inline(__always)
    func decisionFootprint(_ i: Int) -> Int {
        guard options.pressureSource == .measured, let backing else { return apps[i].footprint }
        return apps[i].footprint + backing.retainedBytes(app: i)
    }
}
