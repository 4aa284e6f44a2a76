import Testing

@testable import ASNMigrateKit

/// One self-written V1 body and the rule it must hit.
struct RuleCase: CustomTestStringConvertible, Sendable {
    let name: String
    let body: String
    let rule: String
    let type: String
    let subtype: String?
    var testDescription: String { name }
}

private typealias F = V1Fixture

/// A subscription with an expired first month and an optional second transaction.
private let t1 = F.tx(id: "1000000001", purchase: "2021-01-01T00:00:00Z", expires: "2021-02-01T00:00:00Z")
private let t2 = F.tx(id: "1000000002", purchase: "2021-02-01T00:00:05Z", expires: "2021-03-01T00:00:05Z")

private func change(_ iso: String) -> [String: String] { ["auto_renew_status_change_date_ms": String(F.ms(iso))] }

let ruleCases: [RuleCase] =
    [
        RuleCase(
            name: "INITIAL_BUY with an offer code",
            body: F.body(
                type: "INITIAL_BUY",
                transactions: [
                    F.tx(
                        id: "1000000001", purchase: "2021-01-01T00:00:00Z", expires: "2021-02-01T00:00:00Z",
                        extra: ["offer_code_ref_name": "SPRING21"])
                ]), rule: "initial-buy-offer-code", type: "OFFER_REDEEMED", subtype: "INITIAL_BUY"),
        RuleCase(
            name: "INITIAL_BUY plain", body: F.body(type: "INITIAL_BUY", transactions: [t1]),
            rule: "initial-buy", type: "SUBSCRIBED", subtype: "INITIAL_BUY"),
        RuleCase(
            name: "INITIAL_BUY with a promotional offer is still SUBSCRIBED",
            body: F.body(
                type: "INITIAL_BUY",
                transactions: [
                    F.tx(
                        id: "1000000001", purchase: "2021-01-01T00:00:00Z", expires: "2021-02-01T00:00:00Z",
                        extra: ["promotional_offer_id": "PROMO"])
                ]), rule: "initial-buy", type: "SUBSCRIBED", subtype: "INITIAL_BUY"),
        RuleCase(
            name: "DID_RENEW", body: F.body(type: "DID_RENEW", transactions: [t2, t1]),
            rule: "did-renew", type: "DID_RENEW", subtype: nil),
        RuleCase(
            name: "DID_RECOVER", body: F.body(type: "DID_RECOVER", transactions: [t1, t2]),
            rule: "did-recover", type: "DID_RENEW", subtype: "BILLING_RECOVERY"),
        RuleCase(
            name: "RENEWAL (deprecated)", body: F.body(type: "RENEWAL", transactions: [t1, t2]),
            rule: "did-recover", type: "DID_RENEW", subtype: "BILLING_RECOVERY"),
        RuleCase(
            name: "INTERACTIVE_RENEWAL upgrade with a promotional offer",
            body: F.body(
                type: "INTERACTIVE_RENEWAL",
                transactions: [
                    t1,
                    F.tx(
                        id: "1000000002", product: "pro.yearly", purchase: "2021-01-15T00:00:00Z",
                        expires: "2022-01-15T00:00:00Z", extra: ["promotional_offer_id": "UPSELL"])
                ]), rule: "interactive-upgrade-offer", type: "OFFER_REDEEMED", subtype: "UPGRADE"),
        RuleCase(
            name: "INTERACTIVE_RENEWAL upgrade: previous not yet expired",
            body: F.body(
                type: "INTERACTIVE_RENEWAL",
                transactions: [
                    t1,
                    F.tx(
                        id: "1000000002", product: "pro.yearly", purchase: "2021-01-15T00:00:00Z",
                        expires: "2022-01-15T00:00:00Z")
                ]), rule: "interactive-upgrade", type: "DID_CHANGE_RENEWAL_PREF", subtype: "UPGRADE"),
        RuleCase(
            name: "INTERACTIVE_RENEWAL upgrade: previous has is_upgraded",
            body: F.body(
                type: "INTERACTIVE_RENEWAL",
                transactions: [
                    F.tx(
                        id: "1000000001", purchase: "2021-01-01T00:00:00Z", expires: "2021-01-10T00:00:00Z",
                        extra: ["is_upgraded": "true"]),
                    F.tx(
                        id: "1000000002", product: "pro.yearly", purchase: "2021-01-15T00:00:00Z",
                        expires: "2022-01-15T00:00:00Z")
                ]), rule: "interactive-upgrade", type: "DID_CHANGE_RENEWAL_PREF", subtype: "UPGRADE"),
        RuleCase(
            name: "INTERACTIVE_RENEWAL resubscribe with an offer code before the cutoff",
            body: F.body(
                type: "INTERACTIVE_RENEWAL",
                transactions: [
                    t1,
                    F.tx(
                        id: "1000000002", purchase: "2021-04-01T00:00:00Z", expires: "2021-05-01T00:00:00Z",
                        extra: ["offer_code_ref_name": "COMEBACK"])
                ]), rule: "interactive-resubscribe-offer", type: "OFFER_REDEEMED", subtype: "RESUBSCRIBE"),
        RuleCase(
            name: "INTERACTIVE_RENEWAL resubscribe after a lapse",
            body: F.body(
                type: "INTERACTIVE_RENEWAL",
                transactions: [
                    t1, F.tx(id: "1000000002", purchase: "2021-04-01T00:00:00Z", expires: "2021-05-01T00:00:00Z")
                ]), rule: "interactive-resubscribe", type: "SUBSCRIBED", subtype: "RESUBSCRIBE"),
        RuleCase(
            name: "INTERACTIVE_RENEWAL resubscribe with an offer after the 2024-01-23 cutoff",
            body: F.body(
                type: "INTERACTIVE_RENEWAL",
                transactions: [
                    F.tx(id: "1000000001", purchase: "2023-11-01T00:00:00Z", expires: "2023-12-01T00:00:00Z"),
                    F.tx(
                        id: "1000000002", purchase: "2024-01-23T00:00:00Z", expires: "2024-02-23T00:00:00Z",
                        extra: ["promotional_offer_id": "WINBACK"])
                ]), rule: "interactive-resubscribe", type: "SUBSCRIBED", subtype: "RESUBSCRIBE"),
        RuleCase(
            name: "DID_CHANGE_RENEWAL_PREF downgrade",
            body: F.body(
                type: "DID_CHANGE_RENEWAL_PREF", top: change("2021-01-10T00:00:00Z"),
                transactions: [t1], pending: [F.pending(autoRenewProduct: "pro.basic")]),
            rule: "pref-downgrade", type: "DID_CHANGE_RENEWAL_PREF", subtype: "DOWNGRADE"),
        RuleCase(
            name: "DID_CHANGE_RENEWAL_PREF downgrade reverted",
            body: F.body(
                type: "DID_CHANGE_RENEWAL_PREF", top: change("2021-01-10T00:00:00Z"),
                transactions: [t1], pending: [F.pending()]),
            rule: "pref-downgrade-reverted", type: "DID_CHANGE_RENEWAL_PREF", subtype: nil)
    ] + expiredCases + statusCases + [
        RuleCase(
            name: "DID_FAIL_TO_RENEW in a grace period",
            body: F.body(
                type: "DID_FAIL_TO_RENEW", transactions: [t1],
                pending: [
                    F.pending(extra: [
                        "is_in_billing_retry_period": "1", "expiration_intent": "2",
                        "grace_period_expires_date_ms": String(F.ms("2021-02-17T00:00:00Z"))
                    ])
                ]),
            rule: "fail-grace-period", type: "DID_FAIL_TO_RENEW", subtype: "GRACE_PERIOD"),
        RuleCase(
            name: "DID_FAIL_TO_RENEW, grace period ends exactly at the event",
            body: F.body(
                type: "DID_FAIL_TO_RENEW", transactions: [t1],
                pending: [
                    F.pending(extra: [
                        "is_in_billing_retry_period": "1",
                        "grace_period_expires_date_ms": String(F.ms("2021-02-01T00:00:00Z"))
                    ])
                ]),
            rule: "fail", type: "DID_FAIL_TO_RENEW", subtype: nil),
        RuleCase(
            name: "DID_FAIL_TO_RENEW without grace period",
            body: F.body(
                type: "DID_FAIL_TO_RENEW", transactions: [t1],
                pending: [F.pending(extra: ["is_in_billing_retry_period": "1", "expiration_intent": "2"])]),
            rule: "fail", type: "DID_FAIL_TO_RENEW", subtype: nil),
        RuleCase(
            name: "CANCEL of an upgraded transaction (older archives)",
            body: F.body(
                type: "CANCEL",
                transactions: [
                    F.tx(
                        id: "1000000001", purchase: "2021-01-01T00:00:00Z", expires: "2021-02-01T00:00:00Z",
                        extra: ["is_upgraded": "true", "cancellation_date_ms": String(F.ms("2021-01-15T00:00:00Z"))]),
                    F.tx(
                        id: "1000000002", product: "pro.yearly", purchase: "2021-01-15T00:00:00Z",
                        expires: "2022-01-15T00:00:00Z")
                ]), rule: "cancel-upgrade", type: "DID_CHANGE_RENEWAL_PREF", subtype: "UPGRADE"),
        RuleCase(
            name: "CANCEL refunded by Apple support",
            body: F.body(
                type: "CANCEL", top: ["cancellation_date_ms": String(F.ms("2021-01-20T00:00:00Z"))],
                transactions: [
                    F.tx(
                        id: "1000000001", purchase: "2021-01-01T00:00:00Z", expires: "2021-02-01T00:00:00Z",
                        extra: [
                            "cancellation_date_ms": String(F.ms("2021-01-20T00:00:00Z")), "cancellation_reason": "1"
                        ])
                ]), rule: "cancel-refund", type: "REFUND", subtype: nil),
        RuleCase(
            name: "REFUND of a consumable",
            body: F.body(
                type: "REFUND",
                transactions: [
                    F.tx(
                        id: "1000000001", product: "coins.100", purchase: "2021-01-01T00:00:00Z", expires: nil,
                        extra: [
                            "cancellation_date_ms": String(F.ms("2021-01-20T00:00:00Z")), "cancellation_reason": "0"
                        ])
                ], autoRenewStatus: nil), rule: "cancel-refund", type: "REFUND", subtype: nil),
        RuleCase(
            name: "REVOKE for a family member",
            body: F.body(
                type: "REVOKE",
                transactions: [
                    F.tx(
                        id: "1000000001", purchase: "2021-01-01T00:00:00Z", expires: "2021-02-01T00:00:00Z",
                        extra: [
                            "cancellation_date_ms": String(F.ms("2021-01-20T00:00:00Z")),
                            "in_app_ownership_type": "FAMILY_SHARED"
                        ])
                ]), rule: "revoke", type: "REVOKE", subtype: nil),
        RuleCase(
            name: "CONSUMPTION_REQUEST",
            body: F.body(
                type: "CONSUMPTION_REQUEST",
                transactions: [
                    F.tx(id: "1000000001", product: "coins.100", purchase: "2021-01-01T00:00:00Z", expires: nil)
                ], autoRenewStatus: nil), rule: "consumption-request", type: "CONSUMPTION_REQUEST", subtype: nil),
        RuleCase(
            name: "PRICE_INCREASE_CONSENT accepted",
            body: F.body(
                type: "PRICE_INCREASE_CONSENT", transactions: [t1],
                pending: [F.pending(extra: ["price_consent_status": "1"])]),
            rule: "price-consent-accepted", type: "PRICE_INCREASE", subtype: "ACCEPTED"),
        RuleCase(
            name: "PRICE_INCREASE_CONSENT pending",
            body: F.body(
                type: "PRICE_INCREASE_CONSENT", transactions: [t1],
                pending: [F.pending(extra: ["price_consent_status": "0"])]),
            rule: "price-consent-pending", type: "PRICE_INCREASE", subtype: "PENDING")
    ]

