/// Long-running and wake-up background modes (`UIBackgroundModes`), ios-app-lifecycle.md §"Background execution".
public struct BackgroundModes: OptionSet, Sendable, Hashable, BitwiseCopyable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let audio = BackgroundModes(rawValue: 1 << 0)
    public static let location = BackgroundModes(rawValue: 1 << 1)
    public static let voip = BackgroundModes(rawValue: 1 << 2)
    public static let newsstandContent = BackgroundModes(rawValue: 1 << 3)
    public static let externalAccessory = BackgroundModes(rawValue: 1 << 4)
    public static let bluetoothCentral = BackgroundModes(rawValue: 1 << 5)
    public static let bluetoothPeripheral = BackgroundModes(rawValue: 1 << 6)
    public static let fetch = BackgroundModes(rawValue: 1 << 7)
    public static let remoteNotification = BackgroundModes(rawValue: 1 << 8)
    public static let processing = BackgroundModes(rawValue: 1 << 9)

    /// Modes that keep an app running in the background while their activity lasts.
    /// Fetch, remote notifications, Newsstand and processing only wake the app for short bursts (`bg_launch`).
    public static let longRunning: BackgroundModes = [.audio, .location, .voip, .externalAccessory,
                                                       .bluetoothCentral, .bluetoothPeripheral]

    /// Apple's `UIBackgroundModes` values, which are also the names used in catalogs and traces.
    public static let names: [(String, BackgroundModes)] = [
        ("audio", .audio), ("location", .location), ("voip", .voip), ("newsstand-content", .newsstandContent),
        ("external-accessory", .externalAccessory), ("bluetooth-central", .bluetoothCentral),
        ("bluetooth-peripheral", .bluetoothPeripheral), ("fetch", .fetch),
        ("remote-notification", .remoteNotification), ("processing", .processing),
    ]

    /// The single mode named `name`, or nil.
    public static func named(_ name: String) -> BackgroundModes? {
        names.first(where: { $0.0 == name })?.1
    }

    /// `audio|location` style rendering.
    public var reportName: String {
        BackgroundModes.names.filter { contains($0.1) }.map(\.0).joined(separator: "|")
    }
}
