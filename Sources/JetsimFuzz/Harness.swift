// The libFuzzer harness: built only with JETSIM_FUZZ=1 (Package.swift), as README "Fuzzing" shows. libFuzzer
// provides main and calls LLVMFuzzerTestOneInput with each input; JETSIM_FUZZ_TARGET chooses the kind of input.
import JetsimIO

#if canImport(Glibc)
import Glibc
#endif

/// The kind of input this process fuzzes, from JETSIM_FUZZ_TARGET.
let target: FuzzTarget = {
    let name = getenv("JETSIM_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        print("jetsim-fuzz: set JETSIM_FUZZ_TARGET to one of \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))")
        exit(2)
    }
    return target
}()

/// One input: a trap is a crash libFuzzer reports; so is a refusal that breaks the one-located-line promise.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if case .refused(let error) = target.consume(bytes, name: "input"), let problem = FuzzTarget.check(error) {
        fatalError(problem)
    }
    return 0
}