private let expiredCases: [RuleCase] = [
    ("1", "status-expired-voluntary", "VOLUNTARY"), ("2", "status-expired-billing", "BILLING_RETRY"),
    ("3", "status-expired-price", "PRICE_INCREASE"), ("4", "status-expired-not-for-sale", "PRODUCT_NOT_FOR_SALE"),
    ("5", "status-expired-other", nil)
].map { intent, rule, subtype in
    RuleCase(
        name: "DID_CHANGE_RENEWAL_STATUS off, expired exactly at the event, intent \(intent)",
        body: F.body(
            type: "DID_CHANGE_RENEWAL_STATUS", top: change("2021-02-01T00:00:00Z"), transactions: [t1],
            pending: [F.pending(status: "0", extra: ["expiration_intent": intent, "is_in_billing_retry_period": "0"])],
            autoRenewStatus: "false"),
        rule: rule, type: "EXPIRED", subtype: subtype)
}

private let statusCases: [RuleCase] = [
    RuleCase(
        name: "DID_CHANGE_RENEWAL_STATUS on: resubscribe with a promotional offer, purchase exactly 1h before",
        body: F.body(
            type: "DID_CHANGE_RENEWAL_STATUS", top: change("2021-03-10T11:00:00Z"),
            transactions: [
                t1,
                F.tx(
                    id: "1000000002", purchase: "2021-03-10T10:00:00Z", expires: "2021-04-10T10:00:00Z",
                    extra: ["promotional_offer_id": "WINBACK"])
            ], pending: [F.pending()]),
        rule: "status-resubscribe-offer", type: "OFFER_REDEEMED", subtype: "RESUBSCRIBE"),
    RuleCase(
        name: "DID_CHANGE_RENEWAL_STATUS on: resubscribe after a lapse",
        body: F.body(
            type: "DID_CHANGE_RENEWAL_STATUS", top: change("2021-03-10T10:00:30Z"),
            transactions: [
                t1, F.tx(id: "1000000002", purchase: "2021-03-10T10:00:00Z", expires: "2021-04-10T10:00:00Z")
            ], pending: [F.pending()]),
        rule: "status-resubscribe", type: "SUBSCRIBED", subtype: "RESUBSCRIBE"),
    RuleCase(
        name: "DID_CHANGE_RENEWAL_STATUS on: purchase 1h and 1ms before is not a resubscribe",
        body: F.body(
            type: "DID_CHANGE_RENEWAL_STATUS",
            top: ["auto_renew_status_change_date_ms": String(F.ms("2021-03-10T11:00:00Z") + 1)],
            transactions: [
                t1, F.tx(id: "1000000002", purchase: "2021-03-10T10:00:00Z", expires: "2021-04-10T10:00:00Z")
            ], pending: [F.pending()]),
        rule: "status-auto-renew-enabled", type: "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_ENABLED"),
    RuleCase(
        name: "DID_CHANGE_RENEWAL_STATUS on during an active period",
        body: F.body(
            type: "DID_CHANGE_RENEWAL_STATUS", top: change("2021-02-15T00:00:00Z"), transactions: [t1, t2],
            pending: [F.pending()]),
        rule: "status-auto-renew-enabled", type: "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_ENABLED"),
    RuleCase(
        name: "DID_CHANGE_RENEWAL_STATUS off during an active period",
        body: F.body(
            type: "DID_CHANGE_RENEWAL_STATUS", top: change("2021-01-15T00:00:00Z"), transactions: [t1],
            pending: [F.pending(status: "0", extra: ["expiration_intent": "1"])], autoRenewStatus: "false"),
        rule: "status-auto-renew-disabled", type: "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED"),
    RuleCase(
        name: "DID_CHANGE_RENEWAL_STATUS off, expires 1ms after the event: not expired",
        body: F.body(
            type: "DID_CHANGE_RENEWAL_STATUS",
            top: ["auto_renew_status_change_date_ms": String(F.ms("2021-02-01T00:00:00Z") - 1)], transactions: [t1],
            pending: [F.pending(status: "0", extra: ["expiration_intent": "1"])], autoRenewStatus: "false"),
        rule: "status-auto-renew-disabled", type: "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED"),
    RuleCase(
        name: "DID_CHANGE_RENEWAL_STATUS off, expired but still in billing retry",
        body: F.body(
            type: "DID_CHANGE_RENEWAL_STATUS", top: change("2021-02-10T00:00:00Z"), transactions: [t1],
            pending: [F.pending(status: "0", extra: ["expiration_intent": "2", "is_in_billing_retry_period": "1"])],
            autoRenewStatus: "false"),
        rule: "status-auto-renew-disabled", type: "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED"),
    RuleCase(
        name: "DID_CHANGE_RENEWAL_STATUS off, expired, no expiration_intent",
        body: F.body(
            type: "DID_CHANGE_RENEWAL_STATUS", top: change("2021-02-10T00:00:00Z"), transactions: [t1],
            pending: [F.pending(status: "0")], autoRenewStatus: "false"),
        rule: "status-auto-renew-disabled", type: "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED")
]

