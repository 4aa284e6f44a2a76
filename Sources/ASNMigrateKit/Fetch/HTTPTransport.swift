import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP request as the API client makes it.
package struct HTTPRequest: Sendable, Equatable {
    /// `GET` or `POST`.
    package var method: String
    /// The full URL.
    package var url: String
    /// Request headers (the token goes in `Authorization`).
    package var headers: [String: String]
    /// The body, for `POST`.
    package var body: [UInt8]?

    /// Creates a request.
    package init(method: String, url: String, headers: [String: String] = [:], body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// One HTTP answer.
package struct HTTPResponse: Sendable, Equatable {
    /// The status code.
    package var status: Int
    /// Response headers, names lower-cased.
    package var headers: [String: String]
    /// The body, as sent.
    package var body: [UInt8]

    /// Creates a response.
    package init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Sends requests; the API client's only way out, so tests can stand in for the network.
package protocol HTTPTransport: Sendable {
    /// Sends `request` and waits for the answer; throws `.fetchFailed` when no answer came (connection refused or
    /// dropped, timeout).
    func send(_ request: HTTPRequest) throws(ASNError) -> HTTPResponse
}

/// `HTTPTransport` through Foundation's URLSession (FoundationNetworking over libcurl on Linux): no cache, no cookies.
package final class URLSessionTransport: HTTPTransport {
    /// The session.
    private let session: URLSession

    /// A transport whose requests time out after `timeout` seconds without an answer.
    package init(timeout: Double) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = max(timeout * 4, timeout + 60)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        session = URLSession(configuration: configuration)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Sends `request` synchronously (the caller is one of the fetch's worker threads).
    package func send(_ request: HTTPRequest) throws(ASNError) -> HTTPResponse {
        guard let url = URL(string: request.url) else {
            throw ASNError(.usage, "'\(request.url)' is not a URL")
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        if let body = request.body { urlRequest.httpBody = Data(body) }
        let box = ResultBox()
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: urlRequest) { data, response, error in
            box.set(data: data, response: response, error: error)
            done.signal()
        }
        task.resume()
        done.wait()
        let (data, response, error) = box.get()
        if let error {
            // The URL is named; the request's headers (the token) never are.
            throw ASNError(
                .fetchFailed, "no answer from \(url.host ?? request.url): \(error.localizedDescription)",
                group: "no answer")
        }
        guard let http = response as? HTTPURLResponse else {
            throw ASNError(.fetchFailed, "no HTTP answer from \(url.host ?? request.url)", group: "no answer")
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: data.map { Array($0) } ?? [])
    }
}

/// Carries a data task's result from its callback to the waiting thread.
///
/// `@unchecked Sendable`: written once by the callback and read after the semaphore, both under `lock`.
private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: (Data?, URLResponse?, (any Error)?) = (nil, nil, nil)

    /// Stores the callback's result.
    func set(data: Data?, response: URLResponse?, error: (any Error)?) {
        lock.lock()
        value = (data, response, error)
        lock.unlock()
    }

    /// The stored result.
    func get() -> (Data?, URLResponse?, (any Error)?) {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
