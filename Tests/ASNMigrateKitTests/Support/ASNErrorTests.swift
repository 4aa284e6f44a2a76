import Testing

@testable import ASNMigrateKit

@Suite struct ASNErrorTests {
    @Test func descriptionNamesLocationKeyAndCause() {
        let error = ASNError(
            .wrongFieldType, "expected a string",
            at: SourceLocation(path: "a.jsonl", line: 3, key: "notification_type"), cause: "found number")
        #expect(error.description == "a.jsonl:3 (key notification_type): expected a string (found number)")
    }

    @Test func sourcePrefersLineThenIndex() {
        #expect(SourceLocation(path: "x", line: 2, index: 5).source == "x:2")
        #expect(SourceLocation(path: "x", index: 5).source == "x[5]")
        #expect(SourceLocation(path: "x").source == "x")
    }

    @Test func objectLookupTakesLastDuplicate() {
        let object = JSONObject([.init(key: "a", value: .number("1")), .init(key: "a", value: .number("2"))])
        #expect(object["a"] == .number("2"))
        #expect(object["b"] == nil)
    }
}

@Suite struct ASNErrorReportReasonTests {
    @Test func reportReasonHasCodeMessageKeyAndCauseButNoLocation() {
        let error = ASNError(
            .wrongFieldType, "bad date", at: SourceLocation(path: "a.jsonl", line: 3, key: "purchase_date_ms"),
            cause: "found object")
        #expect(error.reportReason == "wrong_field_type: bad date [key purchase_date_ms] (found object)")
        #expect(ASNError(.malformedJSON, "truncated").reportReason == "malformed_json: truncated")
    }
}
