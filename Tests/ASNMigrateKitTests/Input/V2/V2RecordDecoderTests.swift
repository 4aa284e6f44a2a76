import Testing

@testable import ASNMigrateKit

@Suite struct V2RecordDecoderTests {
    // MARK: - Helpers

    private let decoder = V2RecordDecoder()
    private let at = SourceLocation(path: "v2.jsonl", line: 7)

    private func outcomes(_ text: String) -> [V2ReadOutcome] {
        decoder.decode(RawRecord(location: at, bytes: Array(text.utf8)))
    }

    private func record(_ text: String) throws -> V2Record {
        let all = outcomes(text)
        #expect(all.count == 1)
        let first = try #require(all.first)
        if let error = first.error { Issue.record("unexpected reject: \(error)") }
        return try #require(first.record)
    }

    private func reject(_ text: String) throws -> ASNError {
        let all = outcomes(text)
        #expect(all.count == 1)
        return try #require(all.first?.error)
    }

    /// Checks the fields every form of `V2Fixture.decodedWithJWS` must give.
    private func expectFixtureFields(_ payload: ResponseBodyV2DecodedPayload) throws {
        #expect(payload.notificationType == "DID_RENEW")
        #expect(payload.subtype == nil)
        #expect(payload.notificationUUID == "6f1e2d3c-0000-4000-8000-000000000001")
        #expect(payload.version == "2.0")
        #expect(payload.signedDate == 1_700_000_002_000)
        #expect(payload.data.bundleId == "com.example.app")
        #expect(payload.data.bundleVersion == "42")
        #expect(payload.data.environment == "Sandbox")
        #expect(payload.data.status == 1)
        let transaction = try #require(payload.data.transactionInfo)
        #expect(transaction.transactionId == "2000000970502538")
        #expect(transaction.originalTransactionId == "9007199254740993")
        #expect(transaction.webOrderLineItemId == "18446744073709551615")
        #expect(transaction.price == 9990)
        #expect(transaction.isUpgraded == false)
        let renewal = try #require(payload.data.renewalInfo)
        #expect(renewal.autoRenewProductId == "pro.yearly")
        #expect(renewal.autoRenewStatus == 1)
        #expect(payload.migration == nil)
    }

    // MARK: - Accepted forms

    @Test func rawBodyDecodesPayloadAndNestedJWS() throws {
        let record = try record(V2Fixture.rawBody)
        try expectFixtureFields(record.payload)
        #expect(record.location == at)
    }

    @Test func decodedPayloadWithNestedJWSStrings() throws {
        try expectFixtureFields(try record(V2Fixture.decodedWithJWS).payload)
    }

