import JetsimCore

/// Runs a cell with the policy as its concrete type, so the compiler specialises the engine loop for it. Through
/// the existential the loop runs unspecialised generic code (value witnesses, boxed temporaries): slower, and
/// its allocations contend between threads.
func runCellSpecialised(_ policy: any EvictionPolicy, device: Device, catalog: AppCatalog, events: [TraceEvent],
                        options: SimulationOptions, future: NextUseTable?) -> SimulationResult {
    switch policy {
    case let p as XNUPolicy: runCell(p, device: device, catalog: catalog, events: events, options: options, future: future)
    case let p as LRUPolicy: runCell(p, device: device, catalog: catalog, events: events, options: options, future: future)
    case let p as FIFOPolicy: runCell(p, device: device, catalog: catalog, events: events, options: options, future: future)
    case let p as LargestPolicy: runCell(p, device: device, catalog: catalog, events: events, options: options, future: future)
    case let p as LMKDPolicy: runCell(p, device: device, catalog: catalog, events: events, options: options, future: future)
    case let p as LinuxOOMPolicy: runCell(p, device: device, catalog: catalog, events: events, options: options, future: future)
    case let p as CostPolicy: runCell(p, device: device, catalog: catalog, events: events, options: options, future: future)
    case let p as LFUPolicy: runCell(p, device: device, catalog: catalog, events: events, options: options, future: future)
    case let p as RandomPolicy: runCell(p, device: device, catalog: catalog, events: events, options: options, future: future)
    case let p as OraclePolicy: runCell(p, device: device, catalog: catalog, events: events, options: options, future: future)
    case let p as DeclarativePolicy: runCell(p, device: device, catalog: catalog, events: events, options: options, future: future)
    default: runCell(policy, device: device, catalog: catalog, events: events, options: options, future: future)
    }
}
