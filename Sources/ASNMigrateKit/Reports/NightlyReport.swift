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

    /// How many nights `report.html`'s open-item trend covers.
    package static let trendNights = 30

    /// Collects the reports of `date` from the state.
    package static func collect(_ store: NightlyStore, date: String, settings: NightlySettings) throws(ASNError)
        -> NightlyReport
    {
        let sort = { (rows: [DifferenceRow]) in rows.sorted { Discrepancy.reportOrder($0.difference, $1.difference) } }
        let new = sort(try store.differenceRows(.new, date: date))
        let open = sort(try store.differenceRows(.open, date: date))
        let resolved = sort(try store.differenceRows(.resolved, date: date))
        let pending = sort(try store.pendingRows())
        let rejects = try store.rejects(ingestedOn: date)
        let totals = try store.runTotals(date: date)
        let byReason = try store.resolvedCounts(date: date)
        let b1 = try store.bounds(side: "v1")
        let b2 = try store.bounds(side: "v2")
        let period = NightlyPass.period(b1, b2)
        let stored1 = try store.recordCount(side: "v1")
        // Apple's API answers (transactions, statuses) are V2 records too.
        let stored2 = try store.recordCount(side: "v2") + store.scalar("SELECT COUNT(*) FROM api_records")

        var metrics: [(String, String)] = [("run_date", date)]
        for column in NightlyStore.summedRunColumns { metrics.append((column, String(totals[column] ?? 0))) }
        var byKind: [Discrepancy.Kind: Int] = [:]
        for row in open { byKind[row.difference.kind, default: 0] += 1 }
        metrics += [
            ("differences_new", String(new.count)),
            ("differences_resolved", String(resolved.count)),
            ("resolved_by_late_record", String(byReason["late_record"] ?? 0)),
            ("resolved_by_corrected_record", String(byReason["corrected_record"] ?? 0)),
            ("resolved_by_rule", String(byReason["rule"] ?? 0)),
            ("differences_open", String(open.count))
        ]
        for kind in Discrepancy.Kind.allCases { metrics.append(("open_\(kind.rawValue)", String(byKind[kind] ?? 0))) }
        metrics += [
            ("pending", String(pending.count)),
            ("rejected", String(rejects.count)),
            ("v1_records_in_state", String(stored1)),
            ("v2_records_in_state", String(stored2)),
            ("files_in_ledger", String(try store.scalar("SELECT COUNT(*) FROM files")))
        ]
        // Against Apple's view, reconcile's figure: V1 transactions of subscriptions it holds no transaction of. (A
        // sharded night never holds the view, so `merge` never sees it.)
        if try store.holdsAPIView() { metrics.append(("not_fetched", String(try store.notFetchedTransactions()))) }
        // With `--switch`: `reconcile --switch`'s rows, from the shares stored and the items open and pending.
        var switchFigures: SwitchFigures?
        if !settings.switchDates.isEmpty {
            var figures = try store.switchFigures(settings.switchDates)
            figures.awaitingV2 = pending.count { $0.difference.kind == .awaitingV2 }
            figures.silentInV2 = byKind[.silentInV2] ?? 0
            figures.renewalGap = byKind[.renewalGap] ?? 0
            figures.seamStateMismatch = byKind[.seamStateMismatch] ?? 0
            metrics += ReconciliationReport.switchRows(figures).map { ($0.name, $0.value) }
            switchFigures = figures
        }
        metrics += [
            ("period_start", period.map { Timestamp.iso8601(ms: $0.from) } ?? ""),
            ("period_end", period.map { Timestamp.iso8601(ms: $0.to) } ?? ""),
            ("window_ms", String(settings.window)),
            ("settle_ms", String(settings.settle))
        ]

        // Freshness, as a data team's source checks: a side whose newest record (a side that sent none: its newest
        // file) is older than max-lag is stale, judged at the end of the run date, or when the night's run started if
        // that is earlier (a cron run for today); both are in the state, so publishing again gives the same answer.
        var stale: [String] = []
        let endOfDay = (Timestamp.parseUTCDayOrInstant(date)?.ms ?? 0) + Timestamp.millisecondsPerDay - 1
        let end = Swift.min(endOfDay, try store.latestStart(date: date).flatMap(Timestamp.parseISO8601) ?? endOfDay)
        for (side, roots, bounds) in [("v1", settings.v1, b1), ("v2", settings.v2, b2)] {
            let lag = settings.maxLag[side] ?? 2 * Timestamp.millisecondsPerDay
            let newestFile = bounds == nil ? try store.newestFile(side: side) : nil
            let newest = bounds?.max ?? newestFile
            let isStale = !roots.isEmpty && (newest.map { end - $0 > lag } ?? true)
            metrics += [
                ("\(side)_newest_record", bounds.map { Timestamp.iso8601(ms: $0.max) } ?? ""),
                ("\(side)_newest_file", newestFile.map { Timestamp.iso8601(ms: $0) } ?? ""),
                ("\(side)_max_lag_ms", String(lag)),
                ("\(side)_stale", isStale ? "1" : "0")
            ]
            guard isStale else { continue }
            let what =
                bounds != nil
                ? "its newest record is from"
                : newest != nil ? "it sent no record; its newest file was modified" : "nothing has arrived yet"
            stale.append(
                "stale: the \(side.uppercased()) side is late: \(what)\(newest.map { " " + Timestamp.iso8601(ms: $0) } ?? ""), more than max-lag \(Self.duration(lag)) before \(Timestamp.iso8601(ms: end)); check the exporter feeding it"
            )
        }

        // reconcile's checks (SanityCheck): the reject rate over the records read on the date, and, over the whole
        // state rather than one night (a night may well bring one side only), no side empty while the other is not.
        let read = ["V1", "V2"].map { side in
            SanityCheck.Side(
                name: side, read: totals["\(side.lowercased())_records_read"] ?? 0,
                rejected: totals["\(side.lowercased())_rejected"] ?? 0)
        }
        let stored = [
            SanityCheck.Side(name: "V1", read: stored1, rejected: 0),
            SanityCheck.Side(name: "V2", read: stored2, rejected: 0)
        ]
        let sanity = sanityFailure(read: read, stored: stored, maxRejectRate: settings.maxRejectRate)
        var report = NightlyReport(
            date: date, new: new, open: open, resolved: resolved, pending: pending, rejects: rejects,
            metrics: metrics, sanityFailure: sanity, stale: stale,
            trend: try store.openTrend(through: date, nights: trendNights))
        report.judgementDigest = try store.meta("rules_digest") ?? 0
        report.switchFigures = switchFigures
        return report
    }

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
