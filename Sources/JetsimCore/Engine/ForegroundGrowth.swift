/// The foreground app's dirty memory as its growth gives it at a time: `AppProfile.growthBytesPerMinute` from the
/// session's start over its base, in whole pages, at most `maxDirtyBytes`, never below what the app already has. The one
/// place of that formula: the engine applies it (`Simulator.applyGrowth`), measures a growing app's samples with it
/// (`Simulator.measuredSample`), and hands a stretch of such samples over with it (`GrowingSamples`), to be projected
/// where they are rendered.
///
/// Computed from the session's start, not step by step, so the result does not depend on how often it is applied.
public struct ForegroundGrowth: Sendable, Equatable {
    public var bytesPerMinute: Int
    /// When the session's growth started (µs), and the dirty memory it started from.
    public var start: Int
    public var base: Int
    /// `AppProfile.maxDirtyBytes`.
    public var cap: Int
    /// The dirty memory the app has: the growth applied so far.
    public var dirtyResident: Int
    /// The device's page, and its mask (`pageSize − 1`; −1 when not a power of two: `Units.roundDown(_:toPage:mask:)`).
    public var pageSize: Int
    public var pageMask: Int

    @inlinable
    public init(bytesPerMinute: Int, start: Int, base: Int, cap: Int, dirtyResident: Int, pageSize: Int, pageMask: Int) {
        (self.bytesPerMinute, self.start, self.base, self.cap) = (bytesPerMinute, start, base, cap)
        (self.dirtyResident, self.pageSize, self.pageMask) = (dirtyResident, pageSize, pageMask)
    }

    /// The app's dirty memory at `time` (not before `start`): never less than `dirtyResident`.
    @inlinable @inline(__always)
    public func dirty(at time: Int) -> Int {
        let grown = Units.multiplyDivide(bytesPerMinute, time - start, by: Self.microsPerMinute)?.quotient ?? Int.max
        let target = min(base + min(Units.roundDown(grown, toPage: pageSize, mask: pageMask), cap), cap)
        return max(target, dirtyResident)
    }

    /// The growth due at `time` and not yet applied (≥ 0).
    @inlinable @inline(__always)
    public func unapplied(at time: Int) -> Int { dirty(at: time) - dirtyResident }

    public static var microsPerMinute: Int { 60 * Units.microsPerSecond }
}
