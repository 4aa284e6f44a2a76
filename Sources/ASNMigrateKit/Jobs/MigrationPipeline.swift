import Foundation

/// Reads, maps and renders `migrate` input on several threads, handing batches back in input order.
///
/// One thread splits the files into records (`RecordReader`) and cuts them into batches of about `batchBytes`;
/// `workers` threads map (and optionally render) whole batches; the caller's thread receives them strictly in input
/// order, so output, rejects and counts are exactly those of a sequential run. At most `maxBatchesInFlight` batches
/// exist at once (read, waiting, mapped or waiting to be consumed), so memory stays flat whatever the input size.
package struct MigrationPipeline: Sendable {
    /// The per-record stage.
    package let mapper: any RecordMapping
    /// Mapping threads.
    package let workers: Int
    /// Raw bytes per batch, roughly.
    package let batchBytes: Int
    /// Batches alive at once.
    package let maxBatchesInFlight: Int
    /// With it, rendered records are written straight from their bytes where `TapeMigrator` can (`migrate`'s JSON
    /// Lines), and counted by route in the batch instead of given an outcome.
    package let direct: TapeMigration?

    /// Creates a pipeline; `workers` defaults to the active processor count.
    package init(
        mapper: any RecordMapping, workers: Int? = nil, batchBytes: Int = 2 << 20, maxBatchesInFlight: Int? = nil,
        direct: TapeMigration? = nil
    ) {
        self.mapper = mapper
        self.direct = direct
        self.workers = max(1, workers ?? ProcessInfo.processInfo.activeProcessorCount)
        self.batchBytes = max(1, batchBytes)
        self.maxBatchesInFlight = max(1, maxBatchesInFlight ?? 2 * self.workers + 2)
    }

    /// Runs the pipeline over `source`'s records, calling `consume` with each batch in input order on the calling
    /// thread. With `renderJSONLines`, workers also render migrated payloads as `MigrationOutput.appendJSONLine` does.
    /// An error thrown by `consume`, or a batch's `failure`, stops the run and is rethrown after the threads end.
    /// With `keep`, workers drop the outcomes it refuses (`migrate --shard`: another shard's records).
    package func run(
        _ source: RecordSource, renderJSONLines: Bool, keep: (@Sendable (V1RecordOutcome) -> Bool)? = nil,
        consume: (MigrationBatch) throws -> Void
    ) throws {
        let mapper = self.mapper
        let reserve = batchBytes / 4
        let direct = renderJSONLines && keep == nil ? self.direct.map { TapeMigratorPool(plan: $0) } : nil
        try OrderedBatchRun.run(
            source, batchBytes: batchBytes, workers: workers, capacity: maxBatchesInFlight,
            process: {
                Self.map($0, mapper: mapper, render: renderJSONLines, keep: keep, direct: direct, reserve: reserve)
            }
        ) { batch in
            if let failure = batch.failure { throw failure }
            try consume(batch)
        }
    }

    // MARK: - Private

    /// A worker's job: map (and render) one batch; with `direct`, records are written straight from their bytes
    /// where they can be.
    private static func map(
        _ items: [ReadItem], mapper: any RecordMapping, render: Bool, keep: (@Sendable (V1RecordOutcome) -> Bool)?,
        direct: TapeMigratorPool?, reserve: Int
    ) -> MigrationBatch {
        var batch = MigrationBatch()
        let migrator = direct?.take()
        defer { if let migrator { direct?.give(migrator) } }
        if let migrator {
            batch.directRoutes = Array(repeating: 0, count: migrator.routeCount)
            // V2 JSON comes to about a fifth of the V1 bytes: room for a quarter of a batch spares the doublings
            // (each a copy).
            batch.jsonLines.reserveCapacity(reserve)
        } else {
            batch.outcomes.reserveCapacity(items.count)
        }
        for item in items {
            let outcome: V1RecordOutcome
            switch item {
            case .item(.record(let record)):
                batch.inputBytes += record.bytes.count + 1
                if let migrator, let route = migrator.migrate(record, into: &batch.jsonLines) {
                    batch.directRoutes[route] += 1
                    batch.directCount += 1
                    continue
                }
                outcome = mapper.map(record)
            case .item(.broken(let error)): outcome = .rejected(error)
            case .failure(let error):
                batch.failure = error
                return batch
            }
            if let keep, !keep(outcome) { continue }
            if render, case .migrated(let payload) = outcome {
                MigrationOutput.appendJSONLine(payload, to: &batch.jsonLines)
            }
            batch.outcomes.append(outcome)
        }
        return batch
    }
}
