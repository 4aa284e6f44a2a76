import Foundation
import Testing

@testable import ASNMigrateKit

@Suite struct V2RecordReaderTests {
    // MARK: - Helpers

    private static let map = """
        format 1
        notificationType                           | notification_type
        subtype                                    | subtype
        notificationUUID                           | notification_uuid
        signedDate                                 | signed_at
        data.environment                           | environment
        data.transactionInfo.transactionId         | transaction_id
        data.transactionInfo.originalTransactionId | original_transaction_id
        data.transactionInfo.productId             | product_id
        data.transactionInfo.expiresDate           | expires_date
        data.transactionInfo.isUpgraded            | is_upgraded
        data.renewalInfo.autoRenewStatus           | auto_renew_status
        """

    /// A psql-style export: t/f booleans, ISO and ms dates, NULLs as empty cells, a quoted cell with a comma and a
    /// line break, an ID above 2^53, a bad boolean on line 6 and a row after it.
    private static let csv = """
        notification_uuid,notification_type,subtype,signed_at,environment,transaction_id,original_transaction_id,product_id,expires_date,is_upgraded,auto_renew_status,received_at
        6f1e2d3c-0000-4000-8000-000000000001,DID_RENEW,,2023-11-14 22:13:20.123+00,Production,2000000970502538,9007199254740993,pro.monthly,1702592000000,f,1,2023-11-14 22:13:21+00
        6f1e2d3c-0000-4000-8000-000000000002,DID_CHANGE_RENEWAL_PREF,UPGRADE,2023-11-15T08:00:00Z,Sandbox,,,"pro, yearly
        (legacy)",2024-11-15T08:00:00Z,t,,
        6f1e2d3c-0000-4000-8000-000000000003,SOMETHING_NEW,,1700000000000,LocalTesting,,,,,,,
        6f1e2d3c-0000-4000-8000-000000000004,REFUND,,1700000000000,Production,1,1,x,,maybe,,
        6f1e2d3c-0000-4000-8000-000000000005,TEST,,,Xcode,,,,,,,

        """

    private func read(_ paths: [String], map: V2ColumnMap? = nil, chunkSize: Int = 1 << 20) throws -> [V2ReadOutcome] {
        var outcomes: [V2ReadOutcome] = []
        try V2RecordReader(columnMap: map, chunkSize: chunkSize).read(paths.map { InputFile(path: $0) }) {
            outcomes.append($0)
        }
        return outcomes
    }

    private func withDirectory<T>(_ body: (TemporaryDirectory) throws -> T) throws -> T {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        return try body(directory)
    }

