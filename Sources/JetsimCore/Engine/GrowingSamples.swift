/// A stretch of samples in which nothing but the foreground app's growth changes the state (`Simulator.takeSamples`): the
/// state with the growth applied so far, and the growth (`ForegroundGrowth`) that gives each sample's values from it. The
/// engine measures every sample by `project(_:grown:fileBackedBytes:at:)`, and hands a growing stretch over as one of
/// these (`SimulationObserver.record(growing:count:every:)`), so its samples are projected where they are rendered, off
/// the engine's thread in `jetsim run` (`WriteBehindSink`): they are the samples the engine would measure at their times.
///
/// Invariant: `growth.dirtyResident` is the app's dirty memory counted in `state` (the growth applied so far).
public struct GrowingSamples: Sendable, Equatable {
    /// The state at the stretch's first sample, growth not projected: `freeBytes` is the memory's free count itself.
    public var state: MemorySample
    /// Clean file-backed memory, which growth takes once free memory is gone.
    public var fileBackedBytes: Int
    public var growth: ForegroundGrowth

    @inlinable
    public init(state: MemorySample, fileBackedBytes: Int, growth: ForegroundGrowth) {
        (self.state, self.fileBackedBytes, self.growth) = (state, fileBackedBytes, growth)
    }

    /// The sample at `time` (not before the state's).
    @inlinable @inline(__always)
    public func sample(at time: Int) -> MemorySample {
        Self.project(state, grown: growth.unapplied(at: time), fileBackedBytes: fileBackedBytes, at: time)
    }

    /// Calls `body` with the `count` samples from the state's time, one every `interval` µs.
    @inlinable
    public func samples(_ count: Int, every interval: Int, _ body: (MemorySample) -> Void) {
        for k in 0..<count { body(sample(at: state.time + k * interval)) }
    }

    /// `state` (growth not projected) at `time`, with `grown` bytes of the foreground app's growth projected rather than
    /// applied. Growth takes free pages first, then clean ones (as the VM does on a page fault): free memory shows below
    /// zero only by what the clean pages cannot cover.
    @inlinable @inline(__always)
    public static func project(_ state: MemorySample, grown: Int, fileBackedBytes: Int, at time: Int) -> MemorySample {
        var sample = state
        sample.time = time
        sample.availableBytes = state.availableBytes - grown
        sample.freeBytes = state.freeBytes - grown
        if sample.freeBytes < 0 { sample.freeBytes = min(0, sample.freeBytes + fileBackedBytes) }
        sample.footprintBytes = state.footprintBytes + grown
        return sample
    }
}
