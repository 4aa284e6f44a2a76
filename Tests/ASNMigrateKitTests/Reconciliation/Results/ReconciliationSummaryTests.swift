import Testing

@testable import ASNMigrateKit

/// The typed summary: every record read is counted under exactly one fate, and the numbers are the report's numbers.
@Suite struct ReconciliationSummaryTests {
    /// A mixed run: matches, a type mismatch, missing on both sides, a duplicate, a conflicting duplicate, an unmapped
    /// record, rejects on both sides and the out-of-period bookends.
    static func mixed() throws -> ReconciliationResult {
        let unmapped = UnmappedNotification(
            v1NotificationType: "NEW_THING", reason: "no rule", location: SourceLocation(path: "v1.jsonl", line: 9),
            notificationUUID: "11111111-1111-5111-8111-111111111111", environment: "Production",
            originalTransactionId: "1000", webOrderLineItemId: nil, eventTime: Side.ms("2021-02-01T00:00:00Z"))
        let renew = Side.v1("DID_RENEW", time: "2021-02-01T00:00:00Z", line: 1)
        let same = Side.payload("DID_RENEW", nil, otx: "1000", wol: "5001", time: "2021-02-01T00:00:05Z", uuid: "a")
        var changed = same
        changed.data.transactionInfo?.productId = "pro.other"
        var engine = Reconciler(table: try MappingTable.builtIn(), options: wide)
        for outcome in [
            renew, renew, .unmapped(unmapped),
            Side.v1(
                "SUBSCRIBED", "RESUBSCRIBE", v1Type: "INTERACTIVE_RENEWAL", otx: "2000", wol: "7",
                time: "2021-04-01T00:00:00Z", line: 3),
            Side.v1("DID_RENEW", otx: "3000", wol: "8", time: "2021-05-01T00:00:00Z", line: 4),
            .rejected(ASNError(.malformedJSON, "bad", at: SourceLocation(path: "v1.jsonl", line: 5)))
        ] + Bookends.v1 {
            engine.addV1(outcome)
        }
        let v2 =
            [
                same, same, changed,
                Side.payload(
                    "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", otx: "2000", wol: "7",
                    time: "2021-04-01T00:00:00Z", uuid: "b"),
                Side.payload("DID_RENEW", nil, otx: "4000", wol: "9", time: "2021-06-01T00:00:00Z", uuid: "c")
            ] + Bookends.v2
        for (i, p) in v2.enumerated() {
            engine.addV2(
                p, location: SourceLocation(path: "v2.jsonl", line: i + 1),
                digest: SHA1.digest(JSONWriter.canonical(.object(p.json))))
        }
        engine.addV2Reject(ASNError(.malformedJWS, "bad jws", at: SourceLocation(path: "v2.jsonl", line: 99)))
        return engine.finish()
    }

    @Test func everyRecordReadIsCountedOnce() throws {
        let s = try Self.mixed().summary
        #expect(s.v1RecordsRead == 8 && s.v2RecordsRead == 8)
        #expect(
            s.v1RecordsRead == s.v1Rejected + s.v1Duplicates + s.v1OutOfPeriod + s.v1Unmapped + s.v1Companion
                + s.matched + s.typeMismatch + s.missingInV2 + s.v1Pending)
        #expect(
            s.v2RecordsRead == s.v2Rejected + s.v2Duplicates + s.v2OutOfPeriod + s.v2OnlyExpected
                + s.matched + s.typeMismatch + s.missingInV1 + s.v2Pending)
        #expect((s.matched, s.typeMismatch, s.missingInV2, s.missingInV1) == (1, 1, 1, 1))
        #expect((s.v1Duplicates, s.v2Duplicates, s.conflictingDuplicateV2) == (1, 2, 1))
        #expect((s.v1Rejected, s.v2Rejected, s.v1Unmapped) == (1, 1, 1))
        #expect(s.rejectCauses.map(\.side) == ["v1", "v2"])
    }

    @Test func reportRowsAreTheSummaryNumbersInReportOrder() throws {
        let result = try Self.mixed()
        let rows = ReconciliationReport.summaryRows(result.summary)
        let value = { (name: String) in rows.first { $0.name == name }?.value }
        #expect(value("matched") == String(result.summary.matched))
        #expect(value("missing_in_v1") == "1")
        #expect(value("period_start") == "2020-01-01T00:00:00.000Z")
        #expect(value("window_ms") == "172800000")
        #expect(value("v2_unverified") == nil, "no row when signatures were not checked")
        #expect(rows.first?.name == "v1_records_read" && rows.last?.name == "rejects_by_cause")
        #expect(
            rows.map(\.name).firstIndex(of: "run_date") == rows.map(\.name).firstIndex(of: "window_ms").map { $0 + 3 })
        #expect(value("time_tolerance_ms") == "0" && value("time_precision_rows") == "0")
    }

    @Test func transactionFiguresComeBeforeTheRunFactsAndZeroTheNotificationFigures() throws {
        var comparison = TransactionSummary()
        comparison.v1Transactions = 7
        comparison.statuses.v1ArchiveEnd = Side.ms("2021-06-01T00:00:00Z")
        let result = try Self.mixed().adding(
            TransactionComparison(differences: [], summary: comparison), notificationsCompared: false)
        let s = result.summary
        #expect((s.matched, s.typeMismatch, s.missingInV2, s.missingInV1, s.subscriptionsCompared) == (0, 0, 0, 0, 0))
        #expect(
            s.transactions?.v1NotificationsNotCompared == 1 + 1 + 1 + 2,
            "matched, type mismatch, missing in V2, two bookends out of period")
        let names = ReconciliationReport.summaryRows(s).map(\.name)
        let at = { (name: String) in names.firstIndex(of: name) ?? -1 }
        #expect(
            at("window_ms") + 1 == at("time_tolerance_ms")
                && at("time_precision_rows") + 1 == at("v1_notifications_not_compared"))
        #expect(at("v1_archive_end") + 1 == at("transaction_fields_after_data_end"))
        #expect(at("transaction_fields_after_data_end") + 1 == at("run_date"))
        #expect(
            ReconciliationReport.summaryRows(s).first { $0.name == "v1_archive_end" }?.value
                == "2021-06-01T00:00:00.000Z")
        #expect(ReconciliationReport.summaryRows(s).first { $0.name == "v1_transactions" }?.value == "7")
        #expect(result.differences.allSatisfy { $0.kind == .unmappedV1 || $0.kind == .conflictingDuplicateV2 })
    }
}
