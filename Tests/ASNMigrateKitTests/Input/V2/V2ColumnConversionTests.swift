import Testing

@testable import ASNMigrateKit

/// Column-map format 2: per-column conversions and constants, and the rejects that point at the missing conversion.
@Suite struct V2ColumnConversionTests {
    // MARK: - Helpers

    private func map(_ lines: String) throws(ASNError) -> V2ColumnMap {
        try V2ColumnMap.parse("format 2\nnotificationType | type\n" + lines, path: "team.map")
    }

    /// The object a one-row CSV gives through `map`, or the reject.
    private func row(_ map: V2ColumnMap, header: [String], cells: [String]) -> Result<JSONObject, ASNError> {
        do {
            let binding = try map.bind(header: ["type"] + header, csvPath: "events.csv")
            return .success(try binding.object(of: CSVRecord(fields: ["DID_RENEW"] + cells, line: 2)))
        } catch {
            return .failure(error)
        }
    }

    private func value(_ object: JSONObject, _ path: [String]) -> JSONValue? {
        var current: JSONValue = .object(object)
        for key in path {
            guard case .object(let inner) = current, let next = inner[key] else { return nil }
            current = next
        }
        return current
    }

    // MARK: - Booleans

    @Test(arguments: [
        ("t", true), ("F", false), ("TRUE", true), ("false", false), ("yes", true), ("No", false),
        ("y", true), ("N", false), ("1", true), ("0", false)
    ])
    func booleansInEverySpellingFeedIntegerAndBooleanFields(cell: String, flag: Bool) throws {
        let m = try map(
            "data.renewalInfo.autoRenewStatus | auto_renew | boolean\ndata.transactionInfo.isUpgraded | upgraded | boolean\n"
        )
        let object = try row(m, header: ["auto_renew", "upgraded"], cells: [cell, cell]).get()
        #expect(value(object, ["data", "renewalInfo", "autoRenewStatus"]) == .number(flag ? "1" : "0"))
        #expect(value(object, ["data", "transactionInfo", "isUpgraded"]) == .bool(flag))
    }

    @Test func aBooleanConversionRefusesOtherText() throws {
        let m = try map("data.renewalInfo.autoRenewStatus | auto_renew | boolean\n")
        guard case .failure(let error) = row(m, header: ["auto_renew"], cells: ["maybe"]) else {
            Issue.record("'maybe' is not a boolean")
            return
        }
        #expect(error.code == .wrongFieldType)
        #expect(error.message.contains("holds 'maybe', which is not a boolean"))
        #expect(error.location?.source == "events.csv:2")
    }

    // MARK: - Decimal scaling

    @Test(arguments: [
        ("2.99", "2990"), ("0.5", "500"), ("12", "12000"), ("-1.25", "-1250"), ("+3.000", "3000"),
        (".99", "990"), ("9223372036854775.807", "9223372036854775807")
    ])
    func pricesInCurrencyUnitsBecomeMilliunitsExactly(cell: String, milliunits: String) throws {
        let m = try map("data.transactionInfo.price | price_usd | scale 1000\n")
        let object = try row(m, header: ["price_usd"], cells: [cell]).get()
        #expect(value(object, ["data", "transactionInfo", "price"]) == .number(milliunits))
    }

    @Test(arguments: ["2.9995", "1e3", "1,99", "", "-", "abc", "9223372036854775.808", "2.99 USD"])
    func scalingRefusesWhatIsNotAnExactDecimal(cell: String) {
        #expect(V2ColumnConversion.scaled(cell, by: 1000) == nil)
    }

    // MARK: - Dates

