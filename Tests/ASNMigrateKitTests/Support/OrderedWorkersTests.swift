import Foundation
import Synchronization
import Testing

@testable import ASNMigrateKit

@Suite struct OrderedWorkersTests {
    /// The error the consumers below throw.
    struct Stop: Error, Equatable {}

    /// What the threads of one run did, shared with the test.
    final class Log: Sendable {
        /// Calls of `process` begun.
        let started = Mutex(0)
        /// Calls of `process` finished.
        let finished = Mutex(0)
        /// Batches added.
        let produced = Mutex(0)
        /// Whether the producer's closure has returned.
        let producerEnded = Mutex(false)
        /// Signalled when the consumer has taken batch 0.
        let consumedFirst = DispatchSemaphore(value: 0)
        /// Signalled when a worker has begun batch 1.
        let secondStarted = DispatchSemaphore(value: 0)
    }

    @Test func resultsArriveInProductionOrderWhateverTheWorkOrder() {
        var seen: [Int] = []
        OrderedWorkers.run(
            workers: 3, capacity: 4,
            produce: { feed in
                for index in 0..<200 where !feed.add(index) { return }
            },
            process: { (index: Int) -> Int in
                usleep(UInt32((index * 7) % 5) * 100) // uneven work, so workers finish out of order
                return index * index
            }, consume: { seen.append($0) })
        #expect(seen == (0..<200).map { $0 * $0 })
    }

    @Test func aConsumerErrorIsRethrownOnlyAfterEveryThreadHasEnded() {
        let log = Log()
        #expect(throws: Stop.self) {
            try OrderedWorkers.run(
                workers: 2, capacity: 4,
                produce: { feed in
                    var index = 0
                    while feed.add(index) { index += 1 }
                    usleep(50_000) // a producer still busy when the consumer fails
                    log.producerEnded.withLock { $0 = true }
                },
                process: { (index: Int) -> Int in
                    log.started.withLock { $0 += 1 }
                    if index == 1 {
                        // Batch 1 is still being worked on when the consumer fails on batch 0.
                        log.secondStarted.signal()
                        _ = log.consumedFirst.wait(timeout: .now() + 5)
                        usleep(50_000)
                    }
                    log.finished.withLock { $0 += 1 }
                    return index
                },
                consume: { (index: Int) throws(Stop) in
                    if index == 0 {
                        // Fail only once batch 1 is in a worker's hands, however the threads were scheduled.
                        _ = log.secondStarted.wait(timeout: .now() + 5)
                        log.consumedFirst.signal()
                        throw Stop()
                    }
                })
        }
        let started = log.started.withLock { $0 }
        #expect(started >= 2)
        #expect(log.finished.withLock { $0 } == started)
        #expect(log.producerEnded.withLock { $0 })
    }

    @Test func aConsumerErrorStopsAnEndlessProducerWithinCapacity() {
        let log = Log()
        var consumed = 0
        #expect(throws: Stop.self) {
            try OrderedWorkers.run(
                workers: 2, capacity: 3,
                produce: { feed in
                    var index = 0
                    while feed.add(index) {
                        index += 1
                        log.produced.withLock { $0 += 1 }
                    }
                }, process: { $0 },
                consume: { (_: Int) throws(Stop) in
                    consumed += 1
                    if consumed == 5 { throw Stop() }
                })
        }
        #expect(consumed == 5)
        // At most `capacity` batches are alive beyond those consumed, so the producer stopped near the failure.
        #expect(log.produced.withLock { $0 } <= 5 + 3)
    }

    @Test func anEmptyRunConsumesNothingAndReturns() {
        var calls = 0
        OrderedWorkers.run(
            workers: 4, capacity: 2, produce: { (_: OrderedWorkers.Feed<Int>) in }, process: { $0 },
            consume: { _ in calls += 1 })
        #expect(calls == 0)
    }
}