    /// Checks the outcomes of `csv`, read from `path`.
    private func expectCSVOutcomes(_ outcomes: [V2ReadOutcome], path: String) throws {
        try #require(outcomes.count == 5)
        let records = outcomes.compactMap(\.record)
        #expect(records.map(\.location) == [2, 3, 5, 7].map { SourceLocation(path: path, line: $0) })
        #expect(
            records.map(\.payload.notificationType) == ["DID_RENEW", "DID_CHANGE_RENEWAL_PREF", "SOMETHING_NEW", "TEST"]
        )
        #expect(records.map(\.payload.signedDate) == [1_700_000_000_123, 1_700_035_200_000, 1_700_000_000_000, nil])
        #expect(records.map(\.payload.data.environment) == ["Production", "Sandbox", "LocalTesting", "Xcode"])
        let first = try #require(records.first?.payload)
        #expect(first.subtype == nil)
        #expect(first.data.transactionInfo?.originalTransactionId == "9007199254740993")
        #expect(first.data.transactionInfo?.transactionId == "2000000970502538")
        #expect(first.data.transactionInfo?.isUpgraded == false)
        #expect(first.data.transactionInfo?.expiresDate == 1_702_592_000_000)
        #expect(first.data.renewalInfo?.autoRenewStatus == 1)
        let second = records[1].payload
        #expect(second.subtype == "UPGRADE")
        #expect(second.data.transactionInfo?.productId == "pro, yearly\n(legacy)")
        #expect(second.data.transactionInfo?.isUpgraded == true)
        #expect(second.data.renewalInfo == nil)
        #expect(records[3].payload.data.transactionInfo == nil)
        let reject = try #require(outcomes[3].error)
        #expect(reject.code == .wrongFieldType)
        #expect(reject.location == SourceLocation(path: path, line: 6, key: "is_upgraded"))
        #expect(
            reject.message
                == "column 'is_upgraded' (data.transactionInfo.isUpgraded) holds 'maybe', which is not a boolean (true/false, t/f, yes/no, y/n or 1/0)"
        )
    }

    // MARK: - CSV

    @Test(arguments: [1, 7, 1 << 20])
    func csvExportIsReadThroughTheColumnMap(chunkSize: Int) throws {
        try withDirectory { directory in
            let path = try directory.write("v2.csv", Self.csv)
            let map = try V2ColumnMap.parse(Self.map, path: "team.map")
            try expectCSVOutcomes(try read([path], map: map, chunkSize: chunkSize), path: path)
        }
    }

    @Test func gzippedCSVExportIsReadToo() throws {
        try withDirectory { directory in
            let path = try directory.writeGzip("v2.CSV.gz", Array(Self.csv.utf8))
            let map = try V2ColumnMap.parse(Self.map, path: "team.map")
            try expectCSVOutcomes(try read([path], map: map, chunkSize: 64), path: path)
        }
    }

    @Test func csvColumnHoldingSignedPayloadsIsDecoded() throws {
        try withDirectory { directory in
            let body = V2Fixture.jws(V2Fixture.decodedWithJWS)
            let path = try directory.write("raw.csv", "id,raw_signed_payload\n1,\(body)\n2,\"\"\n3,not-a-jws\n")
            let map = try V2ColumnMap.parse("format 1\nsignedPayload | raw_signed_payload\n", path: "m")
            let outcomes = try read([path], map: map)
            try #require(outcomes.count == 3)
            #expect(outcomes[0].record?.payload.data.transactionInfo?.originalTransactionId == "9007199254740993")
            #expect(outcomes[0].record?.location == SourceLocation(path: path, line: 2))
            #expect(
                outcomes[1].error?.message
                    == "row has no notification type: column 'raw_signed_payload' (signedPayload) is empty")
            #expect(outcomes[2].error?.code == .malformedJWS)
            #expect(outcomes[2].error?.location == SourceLocation(path: path, line: 4, key: "signedPayload"))
        }
    }

    @Test func missingMappedColumnThrowsNamingColumnAndFile() throws {
        try withDirectory { directory in
            let path = try directory.write("v2.csv", "notification_type,subtype\nTEST,\n")
            let map = try V2ColumnMap.parse(Self.map, path: "team.map")
            var outcomes: [V2ReadOutcome] = []
            do {
                try V2RecordReader(columnMap: map).read([InputFile(path: path)]) { outcomes.append($0) }
                Issue.record("reading should throw")
            } catch let error as ASNError {
                #expect(error.code == .malformedCSV)
                #expect(error.location == SourceLocation(path: path, line: 1))
                #expect(
                    error.message.hasPrefix(
                        "mapped columns 'notification_uuid' (notificationUUID, team.map:4), 'signed_at' (signedDate, team.map:5)"
                    ))
                #expect(
                    error.message.contains(
                        "not in the header of '\(path)', whose columns are 'notification_type', 'subtype'"))
            }
            #expect(outcomes.isEmpty)
        }
    }

    @Test func aBrokenCSVRowIsOneRejectAndReadingGoesOn() throws {
        try withDirectory { directory in
            let broken = try directory.write("a.csv", "notification_type\nTEST\n\"DID_RENEW\"x\nTEST\n")
            let next = try directory.write("b.csv", "notification_type\nREFUND\n")
            let empty = try directory.write("c.csv", "")
            let map = try V2ColumnMap.parse("format 1\nnotificationType | notification_type\n", path: "m")
            let outcomes = try read([broken, empty, next], map: map)
            try #require(outcomes.count == 5)
            #expect(outcomes[0].record?.location == SourceLocation(path: broken, line: 2))
            #expect(outcomes[1].error?.code == .malformedCSV)
            #expect(outcomes[1].error?.location == SourceLocation(path: broken, line: 3))
            #expect(outcomes[2].record?.location == SourceLocation(path: broken, line: 4))
            #expect(outcomes[3].error?.message == "the CSV file is empty; it needs a header row naming the columns")
            #expect(outcomes[4].record?.payload.notificationType == "REFUND")
        }
    }

    @Test(arguments: [1, 7, 1 << 20])
    func eachRaggedRowIsOneRejectNamingItsLine(chunkSize: Int) throws {
        try withDirectory { directory in
            // 200 rows; rows 17 and 120 have too few fields, row 64 too many, row 90 text after a closing quote;
            // row 150 holds a quoted field over three lines.
            var text = "notification_type,note\n"
            var expected: [(line: Int, good: Bool)] = []
            var line = 2
            for row in 0..<200 {
                switch row {
                case 17, 120: text += "TEST\n"
                case 64: text += "TEST,a,b\n"
                case 90: text += "TEST,\"q\"x\n"
                case 150: text += "TEST,\"one\ntwo\r\nthree\"\n"
                default: text += "TEST,n\(row)\n"
                }
                expected.append((line, ![17, 64, 90, 120].contains(row)))
                line += row == 150 ? 3 : 1
            }
            let path = try directory.write("v2.csv", text)
            let map = try V2ColumnMap.parse("format 1\nnotificationType | notification_type\n", path: "m")
            var outcomes: [V2ReadOutcome] = []
            try V2RecordReader(columnMap: map, chunkSize: chunkSize).read(InputFile(path: path)) { outcomes.append($0) }
            try #require(outcomes.count == 200)
            for (outcome, want) in zip(outcomes, expected) {
                let location = outcome.record?.location ?? outcome.error?.location
                #expect(location == SourceLocation(path: path, line: want.line))
                #expect((outcome.record != nil) == want.good, "line \(want.line): \(outcome)")
            }
            #expect(outcomes[17].error?.message.hasPrefix("record has 1 field but the header has 2") == true)
            #expect(outcomes[64].error?.message.hasPrefix("record has 3 fields but the header has 2") == true)
            #expect(outcomes[90].error?.message.hasPrefix("text after the closing quote of field 2") == true)
        }
    }

    @Test func aQuoteOpenToTheEndOfTheFileSaysHowManyLinesItSwallowed() throws {
        try withDirectory { directory in
            let path = try directory.write("v2.csv", "notification_type,note\nTEST,a\nTEST,\"open\nTEST,b\nTEST,c\n")
            let map = try V2ColumnMap.parse("format 1\nnotificationType | notification_type\n", path: "m")
            let outcomes = try read([path], map: map)
            try #require(outcomes.count == 2)
            #expect(outcomes[0].record != nil)
            #expect(outcomes[1].error?.location == SourceLocation(path: path, line: 3))
            #expect(
                outcomes[1].error?.message.hasPrefix(
                    "quoted field opened on line 3 is never closed; it swallowed the rest of the file (3 lines from line 3)"
                ) == true, "\(outcomes[1])")
        }
    }

    @Test func trailingBytesAfterAGzippedCSVAreOneRejectAfterItsRows() throws {
        try withDirectory { directory in
            try directory.writeGzip("z.gz", Array("notification_type\nTEST\nREFUND".utf8))
            let path = try directory.write("v2.csv.gz", try directory.read("z.gz") + [0x41, 0x0A])
            let map = try V2ColumnMap.parse("format 1\nnotificationType | notification_type\n", path: "m")
            let outcomes = try read([path], map: map, chunkSize: 3)
            try #require(outcomes.count == 3)
            #expect(outcomes[1].record?.payload.notificationType == "REFUND")
            #expect(outcomes[2].error?.code == .unreadableInput)
            #expect(outcomes[2].error?.message.hasPrefix("2 bytes of trailing data") == true)
        }
    }

    @Test func csvWithoutAColumnMapIsOneReject() throws {
        try withDirectory { directory in
            let path = try directory.write("v2.csv", "notification_type\nTEST\n")
            let outcomes = try read([path])
            try #require(outcomes.count == 1)
            #expect(outcomes[0].error?.code == .malformedCSV)
            #expect(
                outcomes[0].error?.message.hasPrefix("'\(path)' is named as a CSV export but no column map was given")
                    == true)
        }
    }

    // MARK: - JSON and JWS

    @Test(arguments: [3, 1 << 20])
    func jsonLinesMixFormsAndBrokenLines(chunkSize: Int) throws {
        try withDirectory { directory in
            let page =
                #"{"notificationHistory":[{"signedPayload":"\#(V2Fixture.jws(V2Fixture.decodedWithJWS))"},{"signedPayload":"\#(V2Fixture.jws(V2Fixture.decoded(type: "TEST", data: #""environment":"Sandbox""#)))"}],"hasMore":false}"#
            let lines = [V2Fixture.rawBody, V2Fixture.decodedWithJWS, "{\"broken\":", page, #"{"transactionId":"1"}"#]
            let path = try directory.write("v2.jsonl", lines.joined(separator: "\n") + "\n")
            let outcomes = try read([path], chunkSize: chunkSize)
            try #require(outcomes.count == 6)
            #expect(
                outcomes.compactMap(\.record).map(\.location) == [
                    SourceLocation(path: path, line: 1), SourceLocation(path: path, line: 2),
                    SourceLocation(path: path, line: 4, index: 0), SourceLocation(path: path, line: 4, index: 1)
                ])
            #expect(outcomes[2].error?.code == .malformedJSON)
            #expect(outcomes[2].error?.location?.line == 3)
            // A lone transaction is Apple's API view, not a reject.
            #expect(
                outcomes[5].apiRecord
                    == .transaction(
                        V2Transaction(
                            payload: JWSTransactionDecodedPayload(
                                JSONObject([.init(key: "transactionId", value: .string("1"))])),
                            environment: "", origin: .single, location: SourceLocation(path: path, line: 5))))
            #expect(outcomes[0].record?.contentDigest == outcomes[1].record?.contentDigest)
        }
    }

    @Test func jsonArrayGzipAndBareJWSFiles() throws {
        try withDirectory { directory in
            let array = try directory.writeGzip(
                "v2.json.gz", Array("[\n\(V2Fixture.decodedWithJWS),\n\(V2Fixture.rawBody)\n]".utf8))
            let jws = try directory.write("n.jws", V2Fixture.jws(V2Fixture.decodedWithJWS))
            let outcomes = try read([array, jws])
            let records = outcomes.compactMap(\.record)
            #expect(records.count == 3)
            #expect(
                records.map(\.location) == [
                    SourceLocation(path: array, line: 2, index: 0), SourceLocation(path: array, line: 3, index: 1),
                    SourceLocation(path: jws, line: 1)
                ])
            #expect(Set(records.map(\.contentDigest)).count == 1)
        }
    }

    @Test func unreadableFileIsARejectAndTheNextFileIsRead() throws {
        try withDirectory { directory in
            let good = try directory.write("v2.json", V2Fixture.rawBody)
            let corrupt = try directory.write("bad.json.gz", [0x1f, 0x8b, 0x08, 0x00, 0x01, 0x02, 0x03])
            let outcomes = try read([directory.path + "/missing.json", corrupt, good])
            try #require(outcomes.count == 3)
            #expect(outcomes[0].error?.code == .unreadableInput)
            #expect(outcomes[1].error?.code == .unreadableInput)
            #expect(outcomes[2].record != nil)
        }
    }

    @Test func errorsThrownByTheCallerAreRethrownNotRejected() throws {
        try withDirectory { directory in
            let path = try directory.write("v2.json", V2Fixture.rawBody)
            let stop = ASNError(.unreadableInput, "caller stops")
            var calls = 0
            #expect(throws: stop) {
                try V2RecordReader().read([InputFile(path: path), InputFile(path: path)]) { _ in
                    calls += 1
                    throw stop
                }
            }
            #expect(calls == 1)
        }
    }

    @Test func standardInputIsReadAsJSON() throws {
        let pipe = try TestPipe(feeding: Array((V2Fixture.rawBody + "\n").utf8))
        defer { pipe.closeReadEnd() }
        var outcomes: [V2ReadOutcome] = []
        try V2RecordReader().read([InputFile(descriptor: pipe.readEnd)]) { outcomes.append($0) }
        #expect(outcomes.compactMap(\.record).map(\.location) == [SourceLocation(path: "stdin", line: 1)])
    }
}
