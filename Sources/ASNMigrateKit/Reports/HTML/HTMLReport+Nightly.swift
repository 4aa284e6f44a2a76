/// `report.html` of a `nightly` run date.
extension HTMLReport {
    /// The headline figures of a night, in order.
    static let nightlyHeadline = [
        "differences_new", "differences_resolved", "differences_open", "pending", "rejected", "files_ingested",
        "v1_records_read", "v2_records_read", "v1_records_in_state", "v2_records_in_state", "v1_stale", "v2_stale"
    ]

    /// The page of a night: its `summary.csv` rows, its `open.csv` rows (the backlog, with first and last seen) and
    /// the open-item trend of the last nights; with `--switch`, the section "The switch" first. Nightly keeps no V2 prices with its differences, so the page has no
    /// value at stake.
    package static func nightly(_ report: NightlyReport, verdict: HTMLVerdict? = nil) -> HTMLReport {
        let value = { (name: String) in report.metric(name) ?? "" }
        let facts = [
            ("run date", report.date), ("period", "\(value("period_start")) .. \(value("period_end"))")
        ]
        var page = HTMLReport(
            title: "asn-migrate nightly: \(report.date)", facts: facts, headline: nightlyHeadline,
            metrics: report.metrics,
            identities: AccountingIdentity.nightly, rows: report.open.map(\.difference), rowsFile: "open.csv",
            extraCells: report.open.map { [$0.firstSeen, $0.lastSeen] }, extraHeadings: ["first_seen", "last_seen"],
            prices: nil, trend: report.trend, verdict: verdict ?? nightlyVerdict(report), rejects: report.rejects,
            files: NightlyReport.fileNames)
        page.switchFigures = report.switchFigures
        return page
    }

    /// The verdict of a night: records read and rejected that night per side against `maxRejectRate`, the new
    /// differences, and the exit status (by default the one the night's reports call for), with the failed sanity
    /// check and stale sides as notes, and `notes` (crossed thresholds) after them.
    package static func nightlyVerdict(
        _ report: NightlyReport, status: ExitStatus? = nil, maxRejectRate: Double = SanityCheck.defaultMaxRejectRate,
        notes: [String] = [], failOnRules: Bool = false
    ) -> HTMLVerdict {
        let count = { (name: String) in report.metric(name).flatMap { Int($0) } ?? 0 }
        return HTMLVerdict(
            status: status ?? report.status,
            sides: ["V1", "V2"].map { side in
                let prefix = side.lowercased()
                return .init(name: side, read: count(prefix + "_records_read"), rejected: count(prefix + "_rejected"))
            }, maxRejectRate: maxRejectRate, newDifferences: report.new.count,
            notes: (report.sanityFailure.map { [$0] } ?? []) + report.stale + notes, failOnRules: failOnRules)
    }
}
