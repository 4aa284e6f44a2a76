import Testing

@testable import ASNMigrateKit

private typealias F = V1Fixture

@Suite struct V2BuilderTests {
    @Test func transactionAndRenewalFieldsCarryOver() throws {
        let text = F.body(
            type: "DID_RENEW",
            transactions: [
                F.tx(id: "1000000001", purchase: "2021-01-01T00:00:00Z", expires: "2021-02-01T00:00:00Z"),
                F.tx(
                    id: "1000000002", purchase: "2021-02-01T00:00:00Z", expires: "2021-03-01T00:00:00Z",
                    webOrder: "777",
                    extra: ["is_trial_period": "true", "app_account_token": "5c1f4e1a-0000-4000-8000-000000000001"])
            ], pending: [F.pending(autoRenewProduct: "pro.yearly", extra: ["expiration_intent": "1"])])
        let p = try #require(try F.map(text).payload)
        #expect(p.version == "2.0")
        #expect(p.signedDate == F.ms("2021-02-01T00:00:00Z"))
        #expect(p.data.bundleId == "com.example.app")
        #expect(p.data.bundleVersion == "42")
        #expect(p.data.environment == "Production")
        #expect(p.data.status == 1)
        let t = try #require(p.data.transactionInfo)
        #expect(t.transactionId == "1000000002")
        #expect(t.originalTransactionId == "1000000001")
        #expect(t.webOrderLineItemId == "777")
        #expect(t.productId == "pro.monthly")
        #expect(t.subscriptionGroupIdentifier == "20000001")
        #expect(t.expiresDate == F.ms("2021-03-01T00:00:00Z"))
        #expect(t.quantity == 1)
        #expect(t.type == "Auto-Renewable Subscription")
        #expect(t.inAppOwnershipType == "PURCHASED")
        #expect(t.offerType == 1)
        #expect(t.offerDiscountType == "FREE_TRIAL")
        #expect(t.appAccountToken == "5c1f4e1a-0000-4000-8000-000000000001")
        #expect(t.transactionReason == "RENEWAL")
        #expect(t.environment == "Production")
        let r = try #require(p.data.renewalInfo)
        #expect(r.autoRenewProductId == "pro.yearly")
        #expect(r.autoRenewStatus == 1)
        #expect(r.expirationIntent == 1)
        #expect(r.renewalDate == F.ms("2021-03-01T00:00:00Z"))
        #expect(r.recentSubscriptionStartDate == F.ms("2021-01-01T00:00:00Z"))
        #expect(p.migration?.v1NotificationType == "DID_RENEW")
        #expect(p.migration?.source == "fixture.json")
        #expect(p.migration?.line == 1)
    }

