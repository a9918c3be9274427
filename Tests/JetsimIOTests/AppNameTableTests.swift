@testable import JetsimIO
import Testing

@Suite struct AppNameTableTests {
    /// Names of one length that differ in a byte, a prefix of another name, many names (probe chains): each finds its
    /// own id, and a name that is not there finds none.
    @Test func everyNameFindsItsOwnIdAndNoOther() {
        let names = ["ab", "ba", "abc", "a"] + (0..<300).map { "app-\($0)" }
        var table = AppNameTable(names)
        for (k, name) in names.enumerated() {
            #expect(Array(name.utf8).withUnsafeBufferPointer { table.id(of: $0) } == Int32(k), "\(name)")
        }
        for absent in ["aa", "bb", "abd", "app-300", "app-0 ", ""] {
            #expect(Array(absent.utf8).withUnsafeBufferPointer { table.id(of: $0) } == nil, "\(absent)")
        }
        let added = Array("zz".utf8).withUnsafeBufferPointer { table.intern($0) }
        #expect(added == Int32(names.count))
        #expect(Array("zz".utf8).withUnsafeBufferPointer { table.id(of: $0) } == added)
    }
}
