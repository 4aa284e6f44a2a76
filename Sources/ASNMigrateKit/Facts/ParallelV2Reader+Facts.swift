extension ParallelV2Reader {
    /// Calls `body` with the facts (or, for API records and rejects, the outcome) of every record of `files`, in
    /// order, as `read` would give their outcomes: JSON and JWS records are packed on the worker threads straight from
    /// their bytes (`V2FactsPacker`), with no model or `String`; `texts` holds the facts' texts.
    package func readFacts(
        _ files: [InputFile], progress: (_ bytes: Int, _ outcomes: Int) -> Void = { _, _ in },
        _ body: (_ item: V2FactsItem, _ texts: FactTexts) throws -> Void
    ) throws {
        var run: [InputFile] = []
        let decoder = reader.decoder
        /// The files gathered so far, through the threads.
        func flush() throws {
            guard !run.isEmpty else { return }
            try OrderedBatchRun.run(
                .files(run), batchBytes: batchBytes, workers: workers, capacity: 2 * workers + 2,
                process: { Self.pack($0, decoder) }
            ) { batch in
                for item in batch.items { try body(item, batch.texts) }
                progress(batch.inputBytes, batch.items.count)
                if let failure = batch.failure { throw failure }
            }
            run = []
        }
        for file in files {
            if V2RecordReader.isCSV(file.path) || file.holdsArchive() {
                try flush()
                try reader.read(file) { outcome in
                    var texts = FactTexts()
                    let item = V2FactsItem(outcome, texts: &texts)
                    try body(item, texts)
                }
            } else {
                run.append(file)
            }
        }
        try flush()
    }

    // MARK: - Private

    /// What a facts worker hands back: the items of a batch with their texts, and the failure ending it, if any.
    private struct Packed: Sendable {
        /// Items in input order.
        var items: [V2FactsItem] = []
        /// The facts' texts.
        var texts = FactTexts()
        /// Input bytes of the batch's records, each with its line break.
        var inputBytes = 0
        /// The failure after them.
        var failure: (any Error)?
    }

    /// A facts worker's job: pack one batch, leaving what the fast path declines to the decoder.
    private static func pack(_ items: [ReadItem], _ decoder: V2RecordDecoder) -> Packed {
        var packed = Packed()
        packed.items.reserveCapacity(items.count)
        let scratch = V2DecodeScratch()
        let packer = V2FactsPacker()
        for item in items {
            switch item {
            case .item(.record(let record)):
                packed.inputBytes += record.bytes.count + 1
                if packer.pack(record, decoder: decoder, scratch: scratch) {
                    packed.items.append(.facts(packer.facts, verified: false))
                    continue
                }
                for outcome in decoder.referenceDecode(record) {
                    packed.items.append(V2FactsItem(outcome, texts: &packer.texts))
                }
            case .item(.broken(let error)): packed.items.append(.other(.rejected(error)))
            case .failure(let error):
                packed.failure = error
                swap(&packed.texts, &packer.texts)
                return packed
            }
        }
        swap(&packed.texts, &packer.texts)
        return packed
    }
}
