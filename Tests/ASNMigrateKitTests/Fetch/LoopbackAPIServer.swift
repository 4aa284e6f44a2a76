import Foundation

@testable import ASNMigrateKit
@testable import ASNSimulation

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback App Store Server API for `fetch`'s tests, on POSIX sockets: bound to 127.0.0.1 only, one request per
/// connection (`Connection: close`), at most `maxRequests` requests, and it stops by itself after `lifetime` seconds.
///
/// It serves a simulation's API view (`SimulatedAPIView.answers`) under `/production` and `/sandbox`, checks every
/// request's JWT with the public key (signature, header, `aud`, `bid`, `iss`, `exp`), and injects the faults asked for.
///
/// `@unchecked Sendable`: all mutable state is guarded by `lock`; the threads it starts are joined in `stop`.
final class LoopbackAPIServer: @unchecked Sendable {
    /// Faults to inject, per originalTransactionId, on its first history request (`serverErrors`: its first N).
    struct Faults {
        /// Answered 429 with `Retry-After: 1`.
        var rateLimitWithRetryAfter: Set<String> = []
        /// Answered 429 without Retry-After.
        var rateLimitWithoutRetryAfter: Set<String> = []
        /// Answered 500 that many times.
        var serverErrors: [String: Int] = [:]
        /// Every answer 0.3 s late.
        var slow: Set<String> = []
        /// The connection closed without an answer.
        var dropConnection: Set<String> = []
        /// Answered 500 GeneralInternalRetryableError (5000001).
        var retryableErrorCode: Set<String> = []
        /// Every request answered 401.
        var unauthorized = false
        /// Seconds every answer waits (to keep a run going long enough to be killed).
        var delay: Double = 0
    }

    /// One request as the server saw it.
    struct Logged: Sendable {
        /// `GET` / `POST`.
        var method: String
        /// `inApps/v2/history`, `inApps/v1/subscriptions`, `inApps/v1/notifications/history`.
        var endpoint: String
        /// `production` / `sandbox` (the base URL's last segment).
        var environment: String
        /// The id in the path (empty for notifications).
        var id: String
        /// The query string.
        var query: String
        /// The status answered (0: connection dropped).
        var status: Int
        /// The Authorization header as sent.
        var authorization: String
        /// When it was answered (monotonic seconds).
        var time: Double
    }

    /// The port it listens on.
    private(set) var port: UInt16 = 0
    private let answers: [String: [String: SimulatedAPIView.Answers]]
    private let notificationPages: [[UInt8]]
    private let publicKey: ES256PublicKey
    private let keyId: String, issuerId: String, bundleId: String
    private let faults: Faults
    private let lifetime: Double
    private let maxRequests: Int
    private let lock = NSLock()
    private var logged: [Logged] = []
    private var jwtProblems: [String] = []
    private var seen: [String: Int] = [:]
    private var stopped = false
    private var listener: Int32 = -1
    private let handlers = DispatchGroup()
    private let acceptDone = DispatchSemaphore(value: 0)

    /// A server for `answers`, checking tokens against `publicKey` and the ids given.
    init(
        answers: [SimulatedAPIView.Answers], notificationPages: [[UInt8]] = [], publicKey: ES256PublicKey,
        keyId: String,
        issuerId: String, bundleId: String, faults: Faults = Faults(), lifetime: Double = 90, maxRequests: Int = 20_000
    ) {
        var byEnvironment: [String: [String: SimulatedAPIView.Answers]] = [:]
        for answer in answers {
            byEnvironment[answer.environment.lowercased(), default: [:]][answer.originalTransactionId] = answer
        }
        self.answers = byEnvironment
        self.notificationPages = notificationPages
        self.publicKey = publicKey
        self.keyId = keyId
        self.issuerId = issuerId
        self.bundleId = bundleId
        self.faults = faults
        self.lifetime = lifetime
        self.maxRequests = maxRequests
    }

    /// The base URL of `environment` (`production` / `sandbox`).
    func baseURL(_ environment: String) -> String { "http://127.0.0.1:\(port)/\(environment)" }

    /// Every request so far.
    var requests: [Logged] {
        lock.lock()
        defer { lock.unlock() }
        return logged
    }

    /// Forgets the requests so far.
    func clearLog() {
        lock.lock()
        logged = []
        lock.unlock()
    }

    /// Tokens that failed a check, with the reason.
    var tokenProblems: [String] {
        lock.lock()
        defer { lock.unlock() }
        return jwtProblems
    }

    // MARK: - Running

