import Foundation

/// Spaces requests evenly at most `perSecond` a second across all threads, and holds every thread back while Apple
/// asked to wait (a 429's Retry-After).
///
/// `@unchecked Sendable`: the schedule is guarded by `lock`.
package final class RateLimiter: @unchecked Sendable {
    /// Seconds between two requests.
    private let interval: Double
    /// Guards the schedule.
    private let lock = NSLock()
    /// The monotonic time (seconds) the next request may start.
    private var next: Double = 0

    /// A limiter allowing `perSecond` requests a second (unlimited when 0 or less).
    package init(perSecond: Double) {
        interval = perSecond > 0 ? 1 / perSecond : 0
    }

    /// Waits until this thread's request may start.
    package func acquire() {
        lock.lock()
        let now = Self.monotonic()
        let start = max(now, next)
        next = start + interval
        lock.unlock()
        Self.sleep(start - now)
    }

    /// Holds every request back for `seconds` from now (Apple said to wait).
    package func pause(_ seconds: Double) {
        lock.lock()
        next = max(next, Self.monotonic() + seconds)
        lock.unlock()
    }

    /// Monotonic seconds.
    package static func monotonic() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Sleeps `seconds` (nothing when not positive).
    package static func sleep(_ seconds: Double) {
        guard seconds > 0 else { return }
        usleep(useconds_t(min(seconds, 3600) * 1_000_000))
    }
}
