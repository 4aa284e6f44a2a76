import Testing

@testable import ASNMigrateKit

/// How `fetch` reads each answer of App Store Server API.
@Suite struct APIAnswerTests {
    static func error(_ code: Int) -> [UInt8] { Array(#"{"errorCode":\#(code),"errorMessage":"x"}"#.utf8) }

    @Test func answersAreClassifiedAsAppleDocumentsThem() {
        #expect(APIAnswer.classify(HTTPResponse(status: 200, body: Array("{}".utf8))) == .success(Array("{}".utf8)))
        #expect(APIAnswer.classify(HTTPResponse(status: 401)) == .unauthorized)
        #expect(
            APIAnswer.classify(HTTPResponse(status: 429, headers: ["retry-after": "7"], body: Self.error(4_290_000)))
                == .retry(after: 7, reason: "429 rate limit"))
        #expect(
            APIAnswer.classify(HTTPResponse(status: 429, body: Self.error(4_290_000)))
                == .retry(after: nil, reason: "429 rate limit"))
        #expect(
            APIAnswer.classify(HTTPResponse(status: 404, body: Self.error(4_040_010)))
                == .notFound(errorCode: 4_040_010))
        #expect(APIAnswer.classify(HTTPResponse(status: 502)) == .retry(after: nil, reason: "HTTP 502"))
        for code in [4_040_002, 4_040_004, 4_040_006, 5_000_001] {
            let status = code == 5_000_001 ? 500 : 404
            #expect(
                APIAnswer.classify(HTTPResponse(status: status, body: Self.error(code)))
                    == .retry(after: nil, reason: "retryable error \(code)"))
        }
        #expect(
            APIAnswer.classify(HTTPResponse(status: 400, body: Self.error(4_000_006)))
                == .refused(status: 400, errorCode: 4_000_006))
        #expect(
            APIAnswer.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT") == nil,
            "an HTTP date is not trusted: exponential backoff instead")
    }
}