    @Test func offerCodeAndPromotionalOfferBecomeOfferTypes() throws {
        let code = try #require(
            try F.map(
                F.body(
                    type: "INITIAL_BUY",
                    transactions: [
                        F.tx(
                            id: "1", purchase: "2021-01-01T00:00:00Z", expires: "2021-02-01T00:00:00Z",
                            extra: ["offer_code_ref_name": "SPRING"])
                    ])
            ).payload?.data.transactionInfo)
        #expect(code.offerType == 3)
        #expect(code.offerIdentifier == "SPRING")
        let promo = try #require(
            try F.map(
                F.body(
                    type: "DID_RENEW",
                    transactions: [
                        F.tx(
                            id: "1", purchase: "2021-01-01T00:00:00Z", expires: "2021-02-01T00:00:00Z",
                            extra: ["promotional_offer_id": "P1"])
                    ])
            ).payload?.data.transactionInfo)
        #expect(promo.offerType == 2)
        #expect(promo.offerIdentifier == "P1")
        #expect(promo.offerDiscountType == nil)
    }

    @Test func refundCarriesRevocationAndRevokedStatus() throws {
        let p = try #require(
            try F.map(
                F.body(
                    type: "CANCEL",
                    transactions: [
                        F.tx(
                            id: "1", purchase: "2021-01-01T00:00:00Z", expires: "2021-02-01T00:00:00Z",
                            extra: [
                                "cancellation_date_ms": String(F.ms("2021-01-20T00:00:00Z")), "cancellation_reason": "1"
                            ])
                    ])
            ).payload)
        #expect(p.signedDate == F.ms("2021-01-20T00:00:00Z"))
        #expect(p.data.transactionInfo?.revocationDate == F.ms("2021-01-20T00:00:00Z"))
        #expect(p.data.transactionInfo?.revocationReason == 1)
        #expect(p.data.status == 5)
    }

    @Test func upgradeCarriesTheNewTransactionWithoutRevocation() throws {
        let p = try #require(
            try F.map(
                F.body(
                    type: "CANCEL",
                    transactions: [
                        F.tx(
                            id: "1", purchase: "2021-01-01T00:00:00Z", expires: "2021-02-01T00:00:00Z",
                            extra: ["is_upgraded": "true", "cancellation_date_ms": String(F.ms("2021-01-15T00:00:00Z"))]
                        ),
                        F.tx(
                            id: "2", product: "pro.yearly", purchase: "2021-01-15T00:00:00Z",
                            expires: "2022-01-15T00:00:00Z")
                    ])
            ).payload)
        #expect(p.data.transactionInfo?.transactionId == "2")
        #expect(p.data.transactionInfo?.productId == "pro.yearly")
        #expect(p.data.transactionInfo?.revocationDate == nil)
        #expect(p.data.transactionInfo?.transactionReason == "PURCHASE")
    }

    @Test(
        arguments: [
            // (expires, grace, billing retry, event, expected status)
            ("2021-02-01T00:00:00Z", nil, "0", "2021-01-15T00:00:00Z", 1),
            ("2021-02-01T00:00:00Z", nil, "0", "2021-02-01T00:00:00Z", 2),
            ("2021-02-01T00:00:00Z", nil, "1", "2021-02-02T00:00:00Z", 3),
            ("2021-02-01T00:00:00Z", "2021-02-10T00:00:00Z", "1", "2021-02-02T00:00:00Z", 4)
        ] as [(String, String?, String, String, Int)])
    func statusAtTheEvent(expires: String, grace: String?, retry: String, event: String, status: Int) throws {
        var extra = ["is_in_billing_retry_period": retry]
        if let grace { extra["grace_period_expires_date_ms"] = String(F.ms(grace)) }
        let text = F.body(
            type: "DID_CHANGE_RENEWAL_PREF", top: ["auto_renew_status_change_date_ms": String(F.ms(event))],
            transactions: [F.tx(id: "1", purchase: "2021-01-01T00:00:00Z", expires: expires)],
            pending: [F.pending(extra: extra)])
        #expect(try F.map(text).payload?.data.status == status)
    }

    @Test func idsAbove2To53KeepEveryDigit() throws {
        let text = F.body(
            type: "DID_RENEW",
            transactions: [
                F.tx(
                    id: "9007199254740993", original: "9007199254740995", purchase: "2021-01-01T00:00:00Z",
                    expires: "2021-02-01T00:00:00Z",
                    webOrder: "90071992547409971")
            ])
        let t = try #require(try F.map(text).payload?.data.transactionInfo)
        #expect(t.transactionId == "9007199254740993")
        #expect(t.originalTransactionId == "9007199254740995")
        #expect(t.webOrderLineItemId == "90071992547409971")
        var out: [UInt8] = []
        MigrationOutput.appendJSONLine(try #require(try F.map(text).payload), to: &out)
        let line = String(decoding: out, as: UTF8.self)
        #expect(line.contains(#""transactionId":"9007199254740993""#))
        #expect(line.contains(#""webOrderLineItemId":"90071992547409971""#))
    }

    @Test func passwordAndReceiptNeverReachOutput() throws {
        let text = F.body(
            type: "SOMETHING_NEW", transactions: [F.tx(id: "1", purchase: "2021-01-01T00:00:00Z", expires: nil)])
        let mapped = F.body(
            type: "DID_RENEW", transactions: [F.tx(id: "1", purchase: "2021-01-01T00:00:00Z", expires: nil)])
        var out: [UInt8] = []
        MigrationOutput.appendJSONLine(try #require(try F.map(mapped).payload), to: &out)
        let csv = MigrationOutput.csvRow(try #require(try F.map(mapped).payload)).joined(separator: ",")
        let unmapped = MigrationOutput.unmappedRow(try #require(try F.map(text).unmappedRecord)).joined(separator: ",")
        for rendered in [String(decoding: out, as: UTF8.self), csv, unmapped] {
            #expect(!rendered.contains("s3cr3t"))
            #expect(!rendered.contains("TUlJU2VjcmV0UmVjZWlwdA"))
        }
    }

    @Test func uuidIgnoresWhitespaceKeyOrderAndSecrets() throws {
        let a = #"{"notification_type":"DID_RENEW","environment":"PROD","password":"one","latest_receipt":"AAA"}"#
        let b = "{ \"environment\" : \"PROD\",\n \"notification_type\":\"DID_RENEW\", \"password\":\"two\" }"
        let c = #"{"notification_type":"DID_RENEW","environment":"Sandbox"}"#
        let ua = try #require(try F.map(a).payload?.notificationUUID)
        #expect(ua == (try F.map(b).payload?.notificationUUID))
        #expect(ua != (try F.map(c).payload?.notificationUUID))
        #expect(ua.count == 36)
        #expect(Array(ua)[14] == "5", "a version-5 UUID")
    }
}
