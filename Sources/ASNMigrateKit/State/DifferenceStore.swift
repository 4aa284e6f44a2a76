import Foundation

/// The differences (`differences`: open and resolved, with the nights they were first and last seen) and the pending
/// items (`pending`: what settles on a later night).
package final class DifferenceStore: StateStore {
    /// The shared connection.
    let state: StateDatabase

    /// A store over `state`.
    init(_ state: StateDatabase) {
        self.state = state
    }

    /// The open differences of one subscription, by identity, with their row ids.
    package func openDifferences(of key: SubscriptionKey) throws(ASNError) -> [String: (id: Int64, row: DifferenceRow)]
    {
        var found: [String: (id: Int64, row: DifferenceRow)] = [:]
        try cached(
            "SELECT id, identity, first_seen, last_seen, \(Self.cellColumns) FROM differences WHERE environment = ? AND original_transaction_id = ? AND resolved IS NULL"
        )
        .forEach([.text(key.environment), .text(key.originalTransactionId)]) { s in
            guard let d = Discrepancy(cells: Self.cells(s, from: 4)) else { return }
            found[s.text(1)] = (s.int64(0), DifferenceRow(difference: d, firstSeen: s.text(2), lastSeen: s.text(3)))
        }
        return found
    }

    /// Stores a newly confirmed difference.
    package func insertDifference(_ d: Discrepancy, identity: String, date: String) throws(ASNError) {
        try cached(
            "INSERT INTO differences (identity, first_seen, last_seen, \(Self.cellColumns)) VALUES (?, ?, ?, \(Self.cellMarks))"
        )
        .run([.text(identity), .text(date), .text(date)] + d.cells.map { .text($0) })
    }

    /// Notes that an open difference is still there (with its current values).
    package func updateDifference(id: Int64, _ d: Discrepancy, date: String) throws(ASNError) {
        let assignments = Discrepancy.columns.map { "\($0) = ?" }.joined(separator: ", ")
        try cached("UPDATE differences SET last_seen = ?, \(assignments) WHERE id = ?")
            .run([.text(date)] + d.cells.map { .text($0) } + [.integer(id)])
    }

    /// Marks every difference still open as seen on `date`: those of subscriptions not re-paired tonight stand as
    /// they were (nothing that decides them changed).
    package func confirmOpenDifferences(date: String) throws(ASNError) {
        try cached("UPDATE differences SET last_seen = ? WHERE resolved IS NULL AND last_seen <> ?").run([
            .text(date), .text(date)
        ])
    }

    /// Closes an open difference.
    package func resolveDifference(id: Int64, date: String, by reason: String) throws(ASNError) {
        try cached("UPDATE differences SET resolved = ?, resolved_by = ? WHERE id = ?").run([
            .text(date), .text(reason), .integer(id)
        ])
    }

    /// Which differences `differenceRows` returns.
    package enum DifferenceFilter: Sendable {
        /// First seen on the date and still open.
        case new
        /// Every open difference.
        case open
        /// Resolved on the date.
        case resolved
    }

    /// The difference rows that `filter` selects for `date`.
    package func differenceRows(_ filter: DifferenceFilter, date: String) throws(ASNError) -> [DifferenceRow] {
        let condition: String
        var values: [SQLiteValue] = []
        switch filter {
        case .new:
            condition = "first_seen = ? AND resolved IS NULL"
            values = [.text(date)]
        case .resolved:
            condition = "resolved = ?"
            values = [.text(date)]
        case .open:
            condition = "resolved IS NULL"
        }
        var rows: [DifferenceRow] = []
        try cached(
            "SELECT first_seen, last_seen, resolved, resolved_by, \(Self.cellColumns) FROM differences WHERE \(condition)"
        ).forEach(values) { s in
            guard let d = Discrepancy(cells: Self.cells(s, from: 4)) else { return }
            rows.append(
                DifferenceRow(
                    difference: d, firstSeen: s.text(0), lastSeen: s.text(1), resolved: s.optionalText(2),
                    resolvedBy: s.optionalText(3)))
        }
        return rows
    }

    /// The differences open at the end of each of the last `nights` run dates up to `date` (oldest first): first seen
    /// by then and not resolved by then. Derived from the differences' own dates, so publishing again gives the same.
    package func openTrend(through date: String, nights: Int) throws(ASNError) -> [(date: String, open: Int)] {
        var dates: [String] = []
        try cached("SELECT DISTINCT run_date FROM runs WHERE run_date <= ? ORDER BY run_date DESC LIMIT ?").forEach([
            .text(date), .integer(Int64(nights))
        ]) { s in
            dates.append(s.text(0))
        }
        var trend: [(date: String, open: Int)] = []
        for night in dates.reversed() {
            let open = try scalar(
                "SELECT COUNT(*) FROM differences WHERE first_seen <= ? AND (resolved IS NULL OR resolved > ?)",
                [.text(night), .text(night)])
            trend.append((night, Int(open)))
        }
        return trend
    }

    /// Every night of the state, oldest first, with the exit status of its last finished run and its figures:
    /// new (first seen that night and not resolved that night), resolved, open at its end (first seen by then, not
    /// resolved by then, as `openTrend`) and rejected. Four grouped queries, whatever the number of nights.
    package func nights() throws(ASNError) -> [NightlyIndex.Night] {
        var rejected: [String: Int] = [:]
        try cached("SELECT run_date, SUM(v1_rejected + v2_rejected) FROM runs GROUP BY run_date").forEach { s in
            rejected[s.text(0)] = Int(s.int64(1))
        }
        var status: [String: Int32] = [:]
        try cached("SELECT run_date, exit_status FROM runs WHERE exit_status IS NOT NULL ORDER BY id").forEach { s in
            status[s.text(0)] = Int32(clamping: s.int64(1))
        }
        var first: [String: (all: Int, sameNight: Int)] = [:]
        try cached(
            "SELECT first_seen, COUNT(*), SUM(CASE WHEN resolved = first_seen THEN 1 ELSE 0 END) FROM differences GROUP BY first_seen"
        ).forEach { s in first[s.text(0)] = (Int(s.int64(1)), Int(s.int64(2))) }
        var resolved: [String: Int] = [:]
        try cached("SELECT resolved, COUNT(*) FROM differences WHERE resolved IS NOT NULL GROUP BY resolved").forEach {
            s in resolved[s.text(0)] = Int(s.int64(1))
        }
        // Open at the end of a night: first seen by then, less resolved by then (a difference is resolved on or
        // after the night it was first seen), counted over every date either happened on.
        let dates = Set(rejected.keys)
        let events = (Set(first.keys).union(resolved.keys)).union(dates).sorted()
        var open = 0
        var openAt: [String: Int] = [:]
        for date in events {
            open += (first[date]?.all ?? 0) - (resolved[date] ?? 0)
            openAt[date] = open
        }
        return dates.sorted().map { date in
            NightlyIndex.Night(
                date: date, status: status[date], new: (first[date]?.all ?? 0) - (first[date]?.sameNight ?? 0),
                resolved: resolved[date] ?? 0, open: openAt[date] ?? 0, rejected: rejected[date] ?? 0)
        }
    }

    /// How many differences resolved on `date` each `resolved_by` has.
    package func resolvedCounts(date: String) throws(ASNError) -> [String: Int] {
        var counts: [String: Int] = [:]
        try cached("SELECT resolved_by, COUNT(*) FROM differences WHERE resolved = ? GROUP BY 1").forEach([.text(date)])
        { s in
            counts[s.text(0)] = Int(s.int64(1))
        }
        return counts
    }

    /// How many differences are open.
    package func openCount() throws(ASNError) -> Int {
        try scalar("SELECT COUNT(*) FROM differences WHERE resolved IS NULL")
    }

    /// Subscriptions with an open difference or a pending item.
    package func unsettledSubscriptions() throws(ASNError) -> Set<SubscriptionKey> {
        var keys: Set<SubscriptionKey> = []
        try cached(
            "SELECT environment, original_transaction_id FROM differences WHERE resolved IS NULL UNION SELECT environment, original_transaction_id FROM pending"
        )
        .forEach { s in keys.insert(SubscriptionKey(environment: s.text(0), originalTransactionId: s.text(1))) }
        return keys
    }

    // MARK: - Pending

    /// The pending items of one subscription, by identity (to keep their first-seen date).
    package func pendingFirstSeen(of key: SubscriptionKey) throws(ASNError) -> [String: String] {
        var found: [String: String] = [:]
        try cached("SELECT identity, first_seen FROM pending WHERE environment = ? AND original_transaction_id = ?")
            .forEach([.text(key.environment), .text(key.originalTransactionId)]) { s in found[s.text(0)] = s.text(1) }
        return found
    }

    /// Makes the pending items of one subscription exactly `rows`, leaving rows that are already right untouched
    /// (so a re-run of the same night rewrites nothing).
    package func replacePending(of key: SubscriptionKey, with rows: [(identity: String, row: DifferenceRow)])
        throws(ASNError)
    {
        var existing: [String: (id: Int64, row: DifferenceRow)] = [:]
        try cached(
            "SELECT id, identity, first_seen, settles_at, pending_reason, \(Self.cellColumns) FROM pending WHERE environment = ? AND original_transaction_id = ?"
        )
        .forEach([.text(key.environment), .text(key.originalTransactionId)]) { s in
            guard let d = Discrepancy(cells: Self.cells(s, from: 5)) else { return }
            var row = DifferenceRow(difference: d, firstSeen: s.text(2), lastSeen: "")
            row.settlesAt = s.text(3)
            row.pendingReason = s.text(4)
            existing[s.text(1)] = (s.int64(0), row)
        }
        let wanted = Dictionary(rows.map { ($0.identity, $0.row) }, uniquingKeysWith: { first, _ in first })
        for (identity, old) in existing where wanted[identity] != old.row {
            try cached("DELETE FROM pending WHERE id = ?").run([.integer(old.id)])
        }
        for (identity, row) in rows where existing[identity]?.row != row {
            try cached(
                "INSERT INTO pending (identity, settles_at, pending_reason, first_seen, \(Self.cellColumns)) VALUES (?, ?, ?, ?, \(Self.cellMarks))"
            )
            .run(
                [.text(identity), .text(row.settlesAt), .text(row.pendingReason), .text(row.firstSeen)]
                    + row.difference.cells.map { .text($0) })
        }
    }

    /// Adds pending items to a subscription that has none (a first night).
    package func insertPending(_ rows: [(identity: String, row: DifferenceRow)]) throws(ASNError) {
        for (identity, row) in rows {
            try cached(
                "INSERT INTO pending (identity, settles_at, pending_reason, first_seen, \(Self.cellColumns)) VALUES (?, ?, ?, ?, \(Self.cellMarks))"
            )
            .run(
                [.text(identity), .text(row.settlesAt), .text(row.pendingReason), .text(row.firstSeen)]
                    + row.difference.cells.map { .text($0) })
        }
    }

    /// Every pending item.
    package func pendingRows() throws(ASNError) -> [DifferenceRow] {
        var rows: [DifferenceRow] = []
        try cached("SELECT first_seen, settles_at, pending_reason, \(Self.cellColumns) FROM pending").forEach { s in
            guard let d = Discrepancy(cells: Self.cells(s, from: 3)) else { return }
            var row = DifferenceRow(difference: d, firstSeen: s.text(0), lastSeen: "")
            row.settlesAt = s.text(1)
            row.pendingReason = s.text(2)
            rows.append(row)
        }
        return rows
    }

    /// The subscriptions with a pending item: their items settle as time passes, so every night re-pairs them.
    package func pendingSubscriptions() throws(ASNError) -> Set<SubscriptionKey> {
        var keys: Set<SubscriptionKey> = []
        try cached("SELECT environment, original_transaction_id FROM pending")
            .forEach { s in keys.insert(SubscriptionKey(environment: s.text(0), originalTransactionId: s.text(1))) }
        return keys
    }

    /// How many items are pending.
    package func pendingCount() throws(ASNError) -> Int {
        try scalar("SELECT COUNT(*) FROM pending")
    }
}
