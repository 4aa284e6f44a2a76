import Testing

@testable import ASNMigrateKit

/// Unwrapping archived records: raw bodies, bodies under each envelope key (as objects or escaped strings),
/// receive times in every accepted form, and the rejects for envelopes that cannot be read.
@Suite struct EnvelopeTests {
    /// A minimal V1 body.
    static let body = #"{"notification_type":"DID_RENEW","environment":"PROD","bid":"com.example.app"}"#
    /// 2021-08-01T12:00:01Z in epoch milliseconds, written out so the parser is checked against a fixed value.
    static let instantMs: Int64 = 1_627_819_201_000
    /// The envelope keys the issue names for bodies.
    static let bodyKeys = ["body", "payload", "notification", "data"]
    /// The envelope keys the issue names for receive times.
    static let timeKeys = ["received_at", "receivedAt", "timestamp", "time"]

    /// Unwraps a record given as JSON text.
    static func unwrap(_ text: String) throws(ASNError) -> Envelope.Unwrapped {
        let parser = JSONParser()
        let value = try parser.parse(text)
        return try Envelope.unwrap(value, parser: parser, location: SourceLocation(path: "archive.jsonl", line: 7))
    }

    /// The error thrown when unwrapping `text`, or nil when it unwraps.
    static func failure(_ text: String) -> ASNError? {
        do {
            _ = try unwrap(text)
            return nil
        } catch {
            return error
        }
    }

