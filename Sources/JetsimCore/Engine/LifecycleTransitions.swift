/// The legal state transitions of an iOS app (ios-app-lifecycle.md, "Transitions").
///
/// Active is entered and left only through Inactive; a launch into the background skips Inactive; any
/// resident state can be killed (jetsam, a limit, a watchdog) and goes to Not running without a callback.
public enum LifecycleTransitions {
    public static func isLegal(from: AppState, to: AppState, cause: TransitionCause) -> Bool {
        if case .kill = cause { return from.isResident && to == .notRunning }
        switch (from, to) {
        case (.notRunning, .inactive), (.notRunning, .background): return true      // launch (foreground / background)
        case (.inactive, .active), (.active, .inactive): return true                  // become / resign active
        case (.inactive, .background): return true                                   // leave the foreground
        case (.background, .suspended), (.suspended, .background): return true       // suspend / wake
        case (.background, .inactive), (.suspended, .inactive): return true          // return to the foreground
        case (.inactive, .notRunning), (.background, .notRunning), (.suspended, .notRunning):
            return true                                                              // terminate / force-quit
        default: return false
        }
    }
}
