import JetsimCore

/// How much of this machine a real-memory run may take: a quarter of its memory, and at most half of what is
/// available now. A scale whose device would not fit is refused before anything is allocated.
public enum RealMemoryBudget {
    /// The budget in real bytes for a device of `devicePhysicalBytes` at `scale`, or a clear refusal.
    /// - Parameter machine: `MemTotal` and `MemAvailable` (from `ProcessMemory.machine()`; passed in for tests).
    public static func budget(deviceName: String, devicePhysicalBytes: Int, scale: BackingScale,
                              machine: (total: Int, available: Int)) throws -> Int {
        let safe = min(machine.total / 4, machine.available / 2)
        let needed = scale.realBytes(devicePhysicalBytes)
        guard needed <= safe else {
            var denominator = 1
            while denominator < 1 << 20 && BackingScale(numerator: 1, denominator: denominator).realBytes(devicePhysicalBytes) > safe {
                denominator *= 2
            }
            throw RealMemoryError(
                "--backing jemalloc:scale=\(scale) would take up to \(gibibytes(needed)) of real memory for \(deviceName) "
                + "(\(gibibytes(devicePhysicalBytes)) × \(scale)), more than this machine's safe share of \(gibibytes(safe)) "
                + "(a quarter of its \(gibibytes(machine.total)), at most half of the \(gibibytes(machine.available)) available): "
                + "use scale=1/\(denominator) or smaller", exitCode: 64)
        }
        return safe
    }

    static func gibibytes(_ bytes: Int) -> String { FixedPoint.format(bytes, over: 1 << 30, decimals: 2) + " GiB" }
}
