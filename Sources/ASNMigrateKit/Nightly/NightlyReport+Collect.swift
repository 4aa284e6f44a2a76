import Foundation

/// The night's report read from the state: what the publishing step of `NightlyRun` writes.
extension NightlyReport {
    /// Collects the reports of `date` from the state.
    package static func collect(_ store: NightlyStore, date: String, settings: NightlySettings) throws(ASNError)
        -> NightlyReport
    {
        let sort = { (rows: [DifferenceRow]) in rows.sorted { Discrepancy.reportOrder($0.difference, $1.difference) } }
        let new = sort(try store.differences.differenceRows(.new, date: date))
        let open = sort(try store.differences.differenceRows(.open, date: date))
        let resolved = sort(try store.differences.differenceRows(.resolved, date: date))
        let pending = sort(try store.differences.pendingRows())
        let rejects = try store.facts.rejects(ingestedOn: date)
        let totals = try store.runs.runTotals(date: date)
        let byReason = try store.differences.resolvedCounts(date: date)
        let b1 = try store.facts.bounds(side: "v1")
        let b2 = try store.facts.bounds(side: "v2")
        let period = NightlyPass.period(b1, b2)
        let stored1 = try store.facts.recordCount(side: "v1")
        // Apple's API answers (transactions, statuses) are V2 records too.
        let stored2 = try store.facts.recordCount(side: "v2") + store.apiView.answerCount()

        var metrics: [(String, String)] = [("run_date", date)]
        for column in Self.summedRunColumns { metrics.append((column, String(totals[column] ?? 0))) }
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
            ("files_in_ledger", String(try store.ledger.fileCount()))
        ]
        // Against Apple's view, reconcile's figure: V1 transactions of subscriptions it holds no transaction of. (A
        // sharded night never holds the view, so `merge` never sees it.)
        if try store.apiView.holdsAPIView() {
            metrics.append(("not_fetched", String(try store.apiView.notFetchedTransactions())))
        }
        // With `--switch`: `reconcile --switch`'s rows, from the shares stored and the items open and pending.
        var switchFigures: SwitchFigures?
        if !settings.switchDates.isEmpty {
            var figures = try store.switches.switchFigures(settings.switchDates)
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
        let end = Swift.min(
            endOfDay, try store.runs.latestStart(date: date).flatMap(Timestamp.parseISO8601) ?? endOfDay)
        for (side, roots, bounds) in [("v1", settings.v1, b1), ("v2", settings.v2, b2)] {
            let lag = settings.maxLag[side] ?? 2 * Timestamp.millisecondsPerDay
            let newestFile = bounds == nil ? try store.ledger.newestFile(side: side) : nil
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
            trend: try store.differences.openTrend(through: date, nights: trendNights))
        report.judgementDigest = try store.runs.meta("rules_digest") ?? 0
        report.switchFigures = switchFigures
        return report
    }
}