    @Test func decodedPayloadWithDecodedObjectsUnderSignedKeys() throws {
        let text = V2Fixture.decoded(
            data: V2Fixture.data(
                #""signedTransactionInfo":\#(V2Fixture.transaction),"signedRenewalInfo":\#(V2Fixture.renewal)"#))
        try expectFixtureFields(try record(text).payload)
    }

    @Test func decodedPayloadWithTransactionInfoAndRenewalInfoObjects() throws {
        let text = V2Fixture.decoded(
            data: V2Fixture.data(#""transactionInfo":\#(V2Fixture.transaction),"renewalInfo":\#(V2Fixture.renewal)"#))
        try expectFixtureFields(try record(text).payload)
    }

    @Test func migrateOutputReadsBackWithItsMigrationObject() throws {
        var written = try record(V2Fixture.decodedWithJWS).payload
        written.migration = MigrationInfo(
            source: "v1/2021.jsonl.gz", line: 12, index: nil, v1NotificationType: "DID_RENEW", ruleId: "did-renew",
            eventTimeInferred: true)
        let text = JSONWriter.string(.object(written.json))
        let read = try record(text)
        #expect(read.payload == written)
        #expect(read.payload.migration?.ruleId == "did-renew")
        #expect(read.payload.migration?.eventTimeInferred == true)
    }

    @Test func historyPageGivesOneRecordPerEntryIndexed() throws {
        let other = V2Fixture.decoded(
            type: "SUBSCRIBED", subtype: "RESUBSCRIBE", uuid: "6f1e2d3c-0000-4000-8000-000000000002",
            data: V2Fixture.data(#""signedTransactionInfo":"\#(V2Fixture.jws(V2Fixture.transaction))""#))
        let page = #"""
            {"notificationHistory":[
              {"sendAttempts":[{"attemptDate":1700000003000,"sendAttemptResult":"SUCCESS"}],"signedPayload":"\#(V2Fixture.jws(V2Fixture.decodedWithJWS))"},
              {"signedPayload":"\#(V2Fixture.jws(other))"},
              {"signedPayload":"\#(V2Fixture.jws(V2Fixture.decoded(type: "TEST", uuid: nil, data: #""bundleId":"com.example.app","environment":"Sandbox""#)))"}
            ],"hasMore":true,"paginationToken":"57715481-805a-4283-8499-1c19b5d6b20a"}
            """#
        let all = outcomes(page)
        let records = all.compactMap(\.record)
        #expect(records.count == 3)
        #expect(records.map(\.location) == (0..<3).map { SourceLocation(path: "v2.jsonl", line: 7, index: $0) })
        #expect(records.map(\.payload.notificationType) == ["DID_RENEW", "SUBSCRIBED", "TEST"])
        #expect(
            records.map(\.payload.notificationUUID) == [
                "6f1e2d3c-0000-4000-8000-000000000001", "6f1e2d3c-0000-4000-8000-000000000002", nil
            ])
    }

    @Test func historyEntryThatIsNotAJWSRejectsOnlyThatEntry() throws {
        let page =
            #"{"notificationHistory":[{"signedPayload":"\#(V2Fixture.jws(V2Fixture.decodedWithJWS))"},{"signedPayload":"signed_payload_two"},{"sendAttempts":[]}],"hasMore":false}"#
        let all = outcomes(page)
        #expect(all.count == 3)
        #expect(all[0].record != nil)
        let second = try #require(all[1].error)
        #expect(second.code == .malformedJWS)
        #expect(
            second.location
                == SourceLocation(path: "v2.jsonl", line: 7, index: 1, key: "notificationHistory[1].signedPayload"))
        #expect(
            second.message.contains(
                "notificationHistory[1].signedPayload is not a compact JWS: it has 1 dot-separated part, not 3"))
        let third = try #require(all[2].error)
        #expect(
            third.message
                == "notificationHistory entry 2 has no signedPayload; each entry must be {\"signedPayload\": \"<JWS>\", …}"
        )
    }

    @Test func nestedJWSWhosePayloadIsNullMeansAbsent() throws {
        let nullJWS = V2Fixture.jws("null")
        #expect(nullJWS.split(separator: ".")[1] == "bnVsbA")
        let text = V2Fixture.decoded(
            type: "DID_FAIL_TO_RENEW",
            data:
                #""bundleId":"com.example.app","environment":"Sandbox","signedTransactionInfo":"\#(V2Fixture.jws(V2Fixture.transaction))","signedRenewalInfo":"\#(nullJWS)""#
        )
        let payload = try record(text).payload
        #expect(payload.data.renewalInfo == nil)
        #expect(payload.data.transactionInfo?.transactionId == "2000000970502538")
    }

    @Test func bareJWSAndJSONStringJWSAreSignedPayloads() throws {
        try expectFixtureFields(try record(V2Fixture.jws(V2Fixture.decodedWithJWS)).payload)
        try expectFixtureFields(try record("\"" + V2Fixture.jws(V2Fixture.decodedWithJWS) + "\"").payload)
    }

    @Test func unknownTypesSubtypesAndEnvironmentsAreKeptRaw() throws {
        let text = V2Fixture.decoded(
            type: "SOMETHING_APPLE_ADDS_LATER", subtype: "NEW_SUBTYPE",
            data: #""bundleId":"com.example.app","environment":"Xcode""#)
        let payload = try record(text).payload
        #expect(payload.notificationType == "SOMETHING_APPLE_ADDS_LATER")
        #expect(payload.subtype == "NEW_SUBTYPE")
        #expect(payload.data.environment == "Xcode")
    }

    @Test func missingUUIDAndSummaryNotificationsAreStillRecords() throws {
        let summary =
            #"{"notificationType":"RENEWAL_EXTENSION","subtype":"SUMMARY","version":"2.0","signedDate":1698148900000,"summary":{"environment":"LocalTesting","bundleId":"com.example","succeededCount":5}}"#
        let payload = try record(summary).payload
        #expect(payload.notificationUUID == nil)
        #expect(payload.subtype == "SUMMARY")
        #expect(payload.data == NotificationData())
    }

    // MARK: - Content digest

    @Test func digestIsEqualForRawAndDecodedFormsOfOneNotification() throws {
        let raw = try record(V2Fixture.rawBody)
        let decoded = try record(V2Fixture.decodedWithJWS)
        let objects = try record(
            V2Fixture.decoded(
                data: V2Fixture.data(
                    #""transactionInfo":\#(V2Fixture.transaction),"renewalInfo":\#(V2Fixture.renewal)"#)))
        #expect(raw.contentDigest.count == 20)
        #expect(raw.contentDigest == decoded.contentDigest)
        #expect(raw.contentDigest == objects.contentDigest)
    }

    @Test func digestDiffersWhenAFieldDiffersAndIgnoresMigration() throws {
        let base = try record(V2Fixture.decodedWithJWS)
        let cheaper = V2Fixture.transaction.replacingOccurrences(of: #""price":9990"#, with: #""price":4990"#)
        let changed = try record(
            V2Fixture.decoded(
                data: V2Fixture.data(
                    #""signedTransactionInfo":"\#(V2Fixture.jws(cheaper))","signedRenewalInfo":"\#(V2Fixture.jws(V2Fixture.renewal))""#
                )))
        #expect(changed.payload.data.transactionInfo?.price == 4990)
        #expect(changed.contentDigest != base.contentDigest)
        var migrated = base.payload
        migrated.migration = MigrationInfo(
            source: "a.json", line: 1, index: nil, v1NotificationType: "DID_RENEW", ruleId: "did-renew")
        #expect(V2Record(payload: migrated, location: at).contentDigest == base.contentDigest)
    }

    // MARK: - Rejects

    @Test(
        arguments: [
            (
                #"{"signedPayload":"abc.def"}"#, ASNError.Code.malformedJWS,
                "signedPayload is not a compact JWS: it has 2 dot-separated parts, not 3 (header.payload.signature)",
                "signedPayload"
            ),
            (
                #"{"signedPayload":"eyJhbGciOiJFUzI1NiJ9.*not*base64*.c2ln"}"#, .malformedJWS,
                "the payload segment of signedPayload is not base64url", "signedPayload"
            ),
            (
                #"{"signedPayload":"\#(V2Fixture.jws("not json"))"}"#, .malformedJWS,
                "the payload segment of signedPayload is not JSON", "signedPayload"
            ),
            (
                #"{"signedPayload":"\#(V2Fixture.jws("[1,2]"))"}"#, .notAnObject,
                "the payload of signedPayload is an array, not a JSON object", "signedPayload"
            ),
            (
                #"{"signedPayload":"\#(V2Fixture.jws("null"))"}"#, .notAnObject,
                "the payload of signedPayload is null, not a JSON object", "signedPayload"
            ),
            (
                #"{"signedPayload":"\#(V2Fixture.jws(V2Fixture.transaction))"}"#, .missingNotificationType,
                "the payload of signedPayload has no notificationType (it looks like a transaction or renewal info, not a notification)",
                "notificationType"
            ),
            (
                #"{"signedPayload":42}"#, .malformedJWS, "signedPayload is the number 42, not a JWS string",
                "signedPayload"
            ),
            (
                #"{"notificationType":5,"data":{}}"#, .missingNotificationType,
                "notificationType is the number 5, not a notification type name", "notificationType"
            ),
            (
                #"{"notificationType":"","data":{}}"#, .missingNotificationType,
                "notificationType is the string \"\", not a notification type name", "notificationType"
            ),
            (
                #"{"notificationType":"DID_RENEW","data":"x"}"#, .wrongFieldType,
                "data is the string \"x\", not an object", "data"
            ),
            (
                #"{"notificationType":"DID_RENEW","migration":{"source":"a"}}"#, .wrongFieldType,
                "migration lacks source, v1NotificationType or rule", "migration"
            ),
            (
                #"{"notificationType":"DID_RENEW","data":{"signedTransactionInfo":"signed_transaction_info_value"}}"#,
                .malformedJWS, "data.signedTransactionInfo is not a compact JWS: it has 1 dot-separated part, not 3",
                "data.signedTransactionInfo"
            ),
            (
                #"{"notificationType":"DID_RENEW","data":{"signedRenewalInfo":"a.%%%.c"}}"#, .malformedJWS,
                "the payload segment of data.signedRenewalInfo is not base64url", "data.signedRenewalInfo"
            ),
            (
                #"{"notificationType":"DID_RENEW","data":{"signedRenewalInfo":"\#(V2Fixture.jws("7"))"}}"#,
                .notAnObject, "the payload of data.signedRenewalInfo is the number 7, not a JSON object",
                "data.signedRenewalInfo"
            ),
            (
                #"{"notificationType":"DID_RENEW","data":{"transactionInfo":"\#(V2Fixture.jws(V2Fixture.transaction))"}}"#,
                .wrongFieldType, "not a decoded object", "data.transactionInfo"
            ),
            (
                #"{"notificationType":"DID_RENEW","data":{"signedTransactionInfo":[1]}}"#, .wrongFieldType,
                "data.signedTransactionInfo is an array, not a JWS string or a decoded object",
                "data.signedTransactionInfo"
            ),
            (
                #"{"notificationHistory":{},"hasMore":false}"#, .wrongFieldType,
                "notificationHistory is an object, not an array", "notificationHistory"
            ),
            (
                #"{"originalTransactionId":"1","autoRenewStatus":1}"#, .missingNotificationType,
                "record has no notificationType (it looks like a transaction or renewal info, not a notification); each record must be",
                "notificationType"
            ),
            (
                #"{"appAppleId":1,"bundleId":"b","environment":"Sandbox","data":{}}"#, .missingNotificationType,
                "it looks like an App Store Server API response other than Get Notification History", "notificationType"
            ),
            (
                #"{"hello":"world"}"#, .missingNotificationType, "record has no notificationType (its keys are hello)",
                "notificationType"
            ),
            ("[1,2]", .notAnObject, "record is an array, not a JSON object", nil),
            ("true", .notAnObject, "record is true, not a JSON object", nil),
            (#"{"notificationType":"DID_RENEW""#, .malformedJSON, "malformed JSON at byte", nil)
        ] as [(String, ASNError.Code, String, String?)])
    func rejectsWithCodeMessageAndKey(input: String, code: ASNError.Code, message: String, key: String?) throws {
        let error = try reject(input)
        #expect(error.code == code)
        #expect(error.message.contains(message), "message was: \(error.message)")
        #expect(error.location?.path == "v2.jsonl")
        #expect(error.location?.line == 7)
        #expect(error.location?.key == key)
    }

    @Test func parsedValueEntryPointLocatesRejects() throws {
        let outcomes = decoder.decode(.array([]), at: SourceLocation(path: "x.json", index: 3))
        let error = try #require(outcomes.first?.error)
        #expect(error.code == .notAnObject)
        #expect(error.location == SourceLocation(path: "x.json", index: 3))
    }
}
