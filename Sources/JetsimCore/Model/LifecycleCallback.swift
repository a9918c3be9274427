/// The delegate callbacks the simulator records, with the deadline the system gives each
/// (ios-app-lifecycle.md, "Transitions and the callbacks that accompany them").
public enum LifecycleCallback: UInt8, Sendable, CaseIterable {
    case none
    case willFinishLaunching
    case didFinishLaunching
    case didBecomeActive
    case willResignActive
    case didEnterBackground
    case willEnterForeground
    case willTerminate
    case didReceiveMemoryWarning
    case backgroundTaskExpiration
    case performBackgroundWake

    /// Apple's selector name, as shown in `events.csv`.
    public var reportName: String {
        switch self {
        case .none: ""
        case .willFinishLaunching: "application(_:willFinishLaunchingWithOptions:)"
        case .didFinishLaunching: "application(_:didFinishLaunchingWithOptions:)"
        case .didBecomeActive: "applicationDidBecomeActive(_:)"
        case .willResignActive: "applicationWillResignActive(_:)"
        case .didEnterBackground: "applicationDidEnterBackground(_:)"
        case .willEnterForeground: "applicationWillEnterForeground(_:)"
        case .willTerminate: "applicationWillTerminate(_:)"
        case .didReceiveMemoryWarning: "applicationDidReceiveMemoryWarning(_:)"
        case .backgroundTaskExpiration: "beginBackgroundTask(expirationHandler:)"
        case .performBackgroundWake: "application(_:performFetchWithCompletionHandler:)"
        }
    }
}
