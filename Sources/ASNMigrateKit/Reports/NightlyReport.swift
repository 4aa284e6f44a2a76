/// The reports of one run date, derived from the committed state only, so that publishing them again (after a
/// crash, or on a re-run of the same night) gives the same bytes.
package struct NightlyReport: Sendable {
    /// The report's file names.
    package static let fileNames = ["new.csv", "open.csv", "resolved.csv", "pending.csv", "rejected.csv", "summary.csv"]

    /// `new.csv` and `open.csv` columns: `differences.csv`'s plus `first_seen,last_seen`.
    package static let openColumns = Discrepancy.columns + ["first_seen", "last_seen"]
    /// `resolved.csv` columns.
    package static let resolvedColumns = Discrepancy.columns + ["first_seen", "last_seen", "resolved", "resolved_by"]
    /// `pending.csv` columns.
    package static let pendingColumns = Discrepancy.columns + ["first_seen", "settles_at", "pending_reason"]

    /// The run date.
    package var date: String
    /// Differences first confirmed on the date, still open.
    package var new: [DifferenceRow]
    /// Every open difference.
    package var open: [DifferenceRow]
    /// Differences resolved on the date.
    package var resolved: [DifferenceRow]
    /// Pending items.
    package var pending: [DifferenceRow]
    /// Rejects of the files read on the date.
    package var rejects: [ReconciliationResult.Reject]
    /// `summary.csv` rows.
    package var metrics: [(String, String)]
    /// Whether a sanity check failed, and which (one line).
    package var sanityFailure: String?
    /// One line per stale side: its newest record (or file) is older than `max-lag` at the end of the run date.
    package var stale: [String] = []
    /// Open differences at the end of each of the last `trendNights` run dates up to the date, oldest first.
    package var trend: [(date: String, open: Int)] = []

    /// With `--switch`: the seam's figures over the whole state (`summary.csv`'s switch rows, `report.html`'s section).
    package var switchFigures: SwitchFigures?

    /// The digest of the rules the state was judged by (`NightlyPass.judgementDigest`), for a shard's `shard.csv`.
    package var judgementDigest: Int64 = 0

    /// The run-log columns summed per run date for `summary.csv`.
    package static let summedRunColumns = [
        "files_ingested", "files_vanished", "v1_records_read", "v1_records_stored", "v1_duplicates",
        "v1_other_environment",
        "v1_rejected", "v2_records_read", "v2_records_stored", "v2_duplicates", "v2_other_environment", "v2_rejected",
        "records_replaced", "records_pruned",
        "files_deferred", "lines_deferred", "files_appended", "files_changed", "files_renamed", "files_same_content",
        "unverified_frames"
    ]

    /// How many nights `report.html`'s open-item trend covers.
    package static let trendNights = 30

    /// reconcile's checks over a night (one line, nil when they pass): the reject rate of the records `read` on the
    /// date, and no side empty while the other is not over the records `stored` in the state.
    package static func sanityFailure(read: [SanityCheck.Side], stored: [SanityCheck.Side], maxRejectRate: Double)
        -> String?
    {
        let failed = [
            SanityCheck.failures(read, maxRejectRate: maxRejectRate, pairedSides: false),
            // A state with no record at all is not an empty input: a horizon may have forgotten every record (an empty
            // first night is stale instead: nothing has arrived).
            SanityCheck.failures(stored, maxRejectRate: 1, pairedSides: true, readNothingFails: false).map {
                $0 + " (records held in the state)"
            }
        ]
        .compactMap { $0 }
        return failed.isEmpty ? nil : failed.joined(separator: "; ")
    }

    // MARK: - Rendering

    /// The report files, in `fileNames` order.
    package var files: [(name: String, bytes: [UInt8])] {
        [
            ("new.csv", Self.render(Self.openColumns, new.map { $0.difference.cells + [$0.firstSeen, $0.lastSeen] })),
            ("open.csv", Self.render(Self.openColumns, open.map { $0.difference.cells + [$0.firstSeen, $0.lastSeen] })),
            (
                "resolved.csv",
                Self.render(
                    Self.resolvedColumns,
                    resolved.map {
                        $0.difference.cells + [$0.firstSeen, $0.lastSeen, $0.resolved ?? "", $0.resolvedBy ?? ""]
                    })
            ),
            (
                "pending.csv",
                Self.render(
                    Self.pendingColumns,
                    pending.map { $0.difference.cells + [$0.firstSeen, $0.settlesAt, $0.pendingReason] })
            ),
            ("rejected.csv", Self.render(RejectRow.columns, rejects.map(\.cells))),
            ("summary.csv", Self.render(["metric", "value"], metrics.map { [$0.0, $0.1] }))
        ]
    }

    /// The exit status the date's reports call for: 3 on a failed sanity check or a stale side, 1 with new differences or rejects, else 0.
    package var status: ExitStatus {
        if sanityFailure != nil || !stale.isEmpty { return .sanityCheckFailed }
        return new.isEmpty && rejects.isEmpty ? .success : .findings
    }

    /// The value of one summary metric.
    package func metric(_ name: String) -> String? {
        metrics.first { $0.0 == name }?.1
    }

    /// `2d`, `36h`, `90m` or `0`: a duration in the largest whole unit.
    static func duration(_ ms: Int64) -> String {
        for (unit, size) in [("d", Timestamp.millisecondsPerDay), ("h", 3_600_000), ("m", 60_000), ("s", 1000)]
        where ms >= size && ms % size == 0 {
            return "\(ms / size)\(unit)"
        }
        return ms == 0 ? "0" : "\(ms)ms"
    }

    private static func render(_ header: [String], _ rows: [[String]]) -> [UInt8] {
        Array(CSVWriter.render(header: header, rows: rows).utf8)
    }
}