    /// A JSON string literal holding `text`, escaped as log pipelines store it.
    static func escaped(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    // MARK: - Bodies

    /// Raw body is taken as is without receive time.
    @Test func rawBodyIsTakenAsIsWithoutReceiveTime() throws {
        let unwrapped = try Self.unwrap(Self.body)
        #expect(unwrapped.body["notification_type"]?.stringValue == "DID_RENEW")
        #expect(unwrapped.receivedAt == nil)
    }

    /// Raw body wins over envelope looking keys.
    @Test func rawBodyWinsOverEnvelopeLookingKeys() throws {
        // A V1 body that happens to carry a "data" key is still the body itself.
        let unwrapped = try Self.unwrap(#"{"notification_type":"CANCEL","data":{"notification_type":"DID_RENEW"}}"#)
        #expect(unwrapped.body["notification_type"]?.stringValue == "CANCEL")
    }

    /// Body under each key as an object.
    @Test(arguments: bodyKeys)
    func bodyUnderEachKeyAsAnObject(key: String) throws {
        let unwrapped = try Self.unwrap(#"{"id":"evt-1","\#(key)":\#(Self.body)}"#)
        #expect(unwrapped.body["notification_type"]?.stringValue == "DID_RENEW")
        #expect(unwrapped.body["bid"]?.stringValue == "com.example.app")
    }

    /// Body under each key as an escaped string.
    @Test(arguments: bodyKeys)
    func bodyUnderEachKeyAsAnEscapedString(key: String) throws {
        let unwrapped = try Self.unwrap(#"{"id":"evt-1","\#(key)":\#(Self.escaped(Self.body))}"#)
        #expect(unwrapped.body["notification_type"]?.stringValue == "DID_RENEW")
        #expect(unwrapped.body["environment"]?.stringValue == "PROD")
    }

    /// Nested envelope is unwrapped and the outer receive time kept.
    @Test func nestedEnvelopeIsUnwrappedAndTheOuterReceiveTimeKept() throws {
        let inner = #"{"received_at":"2030-01-01T00:00:00Z","payload":\#(Self.escaped(Self.body))}"#
        let unwrapped = try Self.unwrap(#"{"messageId":"q-1","timestamp":1627819201,"data":\#(inner)}"#)
        #expect(unwrapped.body["notification_type"]?.stringValue == "DID_RENEW")
        #expect(unwrapped.receivedAt == Self.instantMs)
    }

    /// Nested envelope takes the inner receive time when the outer has none.
    @Test func nestedEnvelopeTakesTheInnerReceiveTimeWhenTheOuterHasNone() throws {
        let inner = #"{"received_at":"2021-08-01T12:00:01Z","body":\#(Self.body)}"#
        let unwrapped = try Self.unwrap(#"{"data":\#(Self.escaped(inner))}"#)
        #expect(unwrapped.body["notification_type"]?.stringValue == "DID_RENEW")
        #expect(unwrapped.receivedAt == Self.instantMs)
    }

    /// Envelope without a body is rejected as missing notification type.
    @Test func envelopeWithoutABodyIsRejectedAsMissingNotificationType() throws {
        let error = try #require(Self.failure(#"{"received_at":"2021-08-01T12:00:01Z","message":"hello"}"#))
        #expect(error.code == .missingNotificationType)
        #expect(error.location?.line == 7)
    }

    /// String body that is not JSON is rejected naming the key.
    @Test func stringBodyThatIsNotJSONIsRejectedNamingTheKey() throws {
        let error = try #require(Self.failure(#"{"payload":"{\"notification_type\":\"DID_RE"}"#))
        #expect(error.code == .malformedJSON)
        #expect(error.location?.key == "payload")
        #expect(error.message.contains("payload"))
    }

    /// String body that is not an object is rejected naming the key.
    @Test func stringBodyThatIsNotAnObjectIsRejectedNamingTheKey() throws {
        let error = try #require(Self.failure(#"{"body":"[1,2,3]"}"#))
        #expect(error.code == .notAnObject)
        #expect(error.location?.key == "body")
    }

    /// Record that is not an object is rejected.
    @Test func recordThatIsNotAnObjectIsRejected() throws {
        let error = try #require(Self.failure(#"["DID_RENEW"]"#))
        #expect(error.code == .notAnObject)
        #expect(error.location?.path == "archive.jsonl")
    }

    // MARK: - Receive times

    /// One spelling of the instant 2021-08-01T12:00:01Z as an envelope might store it.
    static let timeSpellings: [String] = [
        "1627819201000", "\"1627819201000\"", // milliseconds, number and string
        "1627819201", "\"1627819201\"", // seconds, number and string
        "\"2021-08-01T12:00:01Z\"", "\"2021-08-01T14:00:01+02:00\"", "\"2021-08-01T12:00:01.000Z\"" // ISO 8601
    ]

    /// Receive time under each key in each form.
    @Test(arguments: timeKeys, timeSpellings)
    func receiveTimeUnderEachKeyInEachForm(key: String, spelling: String) throws {
        let unwrapped = try Self.unwrap(#"{"\#(key)":\#(spelling),"body":\#(Self.body)}"#)
        #expect(unwrapped.receivedAt == Self.instantMs)
    }

    /// Receive time keeps milliseconds.
    @Test func receiveTimeKeepsMilliseconds() throws {
        let unwrapped = try Self.unwrap(#"{"time":"2021-08-01T12:00:01.250Z","body":\#(Self.body)}"#)
        #expect(unwrapped.receivedAt == Self.instantMs + 250)
    }

    /// First receive time key in order wins and null is skipped.
    @Test func firstReceiveTimeKeyInOrderWinsAndNullIsSkipped() throws {
        let unwrapped = try Self.unwrap(#"{"time":1,"timestamp":1627819201,"received_at":null,"body":\#(Self.body)}"#)
        #expect(unwrapped.receivedAt == Self.instantMs)
    }

    /// Bad receive time is rejected naming the key.
    @Test(arguments: timeKeys, ["\"yesterday\"", "true", "{\"ms\":1}", "\"2021-13-01T00:00:00Z\"", "1.5e12"])
    func badReceiveTimeIsRejectedNamingTheKey(key: String, spelling: String) throws {
        let error = try #require(Self.failure(#"{"\#(key)":\#(spelling),"body":\#(Self.body)}"#))
        #expect(error.code == .wrongFieldType)
        #expect(error.location?.key == key)
        #expect(error.message.contains("'\(key)'"))
        #expect(error.location?.line == 7)
    }

    /// Bad receive time becomes a reject row through the mapper.
    @Test func badReceiveTimeBecomesARejectRowThroughTheMapper() throws {
        let record = #"{"received_at":"yesterday","body":\#(V1Fixture.body(type: "DID_RENEW", transactions: []))}"#
        let outcome = try V1Fixture.map(record, path: "feed.jsonl")
        let error = try #require(outcome.rejection)
        let row = MigrationOutput.rejectRow(error)
        #expect(row[0] == "v1")
        #expect(row[1] == "feed.jsonl")
        #expect(row[2] == "1")
        #expect(row[3].hasPrefix("wrong_field_type:"))
        #expect(row[3].contains("received_at"))
    }
}
