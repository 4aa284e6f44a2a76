import Foundation

/// App Store Server API's endpoints as `fetch` calls them: Get Transaction History (v2), Get All Subscription Statuses
/// and Get Notification History, each request through the rate limiter, with the current token, retried as Apple asks.
///
/// `@unchecked Sendable`: the counters are guarded by `lock`; everything else is immutable or thread-safe itself.
package final class APIClient: @unchecked Sendable {
    /// Where requests go.
    package let transport: any HTTPTransport
    /// The environment's base URL, without a trailing slash.
    package let baseURL: String
    /// The tokens.
    private let tokens: APITokenSource
    /// The shared rate limit.
    private let limiter: RateLimiter
    /// Retries of one request before it fails.
    private let maxRetries: Int
    /// The first backoff, in seconds; doubled each retry, with jitter.
    private let retryDelay: Double
    /// The User-Agent header.
    private let userAgent: String
    /// Guards the counters and the stop flag.
    private let lock = NSLock()
    /// Requests sent.
    private var requestCount = 0
    /// Requests sent again.
    private var retryCount = 0
    /// Set once Apple refused the token: no more requests.
    private var stopped = false

    /// A client over `transport` for `baseURL`.
    package init(
        transport: any HTTPTransport, baseURL: String, tokens: APITokenSource, limiter: RateLimiter,
        maxRetries: Int, retryDelay: Double, userAgent: String = "asn-migrate"
    ) {
        self.transport = transport
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.tokens = tokens
        self.limiter = limiter
        self.maxRetries = maxRetries
        self.retryDelay = retryDelay
        self.userAgent = userAgent
    }

    /// Requests sent and retries so far.
    package var counts: (requests: Int, retries: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (requestCount, retryCount)
    }

    /// Whether Apple refused the token (every later call throws `.unauthorized` at once).
    package var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    // MARK: - Endpoints

    /// Get Transaction History v2 for `transactionId`, the page after `revision` (the first page when nil).
    package func transactionHistory(_ transactionId: String, revision: String?) throws(ASNError) -> APIResult {
        var url = baseURL + "/inApps/v2/history/" + Self.pathComponent(transactionId)
        if let revision { url += "?revision=" + Self.queryValue(revision) }
        return try send(HTTPRequest(method: "GET", url: url))
    }

    /// Get All Subscription Statuses for `transactionId`.
    package func subscriptionStatuses(_ transactionId: String) throws(ASNError) -> APIResult {
        try send(
            HTTPRequest(method: "GET", url: baseURL + "/inApps/v1/subscriptions/" + Self.pathComponent(transactionId)))
    }

    /// Get Notification History between `startDate` and `endDate` (epoch ms), the page after `paginationToken`.
    package func notificationHistory(startDate: Int64, endDate: Int64, paginationToken: String?) throws(ASNError)
        -> APIResult
    {
        var url = baseURL + "/inApps/v1/notifications/history"
        if let paginationToken { url += "?paginationToken=" + Self.queryValue(paginationToken) }
        var body = JSONObjectBuilder()
        body.add("startDate", startDate)
        body.add("endDate", endDate)
        return try send(
            HTTPRequest(
                method: "POST", url: url, headers: ["Content-Type": "application/json"],
                body: JSONWriter.bytes(.object(body.object))))
    }

    // MARK: - Sending

    /// Sends `request` until Apple answers it for good: a body, not found, or a refusal. Throws `.unauthorized` on a
    /// 401 (and for every call after one), `.fetchFailed` when the request still fails after `maxRetries` retries.
    package func send(_ request: HTTPRequest) throws(ASNError) -> APIResult {
        var attempt = 0
        while true {
            limiter.acquire()
            // Checked after the wait: a 401 another thread got meanwhile stops this request too.
            guard !isStopped else { throw Self.unauthorizedError }
            var signed = request
            signed.headers["Authorization"] = "Bearer " + (try tokens.token())
            signed.headers["Accept"] = "application/json"
            signed.headers["User-Agent"] = userAgent
            count(retry: attempt > 0)
            let answer: APIAnswer
            do {
                answer = APIAnswer.classify(try transport.send(signed))
            } catch {
                answer = .retry(after: nil, reason: error.message)
            }
            switch answer {
            case .success(let body):
                // A 200 whose body is not JSON is a broken answer, not Apple's: asked again.
                if (try? JSONParser().validate(body)) != nil { return .body(body) }
                if attempt >= maxRetries { throw failure(request, "the answer is not JSON") }
                backoff(attempt: attempt, after: nil)
            case .notFound(let code):
                return .notFound(errorCode: code)
            case .refused(let status, let code):
                return .refused(status: status, errorCode: code)
            case .unauthorized:
                lock.lock()
                stopped = true
                lock.unlock()
                throw Self.unauthorizedError
            case .retry(let after, let reason):
                if attempt >= maxRetries { throw failure(request, reason) }
                backoff(attempt: attempt, after: after)
            }
            attempt += 1
        }
    }

    /// The message for a 401.
    package static let unauthorizedError = ASNError(
        .unauthorized,
        "App Store Server API refused the token (HTTP 401): check --key-id, --issuer-id and --bundle-id against App Store Connect (Users and Access > Integrations > In-App Purchase), that --private-key is that key's .p8 file, that the key is not revoked, and that this machine's clock is right"
    )

    // MARK: - Private

    /// Waits before a retry: Apple's Retry-After (holding every thread back), else `retryDelay` × 2^attempt with
    /// jitter (between half and all of it), at most a minute.
    private func backoff(attempt: Int, after: Double?) {
        if let after {
            limiter.pause(after)
            RateLimiter.sleep(after)
            return
        }
        let full = min(60, retryDelay * pow(2, Double(min(attempt, 16))))
        RateLimiter.sleep(full * Double.random(in: 0.5...1))
    }

    /// Counts one request.
    private func count(retry: Bool) {
        lock.lock()
        requestCount += 1
        if retry { retryCount += 1 }
        lock.unlock()
    }

    /// The error of a request that kept failing.
    private func failure(_ request: HTTPRequest, _ reason: String) -> ASNError {
        let path = request.url.hasPrefix(baseURL) ? String(request.url.dropFirst(baseURL.count)) : request.url
        return ASNError(
            .fetchFailed, "\(request.method) \(path) still failed after \(maxRetries) retries (last: \(reason))",
            group: "still failing after the retries")
    }

    /// `text` escaped for a URL path segment.
    private static func pathComponent(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }

    /// `text` escaped for a query value.
    private static func queryValue(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

/// What an endpoint call finally gave.
package enum APIResult: Sendable, Equatable {
    /// Apple's answer body (HTTP 200).
    case body([UInt8])
    /// Apple does not know the id.
    case notFound(errorCode: Int?)
    /// Apple refused the request for good (a 4xx other than 401, 404 and 429).
    case refused(status: Int, errorCode: Int?)
}
