import Foundation

/// Apple's App Store Server API error codes `fetch` acts on (the `errorCode` of an error response body).
package enum APIErrorCode {
    /// TransactionIdNotFoundError: the id is unknown in this environment.
    package static let transactionIdNotFound = 4_040_010
    /// OriginalTransactionIdNotFoundError.
    package static let originalTransactionIdNotFound = 4_040_005
    /// RateLimitExceededError (HTTP 429).
    package static let rateLimitExceeded = 4_290_000
    /// The errors Apple documents as retryable: AccountNotFoundRetryableError, AppNotFoundRetryableError,
    /// OriginalTransactionIdNotFoundRetryableError, GeneralInternalRetryableError.
    package static let retryable: Set<Int> = [4_040_002, 4_040_004, 4_040_006, 5_000_001]
}

/// What one API answer means for the fetch.
package enum APIAnswer: Sendable, Equatable {
    /// HTTP 200: the body, as Apple sent it.
    case success([UInt8])
    /// Apple does not know the id (404 TransactionIdNotFoundError and its kin): counted and listed, not retried.
    case notFound(errorCode: Int?)
    /// Try again: 429 (with Apple's Retry-After in seconds when given), 5xx, a retryable error code, no answer at all.
    case retry(after: Double?, reason: String)
    /// HTTP 401: the token was refused; the run stops.
    case unauthorized
    /// Any other refusal of this request (a 400 for a malformed id, say): listed with the id, not retried.
    case refused(status: Int, errorCode: Int?)

    /// Classifies `response`.
    package static func classify(_ response: HTTPResponse) -> APIAnswer {
        let code = errorCode(response.body)
        switch response.status {
        case 200..<300:
            return .success(response.body)
        case 401:
            return .unauthorized
        case 429:
            return .retry(after: retryAfter(response.headers["retry-after"]), reason: "429 rate limit")
        case 404 where code == APIErrorCode.transactionIdNotFound || code == APIErrorCode.originalTransactionIdNotFound:
            return .notFound(errorCode: code)
        case _ where code.map { APIErrorCode.retryable.contains($0) } == true:
            return .retry(after: nil, reason: "retryable error \(code ?? 0)")
        case 500...599:
            return .retry(after: nil, reason: "HTTP \(response.status)")
        case 404:
            return .notFound(errorCode: code)
        default:
            return .refused(status: response.status, errorCode: code)
        }
    }

    /// The `errorCode` of an error body `{"errorCode": 4040010, "errorMessage": "…"}`, if it is one.
    package static func errorCode(_ body: [UInt8]) -> Int? {
        guard !body.isEmpty, let value = try? JSONParser().parse(body), case .object(let object) = value,
            case .number(let literal)? = object["errorCode"]
        else { return nil }
        return Int(literal)
    }

    /// Seconds from a Retry-After header: a whole number of seconds (an HTTP date is not trusted: clocks differ).
    package static func retryAfter(_ header: String?) -> Double? {
        guard let header, let seconds = Double(header.trimmingCharacters(in: .whitespaces)), seconds >= 0 else {
            return nil
        }
        return min(seconds, 3600)
    }
}
