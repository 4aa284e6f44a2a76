import Foundation

/// `nightly` over a PostgreSQL source: the source is one ledger entry, and a night reads only its new rows.
///
/// With a since-column, a night asks for the rows whose value is at least the high-water mark of the nights before
/// (less `since-overlap` for a time column) and skips the ids it has already read (`source_rows`), so a row inserted
/// late with an older value than the mark is still read as long as it lies within the overlap, and a row is never
/// read twice. Without one, every row is asked for and the known ids are skipped. Rows are deduplicated against the
/// state as file records are (a retry's UUID), and the rest is the files' path: same store, same re-pairing.
extension NightlyPass {
    /// The ledger path naming `source`: its URI without the password, and what is read.
    static func ledgerPath(_ source: PostgresSource) -> String {
        source.describedRoot
    }

    /// Reads the rows of `source` not read before and stores their records; with `remap` (the mapping rules changed)
    /// every row is read again and the source's old records are replaced.
    func ingestDatabase(
        _ source: PostgresSource, store: NightlyStore, run: Int64, backfill: NightlyBackfill?, remap: Bool
    ) throws(ASNError) -> FileOutcome {
        let side = source.side
        let path = Self.ledgerPath(source)
        let sinceColumn = settings.sinceColumn(side: side)
        let tag = "postgres since " + (sinceColumn ?? "-")
        let entry = try store.ledger.ledgerEntry(path: path)
        var outcome = FileOutcome(action: .new)
        let fileId: Int64
        var mark: Int64?
        if let entry {
            fileId = entry.id
            if remap {
                let removed = try store.facts.removeContent(ofFile: fileId)
                outcome.action = .remapped
                outcome.previous = removed.keys
                outcome.replaced = removed.records
                log("\(path): mapping its \(removed.records) stored record(s) again under the rules in force")
            } else if entry.sha1 == tag {
                mark = try store.ledger.sourceMark(file: fileId)
            } else {
                log(
                    "note: \(path): the since-column changed (\(entry.sha1) → \(tag)); every row is asked for again, rows already read are skipped"
                )
            }
        } else {
            fileId = try store.ledger.beginFile(
                path: path, side: side, size: 0, mtimeMs: fileClock, sha1: tag, date: date, run: run)
        }
        let known = try store.ledger.knownRows(file: fileId, from: mark.map { $0 - settings.sinceOverlap })
        let rowLog = PostgresReader.RowLog()
        let reader = PostgresReader(
            source: source,
            incremental: .init(
                sinceColumn: sinceColumn, mark: mark, overlap: settings.sinceOverlap,
                known: known, read: rowLog))
        let file = InputFile(path: source.label)
        var result = outcome
        do {
            if side == "v1" {
                try V1FactsPipeline(table: table, receipts: receipts.kept ? .init() : nil).run(
                    .producer { try reader.v1Records($0) }
                ) { batch in
                    result.bytes += batch.inputBytes
                    try keepV1(
                        batch, file: file, fileId: fileId, store: store, backfill: backfill, lineOffset: 0,
                        into: &result)
                }
            } else {
                var decoder = V2RecordDecoder()
                decoder.signatures = signatures
                try reader.v2Outcomes(decoder: decoder, columnMap: columnMap) { item in
                    switch item {
                    case .rejected(let error):
                        try reject(
                            error, side: "v2", file: file, fileId: fileId, store: store, lineOffset: 0, into: &result)
                    case .record(let record):
                        if signatures != nil && !record.signatureVerified { result.counts.unverified += 1 }
                        try keep(
                            StoredRecord(v2: record), fileId: fileId, store: store, backfill: backfill, lineOffset: 0,
                            into: &result,
                            conflict: { Reconciler.conflict(record.payload) })
                    case .api(let record):
                        try keepAPI(record, file: file, fileId: fileId, store: store, lineOffset: 0, into: &result)
                    }
                }
            }
        } catch let error as ASNError {
            throw error
        } catch {
            throw ASNError(
                .databaseUnavailable,
                "reading \(side) \(source.label) failed: \(error); the state is unchanged; run again later")
        }
        outcome = result
        let rows = rowLog.newRows
        for row in rows { try store.ledger.insertRow(file: fileId, key: row.key, mark: row.mark) }
        let newMark = [mark, rowLog.highestMark].compactMap { $0 }.max()
        try store.ledger.setSourceMark(file: fileId, newMark)
        // Rows below what the next night's filter asks for can never come back: their ids are forgotten.
        if let newMark, sinceColumn != nil {
            try store.ledger.pruneRows(
                file: fileId, below: rowLog.isTimeColumn ? newMark - settings.sinceOverlap : newMark)
        }
        if rows.isEmpty, entry != nil, !remap {
            // Nothing new: as for a file read before and unchanged, the night reads nothing from it.
            return FileOutcome(action: .skipped)
        }
        let size = (entry?.size ?? 0) + Int64(rows.count)
        try store.ledger.extendFile(
            id: fileId, size: size, mtimeMs: fileClock, sha1: tag, date: date, run: run, counts: outcome.counts)
        log(
            "\(path): \(rows.count) new row(s) read"
                + (sinceColumn.map { c in newMark.map { " (\(c) high-water mark \($0))" } ?? "" } ?? ""))
        return outcome
    }
}
