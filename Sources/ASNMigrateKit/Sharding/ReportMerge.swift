/// Combines the report folders of one sharded `reconcile` run, or of one night of a sharded `nightly`, into the report
/// the unsharded run writes, byte for byte (a night's without its `report.html`).
///
/// Pure: folders come in as file contents, the merged files go out. Shards hold disjoint subscriptions and every
/// record without a subscription key (rejects, TEST notifications) is in shard 0, so:
/// - `differences.csv`, `pending.csv` rows are gathered and sorted again in the report order (`Discrepancy.reportOrder`);
/// - `subscriptions.csv` rows are gathered and sorted by environment and originalTransactionId;
/// - `mapping-coverage.csv` counts are summed per V1 type, V2 type, subtype and rule, and sorted again;
/// - `rejected.csv` rows and `rejects_by_cause` rows are taken in shard order (shard 0 holds them all);
/// - `summary.csv` counts are summed; the figures every shard shares (period, window, tolerance, run date, version,
///   inputs) must be equal; and both accounting identities must hold for the sums.
package enum ReportMerge {
    /// One shard's report folder: its name (for errors) and its files by name.
    package struct Folder: Sendable {
        /// The folder as given on the command line.
        package var name: String
        /// File name → bytes.
        package var files: [String: [UInt8]]

        /// Creates a folder.
        package init(name: String, files: [String: [UInt8]]) {
            self.name = name
            self.files = files
        }
    }

    /// The `summary.csv` metrics every shard reports alike (not summed).
    package static let sharedMetrics: Set<String> = [
        "period_start", "period_end", "window_ms", "time_tolerance_ms", "run_date", "tool_version", "v1_input",
        "v2_input"
    ]

    /// How the shard folders of one command merge: its report files in order, how each file's rows combine, and
    /// how the merged report is judged. `reconcile`'s is `reconcileLayout`; `nightly`'s is `NightlyReport.mergeLayout`.
    package struct Layout: Sendable {
        /// The command whose shard folders it merges (`shard.csv`'s `command`).
        package var command: String
        /// The report files, in the order they are written.
        package var fileNames: [String]
        /// One file's merged rows from every shard's rows (`tables`, in shard order, columns already checked equal).
        package var rows:
            @Sendable (_ file: String, _ tables: [Table], _ folders: [Folder]) throws(ASNError) -> [[String]]
        /// The console lines and exit status of the merged report, from its files.
        package var verdict: @Sendable (_ files: [(name: String, bytes: [UInt8])], _ verdict: Verdict) -> ExitStatus

        /// Creates a layout.
        package init(
            command: String, fileNames: [String],
            rows: @escaping @Sendable (String, [Table], [Folder]) throws(ASNError) -> [[String]],
            verdict: @escaping @Sendable ([(name: String, bytes: [UInt8])], Verdict) -> ExitStatus
        ) {
            self.command = command
            self.fileNames = fileNames
            self.rows = rows
            self.verdict = verdict
        }
    }

    /// What judging a merged report needs besides its files.
    package struct Verdict {
        /// The job's name, which console lines begin with.
        package var label: String
        /// What was merged, for the first console line.
        package var what: String
        /// The report folder as given.
        package var directory: String
        /// `--max-reject-rate`.
        package var maxRejectRate: Double
        /// Where the lines go.
        package var console: Console

        /// Creates the settings of a verdict.
        package init(label: String, what: String, directory: String, maxRejectRate: Double, console: Console) {
            self.label = label
            self.what = what
            self.directory = directory
            self.maxRejectRate = maxRejectRate
            self.console = console
        }
    }

    /// One report file of a shard: its header and its rows of cells.
    package typealias Table = (header: [String], rows: [[String]])

    /// `reconcile`'s layout.
    package static let reconcileLayout = Layout(
        command: "reconcile", fileNames: ReconciliationReport.fileNames,
        rows: { (name: String, tables: [Table], folders: [Folder]) throws(ASNError) -> [[String]] in
            try reconcileRows(name, tables, folders)
        },
        verdict: { files, verdict in
            MergedReportVerdict.finish(
                files, label: verdict.label, what: verdict.what, directory: verdict.directory,
                maxRejectRate: verdict.maxRejectRate, console: verdict.console)
        })

    /// The merged report of a whole sharded run of one of `layouts`' commands (by the shards' `shard.csv`), with that
    /// layout, or an error naming the folder at fault.
    package static func merge(_ folders: [Folder], layouts: [Layout]) throws(ASNError) -> (
        files: [(name: String, bytes: [UInt8])], layout: Layout
    ) {
        let (ordered, command) = try checkWhole(folders)
        guard let layout = layouts.first(where: { $0.command == command }) else {
            throw ASNError(
                .badShards,
                "'\(ordered[0].name)' holds a shard of '\(command)', which merge does not combine; merge the folders of reconcile --shard or nightly --shard runs",
                at: SourceLocation(path: ordered[0].name + "/" + ShardManifest.fileName))
        }
        var merged: [(name: String, bytes: [UInt8])] = []
        for name in layout.fileNames {
            let tables = try checkedTables(name, ordered)
            merged.append(
                (name, CSVWriter.renderBytes(header: tables[0].header, rows: try layout.rows(name, tables, ordered))))
        }
        return (merged, layout)
    }

    /// The merged report files of a sharded `reconcile`, in `ReconciliationReport.fileNames` order, or an error
    /// naming the folder at fault.
    package static func reconcile(_ folders: [Folder]) throws(ASNError) -> [(name: String, bytes: [UInt8])] {
        try merge(folders, layouts: [reconcileLayout]).files
    }

    /// One of `reconcile`'s files merged: difference and pending rows sorted again, subscriptions by their key,
    /// coverage counts and summary figures summed, rejects in shard order.
    private static func reconcileRows(_ name: String, _ tables: [Table], _ folders: [Folder]) throws(ASNError)
        -> [[String]]
    {
        var rows = tables.flatMap(\.rows)
        switch name {
        case "differences.csv", "pending.csv":
            rows.sort { Discrepancy.reportOrder(cells: $0, $1) }
        case "subscriptions.csv":
            rows.sort { UTF8Order.precedes([$0[0], $0[1]], [$1[0], $1[1]]) }
        case "mapping-coverage.csv":
            rows = try coverage(rows, folders: folders)
        case "summary.csv":
            rows = try summary(tables, folders: folders)
        default:
            break
        }
        return rows
    }

    /// Rows whose first cells are a difference's, sorted again in the report order; rows whose differences tie are
    /// one subscription's, so one shard's, and keep their order.
    package static func sortedByDifference(_ rows: [[String]]) -> [[String]] {
        let width = Discrepancy.columns.count
        // Each row's difference cells cut once, not at every comparison.
        let keyed = rows.enumerated().map { (key: Array($0.element.prefix(width)), offset: $0.offset, row: $0.element) }
        return keyed.sorted { a, b in
            if a.key != b.key { return Discrepancy.reportOrder(cells: a.key, b.key) }
            return a.offset < b.offset
        }.map(\.row)
    }

    /// One report file of every folder, each with the first folder's columns.
    private static func checkedTables(_ name: String, _ ordered: [Folder]) throws(ASNError) -> [Table] {
        let tables = try ordered.map { folder throws(ASNError) in try table(folder, name) }
        for (folder, table) in zip(ordered, tables) where table.header != tables[0].header {
            throw ASNError(
                .badShards,
                "'\(folder.name)/\(name)' has other columns than '\(ordered[0].name)/\(name)': the folders come from different versions; run every shard with the same asn-migrate",
                at: SourceLocation(path: folder.name + "/" + name, line: 1))
        }
        return tables
    }

    // MARK: - Checks

    /// The folders ordered by shard, after checking they are one whole run: every folder a shard folder, one N, one
    /// run date, judgement and version, and every shard 0 ..< N exactly once.
    private static func checkWhole(_ folders: [Folder]) throws(ASNError) -> (ordered: [Folder], command: String) {
        guard !folders.isEmpty else { throw ASNError(.usage, "give the shard report folders to merge") }
        var manifests: [(manifest: ShardManifest, folder: Folder)] = []
        for folder in folders {
            guard let bytes = folder.files[ShardManifest.fileName] else {
                throw ASNError(
                    .badShards,
                    "'\(folder.name)' has no \(ShardManifest.fileName), so it is not a shard's report folder: give the --out folders of 'reconcile --shard K/N' runs",
                    at: SourceLocation(path: folder.name))
            }
            manifests.append((try ShardManifest.parse(bytes, folder: folder.name), folder))
        }
        let first = manifests[0]
        for (manifest, folder) in manifests.dropFirst() {
            let differs: [(String, String, String)] = [
                ("command", manifest.command, first.manifest.command),
                ("shard count", String(manifest.shard.count), String(first.manifest.shard.count)),
                ("run date", manifest.runDate, first.manifest.runDate),
                (
                    "judgement digest (rules, window, tolerance, period, fields)", manifest.judgementDigest,
                    first.manifest.judgementDigest
                ),
                ("tool version", manifest.toolVersion, first.manifest.toolVersion)
            ].filter { $0.1 != $0.2 }
            if let (what, value, expected) = differs.first {
                throw ASNError(
                    .badShards,
                    "'\(folder.name)' is from another run: its \(what) is \(value), '\(first.folder.name)' has \(expected); merge only the shards of one run (same --shard N, --run-date, options and version)",
                    at: SourceLocation(path: folder.name + "/" + ShardManifest.fileName))
            }
        }
        let count = first.manifest.shard.count
        var byIndex: [Int: Folder] = [:]
        for (manifest, folder) in manifests {
            if let earlier = byIndex[manifest.shard.index] {
                throw ASNError(
                    .badShards,
                    "shard \(manifest.shard.text) is given twice: '\(earlier.name)' and '\(folder.name)'; give each shard's folder once",
                    at: SourceLocation(path: folder.name + "/" + ShardManifest.fileName))
            }
            byIndex[manifest.shard.index] = folder
        }
        let missing = (0..<count).filter { byIndex[$0] == nil }
        guard missing.isEmpty else {
            let list = ShardSelection.listed(missing)
            throw ASNError(
                .badShards,
                "shard\(missing.count == 1 ? "" : "s") \(list) of \(count) missing (given: \(folders.map { "'\($0.name)'" }.joined(separator: ", "))); run the missing shard\(missing.count == 1 ? "" : "s") (or rerun the failed array index) and merge again"
            )
        }
        return ((0..<count).compactMap { byIndex[$0] }, first.manifest.command)
    }

    /// One report file of a folder as header and rows of cells, the formula guard undone.
    private static func table(_ folder: Folder, _ name: String) throws(ASNError) -> (header: [String], rows: [[String]])
    {
        let path = folder.name + "/" + name
        guard let bytes = folder.files[name] else {
            throw ASNError(
                .badShards,
                "'\(ConsoleText.path(path))' is missing: the shard's report is incomplete; run that shard again",
                at: SourceLocation(path: path))
        }
        let read: (header: [String], records: [CSVRecord])
        do {
            read = try CSVReader.read(bytes, path: path)
        } catch {
            throw ASNError(
                .badShards,
                "'\(ConsoleText.path(path))' is not a report file: \(error.description); run that shard again",
                at: error.location ?? SourceLocation(path: path))
        }
        let rows = read.records.map { $0.fields.map(CSVFormulaGuard.unguarded) }
        for (k, row) in rows.enumerated() where row.count != read.header.count {
            throw ASNError(
                .badShards,
                "'\(ConsoleText.path(path))' row \(k + 2) has \(row.count) cells, the header \(read.header.count); run that shard again",
                at: SourceLocation(path: path, line: k + 2))
        }
        return (read.header, rows)
    }

    // MARK: - Files

    /// `mapping-coverage.csv`: counts summed per key (the first four cells), sorted by key.
    private static func coverage(_ rows: [[String]], folders: [Folder]) throws(ASNError) -> [[String]] {
        var counts: [[String]: Int] = [:]
        for row in rows {
            guard let count = Int(row[4]) else {
                throw ASNError(
                    .badShards, "a mapping-coverage.csv count is '\(row[4])', not a whole number; run that shard again")
            }
            counts[Array(row.prefix(4)), default: 0] += count
        }
        return counts.keys.sorted(by: UTF8Order.precedes).map { $0 + [String(counts[$0] ?? 0)] }
    }

    /// `summary.csv`: the shards' counts summed, their shared figures checked equal, the causes of rejects in shard
    /// order, and the accounting identities checked.
    private static func summary(_ tables: [(header: [String], rows: [[String]])], folders: [Folder]) throws(ASNError)
        -> [[String]]
    {
        let merged = try summed(tables, folders: folders, shared: sharedMetrics)
        try checkIdentities(merged)
        return merged + tables.flatMap { $0.rows.filter { $0[0] == SummaryJSON.causeMetric } }
    }

    /// The `metric,value` rows of every shard's summary (causes of rejects left out): `shared` metrics checked equal,
    /// the others summed, in the first shard's order.
    package static func summed(_ tables: [Table], folders: [Folder], shared sharedMetrics: Set<String>)
        throws(ASNError) -> [[String]]
    {
        let cause = SummaryJSON.causeMetric
        let first = tables[0].rows.filter { $0[0] != cause }
        var sums = [Int](repeating: 0, count: first.count)
        for (table, folder) in zip(tables, folders) {
            let path = folder.name + "/summary.csv"
            let rows = table.rows.filter { $0[0] != cause }
            guard rows.map({ $0[0] }) == first.map({ $0[0] }) else {
                throw ASNError(
                    .badShards,
                    "'\(ConsoleText.path(path))' has other metrics than '\(folders[0].name)/summary.csv': the shards were run with different options; run them alike",
                    at: SourceLocation(path: path))
            }
            guard !rows.contains(where: { $0[0] == "transactions_compared" || $0[0].hasPrefix("thresholds_") }) else {
                throw ASNError(
                    .badShards,
                    "'\(ConsoleText.path(path))' holds a transaction comparison or threshold figures, which shards do not write; run the shards with asn-migrate reconcile --shard K/N",
                    at: SourceLocation(path: path))
            }
            for (k, row) in rows.enumerated() {
                if sharedMetrics.contains(row[0]) {
                    guard row[1] == first[k][1] else {
                        throw ASNError(
                            .badShards,
                            "'\(ConsoleText.path(path))' has \(row[0]) \(row[1]), '\(folders[0].name)' has \(first[k][1]): the shards were not run over the same inputs; run every shard over all the inputs with the same options",
                            at: SourceLocation(path: path, line: k + 2))
                    }
                } else {
                    guard let value = Int(row[1]) else {
                        throw ASNError(
                            .badShards, "'\(ConsoleText.path(path))' has \(row[0]) '\(row[1])', not a whole number",
                            at: SourceLocation(path: path, line: k + 2))
                    }
                    sums[k] += value
                }
            }
        }
        return zip(first, sums).map { row, sum in sharedMetrics.contains(row[0]) ? row : [row[0], String(sum)] }
    }

    /// Both accounting identities of `summary.csv` (Reports/README.md) over the merged figures.
    private static func checkIdentities(_ rows: [[String]]) throws(ASNError) {
        var figures: [String: Int] = [:]
        for row in rows { if let value = Int(row[1]) { figures[row[0]] = value } }
        let f = { (name: String) in figures[name] ?? 0 }
        let v1 = [
            "v1_rejected", "v1_duplicates", "v1_out_of_period", "v1_unmapped", "v1_companion", "matched",
            "type_mismatch", "missing_in_v2", "v1_pending"
        ]
        let v2 = [
            "v2_rejected", "v2_duplicates", "v2_out_of_period", "v2_only_expected", "matched", "type_mismatch",
            "missing_in_v1", "v2_pending"
        ]
        for (read, terms) in [("v1_records_read", v1), ("v2_records_read", v2)] {
            let sum = terms.reduce(0) { $0 + f($1) }
            guard f(read) == sum else {
                throw ASNError(
                    .badShards,
                    "the merged \(read) is \(f(read)) but its parts (\(terms.joined(separator: " + "))) add up to \(sum): a shard's summary.csv was changed or cut short; run the shards again"
                )
            }
        }
    }
}
