/// Renders a `ReconciliationResult` into the report files; pure, no I/O.
package enum ReconciliationReport {
    /// The report's file names, in the order they are written.
    package static let fileNames = [
        "differences.csv", "pending.csv", "summary.csv", "rejected.csv", "mapping-coverage.csv", "subscriptions.csv"
    ]

    /// The `subscriptions.csv` columns.
    package static let subscriptionColumns = [
        "environment", "original_transaction_id", "v1_product_id", "v2_product_id", "v1_expires_date",
        "v2_expires_date",
        "v1_auto_renew_status", "v2_auto_renew_status", "v1_active", "v2_active", "mismatches"
    ]

    /// Every report file: name and bytes.
    package static func files(_ result: ReconciliationResult) -> [(name: String, bytes: [UInt8])] {
        [
            ("differences.csv", render(Discrepancy.columns, result.differences.lazy.map(\.cells))),
            ("pending.csv", render(Discrepancy.columns, result.pending.lazy.map(\.cells))),
            ("summary.csv", render(["metric", "value"], summaryRows(result.summary).lazy.map { [$0.name, $0.value] })),
            ("rejected.csv", render(RejectRow.columns, result.rejects.lazy.map(\.cells))),
            (
                "mapping-coverage.csv",
                render(
                    ["v1_notification_type", "v2_notification_type", "v2_subtype", "rule", "count"],
                    result.coverage.lazy.map { [$0.v1Type, $0.v2Type, $0.v2Subtype, $0.rule, String($0.count)] })
            ),
            ("subscriptions.csv", render(subscriptionColumns, result.subscriptions.lazy.map(subscriptionCells)))
        ]
    }

    /// The `summary.csv` rows (metric name and value), in order: the notification figures, the transaction figures
    /// when transactions were compared, the run's facts, then one `rejects_by_cause` row per cause. Counts are
    /// decimal, dates UTC ISO 8601 with milliseconds ("" when open), yes/no for what was compared.
    package static func summaryRows(_ s: ReconciliationSummary) -> [(name: String, value: String)] {
        var rows: [(name: String, value: String)] = [
            ("v1_records_read", String(s.v1RecordsRead)),
            ("v1_rejected", String(s.v1Rejected)),
            ("v1_duplicates", String(s.v1Duplicates)),
            ("v1_out_of_period", String(s.v1OutOfPeriod)),
            ("v1_unmapped", String(s.v1Unmapped)),
            ("v1_companion", String(s.v1Companion)),
            ("v2_records_read", String(s.v2RecordsRead)),
            ("v2_rejected", String(s.v2Rejected))
        ]
        if let unverified = s.v2Unverified { rows.append(("v2_unverified", String(unverified))) }
        if s.unverifiedFrames > 0 { rows.append(("unverified_frames", String(s.unverifiedFrames))) }
        rows += [
            ("v2_duplicates", String(s.v2Duplicates)),
            ("v2_out_of_period", String(s.v2OutOfPeriod)),
            ("v2_only_expected", String(s.v2OnlyExpected)),
            ("matched", String(s.matched)),
            ("type_mismatch", String(s.typeMismatch)),
            ("missing_in_v2", String(s.missingInV2)),
            ("missing_in_v1", String(s.missingInV1)),
            ("v1_pending", String(s.v1Pending)),
            ("v2_pending", String(s.v2Pending)),
            ("field_mismatch", String(s.fieldMismatch)),
            ("state_mismatch", String(s.stateMismatch)),
            ("conflicting_duplicate_v2", String(s.conflictingDuplicateV2)),
            ("subscriptions_compared", String(s.subscriptionsCompared)),
            ("period_start", date(s.periodStart)),
            ("period_end", date(s.periodEnd)),
            ("window_ms", String(s.windowMs)),
            ("time_tolerance_ms", String(s.timeToleranceMs)),
            ("time_precision_rows", String(s.timePrecisionRows))
        ]
        if let t = s.transactions { rows += transactionRows(t) }
        if let figures = s.switchFigures { rows += switchRows(figures) }
        if let counts = s.thresholds { rows += thresholdRows(counts) }
        rows += s.run.metrics.map { (name: $0.0, value: $0.1) }
        rows += s.rejectCauses.map { (name: SummaryJSON.causeMetric, value: $0.line) }
        return rows
    }

    /// The `summary.csv` rows of the threshold rules judged: `thresholds_checked`, `thresholds_warned`, `thresholds_failed`.
    package static func thresholdRows(_ counts: ReconciliationSummary.ThresholdCounts) -> [(
        name: String, value: String
    )] {
        [
            ("thresholds_checked", String(counts.checked)), ("thresholds_warned", String(counts.warned)),
            ("thresholds_failed", String(counts.failed))
        ]
    }

    /// The warning for a side whose clock keeps whole seconds only, when its precision alone accounts for rows.
    package static func timePrecisionWarning(_ s: ReconciliationSummary) -> String? {
        guard s.timePrecisionRows > 0, let side = s.wholeSecondSide, s.timeToleranceMs < 1000 else { return nil }
        return
            "warning: \(side)'s dates have whole seconds only and the other side's do not; \(s.timePrecisionRows) date difference"
            + " row\(s.timePrecisionRows == 1 ? "" : "s") differ only below the second (time_precision_rows); if \(side) was stored"
            + " without milliseconds (a timestamp(0) column), run again with --time-tolerance 1s"
    }

    /// The one-screen summary for standard error.
    package static func consoleSummary(_ result: ReconciliationResult, directory: String) -> String {
        let s = result.summary
        let start = date(s.periodStart)
        let end = date(s.periodEnd)
        let apiView = s.transactions.map { $0.comparison.v2TransactionsRead + $0.comparison.statuses.statusesRead } ?? 0
        guard s.transactions?.notificationsCompared ?? true else {
            // Apple's API view only: the notification figures are all zero, so the transaction lines say it all.
            var lines = [
                "asn-migrate reconcile: V1 read \(s.v1RecordsRead) (rejected \(s.v1Rejected), duplicates \(s.v1Duplicates), unmapped \(s.v1Unmapped)); "
                    + "V2 read \(s.v2RecordsRead) (\(apiView) App Store Server API record(s), rejected \(s.v2Rejected)); no V2 notifications, so notifications were not compared"
            ]
            if let unverified = s.v2Unverified { lines.append("  signatures verified; v2_unverified \(unverified)") }
            lines += tail(result, directory: directory)
            return lines.joined(separator: "\n")
        }
        let v2Notifications = s.v2RecordsRead - apiView
        var lines = [
            "asn-migrate reconcile: period \(start) .. \(end)",
            "  V1 read \(s.v1RecordsRead): matched \(s.matched), type_mismatch \(s.typeMismatch), missing_in_v2 \(s.missingInV2), "
                + "pending \(s.v1Pending), companion \(s.v1Companion), unmapped \(s.v1Unmapped), out_of_period \(s.v1OutOfPeriod), duplicates \(s.v1Duplicates), rejected \(s.v1Rejected)",
            "  V2 read \(v2Notifications)\(apiView > 0 ? " notification(s) (and \(apiView) App Store Server API record(s))" : ""): matched \(s.matched), type_mismatch \(s.typeMismatch), missing_in_v1 \(s.missingInV1), "
                + "pending \(s.v2Pending), v2_only_expected \(s.v2OnlyExpected), out_of_period \(s.v2OutOfPeriod), duplicates \(s.v2Duplicates), rejected \(s.v2Rejected)",
            "  field_mismatch \(s.fieldMismatch), state_mismatch \(s.stateMismatch) of \(s.subscriptionsCompared) subscriptions, conflicting_duplicate_v2 \(s.conflictingDuplicateV2)"
        ]
        if let unverified = s.v2Unverified {
            lines.append(
                "  signatures verified; v2_unverified \(unverified) (records given decoded, whose signatures could not be checked; --require-signatures rejects them)"
            )
        }
        if let first = s.periodStart, let last = s.periodEnd, last < first, s.switchFigures == nil, s.nonOverlap == nil
        {
            lines.append(
                "  warning: the period \(start) .. \(end) is empty (it ends before it starts: the two sides' event times do not overlap, or --from/--to lie outside them), so nothing was judged; set --from/--to within the data"
            )
        }
        lines += tail(result, directory: directory)
        return lines.joined(separator: "\n")
    }

    /// The console summary's last lines: difference rows per kind, pending records, rejects by cause, the folder.
    private static func tail(_ result: ReconciliationResult, directory: String) -> [String] {
        var lines: [String] = []
        var byKind: [Discrepancy.Kind: Int] = [:]
        for d in result.differences { byKind[d.kind, default: 0] += 1 }
        let kinds = Discrepancy.Kind.allCases.compactMap { k in byKind[k].map { "\(k.rawValue) \($0)" } }
        lines.append(
            "  \(result.differences.count) difference row(s)\(kinds.isEmpty ? "" : ": " + kinds.joined(separator: ", ")); \(result.rejects.count) reject(s)"
        )
        let awaiting = result.summary.switchFigures?.awaitingV2 ?? 0
        if result.pending.count > awaiting {
            lines.append(
                "  \(result.pending.count - awaiting) pending record(s) in pending.csv: their partner could lie beyond the other side's data (not differences)"
            )
        }
        if awaiting > 0 {
            lines.append(
                "  \(awaiting) subscription(s) awaiting_v2 in pending.csv: their next event lies beyond the V2 notifications read so far (not differences)"
            )
        }
        lines += RejectCauses.consoleLines(result.summary.rejectCauses)
        lines.append("  report: \(directory)")
        return lines
    }

    /// The console lines about the transaction comparison (empty when transactions were not compared).
    package static func transactionConsoleLines(_ result: ReconciliationResult) -> [String] {
        guard let figures = result.summary.transactions else { return [] }
        let t = figures.comparison
        let st = t.statuses
        var lines = [
            "  transactions compared with Apple's App Store Server API view\(figures.notificationsCompared ? "" : " (no V2 notifications: notifications not compared)"): period \(date(t.periodStart)) .. \(date(t.periodEnd))",
            "  V1 transactions \(t.v1Transactions): matched \(t.matchedTransactions), transaction_missing_in_v2 \(t.transactionMissingInV2), not_fetched \(t.notFetched), "
                + "out_of_period \(t.v1TransactionsOutOfPeriod), pending \(t.v1TransactionsPending); unannounced_in_v1 \(t.unannouncedInV1)",
            "  V2 transactions \(t.v2Transactions): matched \(t.matchedTransactions), transaction_missing_in_v1 \(t.transactionMissingInV1), "
                + "v2_only_expected \(t.v2OnlyExpectedTransactions), out_of_period \(t.v2TransactionsOutOfPeriod), pending \(t.v2TransactionsPending), duplicates \(t.v2TransactionDuplicates)",
            "  transaction_field_mismatch \(t.transactionFieldMismatch); statuses compared \(st.statusesCompared) of \(st.statusesRead), state_mismatch in \(st.statusStateMismatch)"
        ]
        if let first = t.periodStart, let last = t.periodEnd, last < first {
            lines.append(
                "  warning: the transaction period \(date(t.periodStart)) .. \(date(t.periodEnd)) is empty (it ends before it starts: the V1 archive's "
                    + "events and Apple's purchase dates do not overlap, or --from/--to lie outside them), so no transaction was judged; set --from/--to within the data"
            )
        }
        if st.statusesAfterV1End > 0 {
            lines.append(
                "  note: the V1 archive ends (\(date(st.v1ArchiveEnd))) before the statuses were fetched; \(st.statusesAfterV1End) status(es) not compared "
                    + "(V1 cannot know the state then: fetch statuses while the V1 pipeline still runs)")
        }
        if t.transactionFieldsAfterDataEnd > 0 {
            lines.append(
                "  note: \(t.transactionFieldsAfterDataEnd) transaction field(s) one side learnt after the other side's data ends (a later refund, upgrade or renewal extension) not reported"
            )
        }
        return lines
    }

    /// The `--summary-json` object: every `summary.csv` metric under its name (counts as JSON numbers, dates, IDs and
    /// paths as strings; `v1_input` / `v2_input` as arrays of strings; `rejects_by_cause` as an array of objects), and
    /// the difference rows per kind under `differences_by_kind`.
    package static func summaryJSON(_ result: ReconciliationResult) -> [UInt8] {
        var byKind: [Discrepancy.Kind: Int] = [:]
        for d in result.differences { byKind[d.kind, default: 0] += 1 }
        let kinds = JSONObject(
            Discrepancy.Kind.allCases.compactMap { k in
                byKind[k].map { .init(key: k.rawValue, value: .number(String($0))) }
            })
        return SummaryJSON.render(
            metrics: summaryRows(result.summary).map { ($0.name, $0.value) }, causes: result.summary.rejectCauses,
            extra: [.init(key: "differences_by_kind", value: .object(kinds))])
    }

    /// The rows a transaction comparison adds, before the run's facts.
    private static func transactionRows(_ figures: ReconciliationSummary.TransactionFigures) -> [(
        name: String, value: String
    )] {
        let t = figures.comparison
        let st = t.statuses
        var rows: [(name: String, value: String)] = []
        if let notCompared = figures.v1NotificationsNotCompared {
            rows.append(("v1_notifications_not_compared", String(notCompared)))
        }
        rows += [
            ("notifications_compared", figures.notificationsCompared ? "yes" : "no"),
            ("transactions_compared", "yes"),
            ("v1_transactions", String(t.v1Transactions)),
            ("matched_transactions", String(t.matchedTransactions)),
            ("transaction_missing_in_v2", String(t.transactionMissingInV2)),
            ("not_fetched", String(t.notFetched)),
            ("v1_transactions_out_of_period", String(t.v1TransactionsOutOfPeriod)),
            ("v1_transactions_pending", String(t.v1TransactionsPending)),
            ("v1_receipt_entries_without_transaction_id", String(t.v1ReceiptEntriesWithoutTransactionId)),
            ("v2_transactions_read", String(t.v2TransactionsRead)),
            ("v2_transaction_duplicates", String(t.v2TransactionDuplicates)),
            ("v2_transactions", String(t.v2Transactions)),
            ("transaction_missing_in_v1", String(t.transactionMissingInV1)),
            ("v2_only_expected_transactions", String(t.v2OnlyExpectedTransactions)),
            ("v2_transactions_out_of_period", String(t.v2TransactionsOutOfPeriod)),
            ("v2_transactions_pending", String(t.v2TransactionsPending)),
            ("restored_copies", String(t.restoredCopies)),
            ("transaction_field_mismatch", String(t.transactionFieldMismatch)),
            ("unannounced_in_v1", String(t.unannouncedInV1)),
            ("transaction_period_start", date(t.periodStart)),
            ("transaction_period_end", date(t.periodEnd)),
            ("statuses_read", String(st.statusesRead)),
            ("statuses_duplicates", String(st.statusesDuplicates)),
            ("statuses_compared", String(st.statusesCompared)),
            ("statuses_without_v1", String(st.statusesWithoutV1)),
            ("statuses_without_fetch_time", String(st.statusesWithoutFetchTime)),
            ("statuses_after_v1_end", String(st.statusesAfterV1End)),
            ("status_state_mismatch", String(st.statusStateMismatch)),
            ("v1_archive_end", date(st.v1ArchiveEnd)),
            ("transaction_fields_after_data_end", String(t.transactionFieldsAfterDataEnd))
        ]
        if let a = t.afterSwitch {
            rows += [
                ("v2_transactions_after_switch", String(a.transactions)),
                ("v2_transactions_notified", String(a.notified)),
                ("v2_transactions_not_notified_by_design", String(a.notNotifiedByDesign)),
                ("statuses_after_v2_end", String(a.statusesAfterV2End))
            ]
        }
        return rows
    }

    /// The rows `--switch` adds, after the transaction figures: each switch date given, then the seam's counts.
    package static func switchRows(_ f: SwitchFigures) -> [(name: String, value: String)] {
        var rows: [(name: String, value: String)] = f.dates.environments.map {
            ("switch_\($0.name.lowercased())", date($0.instant))
        }
        rows += [
            ("live_at_switch", String(f.liveAtSwitch)),
            ("continued_in_v2", String(f.continuedInV2)),
            ("delivered_in_both", String(f.deliveredInBoth)),
            ("v1_after_switch", String(f.v1AfterSwitch)),
            ("v2_before_switch", String(f.v2BeforeSwitch)),
            ("awaiting_v2", String(f.awaitingV2)),
            ("silent_in_v2", String(f.silentInV2)),
            ("renewal_gap", String(f.renewalGap)),
            ("seam_state_mismatch", String(f.seamStateMismatch))
        ]
        return rows
    }

    /// The console lines about the switch (`--switch`), or the hint to give one when the sides do not overlap.
    package static func switchConsoleLines(_ s: ReconciliationSummary) -> [String] {
        if let f = s.switchFigures {
            var lines = [
                "  switch \(f.dates.environments.map { "\($0.name) \(date($0.instant))" }.joined(separator: ", ")): live_at_switch \(f.liveAtSwitch), continued_in_v2 \(f.continuedInV2), "
                    + "delivered_in_both \(f.deliveredInBoth); silent_in_v2 \(f.silentInV2), renewal_gap \(f.renewalGap), seam_state_mismatch \(f.seamStateMismatch), awaiting_v2 \(f.awaitingV2)"
            ]
            if let first = f.firstV1AfterSwitch {
                lines.append(
                    "  warning: v1_after_switch \(f.v1AfterSwitch): V1 records from the switch on, left out of the seam checks; the first is \(first.source) at \(date(first.time)) (is a server URL still on V1?)"
                )
            }
            if let first = f.firstV2BeforeSwitch {
                lines.append(
                    "  warning: v2_before_switch \(f.v2BeforeSwitch): V2 notifications before the switch, left out of the seam checks; the first is \(first.uuid) at \(date(first.time)) (is the switch date right?)"
                )
            }
            return lines
        }
        guard let gap = s.nonOverlap else { return [] }
        return [
            "  note: the sides do not overlap: the V1 archive ends \(date(gap.v1End)) and the V2 records start \(date(gap.v2Start)), so no notification could be paired; "
                + "if that is the day you switched your server URL to V2, run again with --switch \(date(gap.v2Start)) to check the switch (README, The day you switch)"
        ]
    }

    /// A report date: UTC ISO 8601 with milliseconds, "" when absent.
    private static func date(_ ms: Int64?) -> String {
        ms.map(Timestamp.iso8601(ms:)) ?? ""
    }

    // MARK: - Private

    /// A report file's bytes; rows are rendered one at a time (no list of every row's cells, no string copy).
    private static func render(_ header: [String], _ rows: some Sequence<[String]>) -> [UInt8] {
        CSVWriter.renderBytes(header: header, rows: rows)
    }

    private static func subscriptionCells(_ row: ReconciliationResult.SubscriptionRow) -> [String] {
        [
            row.environment, row.originalTransactionId, row.v1.productId ?? "", row.v2.productId ?? "",
            row.v1.expiresDate.map(Timestamp.iso8601(ms:)) ?? "", row.v2.expiresDate.map(Timestamp.iso8601(ms:)) ?? "",
            row.v1.autoRenewStatus.map(String.init) ?? "", row.v2.autoRenewStatus.map(String.init) ?? "",
            String(row.v1.active), String(row.v2.active), row.mismatches.joined(separator: " ")
        ]
    }
}
