/// What a merged (or single-shard) reconcile report says on the console and in the exit status, read back from its
/// files: `merge` and `reconcile --shard`/`--shards` end with it.
enum MergedReportVerdict {
    /// The console lines and exit status of a written merged (or single-shard) report, from its files: 3 when the
    /// sanity check fails, 1 with difference or reject rows, else 0 (as `reconcile`).
    /// With `judge` false (one shard's report) only the figures are printed and the status is 0.
    static func finish(
        _ files: [(name: String, bytes: [UInt8])], label: String, what: String, directory: String,
        maxRejectRate: Double,
        judge: Bool = true, console: Console
    ) -> ExitStatus {
        var rows: [String: [[String]]] = [:]
        for file in files {
            rows[file.name] = (try? CSVReader.read(file.bytes, path: file.name).records.map(\.fields)) ?? []
        }
        var figures: [String: String] = [:]
        for row in rows["summary.csv"] ?? [] where row.count == 2 && figures[row[0]] == nil { figures[row[0]] = row[1] }
        let f = { (metric: String) in Int(figures[metric] ?? "") ?? 0 }
        let differences = rows["differences.csv"]?.count ?? 0
        let rejects = rows["rejected.csv"]?.count ?? 0
        console.diagnostic(
            "\(label): \(what); period \(figures["period_start"] ?? "") .. \(figures["period_end"] ?? "")")
        console.diagnostic(
            "  V1 read \(f("v1_records_read")): matched \(f("matched")), type_mismatch \(f("type_mismatch")), missing_in_v2 \(f("missing_in_v2")), pending \(f("v1_pending")), rejected \(f("v1_rejected"))"
        )
        console.diagnostic(
            "  V2 read \(f("v2_records_read")): missing_in_v1 \(f("missing_in_v1")), pending \(f("v2_pending")), v2_only_expected \(f("v2_only_expected")), rejected \(f("v2_rejected"))"
        )
        console.diagnostic(
            "  \(differences) difference row(s); \(rejects) reject(s); \(rows["pending.csv"]?.count ?? 0) pending")
        console.diagnostic("  report: \(directory)")
        guard judge else { return .success }
        let sides = [
            SanityCheck.Side(name: "V1", read: f("v1_records_read"), rejected: f("v1_rejected")),
            SanityCheck.Side(name: "V2", read: f("v2_records_read"), rejected: f("v2_rejected"))
        ]
        if let failed = SanityCheck.failures(sides, maxRejectRate: maxRejectRate, pairedSides: true) {
            console.diagnostic("\(label): \(failed) (exit 3)")
            console.verdict(SanityCheck.verdict(failed))
            return .sanityCheckFailed
        }
        return differences > 0 || rejects > 0 ? .findings : .success
    }
}
