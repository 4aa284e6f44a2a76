import Foundation

/// Reads, maps and renders `migrate` input on several threads, handing batches back in input order.
///
/// One thread splits the files into records (`RecordReader`) and cuts them into batches of about `batchBytes`;
/// `workers` threads map (and optionally render) whole batches; the caller's thread receives them strictly in input
/// order, so output, rejects and counts are exactly those of a sequential run. At most `maxBatchesInFlight` batches
/// exist at once (read, waiting, mapped or waiting to be consumed), so memory stays flat whatever the input size.
public struct MigrationPipeline: Sendable {
    /// The per-record stage.
    public let mapper: any RecordMapping
    /// Mapping threads.
    public let workers: Int
    /// Raw bytes per batch, roughly.
    public let batchBytes: Int
    /// Batches alive at once.
    public let maxBatchesInFlight: Int

    /// Creates a pipeline; `workers` defaults to the active processor count.
    public init(mapper: any RecordMapping, workers: Int? = nil, batchBytes: Int = 2 << 20, maxBatchesInFlight: Int? = nil) {
        self.mapper = mapper
        self.workers = max(1, workers ?? ProcessInfo.processInfo.activeProcessorCount)
        self.batchBytes = max(1, batchBytes)
        self.maxBatchesInFlight = max(1, maxBatchesInFlight ?? 2 * self.workers + 2)
    }

    /// Runs the pipeline over `files`, calling `consume` with each batch in input order on the calling thread.
    /// With `renderJSONLines`, workers also render migrated payloads as `MigrationOutput.appendJSONLine` does.
    /// An error thrown by `consume`, or a batch's `failure`, stops the run and is rethrown after the threads end.
    public func run(files: [InputFile], renderJSONLines: Bool, consume: (MigrationBatch) throws -> Void) throws {
        let state = PipelineState(capacity: maxBatchesInFlight)
        let reader = Thread { [batchBytes] in
            Self.read(files: files, batchBytes: batchBytes, state: state)
        }
        reader.stackSize = 1 << 20
        reader.start()
        for _ in 0..<workers {
            let worker = Thread { [mapper] in
                while let (sequence, items) = state.takeWork() {
                    state.deliver(sequence, Self.map(items, mapper: mapper, render: renderJSONLines))
                }
            }
            worker.stackSize = 4 << 20
            worker.start()
        }
        defer { state.cancel() }
        var next = 0
        while let batch = state.takeResult(next) {
            next += 1
            if let failure = batch.failure { throw failure }
            try consume(batch)
        }
    }

    // MARK: - Private

    /// The reader thread: splits every file and queues batches, ending with `finishReading`.
    private static func read(files: [InputFile], batchBytes: Int, state: PipelineState) {
        var items: [ReadItem] = []
        var bytes = 0
        func flush() -> Bool {
            defer { items = []; bytes = 0 }
            return state.addWork(items)
        }
        readFiles: for file in files {
            do {
                try RecordReader(file: file).forEach { item in
                    if state.isCancelled { throw CancellationError() }
                    items.append(.item(item))
                    if case .record(let record) = item { bytes += record.bytes.count }
                    if bytes >= batchBytes && !flush() { throw CancellationError() }
                }
            } catch let error as ASNError where error.code == .unreadableInput || error.code == .malformedJSON {
                // As the sequential loop does: a file failing part way becomes one reject and reading goes on.
                items.append(.item(.broken(error)))
            } catch is CancellationError {
                break readFiles
            } catch {
                items.append(.failure(error))
                break readFiles
            }
        }
        if !items.isEmpty { _ = flush() }
        state.finishReading()
    }

    /// A worker's job: map (and render) one batch.
    private static func map(_ items: [ReadItem], mapper: any RecordMapping, render: Bool) -> MigrationBatch {
        var batch = MigrationBatch()
        batch.outcomes.reserveCapacity(items.count)
        for item in items {
            let outcome: V1RecordMapper.Outcome
            switch item {
            case .item(.record(let record)): outcome = mapper.map(record)
            case .item(.broken(let error)): outcome = .rejected(error)
            case .failure(let error):
                batch.failure = error
                return batch
            }
            if render, case .migrated(let payload) = outcome { MigrationOutput.appendJSONLine(payload, to: &batch.jsonLines) }
            batch.outcomes.append(outcome)
        }
        return batch
    }
}

/// What the reader hands to workers: split items, or an error that ends the run at that point.
enum ReadItem: @unchecked Sendable {
    /// A record or broken item.
    case item(InputItem)
    /// A failure to pass on in order.
    case failure(any Error)
}

/// The queues between the pipeline's threads, behind one condition variable.
private final class PipelineState: @unchecked Sendable {
    /// Guards everything below.
    private let condition = NSCondition()
    /// Read batches waiting for a worker, with their sequence numbers.
    private var work: [(Int, [ReadItem])] = []
    /// Mapped batches waiting for the consumer, by sequence number.
    private var results: [Int: MigrationBatch] = [:]
    /// Batches read so far.
    private var produced = 0
    /// Batches consumed so far.
    private var consumed = 0
    /// Whether the reader has queued its last batch.
    private var readingDone = false
    /// Whether the run was stopped (consumer error or finished).
    private var cancelled = false
    /// Batches alive at once.
    private let capacity: Int

    /// Creates the state for at most `capacity` batches in flight.
    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Whether the run was stopped.
    var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled
    }

    /// Queues a batch, waiting while too many are in flight; false when the run was stopped.
    func addWork(_ items: [ReadItem]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while produced - consumed >= capacity && !cancelled { condition.wait() }
        if cancelled { return false }
        work.append((produced, items))
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

    /// The next batch to map, or nil when there will be none.
    func takeWork() -> (Int, [ReadItem])? {
        condition.lock()
        defer { condition.unlock() }
        while work.isEmpty && !readingDone && !cancelled { condition.wait() }
        if cancelled || work.isEmpty { return nil }
        return work.removeFirst()
    }

    /// Hands a mapped batch to the consumer.
    func deliver(_ sequence: Int, _ batch: MigrationBatch) {
        condition.lock()
        results[sequence] = batch
        condition.broadcast()
        condition.unlock()
    }

    /// The batch with sequence number `sequence`, waiting for it; nil when reading ended before it.
    func takeResult(_ sequence: Int) -> MigrationBatch? {
        condition.lock()
        defer { condition.unlock() }
        while results[sequence] == nil && !(readingDone && produced <= sequence) && !cancelled { condition.wait() }
        guard let batch = results.removeValue(forKey: sequence) else { return nil }
        consumed += 1
        condition.broadcast()
        return batch
    }

    /// Stops every thread at its next wait.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}
