/// A table for the console: the chosen columns two spaces apart, the first `leftAligned` of them (labels) padded on the
/// right and the rest (numbers) on the left. The one renderer of `compare`'s, the population's and `validate`'s tables.
public enum ConsoleTable {
    /// The lines of `rows` (the header first) showing `columns` (indices into each row, all of them when nil); a cell a
    /// row lacks shows blank.
    public static func lines(_ rows: [[String]], columns: [Int]? = nil, leftAligned: Int) -> [String] {
        let columns = columns ?? Array((rows.first ?? []).indices)
        func cell(_ row: [String], _ c: Int) -> String { row.indices.contains(c) ? row[c] : "" }
        let widths = columns.map { c in rows.map { cell($0, c).count }.max() ?? 0 }
        return rows.map { row in
            zip(columns, widths).enumerated().map { k, column in
                let text = cell(row, column.0)
                return k < leftAligned ? text.padding(toLength: column.1, withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: column.1 - text.count) + text
            }.joined(separator: "  ")
        }
    }
}
