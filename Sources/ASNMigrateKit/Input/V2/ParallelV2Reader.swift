import Foundation

/// Reads V2 records like `V2RecordReader`, but decodes JSON and JWS records on several threads.
///
/// One thread splits the files into records (`RecordReader`) and cuts them into batches of about `batchBytes`;
/// `workers` threads decode whole batches with `V2RecordDecoder` (JSON parse, JWS payloads, content digest); the
/// caller's thread receives the outcomes strictly in input order, so what `body` sees is exactly what
/// `V2RecordReader.read` gives. CSV exports are read by `V2RecordReader` itself, in their place among the files.
package struct ParallelV2Reader: Sendable {
    /// The sequential reader, for CSV files and the decoder.
    package var reader: V2RecordReader
    /// Decoding threads.
    package var workers: Int
    /// Raw bytes per batch, roughly.
    package var batchBytes: Int

    /// A reader using `columnMap` for CSV files and `workers` threads (default: the active processor count).
    package init(columnMap: V2ColumnMap? = nil, workers: Int? = nil, batchBytes: Int = 1 << 20) {
        reader = V2RecordReader(columnMap: columnMap)
        self.workers = max(1, workers ?? ProcessInfo.processInfo.activeProcessorCount)
        self.batchBytes = max(1, batchBytes)
    }

    /// Calls `body` with the outcome of every record of `files`, in order, as `V2RecordReader.read` does, and
    /// `progress` with the input bytes (records and line breaks) and the outcomes of each batch of JSON input after them.
    /// Errors thrown by `body`, and reading failures other than an unreadable file, stop the run and are rethrown.
    package func read(
        _ files: [InputFile], progress: (_ bytes: Int, _ outcomes: Int) -> Void = { _, _ in },
        _ body: (V2ReadOutcome) throws -> Void
    ) throws {
        var run: [InputFile] = []
        for file in files {
            // CSV exports, and archives (whose members may be CSV), are read in their place by the sequential reader.
            if V2RecordReader.isCSV(file.path) || file.holdsArchive() {
                try readParallel(run, progress, body)
                run = []
                try reader.read(file, body)
            } else {
                run.append(file)
            }
        }
        try readParallel(run, progress, body)
    }

    // MARK: - Private

    /// What a worker hands back: the outcomes of a batch, and the failure ending it, if any.
    private struct Decoded: Sendable {
        /// Outcomes in input order.
        var outcomes: [V2ReadOutcome] = []
        /// Input bytes of the batch's records, each with its line break.
        var inputBytes = 0
        /// The failure after them.
        var failure: (any Error)?
    }

    /// Reads non-CSV `files` through the threads.
    private func readParallel(
        _ files: [InputFile], _ progress: (Int, Int) -> Void, _ body: (V2ReadOutcome) throws -> Void
    ) throws {
        guard !files.isEmpty else { return }
        let decoder = reader.decoder
        try OrderedBatchRun.run(
            .files(files), batchBytes: batchBytes, workers: workers, capacity: 2 * workers + 2,
            process: { Self.decode($0, decoder) }
        ) { batch in
            for outcome in batch.outcomes { try body(outcome) }
            progress(batch.inputBytes, batch.outcomes.count)
            if let failure = batch.failure { throw failure }
        }
    }

    /// A worker's job: decode one batch.
    private static func decode(_ items: [ReadItem], _ decoder: V2RecordDecoder) -> Decoded {
        var decoded = Decoded()
        decoded.outcomes.reserveCapacity(items.count)
        let scratch = V2DecodeScratch()
        for item in items {
            switch item {
            case .item(.record(let record)):
                decoded.inputBytes += record.bytes.count + 1
                decoder.decode(record, scratch: scratch, into: &decoded.outcomes)
            case .item(.broken(let error)): decoded.outcomes.append(.rejected(error))
            case .failure(let error):
                decoded.failure = error
                return decoded
            }
        }
        return decoded
    }
}
