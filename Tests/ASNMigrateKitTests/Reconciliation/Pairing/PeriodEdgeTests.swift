import Testing

@testable import ASNMigrateKit

/// The period rule inside the engine: pairing over all records, pairs judged when either member is in the
/// period, pending records at the data's edges, and the state at the period end built from the records judged.
@Suite struct PeriodEdgeTests {
    /// One renewal purchased at `time` (a month long), as a V1 record or a V2 record signed `delay` seconds later.
    private func renewal(
        _ time: String, wol: String, otx: String = "1000", line: Int,
        edit: @escaping (inout ResponseBodyV2DecodedPayload) -> Void = { _ in }
    )
        -> V1RecordOutcome
    {
        Side.v1("DID_RENEW", otx: otx, wol: wol, time: time, line: line, expires: nil) { p in
            p.data.transactionInfo?.purchaseDate = Side.ms(time)
            p.data.transactionInfo?.expiresDate = Side.ms(time) + 30 * 86_400_000
            edit(&p)
        }
    }

    private func renewalV2(
        _ time: String, delay: Int64, wol: String, otx: String = "1000",
        edit: (inout ResponseBodyV2DecodedPayload) -> Void = { _ in }
    )
        -> ResponseBodyV2DecodedPayload
    {
        var p = Side.payload("DID_RENEW", nil, otx: otx, wol: wol, time: time, uuid: "v2-\(otx)-\(wol)") { p in
            p.data.transactionInfo?.purchaseDate = Side.ms(time)
            p.data.transactionInfo?.expiresDate = Side.ms(time) + 30 * 86_400_000
        }
        p.signedDate = Side.ms(time) + delay * 1_000
        edit(&p)
        return p
    }

    @Test func edgePairsWithTheOrdinaryV2DelayAreMatchedNotMissing() throws {
        // V2 signs seconds after each V1 event: the first V1 record lies before the derived period, the last V2 after it.
        let r = try reconcile(
            [
                renewal("2021-01-01T00:00:00Z", wol: "1", line: 1),
                renewal("2021-02-01T00:00:00Z", wol: "2", line: 2),
                renewal("2021-03-01T00:00:00Z", wol: "3", line: 3)
            ],
            [
                renewalV2("2021-01-01T00:00:00Z", delay: 3, wol: "1"),
                renewalV2("2021-02-01T00:00:00Z", delay: 2, wol: "2"),
                renewalV2("2021-03-01T00:00:00Z", delay: 40, wol: "3")
            ], options: ReconcileOptions())
        #expect(r.metric("period_start") == "2021-01-01T00:00:03.000Z")
        #expect(r.metric("period_end") == "2021-03-01T00:00:00.000Z")
        #expect(r.differences.isEmpty, "\(r.differences.map(\.cells))")
        #expect(r.count("matched") == 3)
        #expect(r.count("v1_out_of_period") == 0 && r.count("v2_out_of_period") == 0)
        #expect(r.pending.isEmpty)
        // V2's copy of the last renewal arrived after the period end; it still counts in V2's state.
        #expect(r.subscriptions.count == 1)
        #expect(r.subscriptions.first?.mismatches == [])
        #expect(r.subscriptions.first?.v2.expiresDate == Side.ms("2021-03-31T00:00:00Z"))
        #expect(r.isClean)
    }

    @Test func unpairedRecordsNearTheOtherSidesEdgeArePendingElsewhereMissing() throws {
        let frame = [
            renewal("2021-01-01T00:00:00Z", wol: "1", line: 1), renewal("2021-03-01T00:00:00Z", wol: "3", line: 2)
        ]
        let frameV2 = [
            renewalV2("2021-01-01T00:00:00Z", delay: 3, wol: "1"), renewalV2("2021-03-01T00:00:00Z", delay: 3, wol: "3")
        ]
        let r = try reconcile(
            frame + [
                renewal("2021-02-28T00:00:00Z", wol: "20", otx: "2000", line: 3), // within 48 h of V2's last event
                renewal("2021-02-01T00:00:00Z", wol: "21", otx: "2000", line: 4) // far from both edges
            ],
            frameV2 + [
                renewalV2("2021-01-02T00:00:00Z", delay: 0, wol: "30", otx: "3000"), // within 48 h of V1's first event
                renewalV2("2021-02-10T00:00:00Z", delay: 0, wol: "31", otx: "3000")
            ], options: ReconcileOptions())
        #expect(r.differences.map(\.kind) == [.missingInV2, .missingInV1])
        #expect(r.differences.map(\.webOrderLineItemId) == ["21", "31"])
        #expect(r.pending.map(\.kind) == [.pendingInV2, .pendingInV1])
        #expect(r.pending.map(\.webOrderLineItemId) == ["20", "30"])
        #expect(r.pending.first?.v1Source == "v1.jsonl:3")
        #expect(r.pending.last?.v2NotificationUUID == "v2-3000-30")
        #expect(r.count("v1_pending") == 1 && r.count("v2_pending") == 1)
        #expect(r.count("missing_in_v2") == 1 && r.count("missing_in_v1") == 1)
    }

