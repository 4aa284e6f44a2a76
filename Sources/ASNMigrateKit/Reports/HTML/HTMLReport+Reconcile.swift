/// `report.html` of a `reconcile` run.
extension HTMLReport {
    /// The headline figures of a `reconcile` run, in order (those its summary has).
    static let reconcileHeadline = [
        "v1_records_read", "v2_records_read", "matched", "missing_in_v2", "missing_in_v1", "type_mismatch",
        "field_mismatch",
        "state_mismatch", "subscriptions_compared", "conflicting_duplicate_v2", "v1_unmapped", "v1_pending",
        "v2_pending",
        "v1_rejected", "v2_rejected", "matched_transactions", "transaction_missing_in_v2", "transaction_missing_in_v1",
        "transaction_field_mismatch", "unannounced_in_v1", "statuses_compared", "status_state_mismatch"
    ]

    /// The page of a `reconcile` result: its `summary.csv` rows, its `differences.csv` rows, its rejects and its V2
    /// prices, under `verdict` (by default the one of a run without thresholds at the default reject limit).
    package static func reconcile(_ result: ReconciliationResult, verdict: HTMLVerdict? = nil) -> HTMLReport {
        let metrics = ReconciliationReport.summaryRows(result.summary).map { ($0.name, $0.value) }
        let value = { (name: String) in metrics.first { $0.0 == name }?.1 ?? "" }
        var facts = [("run date", value("run_date")), ("period", "\(value("period_start")) .. \(value("period_end"))")]
        if result.summary.transactions != nil {
            facts.append(
                ("transaction period", "\(value("transaction_period_start")) .. \(value("transaction_period_end"))"))
        }
        return HTMLReport(
            title: "asn-migrate reconcile: \(value("run_date"))", facts: facts, headline: reconcileHeadline,
            metrics: metrics,
            identities: AccountingIdentity.reconcile, rows: result.differences, rowsFile: "differences.csv",
            prices: result.prices, verdict: verdict ?? reconcileVerdict(result), rejects: result.rejects,
            files: ReconciliationReport.fileNames, switchFigures: result.summary.switchFigures)
    }

    /// The verdict of a `reconcile` result: records read and rejected per side against `maxRejectRate`, and the exit
    /// status the run calls for (`notes` say why, when it is not 0 or 1).
    package static func reconcileVerdict(
        _ result: ReconciliationResult, status: ExitStatus? = nil,
        maxRejectRate: Double = SanityCheck.defaultMaxRejectRate,
        notes: [String] = [], failOnRules: Bool = false
    ) -> HTMLVerdict {
        let summary = result.summary
        var verdict = HTMLVerdict(
            status: status ?? (result.isClean ? .success : .findings),
            sides: [
                .init(name: "V1", read: summary.v1RecordsRead, rejected: summary.v1Rejected),
                .init(name: "V2", read: summary.v2RecordsRead, rejected: summary.v2Rejected)
            ], maxRejectRate: maxRejectRate, notes: notes, failOnRules: failOnRules)
        if let gap = summary.nonOverlap {
            // Nothing could be paired: a clean report would say "all clear" about data it never compared.
            let hint = ReconciliationReport.switchConsoleLines(summary).map {
                $0.trimmingPrefix("  note: ")
            }
            verdict.notComparedReason =
                "the sides do not overlap (V1 ends \(Timestamp.iso8601(ms: gap.v1End)), V2 starts \(Timestamp.iso8601(ms: gap.v2Start)))"
            verdict.notes += hint.map(String.init)
        }
        return verdict
    }
}
