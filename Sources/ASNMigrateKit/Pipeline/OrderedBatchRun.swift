import Foundation

/// What the splitting thread hands to workers: split items, or an error that ends the run at that point.
enum ReadItem: @unchecked Sendable {
    /// A record or broken item (the rest of an unreadable file arrives as one broken item).
    case item(InputItem)
    /// A failure to pass on in order.
    case failure(any Error)
}

/// Splits files into record batches on one thread, processes batches on worker threads, and hands the results to
/// the caller strictly in input order, with at most `capacity` batches alive at once.
///
/// Shared by `migrate`'s pipeline and `reconcile`'s parallel V2 reader, so both behave like their sequential loops:
/// a file that fails part way (corrupt gzip, read error) becomes one broken item and reading goes on.
enum OrderedBatchRun {
    /// Runs `process` on batches of about `batchBytes` of `files` on `workers` threads, calling `consume` in order.
    /// An error thrown by `consume` stops every thread and is rethrown.
    static func run<Result>(files: [InputFile], batchBytes: Int, workers: Int, capacity: Int,
                            process: @escaping @Sendable ([ReadItem]) -> Result,
                            consume: (Result) throws -> Void) throws {
        let queue = OrderedBatchQueue<[ReadItem], Result>(capacity: capacity)
        let splitter = Thread {
            split(files, batchBytes: batchBytes, queue: queue)
        }
        splitter.stackSize = 1 << 20
        splitter.start()
        for _ in 0..<max(1, workers) {
            let worker = Thread {
                while let (sequence, items) = queue.take() {
                    queue.deliver(sequence, process(items))
                }
            }
            worker.stackSize = 4 << 20
            worker.start()
        }
        defer { queue.cancel() }
        var next = 0
        while let result = queue.result(next) {
            next += 1
            try consume(result)
        }
    }

    // MARK: - Private

    /// The splitting thread: cuts every file into batches, then marks the end of reading.
    private static func split<Result>(_ files: [InputFile], batchBytes: Int, queue: OrderedBatchQueue<[ReadItem], Result>) {
        var items: [ReadItem] = []
        var bytes = 0
        func flush() -> Bool {
            defer { items = []; bytes = 0 }
            return queue.add(items)
        }
        readFiles: for file in files {
            do {
                try RecordReader(file: file).forEach { item in
                    if queue.isCancelled { throw CancellationError() }
                    items.append(.item(item))
                    if case .record(let record) = item { bytes += record.bytes.count }
                    if bytes >= batchBytes && !flush() { throw CancellationError() }
                }
            } catch let error as ASNError where error.code == .unreadableInput {
                // As the sequential loops do: the rest of an unreadable file is one reject, and reading goes on.
                items.append(.item(.broken(error)))
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
}
