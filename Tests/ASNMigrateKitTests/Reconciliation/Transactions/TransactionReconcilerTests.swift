import Foundation
import Testing

@testable import ASNMigrateKit
@testable import ASNSimulation

/// The transaction comparison engine: each kind and each fate on one small archive against Apple's history.
@Suite struct TransactionReconcilerTests {
    typealias S = TransactionScenario

    /// One subscription over five months plus a customer that was not fetched:
    /// A (before the period), B (restored on Apple's side as 902), C (its DID_RENEW lost: only in later receipts),
    /// X (V1 only), D (productId differs), E (Apple only), Z (a consumable), P (long before), Q (after V1's archive ends).
    static func archive() throws -> [V1RecordFacts] {
        let a = S.tx("101", purchase: "2023-01-01T00:00:00Z", expires: "2023-02-01T00:00:00Z")
        let b = S.tx("102", purchase: "2023-02-01T00:00:00Z", expires: "2023-03-01T00:00:00Z")
        let c = S.tx("103", purchase: "2023-03-01T00:00:00Z", expires: "2023-04-01T00:00:00Z")
        let x = S.tx("104", purchase: "2023-03-20T00:00:00Z", expires: "2023-04-20T00:00:00Z")
        let d = S.tx("105", purchase: "2023-04-01T00:00:00Z", expires: "2023-05-01T00:00:00Z")
        let y = S.tx("201", original: "2000000002", purchase: "2023-03-01T00:00:00Z", expires: "2023-04-01T00:00:00Z")
        return [
            try S.facts("INITIAL_BUY", at: "2023-01-01T00:01:00Z", line: 1, [a]),
            try S.facts("DID_RENEW", at: "2023-02-01T00:01:00Z", line: 2, [a, b]),
            try S.facts("INITIAL_BUY", at: "2023-03-01T00:01:00Z", line: 3, [y]),
            try S.facts("INTERACTIVE_RENEWAL", at: "2023-03-20T00:01:00Z", line: 4, [a, b, c, x]),
            try S.facts("DID_RENEW", at: "2023-04-01T00:01:00Z", line: 5, [a, b, c, x, d]),
            try S.facts(
                "DID_CHANGE_RENEWAL_STATUS", at: "2023-06-01T00:00:00Z", line: 6, [a, b, c, x, d],
                autoRenewStatus: "false")
        ]
    }

    /// Apple's history of subscription 1000000001 (and nothing of 2000000002).
    static func history() -> [V2APIRecord] {
        [
            S.apple("108", purchase: "2022-06-01T00:00:00Z", expires: "2022-07-01T00:00:00Z", webOrder: "5108"),
            S.apple("101", purchase: "2023-01-01T00:00:00Z", expires: "2023-02-01T00:00:00Z"),
            S.apple("902", purchase: "2023-02-01T00:00:00Z", expires: "2023-03-01T00:00:00Z", webOrder: "5102"),
            S.apple("103", purchase: "2023-03-01T00:00:00Z", expires: "2023-04-01T00:00:00Z"),
            S.apple("105", product: "pro.yearly", purchase: "2023-04-01T00:00:00Z", expires: "2023-05-01T00:00:00Z"),
            S.apple("107", product: "coins.100", purchase: "2023-04-10T00:00:00Z", expires: nil, type: "Consumable"),
            S.apple("106", purchase: "2023-05-01T00:00:00Z", expires: "2023-06-01T00:00:00Z"),
            S.apple("109", purchase: "2023-05-31T12:00:00Z", expires: "2023-06-30T12:00:00Z")
        ].enumerated().map { S.history($1, index: $0) }
    }

