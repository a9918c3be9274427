/// SHA-256 (FIPS 180-4, section 6.2), streamed: the digests of a run's manifests (its inputs, its grid's configuration, a
/// shard's results), which `sha256sum` reproduces.
///
/// Written here rather than taken from swift-crypto, whose only use here it was: on Linux that package compiles
/// BoringSSL's 366 C files into every build, 99 s of a release build and 78 s of a debug one on this project's 2-core
/// VM (the sixteenth session's Intel Xeon), so four builds of it took six of `.ci/run`'s 24.5 minutes and two fifths of a
/// new user's first `swift run`. A manifest needs no more than the hash function: no keys, no constant-time
/// comparison. The price is speed on large inputs, where BoringSSL uses the CPU's SHA instructions: `compare` hashes
/// each trace it reads once, on a thread of its own (`Benchmarks/README.md`: "SHA-256 of the manifests").
///
/// Invariant: `pending` holds the `length % 64` bytes of the input that no block has taken yet; `state` is the hash of
/// the blocks before them.
public struct SHA256 {
    /// H0…H7 (the first 32 bits of the square roots' fractional parts of the first 8 primes, before any block).
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19)
    /// The input's bytes after the last whole block (at most 63 used).
    private var pending = [UInt8](repeating: 0, count: 64)
    /// Bytes taken so far (the message length the padding records, in bits, modulo 2^64).
    private var length: UInt64 = 0

    public init() {}

    /// The digest of `bytes`.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Lower-case hexadecimal, two digits a byte (`sha256sum`'s form).
    public static func hex(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(digest.count * 2)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Takes `bytes` after those given before.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        var used = Int(length % 64)
        length &+= UInt64(bytes.count)
        if used > 0 {   // complete the pending block first
            let take = min(64 - used, bytes.count)
            pending.withUnsafeMutableBytes {
                UnsafeMutableRawBufferPointer(rebasing: $0[used..<(used + take)]).copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[0..<take]))
            }
            used += take
            offset = take
            guard used == 64 else { return }
            pending.withUnsafeBytes { Self.compress(&state, $0, at: 0) }
        }
        while bytes.count - offset >= 64 {
            Self.compress(&state, bytes, at: offset)
            offset += 64
        }
        let left = bytes.count - offset
        if left > 0 {
            pending.withUnsafeMutableBytes {
                UnsafeMutableRawBufferPointer(rebasing: $0[0..<left]).copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            }
        }
    }

    /// The digest of everything given (32 bytes). The padding: a 1 bit, zeros up to 56 bytes modulo 64, the length in
    /// bits (big-endian, 64 bits).
    public func finalize() -> [UInt8] {
        var hasher = self
        let bits = length &* 8
        var tail: [UInt8] = [0x80] + [UInt8](repeating: 0, count: Int((55 &- length % 64) % 64))
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        hasher.update(tail)
        let (a, b, c, d, e, f, g, h) = hasher.state
        var digest = [UInt8]()
        digest.reserveCapacity(32)
        for word in [a, b, c, d, e, f, g, h] {
            for shift in stride(from: 24, through: 0, by: -8) { digest.append(UInt8(truncatingIfNeeded: word >> UInt32(shift))) }
        }
        return digest
    }

    /// K0…K63: the first 32 bits of the cube roots' fractional parts of the first 64 primes.
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    @inline(__always) private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 &- n)) }

    /// One round (FIPS 180-4, 6.2.2 step 3) with the eight working variables named in the round's order: `d` becomes
    /// e and `h` becomes a. The caller rotates the names instead of moving the values, eight rounds a turn.
    @inline(__always) private static func round(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32,
                                                _ f: UInt32, _ g: UInt32, _ h: inout UInt32, _ kw: UInt32) {
        let t1 = h &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ (g ^ (e & (f ^ g))) &+ kw
        d = d &+ t1
        h = t1 &+ (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) | ((a | b) & c))
    }

    /// The 64-byte block at `offset` of `bytes` into `state` (FIPS 180-4, 6.2.2).
    private static func compress(_ state: inout (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32),
                                 _ bytes: UnsafeRawBufferPointer, at offset: Int) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            roundConstants.withUnsafeBufferPointer { k in
                for t in 0..<16 { w[t] = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset + 4 * t, as: UInt32.self)) }
                for t in 16..<64 {
                    let w15 = w[t - 15], w2 = w[t - 2]
                    w[t] = w[t - 16] &+ (rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >> 3)) &+ w[t - 7]
                        &+ (rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >> 10))
                }
                for t in 0..<64 { w[t] = w[t] &+ k[t] }
                var (a, b, c, d, e, f, g, h) = state
                for t in stride(from: 0, to: 64, by: 8) {
                    round(a, b, c, &d, e, f, g, &h, w[t])
                    round(h, a, b, &c, d, e, f, &g, w[t + 1])
                    round(g, h, a, &b, c, d, e, &f, w[t + 2])
                    round(f, g, h, &a, b, c, d, &e, w[t + 3])
                    round(e, f, g, &h, a, b, c, &d, w[t + 4])
                    round(d, e, f, &g, h, a, b, &c, w[t + 5])
                    round(c, d, e, &f, g, h, a, &b, w[t + 6])
                    round(b, c, d, &e, f, g, h, &a, w[t + 7])
                }
                state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g,
                         state.7 &+ h)
            }
        }
    }
}
