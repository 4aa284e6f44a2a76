import Foundation

/// The run log (`runs`: one row a run, its counters and how it ended) and the state's `meta` values.
package final class RunStore: StateStore {
    /// The shared connection.
    let state: StateDatabase

    /// A store over `state`.
    init(_ state: StateDatabase) {
        self.state = state
    }

    /// The latest run, if any: id, date and whether its reports were published.
    package func latestRun() throws(ASNError) -> (id: Int64, date: String, published: Bool)? {
        var found: (Int64, String, Bool)?
        try cached("SELECT id, run_date, published FROM runs ORDER BY id DESC LIMIT 1").forEach { s in
            found = (s.int64(0), s.text(1), s.int64(2) != 0)
        }
        return found
    }

    /// The runs that committed their night but were stopped before they recorded how they ended (`exit_status` NULL),
    /// oldest first: id and date.
    package func unfinishedRuns() throws(ASNError) -> [(id: Int64, date: String)] {
        var found: [(id: Int64, date: String)] = []
        try cached("SELECT id, run_date FROM runs WHERE exit_status IS NULL ORDER BY id").forEach { s in
            found.append((s.int64(0), s.text(1)))
        }
        return found
    }

    /// Records how a run stopped after its commit ended: `status`, the one its date's reports call for, and the time
    /// that was found (`finished`); whether its reports are published is left as it is.
    package func recordStoppedRun(id: Int64, finished: String, status: Int32) throws(ASNError) {
        try cached("UPDATE runs SET finished = ?, exit_status = ? WHERE id = ? AND exit_status IS NULL").run([
            .text(finished), .integer(Int64(status)), .integer(id)
        ])
    }

    /// Adds a run row; returns its id.
    package func insertRun(date: String, started: String) throws(ASNError) -> Int64 {
        try cached("INSERT INTO runs (run_date, started) VALUES (?, ?)").run([.text(date), .text(started)])
        return try lastInsertId()
    }

    /// Sets integer columns of a run row.
    package func updateRun(id: Int64, _ values: [(String, Int)]) throws(ASNError) {
        guard !values.isEmpty else { return }
        let assignments = values.map { "\($0.0) = ?" }.joined(separator: ", ")
        try database.prepare("UPDATE runs SET \(assignments) WHERE id = ?").run(
            values.map { .integer(Int64($0.1)) } + [.integer(id)])
    }

    /// Marks every run of `date` as published, and this one finished with `status`.
    package func finishRun(id: Int64, date: String, finished: String, status: Int32) throws(ASNError) {
        try cached("UPDATE runs SET finished = ?, exit_status = ? WHERE id = ?").run([
            .text(finished), .integer(Int64(status)), .integer(id)
        ])
        try cached("UPDATE runs SET published = 1 WHERE run_date = ?").run([.text(date)])
    }

    /// Sums of the run-log counters over every run of `date`, but for `latestRunColumns`, its last run's.
    package func runTotals(date: String) throws(ASNError) -> [String: Int] {
        var totals: [String: Int] = [:]
        let columns = NightlyReport.summedRunColumns
        try cached(
            "SELECT \(columns.map { "COALESCE(SUM(\($0)), 0)" }.joined(separator: ", ")) FROM runs WHERE run_date = ?"
        ).forEach([.text(date)]) { s in
            for (index, column) in columns.enumerated() { totals[column] = Int(s.int64(Int32(index))) }
        }
        // What waits is the date's last run's: a re-run that read the files an earlier run left no longer has them.
        let waiting = Self.latestRunColumns
        try cached(
            "SELECT \(waiting.joined(separator: ", ")) FROM runs WHERE run_date = ? ORDER BY id DESC LIMIT 1"
        ).forEach([.text(date)]) { s in
            for (index, column) in waiting.enumerated() { totals[column] = Int(s.int64(Int32(index))) }
        }
        return totals
    }

    /// The run counters of what still waits for a later night, which a date's report takes from its last run, not
    /// summed over its runs.
    package static let latestRunColumns = ["files_deferred", "lines_deferred"]

    /// When the latest run of `date` started (UTC ISO 8601), if there is one.
    package func latestStart(date: String) throws(ASNError) -> String? {
        var found: String?
        try cached("SELECT started FROM runs WHERE run_date = ? ORDER BY id DESC LIMIT 1").forEach([.text(date)]) { s in
            found = s.text(0)
        }
        return found
    }

    /// Run dates the tool has run for.
    package func runDates() throws(ASNError) -> Set<String> {
        var dates: Set<String> = []
        try cached("SELECT DISTINCT run_date FROM runs").forEach { s in dates.insert(s.text(0)) }
        return dates
    }

    /// The finish time (UTC ISO 8601) of the last run that exited 0 or 1.
    package func lastSuccess() throws(ASNError) -> String? {
        var found: String?
        try cached(
            "SELECT finished FROM runs WHERE exit_status IN (0, 1) AND finished IS NOT NULL ORDER BY id DESC LIMIT 1"
        ).forEach { s in found = s.text(0) }
        return found
    }
}
