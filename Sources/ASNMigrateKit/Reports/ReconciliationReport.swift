/// Renders a `ReconciliationResult` into the report files; pure, no I/O.
public enum ReconciliationReport {
    /// The report's file names, in the order they are written.
    public static let fileNames = ["differences.csv", "pending.csv", "summary.csv", "rejected.csv", "mapping-coverage.csv", "subscriptions.csv"]

    /// The `subscriptions.csv` columns.
    public static let subscriptionColumns = [
        "environment", "original_transaction_id", "v1_product_id", "v2_product_id", "v1_expires_date", "v2_expires_date",
        "v1_auto_renew_status", "v2_auto_renew_status", "v1_active", "v2_active", "mismatches",
    ]

    /// Every report file: name and bytes.
    public static func files(_ result: ReconciliationResult) -> [(name: String, bytes: [UInt8])] {
        [
            ("differences.csv", render(Discrepancy.columns, result.differences.map(\.cells))),
            ("pending.csv", render(Discrepancy.columns, result.pending.map(\.cells))),
            ("summary.csv", render(["metric", "value"], result.metrics.map { [$0.0, $0.1] })),
            ("rejected.csv", render(RejectRow.columns, result.rejects.map(\.cells))),
            ("mapping-coverage.csv", render(["v1_notification_type", "v2_notification_type", "v2_subtype", "rule", "count"],
                                            result.coverage.map { [$0.v1Type, $0.v2Type, $0.v2Subtype, $0.rule, String($0.count)] })),
            ("subscriptions.csv", render(subscriptionColumns, result.subscriptions.map(subscriptionCells))),
        ]
    }

    /// The one-screen summary for standard error.
    public static func consoleSummary(_ result: ReconciliationResult, directory: String) -> String {
        let m = { (name: String) in result.metric(name) ?? "" }
        var lines = [
            "asn-migrate reconcile: period \(m("period_start")) .. \(m("period_end"))",
            "  V1 read \(m("v1_records_read")): matched \(m("matched")), type_mismatch \(m("type_mismatch")), missing_in_v2 \(m("missing_in_v2")), "
                + "pending \(m("v1_pending")), companion \(m("v1_companion")), unmapped \(m("v1_unmapped")), out_of_period \(m("v1_out_of_period")), duplicates \(m("v1_duplicates")), rejected \(m("v1_rejected"))",
            "  V2 read \(m("v2_records_read")): matched \(m("matched")), type_mismatch \(m("type_mismatch")), missing_in_v1 \(m("missing_in_v1")), "
                + "pending \(m("v2_pending")), v2_only_expected \(m("v2_only_expected")), out_of_period \(m("v2_out_of_period")), duplicates \(m("v2_duplicates")), rejected \(m("v2_rejected"))",
            "  field_mismatch \(m("field_mismatch")), state_mismatch \(m("state_mismatch")) of \(m("subscriptions_compared")) subscriptions, conflicting_duplicate_v2 \(m("conflicting_duplicate_v2"))",
        ]
        if let unverified = result.metric("v2_unverified") {
            lines.append("  signatures verified; v2_unverified \(unverified) (records given decoded, whose signatures could not be checked; --require-signatures rejects them)")
        }
        let start = m("period_start"), end = m("period_end")
        if !start.isEmpty, !end.isEmpty, end.utf8.lexicographicallyPrecedes(start.utf8) {
            lines.append("  warning: the period \(start) .. \(end) is empty (it ends before it starts: the two sides' event times do not overlap, or --from/--to lie outside them), so nothing was judged; set --from/--to within the data")
        }
        var byKind: [Discrepancy.Kind: Int] = [:]
        for d in result.differences { byKind[d.kind, default: 0] += 1 }
        let kinds = Discrepancy.Kind.allCases.compactMap { k in byKind[k].map { "\(k.rawValue) \($0)" } }
        lines.append("  \(result.differences.count) difference row(s)\(kinds.isEmpty ? "" : ": " + kinds.joined(separator: ", ")); \(result.rejects.count) reject(s)")
        if !result.pending.isEmpty {
            lines.append("  \(result.pending.count) pending record(s) in pending.csv: their partner could lie beyond the other side's data (not differences)")
        }
        lines += RejectCauses.consoleLines(result.rejectCauses)
        lines.append("  report: \(directory)")
        return lines.joined(separator: "\n")
    }

    /// The `--summary-json` object: every `summary.csv` metric under its name (counts as JSON numbers, dates, IDs and
    /// paths as strings; `v1_input` / `v2_input` as arrays of strings; `rejects_by_cause` as an array of objects), and
    /// the difference rows per kind under `differences_by_kind`.
    public static func summaryJSON(_ result: ReconciliationResult) -> [UInt8] {
        var byKind: [Discrepancy.Kind: Int] = [:]
        for d in result.differences { byKind[d.kind, default: 0] += 1 }
        let kinds = JSONObject(Discrepancy.Kind.allCases.compactMap { k in byKind[k].map { .init(key: k.rawValue, value: .number(String($0))) } })
        return SummaryJSON.render(metrics: result.metrics, causes: result.rejectCauses, extra: [.init(key: "differences_by_kind", value: .object(kinds))])
    }

    // MARK: - Private

    private static func render(_ header: [String], _ rows: [[String]]) -> [UInt8] {
        Array(CSVWriter.render(header: header, rows: rows).utf8)
    }

    private static func subscriptionCells(_ row: ReconciliationResult.SubscriptionRow) -> [String] {
        [row.environment, row.originalTransactionId, row.v1.productId ?? "", row.v2.productId ?? "",
         row.v1.expiresDate.map(Timestamp.iso8601(ms:)) ?? "", row.v2.expiresDate.map(Timestamp.iso8601(ms:)) ?? "",
         row.v1.autoRenewStatus.map(String.init) ?? "", row.v2.autoRenewStatus.map(String.init) ?? "",
         String(row.v1.active), String(row.v2.active), row.mismatches.joined(separator: " ")]
    }
}
