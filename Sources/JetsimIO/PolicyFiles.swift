import JetsimCore

/// Finds and loads declarative policy files (placeholder until the file format lands).
public enum PolicyFiles {
    public struct Found: Sendable { public var name: String; public var path: String }
    public static func list(in directory: String) -> [Found] { [] }
    public static func load(path: String) throws -> DeclarativePolicy { throw PolicyFileError(file: path, key: "", message: "not yet") }
}

public struct DeclarativePolicy: EvictionPolicy {
    public var summary = ""
    public var descriptor: PolicyDescriptor { PolicyDescriptor(name: "file") }
    public func band(for priorityClass: PriorityClass) -> Int { 0 }
    public mutating func selectVictim(among candidates: [KillCandidate], context: KillContext) -> Int? { nil }
}
