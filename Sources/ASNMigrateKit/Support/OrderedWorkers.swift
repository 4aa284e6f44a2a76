import Dispatch
import Foundation

/// Produces batches on one thread, processes them on worker threads, and hands the results to the caller strictly
/// in production order, with at most `capacity` batches alive at once; every thread it starts has ended before
/// `run` returns or rethrows.
///
/// The parallel runner of the record pipelines: `migrate`'s pipeline and `reconcile`'s readers use it through
/// `OrderedBatchRun` (batches of input records), the simulator directly (batches of subscribers). `fetch`'s requests,
/// which need no order, run on `FetchRun`'s own threads.
package enum OrderedWorkers {
    /// What the producing thread adds batches through.
    package struct Feed<Work: Sendable>: Sendable {
        /// Adds a batch, waiting while `capacity` batches are alive; false once the run has stopped (stop producing).
        package let add: @Sendable (Work) -> Bool
        /// Whether the run has stopped (the consumer threw): a long producer checks it between batches.
        package let isCancelled: @Sendable () -> Bool
    }

    /// Runs `produce` on one thread and `process` on `workers` threads, calling `consume` with each result in the
    /// order `produce` added the batches, on the calling thread.
    ///
    /// An error thrown by `consume` stops every thread (the producer at its next `add` or `isCancelled`, a worker
    /// after its current batch), and is rethrown once they have all ended; so is a normal return.
    package static func run<Work: Sendable, Result: Sendable, Failure: Error>(
        workers: Int, capacity: Int,
        produce: @escaping @Sendable (Feed<Work>) -> Void,
        process: @escaping @Sendable (Work) -> Result,
        consume: (Result) throws(Failure) -> Void
    ) throws(Failure) {
        let queue = OrderedBatchQueue<Work, Result>(capacity: capacity)
        let running = DispatchGroup()
        defer {
            queue.cancel()
            running.wait()
        }
        let feed = Feed<Work>(add: { queue.add($0) }, isCancelled: { queue.isCancelled })
        start(running, stackSize: 1 << 20) {
            produce(feed)
            queue.finishReading()
        }
        for _ in 0..<max(1, workers) {
            start(running, stackSize: 4 << 20) {
                while let (sequence, work) = queue.take() {
                    queue.deliver(sequence, process(work))
                }
            }
        }
        var next = 0
        while let result = queue.result(next) {
            next += 1
            try consume(result)
        }
    }

    // MARK: - Private

    /// Starts a thread running `body`, counted in `group` until `body` has returned.
    private static func start(_ group: DispatchGroup, stackSize: Int, _ body: @escaping @Sendable () -> Void) {
        group.enter()
        let thread = Thread {
            defer { group.leave() }
            body()
        }
        thread.stackSize = stackSize
        thread.start()
    }
}
