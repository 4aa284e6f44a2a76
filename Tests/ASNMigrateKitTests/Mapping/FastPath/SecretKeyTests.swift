import Testing

@testable import ASNMigrateKit

/// The fast path skips exactly `Envelope.secretKeys`, as the reference parser does, wherever they stand.
@Suite struct SecretKeyTests {
    @Test(arguments: Envelope.secretKeys.sorted())
    func fastPathAndReferenceAgreeWithEverySecretKey(key: String) throws {
        let table = try MappingTable.builtIn()
        let body = V1Fixture.body(
            type: "DID_RENEW",
            transactions: [
                V1Fixture.tx(id: "1000000001", purchase: "2021-01-01T00:00:00Z", expires: "2021-02-01T00:00:00Z")
            ])
        let withSecrets =
            "{\"\(key)\":\"top-secret-value\","
            + body.dropFirst()
            .replacingOccurrences(
                of: "\"unified_receipt\":{", with: "\"unified_receipt\":{\"\(key)\":\"nested-secret-value\",")
        let record = RawRecord(location: SourceLocation(path: "s.jsonl", line: 1), bytes: Array(withSecrets.utf8))
        let fast = FastRecordMapper(table: table).map(record)
        let reference = V1RecordMapper(table: table).map(record)
        #expect(fast == reference)
        // The secret changes nothing: same UUID as without it.
        let plain = V1RecordMapper(table: table).map(RawRecord(location: record.location, bytes: Array(body.utf8)))
        #expect(fast.payload?.notificationUUID == plain.payload?.notificationUUID)
    }
}