    /// Binds 127.0.0.1 on a free port and starts accepting.
    func start() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw CocoaError(.fileWriteUnknown)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        listener = fd
        let deadline = Date().addingTimeInterval(lifetime)
        let thread = Thread { [self] in
            defer { acceptDone.signal() }
            var served = 0
            while Date() < deadline && served < maxRequests {
                lock.lock()
                let stop = stopped
                lock.unlock()
                if stop { break }
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 50) > 0 else { continue }
                let client = accept(fd, nil, nil)
                guard client >= 0 else { continue }
                served += 1
                handlers.enter()
                let handler = Thread { [self] in
                    defer { handlers.leave() }
                    handle(client)
                }
                handler.start()
            }
        }
        thread.start()
    }

    /// Stops accepting and waits for every handler.
    func stop() {
        lock.lock()
        let already = stopped
        stopped = true
        lock.unlock()
        guard !already, listener >= 0 else { return }
        acceptDone.wait()
        handlers.wait()
        close(listener)
    }

    // MARK: - One request

    private func handle(_ client: Int32) {
        defer { close(client) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        var headerEnd: Int?
        while headerEnd == nil && data.count < 65_536 {
            let n = read(client, &buffer, buffer.count)
            guard n > 0 else { return }
            data += buffer[0..<n]
            headerEnd = Self.find([13, 10, 13, 10], in: data)
        }
        guard let headerEnd else { return }
        let head = String(decoding: data[0..<headerEnd], as: UTF8.self).components(separatedBy: "\r\n")
        let parts = (head.first ?? "").split(separator: " ").map(String.init)
        guard parts.count >= 2 else { return }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        var body = Array(data[(headerEnd + 4)...])
        let wanted = Int(headers["content-length"] ?? "0") ?? 0
        while body.count < min(wanted, 1 << 20) {
            let n = read(client, &buffer, buffer.count)
            guard n > 0 else { break }
            body += buffer[0..<n]
        }
        let (status, responseHeaders, responseBody, drop) = route(
            method: parts[0], target: parts[1], headers: headers, body: body)
        if drop { return }
        var text =
            "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Error")\r\nContent-Type: application/json\r\nContent-Length: \(responseBody.count)\r\nConnection: close\r\n"
        for (name, value) in responseHeaders { text += "\(name): \(value)\r\n" }
        let bytes = Array((text + "\r\n").utf8) + responseBody
        _ = bytes.withUnsafeBytes { raw in send(client, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL)) }
    }

    private func route(method: String, target: String, headers: [String: String], body: [UInt8]) -> (
        Int, [String: String], [UInt8], Bool
    ) {
        let pathAndQuery = target.split(separator: "?", maxSplits: 1).map(String.init)
        let path = pathAndQuery[0].split(separator: "/").map(String.init)
        let query = pathAndQuery.count > 1 ? pathAndQuery[1] : ""
        let authorization = headers["authorization"] ?? ""
        guard path.count >= 4 else { return (404, [:], [], false) }
        let environment = path[0]
        let notifications = path.count == 5 && path[3] == "notifications"
        let endpoint =
            path.count >= 5 && !notifications ? path[1...3].joined(separator: "/") : path[1...].joined(separator: "/")
        let id = path.count >= 5 && !notifications ? path[4] : ""
        var fault: String?
        lock.lock()
        let key = endpoint + "|" + id
        let count = seen[key, default: 0]
        seen[key] = count + 1
        let problem = checkToken(authorization)
        if let problem { jwtProblems.append(problem) }
        let tokenBad = problem != nil
        lock.unlock()
        if endpoint == "inApps/v2/history" && count == 0 {
            if faults.rateLimitWithRetryAfter.contains(id) { fault = "429+" }
            if faults.rateLimitWithoutRetryAfter.contains(id) { fault = "429" }
            if faults.dropConnection.contains(id) { fault = "drop" }
            if faults.retryableErrorCode.contains(id) { fault = "retryable" }
        }
        if endpoint == "inApps/v2/history", let errors = faults.serverErrors[id], count < errors { fault = "500" }
        if faults.slow.contains(id) { Thread.sleep(forTimeInterval: 0.3) }
        if faults.delay > 0 { Thread.sleep(forTimeInterval: faults.delay) }
        let answer: (Int, [String: String], [UInt8], Bool)
        if faults.unauthorized || tokenBad {
            answer = (401, [:], [], false)
        } else {
            switch fault {
            case "429+":
                answer = (
                    429, ["Retry-After": "1"],
                    Array(#"{"errorCode":4290000,"errorMessage":"Rate limit exceeded."}"#.utf8), false
                )
            case "429":
                answer = (429, [:], Array(#"{"errorCode":4290000,"errorMessage":"Rate limit exceeded."}"#.utf8), false)
            case "500": answer = (500, [:], Array("internal error".utf8), false)
            case "retryable":
                answer = (
                    500, [:],
                    Array(#"{"errorCode":5000001,"errorMessage":"An unknown error occurred. Please try again."}"#.utf8),
                    false
                )
            case "drop": answer = (0, [:], [], true)
            default:
                answer = serve(
                    environment: environment, endpoint: endpoint, method: method, id: id, query: query, body: body)
            }
        }
        lock.lock()
        logged.append(
            Logged(
                method: method, endpoint: endpoint, environment: environment, id: id, query: query, status: answer.0,
                authorization: authorization,
                time: RateLimiter.monotonic()))
        lock.unlock()
        return answer
    }

    private func serve(environment: String, endpoint: String, method: String, id: String, query: String, body: [UInt8])
        -> (Int, [String: String], [UInt8], Bool)
    {
        let notFound = (
            404, [String: String](), Array(#"{"errorCode":4040010,"errorMessage":"Transaction id not found."}"#.utf8),
            false
        )
        switch (method, endpoint) {
        case ("GET", "inApps/v2/history"):
            guard let answer = answers[environment]?[id] else { return notFound }
            var index = 0
            if let revision = Self.parameter("revision", in: query) {
                guard let dash = revision.lastIndex(of: "-"), let page = Int(revision[revision.index(after: dash)...])
                else {
                    return (
                        400, [:], Array(#"{"errorCode":4000005,"errorMessage":"Invalid request revision."}"#.utf8),
                        false
                    )
                }
                index = page + 1
                if index >= answer.pages.count {
                    // Nothing new since that revision: an empty last page, as Apple answers an up-to-date revision.
                    let empty =
                        #"{"revision":"\#(revision)","hasMore":false,"bundleId":"\#(bundleId)","environment":"\#(answer.environment)","signedTransactions":[]}"#
                    return (200, [:], Array(empty.utf8), false)
                }
            }
            return (200, [:], answer.pages[index], false)
        case ("GET", "inApps/v1/subscriptions"):
            guard let answer = answers[environment]?[id] else { return notFound }
            let empty = #"{"environment":"\#(answer.environment)","bundleId":"\#(bundleId)","data":[]}"#
            return (200, [:], answer.statuses ?? Array(empty.utf8), false)
        case ("POST", "inApps/v1/notifications/history"):
            guard let value = try? JSONParser().parse(body), case .object(let object) = value,
                object["startDate"] != nil, object["endDate"] != nil
            else {
                return (400, [:], Array(#"{"errorCode":4000015,"errorMessage":"Invalid start date."}"#.utf8), false)
            }
            var index = 0
            if let token = Self.parameter("paginationToken", in: query), let page = Int(token.dropFirst("page-".count))
            {
                index = page
            }
            guard index < notificationPages.count else { return (400, [:], [], false) }
            return (200, [:], notificationPages[index], false)
        default:
            return (404, [:], [], false)
        }
    }

    /// Why `authorization` is not a valid token for this server, or nil.
    private func checkToken(_ authorization: String) -> String? {
        guard authorization.hasPrefix("Bearer ") else { return "no bearer token" }
        let parts = authorization.dropFirst("Bearer ".count).split(separator: ".", omittingEmptySubsequences: false)
            .map(String.init)
        guard parts.count == 3, let headerBytes = Base64.decode(parts[0]), let claimsBytes = Base64.decode(parts[1]),
            let signature = Base64.decode(parts[2])
        else { return "not a compact JWS" }
        guard case .object(let header)? = try? JSONParser().parse(headerBytes),
            case .object(let claims)? = try? JSONParser().parse(claimsBytes)
        else {
            return "header or claims not JSON"
        }
        let h = V2FieldReader(header)
        let c = V2FieldReader(claims)
        guard h.string("alg") == "ES256", h.string("kid") == keyId, h.string("typ") == "JWT" else {
            return "header \(header.keys)"
        }
        guard c.string("aud") == "appstoreconnect-v1" else { return "aud" }
        guard c.string("bid") == bundleId else { return "bid" }
        guard c.string("iss") == issuerId else { return "iss" }
        let now = Int64(Date().timeIntervalSince1970)
        guard let iat = c.int64("iat"), let exp = c.int64("exp"), exp > now, exp - iat <= 3600, iat <= now + 60 else {
            return "iat/exp"
        }
        let message = Array((parts[0] + "." + parts[1]).utf8)
        let valid = signature.withUnsafeBytes { s in
            message.withUnsafeBytes { m in publicKey.verify(signature: s, message: m) }
        }
        return valid ? nil : "signature"
    }

    private static func parameter(_ name: String, in query: String) -> String? {
        for pair in query.split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
            if kv.count == 2, kv[0] == name { return kv[1].removingPercentEncoding ?? kv[1] }
        }
        return nil
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count) where haystack[i..<(i + needle.count)].elementsEqual(needle) {
            return i
        }
        return nil
    }
}
