import Testing

@testable import ASNMigrateKit

@Suite struct ResponseBodyV1Tests {
    private func decode(_ text: String) throws -> ResponseBodyV1 {
        let value = try JSONParser().parse(Array(text.utf8))
        let object = try #require(value.objectValue)
        return try ResponseBodyV1(object, location: SourceLocation(path: "t.json", line: 1))
    }

    private func rejection(_ text: String) throws -> ASNError {
        let outcome = try V1Fixture.map(text)
        return try #require(outcome.rejection, "expected a reject, got \(outcome)")
    }

    @Test func topLevelNumericOriginalTransactionIdKeepsEveryDigit() throws {
        let body = try decode(#"{"notification_type":"DID_RENEW","original_transaction_id":9007199254740993123}"#)
        #expect(body.originalTransactionId == "9007199254740993123")
    }

    @Test func booleansInEverySpelling() throws {
        let body = try decode(
            #"""
            {"notification_type":"X","auto_renew_status":"false","unified_receipt":{"pending_renewal_info":[
              {"auto_renew_status":"1","is_in_billing_retry_period":true},{"auto_renew_status":0,"is_in_billing_retry_period":"0"}]}}
            """#)
        #expect(body.autoRenewStatus == false)
        #expect(body.pendingRenewalInfo.map(\.autoRenewStatus) == [true, false])
        #expect(body.pendingRenewalInfo.map(\.isInBillingRetryPeriod) == [true, false])
    }

    @Test func datesFallBackFromMillisToAppleGMTText() throws {
        let body = try decode(
            #"""
            {"notification_type":"X","latest_receipt_info":{"transaction_id":"1","purchase_date":"2021-03-01 07:00:00 Etc/GMT","expires_date":"1616411598724"}}
            """#)
        let t = try #require(body.transactions.first)
        #expect(t.purchaseDate == 1_614_582_000_000)
        #expect(t.expiresDate == 1_616_411_598_724, "legacy expires_date digits are milliseconds")
    }

    @Test func legacyAndUnifiedCopiesOfOneTransactionMerge() throws {
        let body = try decode(
            #"""
            {"notification_type":"X","latest_receipt_info":{"transaction_id":"7","bid":"com.a"},
             "latest_expired_receipt_info":{"transaction_id":"6","purchase_date_ms":"1"},
             "unified_receipt":{"latest_receipt_info":[{"transaction_id":"7","purchase_date_ms":"5"}]}}
            """#)
        #expect(body.transactions.count == 2)
        #expect(body.transactions[0].bid == "com.a")
        #expect(body.transactions[0].purchaseDate == 5)
    }

    @Test func emptyStringsAreAbsent() throws {
        let body = try decode(
            #"{"notification_type":"X","unified_receipt":{"latest_receipt_info":[{"transaction_id":"1","cancellation_date":"","cancellation_reason":""}]}}"#
        )
        #expect(body.transactions.first?.cancellationDate == nil)
        #expect(body.transactions.first?.cancellationReason == nil)
    }

    @Test func environmentFallsBackToTheReceipt() throws {
        #expect(
            try decode(#"{"notification_type":"X","unified_receipt":{"environment":"Sandbox"}}"#).environmentRaw
                == "Sandbox")
        #expect(EnvironmentName.normalized("PROD") == "Production")
        #expect(EnvironmentName.normalized("Production") == "Production")
        #expect(EnvironmentName.normalized("Sandbox") == "Sandbox")
        #expect(EnvironmentName.normalized("Xcode") == "Xcode")
    }

    // MARK: - Rejects

    @Test func notificationTypeThatIsNotAStringIsRejected() throws {
        let error = try rejection(#"{"notification_type":42}"#)
        #expect(error.code == .wrongFieldType)
        #expect(error.location?.key == "notification_type")
        #expect(error.message.contains("should be a non-empty string"))
    }

    @Test func missingNotificationTypeIsRejected() throws {
        let error = try rejection(#"{"environment":"PROD"}"#)
        #expect(error.code == .missingNotificationType)
        #expect(error.message.contains("notification_type"))
    }

    @Test func notAnObjectIsRejected() throws {
        let error = try rejection(#"[1,2]"#)
        #expect(error.code == .notAnObject)
    }

    @Test func malformedJSONIsRejectedWithItsLocation() throws {
        let error = try rejection(#"{"notification_type":"DID_RENEW","#)
        #expect(error.code == .malformedJSON)
        #expect(error.location?.path == "fixture.json")
        #expect(error.location?.line == 1)
    }

    @Test(arguments: [
        (
            #"{"notification_type":"DID_RENEW","unified_receipt":{"latest_receipt_info":[{"purchase_date_ms":"yesterday"}]}}"#,
            "unified_receipt.latest_receipt_info[0].purchase_date_ms"
        ),
        (
            #"{"notification_type":"DID_RENEW","unified_receipt":{"latest_receipt_info":[{"expires_date_ms":{"x":1}}]}}"#,
            "unified_receipt.latest_receipt_info[0].expires_date_ms"
        ),
        (
            #"{"notification_type":"DID_RENEW","unified_receipt":{"latest_receipt_info":["oops"]}}"#,
            "unified_receipt.latest_receipt_info[0]"
        ),
        (#"{"notification_type":"DID_CHANGE_RENEWAL_STATUS","auto_renew_status":"maybe"}"#, "auto_renew_status"),
        (#"{"notification_type":"DID_RENEW","unified_receipt":"nope"}"#, "unified_receipt"),
        (
            #"{"notification_type":"DID_FAIL_TO_RENEW","unified_receipt":{"pending_renewal_info":[{"expiration_intent":"two"}]}}"#,
            "unified_receipt.pending_renewal_info[0].expiration_intent"
        )
    ])
    func wrongFieldTypesAreRejectedNamingTheKey(text: String, key: String) throws {
        let error = try rejection(text)
        #expect(error.code == .wrongFieldType)
        #expect(error.location?.key == key)
        #expect(error.message.contains("'\(key)'"))
        #expect(error.message.contains("fix or remove"))
    }

    /// IDs Apple documents as numeric strings are 1 to 20 digits; a sign, exponent, fraction, space,
    /// letter or another JSON kind is a `bad_id` reject naming the field, never migrated as is or trimmed.
    @Test(arguments: [
        #""abc""#, #""1e400""#, #""-5""#, "-0", #"" 123""#, #""123 ""#, "1.5e14", "true", #""123456789012345678901""#,
        "123456789012345678901"
    ])
    func anIDThatIsNotDigitsIsABadIdRejectNamingTheField(id: String) throws {
        let key = "unified_receipt.latest_receipt_info[0].original_transaction_id"
        let error = try rejection(
            #"{"notification_type":"DID_RENEW","unified_receipt":{"latest_receipt_info":[{"original_transaction_id":"#
                + id + "}]}}")
        #expect(error.code == .badId)
        #expect(error.location?.key == key)
        #expect(error.message.contains("'\(key)'"))
    }
}
