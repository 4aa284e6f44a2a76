import Foundation

/// Splits files into record batches on one thread, processes batches on worker threads, and hands the results to
/// the caller strictly in input order, with at most `capacity` batches alive at once (`OrderedWorkers`).
///
/// Shared by `migrate`'s pipeline and `reconcile`'s readers, so both behave like their sequential loops: a file that
/// fails part way (corrupt gzip, read error) becomes one broken item and reading goes on.
enum OrderedBatchRun {
    /// Runs `process` on batches of about `batchBytes` of `source`'s records on `workers` threads, calling `consume`
    /// in order. An error thrown by `consume` stops every thread and is rethrown once they have all ended; what a
    /// producer throws ends the run there and is rethrown in order.
    static func run<Result: Sendable>(
        _ source: RecordSource, batchBytes: Int, workers: Int, capacity: Int,
        process: @escaping @Sendable ([ReadItem]) -> Result,
        consume: (Result) throws -> Void
    ) throws {
        try OrderedWorkers.run(
            workers: workers, capacity: capacity,
            produce: { feed in
                switch source {
                case .files(let files): split(files, batchBytes: batchBytes, feed: feed)
                case .producer(let produce): split(produce, batchBytes: batchBytes, feed: feed)
                }
            },
            process: process, consume: consume)
    }

    // MARK: - Private

    /// The splitting thread: cuts every file into batches until the files end or the run stops.
    private static func split(_ files: [InputFile], batchBytes: Int, feed: OrderedWorkers.Feed<[ReadItem]>) {
        // No nested function shares these two: a variable a local function captures is checked for exclusive
        // access at run time on every use (a record's worth of work on the splitting thread).
        var items: [ReadItem] = []
        var bytes = 0
        readFiles: for file in files {
            do {
                try RecordReader(file: file).forEach { item in
                    // Every 64th item: asking takes the queue's lock, which the workers and the consumer share.
                    if items.count & 63 == 0 && feed.isCancelled() { throw CancellationError() }
                    items.append(.item(item))
                    if case .record(let record) = item { bytes += record.bytes.count }
                    if bytes >= batchBytes {
                        let batch = items
                        items = []
                        bytes = 0
                        if !feed.add(batch) { throw CancellationError() }
                    }
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
        if !items.isEmpty { _ = feed.add(items) }
    }

    /// The splitting thread over a producer: batches its items until it returns, throws or the run stops.
    private static func split(
        _ produce: (_ emit: (InputItem) throws -> Void) throws -> Void, batchBytes: Int,
        feed: OrderedWorkers.Feed<[ReadItem]>
    ) {
        var items: [ReadItem] = []
        var bytes = 0
        do {
            try produce { item in
                if feed.isCancelled() { throw CancellationError() }
                items.append(.item(item))
                if case .record(let record) = item { bytes += record.bytes.count }
                if bytes >= batchBytes {
                    defer {
                        items = []
                        bytes = 0
                    }
                    if !feed.add(items) { throw CancellationError() }
                }
            }
        } catch is CancellationError {
            return
        } catch {
            items.append(.failure(error))
        }
        if !items.isEmpty { _ = feed.add(items) }
    }
}

/// Where a run's records come from: the records of files, or the items a producer emits (a database's rows), which
/// runs on the splitting thread.
package enum RecordSource: Sendable {
    /// The records of these files, in order.
    case files([InputFile])
    /// The items the closure emits.
    case producer(@Sendable (_ emit: (InputItem) throws -> Void) throws -> Void)
}
