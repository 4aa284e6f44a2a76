import Foundation

/// The `partition` job: one streaming pass over a slice of the input files (`--files J/M`) that writes every item
/// read into the partition of its subscription (`ShardHash`, as `--shard`), each with its original location, and a
/// manifest per partition saying what the slice wrote there and the event-time spans it saw. Each partition then
/// reconciles alone (`reconcile --partition DIR`) and `merge` puts the partitions together into the unsharded report.
///
/// A V1 record goes to its subscription's partition (rejects to 0); a V2 record to the partitions of the
/// notifications it holds (an envelope may hold several; rejects to 0), where `reconcile --partition` keeps only that
/// partition's. Items are decoded here only to learn their key and event time; the bytes written are the input's.
package struct PartitionRun {
    /// What one run does, as parsed from the command line.
    package struct Settings: Sendable {
        /// `--max-record-bytes` and `--require-checksums`.
        package var inputLimits = InputLimits()
        /// `--v1` roots.
        package var v1Roots: [String]
        /// `--v2` roots.
        package var v2Roots: [String]
        /// `--shards N`: how many partitions.
        package var shards: Int
        /// `--files J/M`: the slice of the input files this run reads (0/1: all).
        package var slice = ShardSelection(index: 0, count: 1)
        /// `--out`: the folder the partition folders go into.
        package var out: String
        /// `--gzip`: compress the data files.
        package var gzip = false
        /// `--mappings`.
        package var mappingsDirectory: String?

        /// Settings for `shards` partitions of the roots into `out`.
        package init(v1Roots: [String], v2Roots: [String], shards: Int, out: String) {
            self.v1Roots = v1Roots
            self.v2Roots = v2Roots
            self.shards = shards
            self.out = out
        }
    }

    /// The largest partition count: every partition's data file of a side is open at once.
    package static let maximumShards = 1000
    /// The prefix of every message.
    static let name = "asn-migrate partition"

    /// The run's settings.
    package let settings: Settings
    /// Where messages go.
    package let console: Console
    /// How this run reads its inputs: `settings.inputLimits`, and the zstd frames its readers found unverified.
    let reading: InputReading

    /// A run of `settings` reporting through `console`.
    package init(settings: Settings, console: Console) {
        self.settings = settings
        self.console = console
        self.reading = InputReading(settings.inputLimits)
    }

    /// What workers hand back for one batch: each partition's entries, in input order, and what the batch saw.
    private struct Batch: Sendable {
        /// Partition → the encoded entries for it.
        var entries: [Int: [UInt8]] = [:]
        /// Partition → how many entries.
        var counts: [Int: Int] = [:]
        /// The event-time spans of the batch's records.
        var spans = ShardSpans()
        /// Items read.
        var items = 0
        /// A failure ending the run after this batch.
        var failure: (any Error)?
    }

    /// Runs every step and returns the exit status.
    package func run() -> ExitStatus {
        do throws(ASNError) {
            let table = try MappingLoader.load(settings.mappingsDirectory)
            let (v1, v2) = try inputFiles()
            let lock = try RunLock.acquire(RunLock.lockPath(besideOutput: settings.out + "/" + sliceName))
            defer { lock.release() }
            var spans = ShardSpans()
            let mapper = FastRecordMapper(table: table)
            let v1Files = try write(side: "v1", files: v1, spans: &spans) { record, spans in
                let outcome = mapper.map(record)
                spans.addV1(outcome)
                return [ShardHash.shard(of: outcome, count: settings.shards)]
            }
            let decoder = V2RecordDecoder()
            let v2Files = try write(side: "v2", files: v2, spans: &spans) { record, spans in
                try Self.v2Partitions(record, decoder: decoder, count: settings.shards, spans: &spans)
            }
            try writeManifests(table: table, spans: spans, files: [v1Files, v2Files])
            let items = v1Files.reduce(0) { $0 + $1.items } + v2Files.reduce(0) { $0 + $1.items }
            for input in reading.unverifiedFrames.take() {
                console.diagnostic("\(Self.name): " + UnverifiedFrames.warning(name: input.name, frames: input.frames))
            }
            console.diagnostic(
                "\(Self.name): slice \(settings.slice.text) (\(v1.count) V1 and \(v2.count) V2 file(s)): \(items) item(s) written into \(settings.shards) partition(s) under \(settings.out); reconcile each with 'asn-migrate reconcile --partition \(settings.out)/part-K-of-\(settings.shards)' once every slice has run"
            )
            return .success
        } catch {
            console.diagnostic("\(Self.name): \(error.description); nothing usable written")
            return ExitStatus(stoppedBy: error)
        }
    }

    // MARK: - Steps

    /// `slice-JJJJ-of-MMMM`.
    private var sliceName: String { PartitionManifest.baseName(settings.slice) }

    /// The slice's input files of each side: the files found under the roots, in reading order, cut into
    /// `--files M` runs of consecutive files; refused when the output lies among the inputs.
    private func inputFiles() throws(ASNError) -> (v1: [InputFile], v2: [InputFile]) {
        guard !(settings.v1Roots + settings.v2Roots).contains("-") else {
            throw ASNError(.usage, "partition reads files, not standard input ('-'); give files or folders")
        }
        let v1: [InputFile]
        let v2: [InputFile]
        do {
            v1 = try InputPaths.select(settings.v1Roots, reading: reading).files
            v2 = try InputPaths.select(settings.v2Roots, reading: reading).files.filter {
                !FetchFolder.isOwnFile($0.path)
            }
        } catch let error as ASNError {
            throw error
        } catch {
            throw ASNError(.unreadableInput, "cannot list the input roots: \(error)")
        }
        if let csv = v2.first(where: { V2RecordReader.isCSV($0.path) }) {
            throw ASNError(
                .usage,
                "'\(csv.path)' is a V2 CSV export, which partition does not split yet; reconcile CSV exports with reconcile --shard K/N"
            )
        }
        let roots =
            settings.v1Roots.map { OutputPlan.Input("--v1", $0) }
            + settings.v2Roots.map { OutputPlan.Input("--v2", $0) }
        try OutputPlan(
            outputs: [OutputPlan.Output("--out", settings.out, kind: .folder)], inputs: roots, inputFiles: v1 + v2
        ).check()
        return (slice(v1), slice(v2))
    }

    /// This run's run of consecutive `files`.
    private func slice(_ files: [InputFile]) -> [InputFile] {
        let (j, m) = (settings.slice.index, settings.slice.count)
        return Array(files[(j * files.count / m)..<((j + 1) * files.count / m)])
    }

    /// Reads one side's files on every core and writes each item into the partitions `partitions` names (it also
    /// widens the spans); returns the data files written, one per partition.
    private func write(
        side: String, files: [InputFile], spans: inout ShardSpans,
        partitions: @escaping @Sendable (RawRecord, inout ShardSpans) throws -> [Int]
    ) throws(ASNError) -> [PartitionManifest.DataFile] {
        var writers: [PartitionDataWriter] = []
        for k in 0..<settings.shards {
            writers.append(
                try PartitionDataWriter(
                    folder: settings.out + "/"
                        + PartitionManifest.folderName(ShardSelection(index: k, count: settings.shards)),
                    name: "\(side)/\(sliceName).asnpart" + (settings.gzip ? ".gz" : ""), gzip: settings.gzip))
        }
        let workers = ProcessInfo.processInfo.activeProcessorCount
        var seen = spans
        do {
            try OrderedBatchRun.run(
                .files(files), batchBytes: 2 << 20, workers: workers, capacity: 2 * workers + 2,
                process: { items in Self.encode(items, side: side, partitions: partitions) }
            ) { (batch: Batch) in
                for k in batch.entries.keys.sorted() {
                    try writers[k].write(batch.entries[k] ?? [], items: batch.counts[k] ?? 0)
                }
                seen.formUnion(batch.spans)
                if let failure = batch.failure { throw failure }
            }
        } catch {
            for writer in writers { writer.abort() }
            throw (error as? ASNError) ?? ASNError(.unreadableInput, "reading the \(side) files failed: \(error)")
        }
        spans = seen
        var written: [PartitionManifest.DataFile] = []
        for writer in writers { written.append(try writer.finish(side: side)) }
        return written
    }

    /// A worker's job: each item's entry for the partitions it belongs to; a V1 record's secrets (`password`,
    /// `latest_receipt`) are left out, as from every output.
    private static func encode(
        _ items: [ReadItem], side: String, partitions: @Sendable (RawRecord, inout ShardSpans) throws -> [Int]
    ) -> Batch {
        var batch = Batch()
        for item in items {
            let targets: [Int]
            let entry: InputItem
            switch item {
            case .item(.record(let record)):
                do {
                    targets = try partitions(record, &batch.spans)
                } catch {
                    batch.failure = error
                    return batch
                }
                var kept = record
                if side == "v1" { kept.bytes = V1SecretStripper.strip(record.bytes) }
                entry = .record(kept)
            case .item(.broken(let error)):
                targets = [0]
                entry = .broken(error)
            case .failure(let error):
                batch.failure = error
                return batch
            }
            batch.items += 1
            for k in targets {
                PartitionFile.append(entry, to: &batch.entries[k, default: []])
                batch.counts[k, default: 0] += 1
            }
        }
        return batch
    }

    /// The partitions of a V2 record: of each notification it holds (a reject's: 0), once each, in order; API
    /// records and CSV rows are refused.
    private static func v2Partitions(
        _ record: RawRecord, decoder: V2RecordDecoder, count: Int, spans: inout ShardSpans
    ) throws(ASNError) -> [Int] {
        if V2RecordReader.isCSV(record.location.path) {
            throw ASNError(
                .usage,
                "'\(record.location.path)' is a V2 CSV export, which partition does not split yet; reconcile CSV exports with reconcile --shard K/N"
            )
        }
        var targets: [Int] = []
        for outcome in decoder.decode(record) {
            let k: Int
            switch outcome {
            case .record(let r):
                spans.addV2(r.payload)
                k = ShardHash.shard(of: r.payload, count: count)
            case .rejected: k = 0
            case .api:
                throw ASNError(
                    .usage,
                    "\(record.location.source) holds App Store Server API records (transactions, statuses), which partition does not split yet; reconcile them without sharding"
                )
            }
            if !targets.contains(k) { targets.append(k) }
        }
        return targets
    }

    /// Each partition's manifest for this slice, written last (atomically), so a partition folder with every
    /// slice's manifest is complete.
    private func writeManifests(table: MappingTable, spans: ShardSpans, files: [[PartitionManifest.DataFile]])
        throws(ASNError)
    {
        let inputs =
            settings.v1Roots.map { RunInfo.Input(side: "v1", root: $0) }
            + settings.v2Roots.map { RunInfo.Input(side: "v2", root: $0) }
        for k in 0..<settings.shards {
            let shard = ShardSelection(index: k, count: settings.shards)
            let manifest = PartitionManifest(
                shard: shard, slice: settings.slice, mappingDigest: String(table.digest),
                toolVersion: BuildInfo.versionNumber, inputs: inputs, spans: spans, files: files.map { $0[k] })
            try OutputFile.writeWhole(
                manifest.bytes,
                to: settings.out + "/" + PartitionManifest.folderName(shard) + "/"
                    + PartitionManifest.fileName(settings.slice))
        }
    }
}
