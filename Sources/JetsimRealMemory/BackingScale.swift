/// How much smaller real memory is than the modelled device: real bytes = model bytes × numerator ÷ denominator.
/// `1/256` runs a 4 GiB phone in 16 MiB of this machine's memory.
public struct BackingScale: Equatable, Sendable, CustomStringConvertible {
    public let numerator: Int
    public let denominator: Int

    public static let `default` = BackingScale(numerator: 1, denominator: 256)

    /// Parses `1/256`, `1/1` or `1`; the scale must be in (0, 1] with a denominator up to 2^20.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let n = Int(parts[0]), let d = parts.count == 2 ? Int(parts[1]) : 1,
              n >= 1, d >= 1, n <= d, d <= 1 << 20 else {
            throw RealMemoryError("scale must be a fraction 1/D (or N/D) between 1/1048576 and 1, found '\(text)'", exitCode: 64)
        }
        self.init(numerator: n, denominator: d)
    }

    public init(numerator: Int, denominator: Int) {
        self.numerator = numerator
        self.denominator = denominator
    }

    public var description: String { "\(numerator)/\(denominator)" }

    /// Real bytes for `modelBytes`, rounded up (full-width: no overflow for any model size).
    public func realBytes(_ modelBytes: Int) -> Int {
        guard modelBytes > 0 else { return 0 }
        let (high, low) = modelBytes.multipliedFullWidth(by: numerator)
        let (q, r) = denominator.dividingFullWidth((high, low))
        return r > 0 ? q + 1 : q
    }

    /// Model bytes for `realBytes` (real bytes here never exceed this machine's memory, so no overflow).
    public func modelBytes(_ realBytes: Int) -> Int { realBytes * denominator / numerator }
}

/// What `--backing` names: the plain model, or jemalloc arenas at a scale.
public enum BackingSpec: Equatable, Sendable, CustomStringConvertible {
    case model
    case jemalloc(BackingScale)

    /// Parses `model`, `jemalloc` or `jemalloc:scale=1/256`.
    public init(parsing text: String) throws {
        if text == "model" { self = .model; return }
        guard text == "jemalloc" || text.hasPrefix("jemalloc:") else {
            throw RealMemoryError("--backing must be 'model', 'jemalloc' or 'jemalloc:scale=1/256', found '\(text)'", exitCode: 64)
        }
        var scale = BackingScale.default
        for parameter in text.dropFirst("jemalloc".count).split(separator: ":").flatMap({ $0.split(separator: ",") }) {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0] == "scale" else {
                throw RealMemoryError("--backing jemalloc takes one parameter, scale=1/D; found '\(parameter)'", exitCode: 64)
            }
            scale = try BackingScale(parsing: String(pair[1]))
        }
        self = .jemalloc(scale)
    }

    public var description: String {
        switch self {
        case .model: "model"
        case .jemalloc(let scale): "jemalloc:scale=\(scale)"
        }
    }
}
