import JetsimCore

/// A seeded cache request stream held in memory: Zipf 1.0 popularity over `objects` objects of fixed sizes
/// (1 KiB – 1 MiB, roughly log-uniform), like the traces `Tests/CrossCheck/zipf_trace.py` writes for libCacheSim.
public struct ZipfRequests: Sendable {
    public let objects: [Int32]
    public let sizes: [Int]
    /// 1 % of the bytes of all distinct objects.
    public let onePercentCapacity: Int

    public init(count: Int, objects objectCount: Int, seed: UInt64 = 7) {
        var rng = SplitMix64(seed: seed)
        func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        var sizeOf: [Int] = []
        for _ in 0..<objectCount {   // a power of two from 1 KiB to 512 KiB, then up to twice that
            let base = 1024 << Int(rng.next() % 10)
            sizeOf.append(base + Int(rng.next() % UInt64(base)))
        }
        var cumulative: [Double] = []
        var total = 0.0
        for rank in 1...objectCount {
            total += 1 / Double(rank)
            cumulative.append(total)
        }
        var objects: [Int32] = [], sizes: [Int] = []
        objects.reserveCapacity(count)
        sizes.reserveCapacity(count)
        for _ in 0..<count {
            let u = unit() * total
            var lo = 0, hi = objectCount - 1
            while lo < hi { let mid = (lo + hi) / 2; if cumulative[mid] < u { lo = mid + 1 } else { hi = mid } }
            objects.append(Int32(lo))
            sizes.append(sizeOf[lo])
        }
        self.objects = objects
        self.sizes = sizes
        onePercentCapacity = sizeOf.reduce(0, +) / 100
    }
}
