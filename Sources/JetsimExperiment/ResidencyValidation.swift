import JetsimCore
import JetsimIO

/// A simulation's residency scored against measured snapshots (`jetsim validate`): at every snapshot time, is each
/// background task's process alive in the simulation as it was on the phone?
///
/// A snapshot at time t is a residency probe at t (`ResidencyProbes`: after every event at or before t, with the timers
/// due by t fired; the importer writes a snapshot's switch at its own time, so the probe sees the state the snapshot
/// recorded). A task counts as dead in the simulation when its app is not running. Only background tasks (rank > 0) are scored:
/// the foreground task is alive by definition. A task whose app the simulation has not opened or launched by then
/// (`Simulator.hasStarted`) is not scored but counted (`unmodelledTasks`): the simulation knows nothing of its
/// process — the home screen's launcher (not an app of the model: the importer replays it as `home`; Android holds it
/// at `HOME_APP_ADJ`), or an app started outside the trace. Scoring it as dead would count the model's blind spot as
/// a kill.
public struct ResidencyScore: Sendable, Equatable {
    public var snapshots = 0
    /// Background tasks scored (rank > 0, app launched by the trace), and how many were dead as measured, as
    /// simulated, and both.
    public var tasks = 0
    /// Background tasks not scored: their app had not been opened or launched by the trace by then.
    public var unmodelledTasks = 0
    public var measuredDead = 0
    public var simulatedDead = 0
    public var bothDead = 0
    /// Measured dead → alive transitions of a task (by its id) between the snapshots it is in: cold relaunches seen at
    /// the snapshots' resolution (a lower bound).
    public var measuredDeadToAlive = 0
    /// From the first snapshot to the last, µs.
    public var spanMicros = 0

    public init() {}

    /// Tasks the simulation got right (dead when dead, alive when alive).
    public var agreeing: Int { tasks - (measuredDead - bothDead) - (simulatedDead - bothDead) }
}

public enum ResidencyValidation {
    /// Replays `events` through a simulator of `policy` on `device`, probing its residency at each snapshot time of
    /// `tasks` (in time order; `ResidencyProbes` says what a probe sees); returns the score and the run's result.
    public static func score(policy: any EvictionPolicy, device: Device, catalog: AppCatalog, events: [TraceEvent],
                             tasks: [SnapshotsFile.Task], options: SimulationOptions) -> (ResidencyScore, SimulationResult) {
        var times: [Int] = []
        for t in tasks where times.last != t.time { times.append(t.time) }
        var result = runCell(policy, device: device, catalog: catalog, events: events, options: options, future: nil,
                             keepKillsAndSamples: false, residency: .at(times))
        var score = ResidencyScore()
        score.snapshots = times.count
        // The probe's states at the current snapshot time, by app; nil: not started by then.
        var states = [AppState?](repeating: nil, count: catalog.count)
        var seen: [Int32] = []
        var record = 0
        var current = Int.min
        for task in tasks {
            if task.time != current {
                current = task.time
                for app in seen { states[Int(app)] = nil }
                seen.removeAll(keepingCapacity: true)
                while record < result.residency.count, result.residency[record].time <= current {
                    let r = result.residency[record]
                    if r.time == current { states[Int(r.app)] = r.state; seen.append(r.app) }
                    record += 1
                }
            }
            guard task.rank > 0 else { continue }
            guard let state = states[Int(task.app)] else { score.unmodelledTasks += 1; continue }
            let dead = state == .notRunning
            score.tasks += 1
            if !task.alive { score.measuredDead += 1 }
            if dead { score.simulatedDead += 1 }
            if dead && !task.alive { score.bothDead += 1 }
        }
        result.residency = []
        score.spanMicros = (tasks.last?.time ?? 0) - (tasks.first?.time ?? 0)
        score.measuredDeadToAlive = deadToAlive(tasks)
        return (score, result)
    }

    /// Tasks measured dead at one snapshot they were in and alive at the next one they are in.
    static func deadToAlive(_ tasks: [SnapshotsFile.Task]) -> Int {
        var lastAlive: [String: Bool] = [:]
        var count = 0
        for t in tasks {
            if lastAlive[t.task] == false && t.alive { count += 1 }
            lastAlive[t.task] = t.alive
        }
        return count
    }
}
