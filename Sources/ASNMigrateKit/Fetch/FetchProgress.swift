import Foundation

/// The progress line on a terminal: ids done, requests per second, retries, time left.
///
/// `@unchecked Sendable`: its state is guarded by `lock`.
final class FetchProgress: @unchecked Sendable {
    /// Whether anything is shown.
    private let enabled: Bool
    /// Guards the state.
    private let lock = NSLock()
    /// When the run started (monotonic seconds).
    private let started = RateLimiter.monotonic()
    /// When the line was last drawn (monotonic seconds).
    private var drawn = 0.0
    /// Whether a line is on screen.
    private var showing = false

    /// A progress line, shown only when `enabled`.
    init(enabled: Bool) {
        self.enabled = enabled
    }

    /// Redraws the line at most four times a second.
    func show(_ figures: FetchFigures, total: Int, client: APIClient) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        let now = RateLimiter.monotonic()
        guard now - drawn >= 0.25 else { return }
        drawn = now
        let counts = client.counts
        let done = figures.idsAnswered + figures.idsNotFound + figures.idsFailed + figures.idsCovered
        let text = Self.render(
            done: done, total: total, requests: counts.requests, retries: counts.retries, seconds: now - started)
        FileDescriptorSink.writeAll(Array(("\r\u{1B}[K" + text).utf8), to: 2)
        showing = true
    }

    /// The line: `fetch: 120/500 ids, 9.8 requests/s, 3 retries, ETA 1:05` (the time left from the ids done so far).
    static func render(done: Int, total: Int, requests: Int, retries: Int, seconds: Double) -> String {
        let elapsed = max(seconds, 1e-3)
        var text =
            "fetch: \(done)/\(total) ids, \(String(format: "%.1f", Double(requests) / elapsed)) requests/s, \(retries) retries"
        if done > 0 {
            let left = Int((elapsed / Double(done) * Double(max(0, total - done))).rounded())
            text +=
                ", ETA \(left / 3600 > 0 ? "\(left / 3600)h" : "")\(left % 3600 / 60):\(left % 60 < 10 ? "0" : "")\(left % 60)"
        }
        return text
    }

    /// Clears the line.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if showing { FileDescriptorSink.writeAll(Array("\r\u{1B}[K".utf8), to: 2) }
        showing = false
    }
}
