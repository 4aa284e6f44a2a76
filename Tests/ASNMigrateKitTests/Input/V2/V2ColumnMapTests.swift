import Foundation
import Testing

@testable import ASNMigrateKit

@Suite struct V2ColumnMapTests {
    // MARK: - Helpers

    /// The repository's `Mappings/` folder, found from this file.
    private static let mappingsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "Mappings")

    private func parseError(_ text: String) -> ASNError? {
        do {
            _ = try V2ColumnMap.parse(text, path: "team.map")
            return nil
        } catch {
            return error
        }
    }

    private static let smallMap = """
        format 1
        notificationType                         | type
        notificationUUID                         | uuid
        signedDate                               | signed_at
        data.environment                         | env
        data.transactionInfo.originalTransactionId | otid
        data.transactionInfo.isUpgraded          | upgraded
        data.transactionInfo.price               | price
        data.renewalInfo.autoRenewStatus         | auto_renew
        """

    // MARK: - Loading

    @Test func exampleMapLoadsAndNamesTheUsualColumns() throws {
        let path = Self.mappingsDirectory.appendingPathComponent("v2-columns.example.map").path
        let map = try V2ColumnMap.load(path: path)
        #expect(map.path == path)
        #expect(map.entries.first?.field.path == "notificationType")
        #expect(map.entries.first?.column == "notification_type")
        #expect(
            map.entries.contains {
                $0.field.path == "data.transactionInfo.originalTransactionId" && $0.column == "original_transaction_id"
            })
        #expect(map.entries.allSatisfy { $0.line > 1 })
    }

    @Test func everyFieldOfBothModelsCanBeMapped() {
        func labels(_ value: Any) -> [String] { Mirror(reflecting: value).children.compactMap(\.label) }
        let paths = V2ColumnMap.fields.map(\.path)
        let transaction = labels(JWSTransactionDecodedPayload()).map { "data.transactionInfo." + $0 }
        let renewal = labels(JWSRenewalInfoDecodedPayload()).map { "data.renewalInfo." + $0 }
        #expect(transaction.count == 25)
        #expect(renewal.count == 18)
        #expect(paths.filter { $0.hasPrefix("data.transactionInfo.") } == transaction)
        #expect(paths.filter { $0.hasPrefix("data.renewalInfo.") } == renewal)
        #expect(Set(paths).count == paths.count)
    }

    @Test func commentsBlankLinesAndSpacingAreIgnored() throws {
        let map = try V2ColumnMap.parse(
            "# team table\n\n  format 1  \r\n# fields\nnotificationType|t\r\n  data.status |  the status  \n",
            path: "team.map")
        #expect(map.entries.map(\.column) == ["t", "the status"])
        #expect(map.entries.map(\.line) == [5, 6])
        #expect(map.entries.map(\.field.kind) == [.text, .integer])
    }

    @Test func signedPayloadAloneIsEnough() throws {
        let map = try V2ColumnMap.parse("format 1\nsignedPayload | raw_signed_payload\n", path: "team.map")
        #expect(map.entries.map(\.field.kind) == [.jws])
    }

    @Test(
        arguments: [
            (
                "format 3\nnotificationType | t\n", 1,
                "format 3 is newer than this asn-migrate supports (up to 2); upgrade asn-migrate"
            ),
            ("notificationType | t\n", 1, "the file must start with 'format 1', not 'notificationType | t'"),
            ("format one\n", 1, "the file must start with 'format 1', not 'format one'"),
            (
                "format 1\n# x\nnotificationType | t\nnotificationTyp | u\n", 4,
                "unknown V2 field 'notificationTyp'; did you mean 'notificationType'?"
            ),
            (
                "format 1\nnotificationType | t\ndata.transactionInfo.purchaseDat | p\n", 3,
                "did you mean 'data.transactionInfo.purchaseDate'?"
            ),
            (
                "format 1\nnotificationType | t\ndata.renewalInfo.wizardry | w\n", 3,
                "unknown V2 field 'data.renewalInfo.wizardry'; fields are notificationType"
            ),
            (
                "format 1\nnotificationType | t\nsubtype | s\n\nnotificationType | t2\n", 5,
                "V2 field 'notificationType' is already mapped on line 2; map each field once"
            ),
            (
                "format 1\nnotificationType | t | extra\n", 2,
                "a mapping line is 'V2 FIELD | CSV COLUMN', not 'notificationType | t | extra'"
            ),
            ("format 1\nnotificationType |\n", 2, "a mapping line is 'V2 FIELD | CSV COLUMN'")
        ] as [(String, Int, String)])
    func invalidMapsAreRefusedWithFileAndLine(text: String, line: Int, message: String) throws {
        let error = try #require(parseError(text))
        #expect(error.code == .badMapping)
        #expect(error.location == SourceLocation(path: "team.map", line: line))
        #expect(error.message.contains(message), "message was: \(error.message)")
    }

    @Test func mapsWithoutNotificationTypeOrFormatAreRefusedNamingTheFile() throws {
        let missingType = try #require(parseError("format 1\nsubtype | s\n"))
        #expect(missingType.code == .badMapping)
        #expect(missingType.location == SourceLocation(path: "team.map"))
        #expect(
            missingType.message.hasPrefix(
                "no column is mapped to notificationType; add a line such as 'notificationType | notification_type'"))
        let empty = try #require(parseError("# nothing\n"))
        #expect(empty.message == "no 'format 1' line; is this an asn-migrate column-map file?")
    }

    @Test func unreadableMapFileIsABadMapping() {
        #expect(
            throws: ASNError(
                .badMapping,
                "cannot read column-map file '/nonexistent/team.map'; check the path given to --v2-columns",
                at: SourceLocation(path: "/nonexistent/team.map"))
        ) {
            _ = try V2ColumnMap.load(path: "/nonexistent/team.map")
        }
    }

    // MARK: - Binding to a header

    @Test func missingColumnsAreNamedWithTheMapLineAndTheCSVFile() throws {
        let map = try V2ColumnMap.parse(Self.smallMap, path: "team.map")
        do {
            _ = try map.bind(
                header: ["type", "uuid", "signed_at", "env", "otid", "price", "auto_renew"], csvPath: "v2.csv")
            Issue.record("binding should fail")
        } catch {
            #expect(error.code == .malformedCSV)
            #expect(error.location == SourceLocation(path: "v2.csv", line: 1))
            #expect(
                error.message.hasPrefix(
                    "mapped column 'upgraded' (data.transactionInfo.isUpgraded, team.map:7) not in the header of 'v2.csv', whose columns are 'type', 'uuid'"
                ))
        }
    }

    // MARK: - Rows

    @Test func rowBecomesANestedTypedObject() throws {
        let binding = try V2ColumnMap.parse(Self.smallMap, path: "team.map")
            .bind(
                header: ["price", "type", "uuid", "signed_at", "env", "otid", "upgraded", "auto_renew", "ignored"],
                csvPath: "v2.csv")
        let row = CSVRecord(
            fields: ["9990", "DID_RENEW", "", "2023-11-14 22:13:20+00", "Sandbox", "9007199254740993", "t", "1", "x"],
            line: 4)
        let object = try binding.object(of: row)
        #expect(
            JSONWriter.string(.object(object))
                == #"{"notificationType":"DID_RENEW","signedDate":1700000000000,"data":{"environment":"Sandbox","transactionInfo":{"originalTransactionId":"9007199254740993","isUpgraded":true,"price":9990},"renewalInfo":{"autoRenewStatus":1}}}"#
        )
    }

    @Test func badCellRejectsTheRowNamingTheColumnAndLine() throws {
        let binding = try V2ColumnMap.parse(Self.smallMap, path: "team.map")
            .bind(
                header: ["type", "uuid", "signed_at", "env", "otid", "upgraded", "price", "auto_renew"],
                csvPath: "v2.csv")
        do {
            _ = try binding.object(
                of: CSVRecord(fields: ["DID_RENEW", "", "", "", "9.007199254740993e15", "", "", ""], line: 12))
            Issue.record("the row should be rejected")
        } catch {
            #expect(error.code == .wrongFieldType)
            #expect(error.location == SourceLocation(path: "v2.csv", line: 12, key: "otid"))
            #expect(
                error.message
                    == "column 'otid' (data.transactionInfo.originalTransactionId) holds '9.007199254740993e15', which is not an ID of digits; export ID columns as text or bigint so no digit is lost"
            )
        }
    }

    @Test func emptyNotificationTypeCellRejectsTheRow() throws {
        let binding = try V2ColumnMap.parse(Self.smallMap, path: "team.map")
            .bind(
                header: ["type", "uuid", "signed_at", "env", "otid", "upgraded", "price", "auto_renew"],
                csvPath: "v2.csv")
        do {
            _ = try binding.object(of: CSVRecord(fields: ["", "u", "", "", "", "", "", ""], line: 3))
            Issue.record("the row should be rejected")
        } catch {
            #expect(error.code == .missingNotificationType)
            #expect(error.location == SourceLocation(path: "v2.csv", line: 3))
            #expect(error.message == "row has no notification type: column 'type' (notificationType) is empty")
        }
    }

    @Test func nonEmptySignedPayloadCellIsTheWholeRow() throws {
        let binding = try V2ColumnMap.parse("format 1\nnotificationType | t\nsignedPayload | raw\n", path: "m")
            .bind(header: ["t", "raw"], csvPath: "v2.csv")
        #expect(
            try binding.object(of: CSVRecord(fields: ["TEST", "a.b.c"], line: 2))
                == JSONObject([.init(key: "signedPayload", value: .string("a.b.c"))]))
        #expect(try binding.object(of: CSVRecord(fields: ["TEST", ""], line: 3))["notificationType"] == .string("TEST"))
    }

    // MARK: - Cells

    @Test(
        arguments: [
            ("t", V2ColumnMap.Kind.boolean, JSONValue.bool(true)), ("f", .boolean, .bool(false)),
            ("TRUE", .boolean, .bool(true)),
            ("false", .boolean, .bool(false)), ("1", .boolean, .bool(true)), ("0", .boolean, .bool(false)),
            ("1700000000000", .date, .number("1700000000000")),
            ("2023-11-14T22:13:20Z", .date, .number("1700000000000")),
            ("2023-11-14T22:13:20.123Z", .date, .number("1700000000123")),
            ("2023-11-14 22:13:20+00", .date, .number("1700000000000")),
            ("2023-11-14 23:13:20.5+01", .date, .number("1700000000500")),
            ("2023-11-14 17:13:20-05", .date, .number("1700000000000")),
            ("2023-11-14 22:13:20", .date, .number("1700000000000")),
            ("2023-11-14 22:13:20.123456+00:00", .date, .number("1700000000123")),
            ("18446744073709551615", .identifier, .string("18446744073709551615")),
            (" 42 ", .identifier, .string("42")),
            ("-3", .integer, .number("-3")), ("9990", .integer, .number("9990")),
            (" a, \"quoted\" text ", .text, .string(" a, \"quoted\" text "))
        ] as [(String, V2ColumnMap.Kind, JSONValue)])
    func cellsAreReadByKind(cell: String, kind: V2ColumnMap.Kind, expected: JSONValue) {
        #expect(V2ColumnMap.value(cell, kind: kind) == expected)
    }

    @Test(
        arguments: [
            ("maybe", V2ColumnMap.Kind.boolean), ("tru", .boolean), ("yesterday", .date), ("2023-13-01", .date),
            ("2023-11-14 22:13", .date), ("12a", .identifier), ("1e3", .identifier), ("-5", .identifier),
            ("1.0", .integer), ("ten", .integer), ("99999999999999999999", .integer)
        ] as [(String, V2ColumnMap.Kind)])
    func unreadableCellsGiveNil(cell: String, kind: V2ColumnMap.Kind) {
        #expect(V2ColumnMap.value(cell, kind: kind) == nil)
    }
}
