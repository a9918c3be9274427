/// A command's `discussion` as ArgumentParser should receive it: the prose paragraphs as single lines, which it wraps
/// at the terminal's width (or `COLUMNS`), where the source's hard line breaks would stay and narrow or widen nothing.
/// A line joins the one before it when both are prose: not blank, not indented (examples, tables), and the one
/// before does not end with `:` (a heading of what follows).
///
/// In bytes, in one pass: each line depends only on the one before it (a joined line starts as prose and ends as its
/// last piece does). Every command's help is reflowed when the parser builds its tree, at every run of `jetsim`; the
/// `String` version, which rebuilt the joined line at each piece, cost some 7 M instructions a process.
func reflowed(_ text: String) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count)
    var joinable = false   // the line before is prose and does not end with `:`
    for (k, line) in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
        let prose = line.first.map { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") } ?? false
        if k > 0 { out.append(joinable && prose ? UInt8(ascii: " ") : UInt8(ascii: "\n")) }
        out.append(contentsOf: line)
        joinable = prose && line.last != UInt8(ascii: ":")
    }
    return String(decoding: out, as: UTF8.self)
}
