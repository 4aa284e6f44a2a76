import Testing

@testable import ASNMigrateKit

@Suite struct V2FieldReaderTests {
    @Test func fractionalMillisecondsFromXcodeKeepTheWholeMilliseconds() throws {
        let object = try #require(
            try JSONParser().parse(#"{"signedDate":1700358336049.7297,"expiresDate":"1700358336000","x":true}"#)
                .objectValue)
        let r = V2FieldReader(object)
        #expect(r.int64("signedDate") == 1_700_358_336_049)
        #expect(r.int64("expiresDate") == 1_700_358_336_000)
        #expect(r.int64("x") == nil)
        #expect(r.string("x") == "true")
    }
}