    @Test(arguments: [
        ("2021-01-01 00:00:00 UTC", Int64(1_609_459_200_000)), ("2021-01-01 00:00:00", 1_609_459_200_000),
        ("2021-01-01 00:00:00+00", 1_609_459_200_000), ("2021-01-01 01:00:00+01", 1_609_459_200_000),
        ("2021-01-01 00:00:00.250Z", 1_609_459_200_250), ("2021-01-01T00:00:00Z", 1_609_459_200_000),
        ("2021-01-01 00:00:00 +00:00", 1_609_459_200_000), ("2020-12-31 19:00:00-0500", 1_609_459_200_000),
        ("2021-01-01 00:00:00.5 GMT", 1_609_459_200_500), ("2021-01-01", 1_609_459_200_000)
    ])
    func databaseTimestampFormsAreRead(cell: String, ms: Int64) throws {
        #expect(Timestamp.parseDatabaseText(cell) == ms)
        let withConversion = try map("signedDate | signed_at | date\n")
        #expect(
            value(try row(withConversion, header: ["signed_at"], cells: [cell]).get(), ["signedDate"])
                == .number(String(ms)))
        let withoutConversion = try map("signedDate | signed_at\n")
        #expect(
            value(try row(withoutConversion, header: ["signed_at"], cells: [cell]).get(), ["signedDate"])
                == .number(String(ms)),
            "format 1 date columns read the same forms")
    }

    @Test func epochSecondsAndMillisecondsAreTold() throws {
        let m = try map(
            "signedDate | signed_s | epoch-seconds\ndata.transactionInfo.purchaseDate | bought_ms | epoch-milliseconds\n"
        )
        let object = try row(m, header: ["signed_s", "bought_ms"], cells: ["1609459200.5", "1609459200000"]).get()
        #expect(value(object, ["signedDate"]) == .number("1609459200500"))
        #expect(value(object, ["data", "transactionInfo", "purchaseDate"]) == .number("1609459200000"))
    }

    // MARK: - Constants

    @Test func aConstantFillsAFieldTheTableDoesNotHold() throws {
        let m = try map("data.environment = Production\nversion = 2.0\ndata.status = 1\n")
        let object = try row(m, header: [], cells: []).get()
        #expect(value(object, ["data", "environment"]) == .string("Production"))
        #expect(value(object, ["version"]) == .string("2.0"))
        #expect(value(object, ["data", "status"]) == .number("1"))
    }

    // MARK: - Loading

    @Test(
        arguments: [
            ("data.status | status | wizardry\n", 3, "unknown conversion 'wizardry'; conversions are boolean, scale N"),
            ("data.status | status | scale 0\n", 3, "unknown conversion 'scale 0'"),
            (
                "data.bundleId | bundle | boolean\n", 3,
                "conversion 'boolean' does not fit 'data.bundleId' (text); it is for boolean or integer fields"
            ),
            ("signedDate | s | scale 1000\n", 3, "it is for integer fields"),
            ("data.status = active\n", 3, "the constant 'active' for 'data.status' is not a whole number"),
            (
                "data.status | a | b | c\n", 3,
                "a mapping line is 'V2 FIELD | CSV COLUMN', 'V2 FIELD | CSV COLUMN | CONVERSION' or 'V2 FIELD = VALUE'"
            )
        ] as [(String, Int, String)])
    func badConversionLinesAreRefusedWithFileAndLine(text: String, line: Int, message: String) {
        do {
            _ = try map(text)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.code == .badMapping)
            #expect(error.location?.line == line)
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test func formatOneRefusesConversionsAndConstants() {
        #expect(throws: ASNError.self) {
            try V2ColumnMap.parse("format 1\nnotificationType | t\ndata.status | s | scale 1000\n", path: "m")
        }
        #expect(throws: ASNError.self) {
            try V2ColumnMap.parse("format 1\nnotificationType | t\ndata.environment = Production\n", path: "m")
        }
    }

    // MARK: - Rejects that say what to add

    @Test func aBooleanInAnIntegerColumnSuggestsTheConversionAndGroupsByColumn() throws {
        let m = try map("data.renewalInfo.autoRenewStatus | auto_renew\n")
        var keys: Set<String> = []
        for cell in ["t", "f"] {
            guard case .failure(let error) = row(m, header: ["auto_renew"], cells: [cell]) else {
                Issue.record("'\(cell)' is not a whole number")
                return
            }
            #expect(error.message.contains("holds '\(cell)', which is not a whole number; add a boolean conversion"))
            #expect(error.message.contains("'data.renewalInfo.autoRenewStatus | auto_renew | boolean'"))
            keys.insert(error.causeKey)
        }
        #expect(keys.count == 1, "rows failing for the same reason share one cause whatever the cell")
    }

    @Test func aDollarPriceSuggestsScaling() throws {
        let m = try map("data.transactionInfo.price | price\n")
        guard case .failure(let error) = row(m, header: ["price"], cells: ["2.99"]) else {
            Issue.record("'2.99' is not a whole number")
            return
        }
        #expect(error.message.contains("add a scale 1000 conversion"))
    }
}
