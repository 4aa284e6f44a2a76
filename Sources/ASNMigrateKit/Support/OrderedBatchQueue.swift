import Foundation

/// The queues between a reader thread, worker threads and one consumer, handing results back in input order.
///
/// The reader numbers batches as it adds them; workers take any batch and deliver its result; the consumer takes
/// results strictly by number. At most `capacity` batches are alive at once (queued, being worked on, or waiting
/// for the consumer), so memory stays flat whatever the input size.
///
/// `@unchecked Sendable`: its mutable state is shared between threads and guarded by `condition` (an `NSCondition`,
/// because the threads must wait on it); a checked conformance cannot express "guarded by a lock", and `Mutex` has no
/// wait. `OrderedWorkers` only instantiates it with `Sendable` work and results.
final class OrderedBatchQueue<Work: Sendable, Result: Sendable>: @unchecked Sendable {
    /// Guards everything below.
    private let condition = NSCondition()
    /// Batches waiting for a worker, with their sequence numbers.
    private var work: [(Int, Work)] = []
    /// Results waiting for the consumer, by sequence number.
    private var results: [Int: Result] = [:]
    /// Batches added so far.
    private var produced = 0
    /// Results consumed so far.
    private var consumed = 0
    /// Whether the reader has added its last batch.
    private var readingDone = false
    /// Whether the run was stopped.
    private var cancelled = false
    /// Batches alive at once.
    private let capacity: Int

    /// Creates the queues for at most `capacity` batches in flight.
    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Whether the run was stopped.
    var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled
    }

    /// Adds a batch, waiting while too many are in flight; false when the run was stopped.
    func add(_ batch: Work) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while produced - consumed >= capacity && !cancelled { condition.wait() }
        if cancelled { return false }
        work.append((produced, batch))
        produced += 1
        condition.broadcast()
        return true
    }

    /// Marks the end of reading.
    func finishReading() {
        condition.lock()
        readingDone = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next batch to work on, or nil when there will be none.
    func take() -> (Int, Work)? {
        condition.lock()
        defer { condition.unlock() }
        while work.isEmpty && !readingDone && !cancelled { condition.wait() }
        if cancelled || work.isEmpty { return nil }
        return work.removeFirst()
    }

    /// Hands a worker's result to the consumer.
    func deliver(_ sequence: Int, _ result: Result) {
        condition.lock()
        results[sequence] = result
        condition.broadcast()
        condition.unlock()
    }

    /// The result with sequence number `sequence`, waiting for it; nil when reading ended before it.
    func result(_ sequence: Int) -> Result? {
        condition.lock()
        defer { condition.unlock() }
        while results[sequence] == nil && !(readingDone && produced <= sequence) && !cancelled { condition.wait() }
        guard let result = results.removeValue(forKey: sequence) else { return nil }
        consumed += 1
        condition.broadcast()
        return result
    }

    /// Stops every thread at its next wait.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}