    @Test func pendingRecordsAloneLeaveTheRunClean() throws {
        let r = try reconcile(
            [
                renewal("2021-01-01T00:00:00Z", wol: "1", line: 1), renewal("2021-03-01T00:00:00Z", wol: "3", line: 2),
                renewal("2021-02-28T00:00:00Z", wol: "20", otx: "2000", line: 3)
            ],
            [
                renewalV2("2021-01-01T00:00:00Z", delay: 3, wol: "1"),
                renewalV2("2021-03-01T00:00:00Z", delay: 3, wol: "3")
            ],
            options: ReconcileOptions())
        #expect(r.differences.isEmpty)
        #expect(r.pending.count == 1)
        #expect(r.isClean, "pending is not a finding")
        let files = ReconciliationReport.files(r)
        let pendingCSV = String(decoding: files.first { $0.name == "pending.csv" }?.bytes ?? [], as: UTF8.self)
        #expect(
            pendingCSV.hasPrefix(
                Discrepancy.columns.joined(separator: ",")
                    + "\npending_in_v2,Production,2000,20,2021-02-28T00:00:00.000Z,DID_RENEW,"))
        let differencesCSV = String(decoding: files.first { $0.name == "differences.csv" }?.bytes ?? [], as: UTF8.self)
        #expect(differencesCSV == Discrepancy.columns.joined(separator: ",") + "\n")
    }

    @Test func aPendingRecordDoesNotEnterTheState() throws {
        // V1's renewal of Feb 28 has no V2 copy in the data yet: V1's state must not run ahead of V2's because of it.
        let r = try reconcile(
            [
                renewal("2021-01-01T00:00:00Z", wol: "1", line: 1),
                renewal("2021-02-28T00:00:00Z", wol: "2", line: 2),
                renewal("2021-03-01T00:00:00Z", wol: "9", otx: "3000", line: 3)
            ],
            [
                renewalV2("2021-01-01T00:00:00Z", delay: 3, wol: "1"),
                renewalV2("2021-03-01T00:00:00Z", delay: 3, wol: "9", otx: "3000")
            ], options: ReconcileOptions())
        #expect(r.pending.map(\.webOrderLineItemId) == ["2"])
        #expect(r.differences.isEmpty, "\(r.differences.map(\.cells))")
        #expect(
            r.subscriptions.first { $0.originalTransactionId == "1000" }?.v1.expiresDate
                == Side.ms("2021-01-31T00:00:00Z"))
    }

    @Test func theSameRuleAppliesAtFromAndTo() throws {
        var options = ReconcileOptions()
        options.from = Side.ms("2021-02-01T00:00:00Z")
        options.to = Side.ms("2021-02-28T23:59:59.999Z")
        let other: (inout ResponseBodyV2DecodedPayload) -> Void = { $0.data.transactionInfo?.productId = "pro.other" }
        let r = try reconcile(
            [
                renewal("2021-01-15T00:00:00Z", wol: "0", line: 1), // pair wholly before --from: out of period
                renewal("2021-01-31T23:59:58Z", wol: "1", line: 2), // V1 before --from, V2 after it: judged
                renewal("2021-02-28T23:59:59Z", wol: "2", line: 3), // V1 before --to, V2 after it: judged
                renewal("2021-03-10T00:00:00Z", wol: "3", line: 4) // wholly after --to
            ],
            [
                renewalV2("2021-01-15T00:00:00Z", delay: 2, wol: "0", edit: other),
                renewalV2("2021-01-31T23:59:58Z", delay: 4, wol: "1", edit: other),
                renewalV2("2021-02-28T23:59:59Z", delay: 5, wol: "2"),
                renewalV2("2021-03-10T00:00:00Z", delay: 5, wol: "3")
            ], options: options)
        #expect(r.count("matched") == 2)
        #expect(r.count("v1_out_of_period") == 2 && r.count("v2_out_of_period") == 2)
        #expect(
            r.differences.map { "\($0.kind.rawValue) \($0.webOrderLineItemId) \($0.field)" } == [
                "field_mismatch 1 productId"
            ])
        #expect(r.metric("period_start") == "2021-02-01T00:00:00.000Z")
        // Both sides' state includes the renewal of Feb 28 (its V2 copy is signed after --to).
        #expect(r.subscriptions.first?.mismatches == [])
        #expect(r.subscriptions.first?.v2.expiresDate == Side.ms("2021-03-30T23:59:59Z"))
    }

    @Test func rejectedRecordsDoNotMoveTheDefaultPeriod() throws {
        func run(withRejects: Bool) throws -> ReconciliationResult {
            var engine = Reconciler(table: try MappingTable.builtIn(), options: ReconcileOptions())
            if withRejects {
                engine.addV1(
                    .rejected(
                        ASNError(.missingNotificationType, "no type", at: SourceLocation(path: "v1.jsonl", line: 9))))
            }
            engine.addV1(renewal("2021-01-01T00:00:00Z", wol: "1", line: 1))
            engine.addV1(renewal("2021-03-01T00:00:00Z", wol: "3", line: 2))
            for (i, p) in [
                renewalV2("2021-01-01T00:00:00Z", delay: 3, wol: "1"),
                renewalV2("2021-03-01T00:00:00Z", delay: 3, wol: "3")
            ].enumerated() {
                engine.addV2(p, location: SourceLocation(path: "v2.jsonl", line: i + 1), digest: [UInt8(i)])
            }
            if withRejects {
                engine.addV2Reject(ASNError(.malformedJWS, "bad", at: SourceLocation(path: "v2.jsonl", line: 9)))
            }
            let result = engine.finish()
            expectIdentities(result)
            return result
        }
        let clean = try run(withRejects: false)
        let rejected = try run(withRejects: true)
        #expect(rejected.count("v1_rejected") == 1 && rejected.count("v2_rejected") == 1)
        #expect(rejected.metric("period_start") == clean.metric("period_start"))
        #expect(rejected.metric("period_end") == clean.metric("period_end"))
        #expect(rejected.differences == clean.differences)
    }
}
