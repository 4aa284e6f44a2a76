/// `report.html` of a `nightly` run date.
extension HTMLReport {
    /// The headline figures of a night, in order.
    static let nightlyHeadline = [
        "differences_new", "differences_resolved", "differences_open", "pending", "rejected", "files_ingested",
        "v1_records_read", "v2_records_read", "v1_records_in_state", "v2_records_in_state", "v1_stale", "v2_stale"
    ]

    /// The page of a night: its `summary.csv` rows, its `open.csv` rows (the backlog, with first and last seen) and
    /// the open-item trend of the last nights. Nightly keeps no V2 prices with its differences, so the page has no
    /// value at stake.
    package static func nightly(_ report: NightlyReport) -> HTMLReport {
        let value = { (name: String) in report.metric(name) ?? "" }
        let facts = [
            ("run date", report.date), ("period", "\(value("period_start")) .. \(value("period_end"))"),
            ("report files", NightlyReport.fileNames.joined(separator: ", "))
        ]
        return HTMLReport(
            title: "asn-migrate nightly: \(report.date)", facts: facts, headline: nightlyHeadline,
            metrics: report.metrics,
            identities: AccountingIdentity.nightly, rows: report.open.map(\.difference), rowsFile: "open.csv",
            extraCells: report.open.map { [$0.firstSeen, $0.lastSeen] }, extraHeadings: ["first_seen", "last_seen"],
            prices: nil, trend: report.trend)
    }
}