@Suite struct MappingRuleTests {
    @Test(arguments: ruleCases)
    func ruleMatches(_ c: RuleCase) throws {
        let outcome = try V1Fixture.map(c.body)
        let payload = try #require(outcome.payload, "expected a migrated record, got \(outcome)")
        #expect(payload.migration?.ruleId == c.rule)
        #expect(payload.notificationType == c.type)
        #expect(payload.subtype == c.subtype)
    }

    @Test func everyRuleInTheTableHasACase() throws {
        let covered = Set(ruleCases.map(\.rule))
        let table = try MappingTable.builtIn()
        let missing = table.rules.map(\.id).filter { !covered.contains($0) }
        #expect(missing.isEmpty, "rules without a test case: \(missing)")
        for rule in table.rules {
            for v1Type in rule.v1Types {
                #expect(
                    ruleCases.contains {
                        $0.rule == rule.id && $0.body.contains("\"notification_type\":\"\(v1Type)\"")
                    },
                    "rule \(rule.id) has no case for \(v1Type)")
            }
        }
    }

    @Test func unknownTypeIsUnmappedNotRejected() throws {
        let outcome = try V1Fixture.map(V1Fixture.body(type: "SOMETHING_NEW", transactions: [t1]))
        let unmapped = try #require(outcome.unmappedRecord)
        #expect(unmapped.v1NotificationType == "SOMETHING_NEW")
        #expect(unmapped.reason.contains("no mapping rule"))
        #expect(unmapped.originalTransactionId == "1000000001")
    }

    @Test func didRenewWithoutTransactionsStillMaps() throws {
        let outcome = try V1Fixture.map(
            #"{"notification_type":"DID_RENEW","environment":"Sandbox","unified_receipt":{"latest_receipt_info":[]}}"#)
        let payload = try #require(outcome.payload)
        #expect(payload.notificationType == "DID_RENEW")
        #expect(payload.data.transactionInfo == nil)
        #expect(payload.data.environment == "Sandbox")
    }

    @Test func statusWithoutAnyAutoRenewInformationIsUnmapped() throws {
        let outcome = try V1Fixture.map(
            V1Fixture.body(type: "DID_CHANGE_RENEWAL_STATUS", transactions: [t1], autoRenewStatus: nil))
        let unmapped = try #require(outcome.unmappedRecord)
        #expect(unmapped.reason.contains("matched"))
    }
}

@Suite struct MappingFileLineEndingTests {
    @Test func rulesFilesWithWindowsLineEndingsLoad() throws {
        let crlf = { (text: String) in text.replacingOccurrences(of: "\n", with: "\r\n") }
        let table = try MappingTable.parse(
            rules: crlf(MappingDefaults.rules), rulesPath: "r", v2Only: crlf(MappingDefaults.v2Only), v2OnlyPath: "v")
        #expect(table == (try MappingTable.builtIn()))
    }
}
