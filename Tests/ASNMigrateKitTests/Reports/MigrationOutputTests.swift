import Foundation
import Testing

@testable import ASNMigrateKit

/// `migrate` output rendering: JSON lines, the flat CSV columns, and rejects rows.
@Suite struct MigrationOutputTests {
    private typealias F = V1Fixture

    /// A migrated payload with transaction and renewal info, an offer code and a grace period.
    static func richPayload() throws -> ResponseBodyV2DecodedPayload {
        let body = F.body(
            type: "DID_FAIL_TO_RENEW",
            transactions: [
                F.tx(id: "1000000001", purchase: "2021-01-01T00:00:00Z", expires: "2021-02-01T00:00:00Z"),
                F.tx(
                    id: "1000000002", purchase: "2021-02-01T00:00:05Z", expires: "2021-03-01T00:00:05Z",
                    extra: ["offer_code_ref_name": "SPRING"])
            ],
            pending: [
                F.pending(extra: [
                    "is_in_billing_retry_period": "1", "expiration_intent": "2",
                    "grace_period_expires_date_ms": String(F.ms("2021-03-17T00:00:05Z"))
                ])
            ])
        return try #require(try F.map(body, path: "in/archive.jsonl").payload)
    }

    /// The value of one CSV column of a row.
    static func cell(_ row: [String], _ column: String) -> String? {
        MigrationOutput.csvColumns.firstIndex(of: column).map { row[$0] }
    }

    /// Every leaf key path of a JSON object, dotted.
    static func leafPaths(_ object: JSONObject, prefix: String = "") -> [String] {
        object.members.flatMap { member -> [String] in
            if case .object(let inner) = member.value { return leafPaths(inner, prefix: prefix + member.key + ".") }
            return [prefix + member.key]
        }
    }

    /// CSV columns are unique and start with the notification fields.
    @Test func csvColumnsAreUniqueAndStartWithTheNotificationFields() {
        let columns = MigrationOutput.csvColumns
        #expect(Set(columns).count == columns.count)
        #expect(
            Array(columns.prefix(5)) == ["notificationType", "subtype", "notificationUUID", "version", "signedDate"])
        #expect(MigrationOutput.rejectColumns == ["side", "source", "line", "reason"])
    }

    /// CSV row puts each value in its column with dates as ISO.
    @Test func csvRowPutsEachValueInItsColumnWithDatesAsISO() throws {
        let payload = try Self.richPayload()
        let row = MigrationOutput.csvRow(payload)
        #expect(row.count == MigrationOutput.csvColumns.count)
        #expect(Self.cell(row, "notificationType") == "DID_FAIL_TO_RENEW")
        #expect(Self.cell(row, "subtype") == "GRACE_PERIOD")
        #expect(Self.cell(row, "signedDate") == "2021-03-01T00:00:05.000Z")
        #expect(Self.cell(row, "data.environment") == "Production")
        #expect(Self.cell(row, "data.status") == "4")
        #expect(Self.cell(row, "data.transactionInfo.transactionId") == "1000000002")
        #expect(Self.cell(row, "data.transactionInfo.purchaseDate") == "2021-02-01T00:00:05.000Z")
        #expect(Self.cell(row, "data.transactionInfo.offerType") == "3")
        #expect(Self.cell(row, "data.transactionInfo.offerIdentifier") == "SPRING")
        #expect(Self.cell(row, "data.renewalInfo.isInBillingRetryPeriod") == "true")
        #expect(Self.cell(row, "data.renewalInfo.gracePeriodExpiresDate") == "2021-03-17T00:00:05.000Z")
        #expect(Self.cell(row, "migration.source") == "in/archive.jsonl")
        #expect(Self.cell(row, "migration.line") == "1")
        #expect(Self.cell(row, "migration.rule") == "fail-grace-period")
        // Absent values are empty cells, never "null".
        #expect(Self.cell(row, "data.transactionInfo.revocationDate") == "")
        #expect(!row.contains("null"))
    }

    /// Every field of the sample output has ACSV column.
    @Test func everyFieldOfTheSampleOutputHasACSVColumn() throws {
        // Every leaf the JSON Lines output carries for the sample data must also reach the CSV.
        let golden = try PackagePaths.read("Tests/Fixtures/sample/expected/migrate.jsonl")
        var leaves: Set<String> = []
        for line in golden.split(separator: 0x0A) {
            let object = try #require(try JSONParser().parse(Array(line)).objectValue)
            leaves.formUnion(Self.leafPaths(object))
        }
        leaves.formUnion(Self.leafPaths(try Self.richPayload().json))
        #expect(leaves.count > 40, "the sample should exercise most fields")
        let missing = leaves.subtracting(MigrationOutput.csvColumns)
        #expect(missing.isEmpty, "fields with no CSV column: \(missing.sorted())")
    }

    /// JSON line is one compact line.
    @Test func jsonLineIsOneCompactLine() throws {
        var out: [UInt8] = []
        MigrationOutput.appendJSONLine(try Self.richPayload(), to: &out)
        #expect(out.last == 0x0A)
        #expect(out.filter { $0 == 0x0A }.count == 1)
        let parsed = try JSONParser().parse(Array(out.dropLast()))
        #expect(parsed.objectValue?["version"]?.stringValue == "2.0")
    }

    /// Reject rows name source line and reason.
    @Test func rejectRowsNameSourceLineAndReason() {
        let located = ASNError(
            .wrongFieldType, "bad value", at: SourceLocation(path: "a.jsonl", line: 3, key: "received_at"), cause: "why"
        )
        #expect(
            MigrationOutput.rejectRow(located) == [
                "v1", "a.jsonl", "3", "wrong_field_type: bad value [key received_at] (why)"
            ])
        let indexed = ASNError(.notAnObject, "not an object", at: SourceLocation(path: "a.json", index: 4))
        #expect(MigrationOutput.rejectRow(indexed) == ["v1", "a.json[4]", "", "not_an_object: not an object"])
    }
}
