/// A jetsam policy: it ranks kill candidates and nothing else. The engine decides *when* to kill and
/// *which candidates* are eligible (a reason's band, the foreground only as a last resort), performs the kill
/// and owns every byte of accounting.
public protocol EvictionPolicy: Sendable {
    /// Name and effective parameters, as printed in every report row.
    var descriptor: PolicyDescriptor { get }

    /// The jetsam band of a priority class (higher survives longer).
    func band(for priorityClass: PriorityClass) -> Int

    /// The index in `candidates` of the app to kill next, or nil to refuse every candidate.
    /// `candidates` is never empty.
    mutating func selectVictim(among candidates: [KillCandidate], context: KillContext) -> Int?
}

/// A policy's self-description: its name and every parameter with its effective value.
public struct PolicyDescriptor: Sendable, Equatable {
    public var name: String
    /// Parameters in declaration order, with effective values rendered as given.
    public var parameters: [(name: String, value: String)]

    public init(name: String, parameters: [(name: String, value: String)] = []) {
        self.name = name
        self.parameters = parameters
    }

    /// `name(k=v,k=v)`, or `name` when the policy has no parameters.
    public var displayName: String {
        parameters.isEmpty ? name : "\(name)(" + parameters.map { "\($0.name)=\($0.value)" }.joined(separator: ",") + ")"
    }

    public static func == (a: PolicyDescriptor, b: PolicyDescriptor) -> Bool {
        a.displayName == b.displayName
    }
}

/// XNU's band numbers (xnu-jetsam.md §1), the default `band(for:)` of every policy.
public struct BandTable: Sendable, Equatable {
    public var foreground = 100, audio = 120, backgroundWork = 40, aging = 20, idle = 0, frozen = 75
    public init() {}

    public func band(for priorityClass: PriorityClass) -> Int {
        switch priorityClass {
        case .none: -1
        case .idle: idle
        case .aging: aging
        case .backgroundWork: backgroundWork
        case .frozen: frozen
        case .foreground: foreground
        case .audio: audio
        }
    }
}