    @Test func everyKindAndFateOnOneArchive() throws {
        let result = S.compare(try Self.archive(), Self.history())
        #expect(
            S.rows(result) == [
                "transaction_field_mismatch 1000000001 productId pro.monthly pro.yearly",
                "transaction_missing_in_v1 1000000001 transactionId  106",
                "transaction_missing_in_v2 1000000001 transactionId 104 ",
                "unannounced_in_v1 1000000001 transactionId 103 "
            ])
        let expected: [String: Int] = [
            "v1_transactions": 6, "matched_transactions": 3, "transaction_missing_in_v2": 1, "not_fetched": 1,
            "v1_transactions_out_of_period": 1, "v1_transactions_pending": 0,
            "v2_transactions": 8, "transaction_missing_in_v1": 1, "v2_only_expected_transactions": 1,
            "v2_transactions_out_of_period": 2, "v2_transactions_pending": 1, "restored_copies": 1,
            "transaction_field_mismatch": 1, "unannounced_in_v1": 1
        ]
        for (name, value) in expected { #expect(result.count(name) == value, "\(name)") }
        // The identities.
        #expect(
            result.count("v1_transactions") == result.count("matched_transactions")
                + result.count("transaction_missing_in_v2")
                + result.count("not_fetched") + result.count("v1_transactions_out_of_period")
                + result.count("v1_transactions_pending"))
        #expect(
            result.count("v2_transactions") == result.count("matched_transactions")
                + result.count("transaction_missing_in_v1")
                + result.count("v2_only_expected_transactions") + result.count("v2_transactions_out_of_period")
                + result.count("v2_transactions_pending"))
        #expect(result.metrics.first { $0.0 == "transaction_period_start" }?.1 == "2023-01-01T00:01:00.000Z")
        #expect(result.metrics.first { $0.0 == "transaction_period_end" }?.1 == "2023-05-31T12:00:00.000Z")
        // Rows carry the first V1 record that showed the transaction, and the purchase date.
        let unannounced = try #require(result.differences.first { $0.kind == .unannouncedInV1 })
        #expect(unannounced.v1Source == "v1.jsonl:4")
        #expect(unannounced.v1NotificationType == "INTERACTIVE_RENEWAL")
        #expect(unannounced.eventDate == V1Fixture.ms("2023-03-01T00:00:00Z"))
        #expect(unannounced.webOrderLineItemId == "5103")
    }

    /// An archive that stops on 06-10 (the switch to V2) while transaction 302 runs until 07-01, and Apple's history
    /// fetched later: facts Apple learnt after the archive ended are not differences; the same facts dated before it are.
    @Test func factsAppleLearntAfterTheArchiveEndedAreNotDifferences() throws {
        let first = S.tx("301", purchase: "2023-05-01T00:00:00Z", expires: "2023-06-01T00:00:00Z")
        let running = S.tx("302", purchase: "2023-06-01T00:00:00Z", expires: "2023-07-01T00:00:00Z")
        let archive = [
            try S.facts("INITIAL_BUY", at: "2023-05-01T00:00:00Z", line: 1, [first]),
            try S.facts("DID_RENEW", at: "2023-06-01T00:01:00Z", line: 2, [first, running]),
            try S.facts("DID_CHANGE_RENEWAL_STATUS", at: "2023-06-10T00:00:00Z", line: 3, [first, running])
        ]
        func history(refunded301: String?, refunded302: String?, extended: String, upgraded: Bool) -> [V2APIRecord] {
            var a = S.apple("301", purchase: "2023-05-01T00:00:00Z", expires: "2023-06-01T00:00:00Z")
            a.revocationDate = refunded301.map(V1Fixture.ms)
            a.revocationReason = refunded301 == nil ? nil : 0
            var b = S.apple("302", purchase: "2023-06-01T00:00:00Z", expires: extended)
            b.revocationDate = refunded302.map(V1Fixture.ms)
            b.revocationReason = refunded302 == nil ? nil : 0
            b.isUpgraded = upgraded
            return [a, b].enumerated().map { S.history($1, index: $0) }
        }
        // After the archive's end (06-10): a refund of 301 on 06-20, 302 upgraded and extended a week.
        let after = S.compare(
            archive,
            history(
                refunded301: "2023-06-20T00:00:00Z", refunded302: nil, extended: "2023-07-08T00:00:00Z", upgraded: true)
        )
        #expect(S.rows(after) == [])
        #expect(after.count("matched_transactions") == 2)
        #expect(after.count("transaction_field_mismatch") == 0)
        #expect(after.count("transaction_fields_after_data_end") == 4)
        // Before the archive's end: a refund on 06-05 that V1 never showed is a difference.
        let before = S.compare(
            archive,
            history(
                refunded301: "2023-06-05T00:00:00Z", refunded302: nil, extended: "2023-07-01T00:00:00Z", upgraded: false
            ))
        #expect(
            S.rows(before) == [
                "transaction_field_mismatch 1000000001 revocationDate  2023-06-05T00:00:00.000Z",
                "transaction_field_mismatch 1000000001 revocationReason  0"
            ])
        #expect(before.count("transaction_fields_after_data_end") == 0)
        // An earlier expiry than V1 showed is never excused, wherever the archive ends.
        let shorter = S.compare(
            archive, history(refunded301: nil, refunded302: nil, extended: "2023-06-25T00:00:00Z", upgraded: false))
        #expect(
            S.rows(shorter) == [
                "transaction_field_mismatch 1000000001 expiresDate 2023-07-01T00:00:00.000Z 2023-06-25T00:00:00.000Z"
            ])
    }

    /// The mirror case: Apple's history was fetched before the V1 archive ends (its last purchase 06-01), and V1 shows a
    /// refund of 301 dated 06-05: the history could not show it, so it is not a difference; a refund V1 dates before the
    /// history's last purchase, which Apple lacks, is one.
    @Test func factsV1LearntAfterTheHistoryWasFetchedAreNotDifferences() throws {
        func archive(refunded: String) throws -> [V1RecordFacts] {
            let first = S.tx("301", purchase: "2023-05-01T00:00:00Z", expires: "2023-06-01T00:00:00Z")
            let refund = V1Fixture.tx(
                id: "301", purchase: "2023-05-01T00:00:00Z", expires: "2023-06-01T00:00:00Z",
                extra: ["cancellation_date_ms": String(V1Fixture.ms(refunded)), "cancellation_reason": "0"])
            let running = S.tx("302", purchase: "2023-06-01T00:00:00Z", expires: "2023-07-01T00:00:00Z")
            return [
                try S.facts("INITIAL_BUY", at: "2023-05-01T00:00:00Z", line: 1, [first]),
                try S.facts("DID_RENEW", at: "2023-06-01T00:01:00Z", line: 2, [first, running]),
                try S.facts("DID_CHANGE_RENEWAL_STATUS", at: "2023-06-10T00:00:00Z", line: 3, [refund, running])
            ]
        }
        let history = [
            S.apple("301", purchase: "2023-05-01T00:00:00Z", expires: "2023-06-01T00:00:00Z"),
            S.apple("302", purchase: "2023-06-01T00:00:00Z", expires: "2023-07-01T00:00:00Z")
        ].enumerated().map { S.history($1, index: $0) }
        let later = S.compare(try archive(refunded: "2023-06-05T00:00:00Z"), history)
        #expect(S.rows(later) == [])
        #expect(later.count("matched_transactions") == 2)
        #expect(later.count("transaction_fields_after_data_end") == 2)
        let earlier = S.compare(try archive(refunded: "2023-05-20T00:00:00Z"), history)
        #expect(
            S.rows(earlier) == [
                "transaction_field_mismatch 1000000001 revocationDate 2023-05-20T00:00:00.000Z ",
                "transaction_field_mismatch 1000000001 revocationReason 0 "
            ])
    }

    @Test func restoredCopyIsReportedOnlyWithCompareTransactionId() throws {
        var options = ReconcileOptions()
        options.fields.append(.transactionId)
        let rows = S.rows(S.compare(try Self.archive(), Self.history(), options: options))
        #expect(rows.contains("transaction_field_mismatch 1000000001 transactionId 102 902"))
    }

    @Test func ignoreFieldDropsThatFieldsRows() throws {
        var options = ReconcileOptions()
        options.fields.removeAll { $0 == .productId }
        let rows = S.rows(S.compare(try Self.archive(), Self.history(), options: options))
        #expect(!rows.contains { $0.hasPrefix("transaction_field_mismatch") })
    }

    @Test func quantityIsComparedAndIgnoreFieldQuantityDropsItsRows() throws {
        // Apple's copy of D (105) says quantity 3; V1's receipts say 1.
        let history = Self.history().map { record -> V2APIRecord in
            guard case .transaction(var t) = record, t.payload.transactionId == "105" else { return record }
            t.payload.quantity = 3
            return .transaction(t)
        }
        let rows = S.rows(S.compare(try Self.archive(), history))
        #expect(rows.contains("transaction_field_mismatch 1000000001 quantity 1 3"))
        var options = ReconcileOptions()
        options.fields.removeAll { $0 == .quantity }
        let ignored = S.rows(S.compare(try Self.archive(), history, options: options))
        #expect(!ignored.contains { $0.contains(" quantity ") })
        #expect(
            ignored.contains("transaction_field_mismatch 1000000001 productId pro.monthly pro.yearly"),
            "only quantity is ignored")
    }

    @Test func theSimulatorPerturbsEveryFieldTheTableComparesAgainstApple() throws {
        // The field table says which fields the API view compares; the simulator must be able to change each of them
        // (transactionId aside: a changed one is a restored copy) and know which are compared only when V1 states them.
        let compared = ComparedField.apiViewFields.filter { $0 != .transactionId }
        #expect(Set(APIFaultInjector.changeableFields) == Set(compared.map(\.rawValue)))
        #expect(
            APIFaultInjector.comparedOnlyWhenKnown
                == Set(compared.filter { $0.apiView == .whenV1States }.map(\.rawValue)))
        #expect(ComparedField.apiViewFields.count == 13, "the 13 fields compared with Apple's history")
    }

    @Test func explicitPeriodJudgesWhatTheDefaultLeavesOut() throws {
        var options = ReconcileOptions()
        options.from = V1Fixture.ms("2022-01-01T00:00:00Z")
        options.to = V1Fixture.ms("2023-12-31T00:00:00Z")
        let result = S.compare(try Self.archive(), Self.history(), options: options)
        // P (2022-06) is now judged: no V1 record shows it. Q is still pending: V1's archive ends within the window.
        #expect(S.rows(result).contains("transaction_missing_in_v1 1000000001 transactionId  108"))
        #expect(result.count("v2_transactions_pending") == 1)
        #expect(result.count("v2_transactions_out_of_period") == 0)
    }

    @Test func factsOnlyGrowAcrossCopiesOfOneTransaction() throws {
        // An early receipt shows the transaction unrefunded and with its first expiry; a later one shows the refund and an
        // extended expiry; a late retry carries the old snapshot again. The merged transaction keeps the refund and the
        // newest expiry, so it agrees with Apple.
        let early = S.tx("301", purchase: "2023-01-01T00:00:00Z", expires: "2023-02-01T00:00:00Z")
        let refunded = V1Fixture.tx(
            id: "301", purchase: "2023-01-01T00:00:00Z", expires: "2023-02-05T00:00:00Z",
            extra: ["cancellation_date_ms": String(V1Fixture.ms("2023-01-10T00:00:00Z")), "cancellation_reason": "0"])
        let v1 = [
            try S.facts("INITIAL_BUY", at: "2023-01-01T00:01:00Z", line: 1, [early]),
            try S.facts("CANCEL", at: "2023-01-10T00:01:00Z", line: 2, [refunded]),
            try S.facts("DID_CHANGE_RENEWAL_STATUS", at: "2023-01-10T00:02:00Z", line: 3, [early])
        ]
        var apple = S.apple("301", purchase: "2023-01-01T00:00:00Z", expires: "2023-02-05T00:00:00Z")
        apple.revocationDate = V1Fixture.ms("2023-01-10T00:00:00Z")
        apple.revocationReason = 0
        var options = ReconcileOptions()
        options.from = V1Fixture.ms("2022-12-01T00:00:00Z")
        let result = S.compare(v1, [S.history(apple)], options: options)
        #expect(S.rows(result) == [])
        #expect(result.count("matched_transactions") == 1)
    }

    @Test func familySharedAndNonRenewingPurchasesAreExpectedOnlyOnApplesSide() throws {
        let v1 = try Self.archive()
        // A family member's first purchase (its own originalTransactionId): V1 sends family members no INITIAL_BUY.
        let shared = S.apple(
            "4000000401", original: "4000000401", purchase: "2023-03-05T00:00:00Z", expires: "2023-04-05T00:00:00Z",
            ownership: "FAMILY_SHARED")
        // A family member's renewal: V1 sends family members DID_RENEW, so one V1 never showed is missing.
        let sharedRenewal = S.apple(
            "4000000404", original: "4000000401", purchase: "2023-04-05T00:00:00Z", expires: "2023-05-05T00:00:00Z",
            ownership: "FAMILY_SHARED")
        let season = S.apple(
            "402", product: "season.pass", purchase: "2023-03-06T00:00:00Z", expires: nil,
            type: "Non-Renewing Subscription")
        var refundedCoins = S.apple(
            "403", product: "coins.100", purchase: "2023-03-07T00:00:00Z", expires: nil, type: "Consumable")
        refundedCoins.revocationDate = V1Fixture.ms("2023-03-08T00:00:00Z")
        let result = S.compare(
            v1,
            Self.history() + [
                S.history(shared), S.history(sharedRenewal, index: 1), S.history(season), S.history(refundedCoins)
            ])
        #expect(result.count("v2_only_expected_transactions") == 3)
        #expect(
            S.rows(result).contains("transaction_missing_in_v1 4000000401 transactionId  4000000404"),
            "\(S.rows(result))")
        // A refunded consumable is not expected to be missing: V1 sent REFUND/CONSUMPTION notifications for it.
        #expect(S.rows(result).contains("transaction_missing_in_v1 1000000001 transactionId  403"))
    }

    @Test func aFamilyMembersFirstPurchaseRestoredOnApplesSideIsNotUnannounced() throws {
        // A family member's first purchase (transactionId = originalTransactionId) shows in the receipt of its first
        // DID_RENEW; V1 never sends a family member INITIAL_BUY. Apple's history carries it as a restored copy: another
        // transactionId, the same webOrderLineItemId. The pair is judged on the V1 transaction's identity.
        func family(_ tx: String) -> String { tx.replacingOccurrences(of: "\"PURCHASED\"", with: "\"FAMILY_SHARED\"") }
        let first = family(
            S.tx(
                "4000000401", original: "4000000401", purchase: "2023-03-05T00:00:00Z", expires: "2023-04-05T00:00:00Z")
        )
        let renewal = family(
            S.tx(
                "4000000404", original: "4000000401", purchase: "2023-04-05T00:00:00Z", expires: "2023-05-05T00:00:00Z")
        )
        let v1 = try Self.archive() + [try S.facts("DID_RENEW", at: "2023-04-05T00:01:00Z", line: 7, [first, renewal])]
        let restoredFirst = S.apple(
            "4000000901", original: "4000000401", purchase: "2023-03-05T00:00:00Z", expires: "2023-04-05T00:00:00Z",
            webOrder: "54000000401", ownership: "FAMILY_SHARED")
        let appleRenewal = S.apple(
            "4000000404", original: "4000000401", purchase: "2023-04-05T00:00:00Z", expires: "2023-05-05T00:00:00Z",
            webOrder: "54000000404", ownership: "FAMILY_SHARED")
        let result = S.compare(v1, Self.history() + [S.history(restoredFirst), S.history(appleRenewal, index: 1)])
        #expect(!S.rows(result).contains { $0.contains("4000000401") }, "\(S.rows(result))")
        #expect(result.count("restored_copies") == 2)
        #expect(result.count("unannounced_in_v1") == 1, "only transaction 103's lost DID_RENEW")
        // The same first purchase bought by the purchaser herself is announced by INITIAL_BUY: when that was lost,
        // the restored copy does not hide it.
        let bought = S.tx(
            "4000000401", original: "4000000401", purchase: "2023-03-05T00:00:00Z", expires: "2023-04-05T00:00:00Z")
        let boughtRenewal = S.tx(
            "4000000404", original: "4000000401", purchase: "2023-04-05T00:00:00Z", expires: "2023-05-05T00:00:00Z")
        var restoredBought = restoredFirst
        restoredBought.inAppOwnershipType = "PURCHASED"
        var boughtAppleRenewal = appleRenewal
        boughtAppleRenewal.inAppOwnershipType = "PURCHASED"
        let purchased = S.compare(
            try Self.archive() + [
                try S.facts("DID_RENEW", at: "2023-04-05T00:01:00Z", line: 7, [bought, boughtRenewal])
            ],
            Self.history() + [S.history(restoredBought), S.history(boughtAppleRenewal, index: 1)])
        #expect(S.rows(purchased).contains("unannounced_in_v1 4000000401 transactionId 4000000401 "))
    }

    @Test func duplicateHistoryPagesCountOnceAndEnvironmentsStaySeparate() throws {
        let v1 = try Self.archive()
        let sandboxCopy = S.apple(
            "103", purchase: "2023-03-01T00:00:00Z", expires: "2023-04-01T00:00:00Z", environment: "Sandbox")
        let result = S.compare(v1, Self.history() + Self.history() + [S.history(sandboxCopy)])
        #expect(result.count("v2_transaction_duplicates") == 8)
        #expect(result.count("v2_transactions") == 9)
        // The Sandbox customer was fetched, but V1 showed nothing of it: its transaction is missing on the V1 side.
        #expect(result.differences.contains { $0.kind == .transactionMissingInV1 && $0.environment == "Sandbox" })
        #expect(result.count("matched_transactions") == 3)
    }

    @Test func edgeOfV1ArchiveIsPendingNotMissing() throws {
        // V1 archive ends 2023-06-01T00:00; Apple's renewal at 05-31T12:00 could have its V1 notification after that.
        let result = S.compare(try Self.archive(), Self.history())
        #expect(!S.rows(result).contains { $0.hasSuffix(" 109") })
        #expect(result.count("v2_transactions_pending") == 1)
    }
}
