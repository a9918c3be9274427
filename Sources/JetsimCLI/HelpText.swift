/// A command's `discussion` as ArgumentParser should receive it: the prose paragraphs as single lines, which it wraps
/// at the terminal's width (or `COLUMNS`), where the source's hard line breaks would stay and narrow or widen nothing.
/// A line joins the one before it when both are prose: not blank, not indented (examples, tables), and the one
/// before does not end with `:` (a heading of what follows).
func reflowed(_ text: String) -> String {
    var lines: [String] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
        if let last = lines.last, isProse(last), !last.hasSuffix(":"), isProse(line) {
            lines[lines.count - 1] = last + " " + line
        } else {
            lines.append(line)
        }
    }
    return lines.joined(separator: "\n")
}

private func isProse(_ line: String) -> Bool {
    guard let first = line.first else { return false }
    return first != " " && first != "\t"
}
