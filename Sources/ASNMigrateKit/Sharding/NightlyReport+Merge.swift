extension NightlyReport {
    /// The `summary.csv` metrics of a night that every shard reports alike (each shard reads every file, and the
    /// period, freshness and settings are the whole run's), so `merge` checks them equal instead of summing them.
    package static let sharedMetrics: Set<String> = [
        "run_date", "files_ingested", "files_vanished", "files_deferred", "lines_deferred", "files_appended",
        "files_changed", "files_renamed", "files_same_content", "unverified_frames", "files_in_ledger", "period_start",
        "period_end",
        "window_ms", "settle_ms", "v1_newest_record", "v1_newest_file", "v1_max_lag_ms", "v1_stale",
        "v2_newest_record", "v2_newest_file", "v2_max_lag_ms", "v2_stale"
    ]

    /// How `merge` combines the shards of one night (`nightly --shard K/N`) into the unsharded night's report: the
    /// difference files sorted again by their differences, rejects in shard order (all are shard 0's), summary figures
    /// summed or checked equal. `report.html` is not written: it shows the state's file ledger, which no merge has.
    package static let mergeLayout = ReportMerge.Layout(
        command: "nightly", fileNames: fileNames,
        rows: {
            (name: String, tables: [ReportMerge.Table], folders: [ReportMerge.Folder]) throws(ASNError) -> [[String]] in
            switch name {
            case "summary.csv": return try mergedSummary(tables, folders: folders)
            case "rejected.csv": return tables.flatMap(\.rows)
            default: return ReportMerge.sortedByDifference(tables.flatMap(\.rows))
            }
        },
        verdict: { files, verdict in mergedVerdict(files, verdict) })

    /// A night's merged `summary.csv`, with every record read accounted for on each side.
    private static func mergedSummary(_ tables: [ReportMerge.Table], folders: [ReportMerge.Folder]) throws(ASNError)
        -> [[String]]
    {
        let merged = try ReportMerge.summed(tables, folders: folders, shared: sharedMetrics)
        var figures: [String: Int] = [:]
        for row in merged { if let value = Int(row[1]) { figures[row[0]] = value } }
        for side in ["v1", "v2"] {
            let terms = ["records_stored", "duplicates", "other_environment", "rejected"].map { "\(side)_\($0)" }
            let sum = terms.reduce(0) { $0 + (figures[$1] ?? 0) }
            guard figures["\(side)_records_read"] == sum else {
                throw ASNError(
                    .badShards,
                    "the merged \(side)_records_read is \(figures["\(side)_records_read"] ?? 0) but its parts (\(terms.joined(separator: " + "))) add up to \(sum): a shard's summary.csv was changed or cut short; run that night's shards again"
                )
            }
        }
        return merged
    }

    /// The console line and exit status of a merged night, from its files, as the unsharded night judges it
    /// (`status`): 3 when a side is stale, rejected too much or is empty while the other is not, 1 with new
    /// differences or rejects, else 0.
    private static func mergedVerdict(_ files: [(name: String, bytes: [UInt8])], _ verdict: ReportMerge.Verdict)
        -> ExitStatus
    {
        var rows: [String: [[String]]] = [:]
        for file in files {
            rows[file.name] = (try? CSVReader.read(file.bytes, path: file.name).records.map(\.fields)) ?? []
        }
        var figures: [String: String] = [:]
        for row in rows["summary.csv"] ?? [] where row.count == 2 { figures[row[0]] = row[1] }
        let f = { (metric: String) in Int(figures[metric] ?? "") ?? 0 }
        let count = { (file: String) in rows[file]?.count ?? 0 }
        verdict.console.diagnostic(
            "\(verdict.label): \(verdict.what); new \(count("new.csv")), resolved \(count("resolved.csv")), open \(count("open.csv")), pending \(count("pending.csv")), rejected \(count("rejected.csv")); report: \(verdict.directory)"
        )
        let read = ["v1", "v2"].map { side in
            SanityCheck.Side(name: side.uppercased(), read: f("\(side)_records_read"), rejected: f("\(side)_rejected"))
        }
        let stored = ["v1", "v2"].map { side in
            SanityCheck.Side(name: side.uppercased(), read: f("\(side)_records_in_state"), rejected: 0)
        }
        let failed =
            [sanityFailure(read: read, stored: stored, maxRejectRate: verdict.maxRejectRate)].compactMap { $0 }
            + ["v1", "v2"].filter { f("\($0)_stale") == 1 }.map {
                "stale: the \($0.uppercased()) side is late (\($0)_newest_record \(figures["\($0)_newest_record"] ?? ""))"
            }
        if !failed.isEmpty {
            verdict.console.diagnostic("\(verdict.label): \(failed.joined(separator: "; ")) (exit 3)")
            return .sanityCheckFailed
        }
        return count("new.csv") > 0 || count("rejected.csv") > 0 ? .findings : .success
    }
}
