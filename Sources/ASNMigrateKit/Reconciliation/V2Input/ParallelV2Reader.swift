import Foundation

/// Reads V2 records like `V2RecordReader`, but decodes JSON and JWS records on several threads.
///
/// One thread splits the files into records (`RecordReader`) and cuts them into batches of about `batchBytes`;
/// `workers` threads decode whole batches with `V2RecordDecoder` (JSON parse, JWS payloads, content digest); the
/// caller's thread receives the outcomes strictly in input order, so what `body` sees is exactly what
/// `V2RecordReader.read` gives. CSV exports are read by `V2RecordReader` itself, in their place among the files.
public struct ParallelV2Reader: Sendable {
    /// The sequential reader, for CSV files and the decoder.
    public var reader: V2RecordReader
    /// Decoding threads.
    public var workers: Int
    /// Raw bytes per batch, roughly.
    public var batchBytes: Int

    /// A reader using `columnMap` for CSV files and `workers` threads (default: the active processor count).
    public init(columnMap: V2ColumnMap? = nil, workers: Int? = nil, batchBytes: Int = 1 << 20) {
        reader = V2RecordReader(columnMap: columnMap)
        self.workers = max(1, workers ?? ProcessInfo.processInfo.activeProcessorCount)
        self.batchBytes = max(1, batchBytes)
    }

    /// Calls `body` with the outcome of every record of `files`, in order, as `V2RecordReader.read` does.
    /// Errors thrown by `body`, and reading failures other than an unreadable file, stop the run and are rethrown.
    public func read(_ files: [InputFile], _ body: (V2ReadOutcome) throws -> Void) throws {
        var run: [InputFile] = []
        for file in files {
            if V2RecordReader.isCSV(file.path) {
                try readParallel(run, body)
                run = []
                try reader.read(file, body)
            } else {
                run.append(file)
            }
        }
        try readParallel(run, body)
    }

    // MARK: - Private

    /// What the reader thread hands to workers.
    private enum Item: @unchecked Sendable {
        /// A split record or broken item.
        case item(InputItem)
        /// A file that could not be read (from that point on): one reject.
        case unreadable(ASNError)
        /// A failure that ends the run here.
        case failure(any Error)
    }

    /// What a worker hands back: the outcomes of a batch, and the failure ending it, if any.
    private struct Decoded: @unchecked Sendable {
        /// Outcomes in input order.
        var outcomes: [V2ReadOutcome] = []
        /// The failure after them.
        var failure: (any Error)?
    }

    /// Reads non-CSV `files` through the threads.
    private func readParallel(_ files: [InputFile], _ body: (V2ReadOutcome) throws -> Void) throws {
        guard !files.isEmpty else { return }
        let queue = OrderedBatchQueue<[Item], Decoded>(capacity: 2 * workers + 2)
        let batchBytes = self.batchBytes
        let splitter = Thread {
            Self.split(files, batchBytes: batchBytes, queue: queue)
        }
        splitter.stackSize = 1 << 20
        splitter.start()
        let decoder = reader.decoder
        for _ in 0..<workers {
            let worker = Thread {
                while let (sequence, items) = queue.take() {
                    queue.deliver(sequence, Self.decode(items, decoder))
                }
            }
            worker.stackSize = 4 << 20
            worker.start()
        }
        defer { queue.cancel() }
        var next = 0
        while let batch = queue.result(next) {
            next += 1
            for outcome in batch.outcomes { try body(outcome) }
            if let failure = batch.failure { throw failure }
        }
    }

    /// The reader thread: splits every file and queues batches, then marks the end.
    private static func split(_ files: [InputFile], batchBytes: Int, queue: OrderedBatchQueue<[Item], Decoded>) {
        var items: [Item] = []
        var bytes = 0
        func flush() -> Bool {
            defer { items = []; bytes = 0 }
            return queue.add(items)
        }
        readFiles: for file in files {
            do {
                try RecordReader(file: file).forEach { item in
                    items.append(.item(item))
                    if case .record(let record) = item { bytes += record.bytes.count }
                    if bytes >= batchBytes && !flush() { throw CancellationError() }
                }
            } catch let error as ASNError where error.code == .unreadableInput {
                // As V2RecordReader does: the rest of an unreadable file is one reject, and reading goes on.
                items.append(.unreadable(error))
            } catch is CancellationError {
                break readFiles
            } catch {
                items.append(.failure(error))
                break readFiles
            }
        }
        if !items.isEmpty { _ = flush() }
        queue.finishReading()
    }

    /// A worker's job: decode one batch.
    private static func decode(_ items: [Item], _ decoder: V2RecordDecoder) -> Decoded {
        var decoded = Decoded()
        decoded.outcomes.reserveCapacity(items.count)
        for item in items {
            switch item {
            case .item(.record(let record)): decoded.outcomes.append(contentsOf: decoder.decode(record))
            case .item(.broken(let error)), .unreadable(let error): decoded.outcomes.append(.rejected(error))
            case .failure(let error):
                decoded.failure = error
                return decoded
            }
        }
        return decoded
    }
}
