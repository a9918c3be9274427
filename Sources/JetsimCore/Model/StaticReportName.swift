/// A value whose name in reports and inputs is a literal (a state, a kill reason, a priority class, a pressure level).
/// The literal lives in `staticReportName` alone; report rows copy its bytes (`RowWriter.bytes`), and `reportName` is
/// it as a `String` for everything else (headers, parsing tables, messages): a `String` read per row cost some fifty
/// instructions and a release.
public protocol StaticReportName {
    var staticReportName: StaticString { get }
}

extension StaticReportName {
    public var reportName: String { staticReportName.description }
}
