/// The verdict at the top of `report.html`, in plain words: how many differences in how many subscriptions (and how
/// many new tonight, for `nightly`), how many records were rejected against the limit, and what the exit status means.
package struct HTMLVerdict: Sendable {
    /// The run's exit status.
    package var status: ExitStatus
    /// Records read and rejected per side.
    package var sides: [SanityCheck.Side]
    /// `--max-reject-rate`.
    package var maxRejectRate: Double
    /// Differences first seen tonight (`nightly`; nil for `reconcile`).
    package var newDifferences: Int?
    /// Lines that explain the status: failed sanity checks, stale sides, crossed thresholds.
    package var notes: [String] = []
    /// Whether `--fail-on` rules judge the run (exit 1 then means a crossed rule, and nothing else).
    package var failOnRules = false
    /// Why nothing could be compared although the run found nothing (the sides do not overlap): the page then never
    /// says "all clear".
    package var notComparedReason: String?

    /// A verdict.
    package init(
        status: ExitStatus, sides: [SanityCheck.Side], maxRejectRate: Double, newDifferences: Int? = nil,
        notes: [String] = [], failOnRules: Bool = false
    ) {
        self.status = status
        self.sides = sides
        self.maxRejectRate = maxRejectRate
        self.newDifferences = newDifferences
        self.notes = notes
        self.failOnRules = failOnRules
    }

    /// The verdict section over the page's difference rows.
    func html(rows: [Discrepancy]) -> String {
        let subscriptions = Set(
            rows.filter { !$0.originalTransactionId.isEmpty }.map {
                $0.environment + "\u{0}" + $0.originalTransactionId
            }
        ).count
        let open = newDifferences == nil ? "" : "open "
        var differences =
            "\(Self.count(rows.count, "\(open)difference")) in \(Self.count(subscriptions, "subscription"))"
        if let newDifferences { differences += " (\(newDifferences) new tonight)" }
        let rejected = sides.reduce(0) { $0 + $1.rejected }
        let perSide = sides.map { side in
            let rate = side.read > 0 ? Double(side.rejected) / Double(side.read) : 0
            return "\(side.name) \(side.rejected) of \(side.read) read (\(SanityCheck.percent(rate)))"
        }
        var out =
            "<h2 id=\"verdict\">Verdict</h2>\n<p class=\"verdict\" id=\"verdict-differences\"><strong>"
            + "\(HTMLText.escapeWhole(differences)).</strong></p>\n"
            + "<p class=\"verdict\" id=\"verdict-rejects\"><strong>\(Self.count(rejected, "record")) rejected"
            + "</strong>: \(HTMLText.escapeWhole(perSide.joined(separator: ", "))), against a limit of "
            + "\(SanityCheck.percent(maxRejectRate)) per side.</p>\n"
            + "<p class=\"verdict \(Self.statusClass(status.rawValue, backlog: newDifferences != nil && !rows.isEmpty))\" "
            + "id=\"verdict-status\" data-exit=\"\(status.rawValue)\">"
            + "<strong>\(HTMLText.escapeWhole(headline(rows: rows, rejected: rejected)))</strong> — "
            + "\(HTMLText.escapeWhole(meaning(rows: rows, rejected: rejected)))</p>\n"
        if !notes.isEmpty {
            out +=
                "<ul class=\"notes\" id=\"verdict-notes\">\n"
                + notes.map { "<li>\(HTMLText.escapeWhole($0))</li>\n" }.joined() + "</ul>\n"
        }
        return out
    }

    /// `Exit 1: differences found`, and the like.
    func headline(rows: [Discrepancy], rejected: Int) -> String {
        let head = "Exit \(status.rawValue): "
        switch status {
        case .success:
            if let notComparedReason { return head + "nothing compared: " + notComparedReason }
            // For nightly, 0 says nothing about the backlog: only that nothing new arrived.
            return head + (newDifferences == nil ? "all clear" : "nothing new tonight")
        case .findings:
            if failOnRules { return head + "a --fail-on rule was crossed" }
            let differences = newDifferences ?? rows.count
            let found = newDifferences == nil ? "differences found" : "new differences found"
            if differences > 0 && rejected > 0 { return head + found + " and records rejected" }
            return head + (differences > 0 ? found : "records rejected")
        case .sanityCheckFailed: return head + "report written, but the input failed a sanity check"
        default: return head + "the run failed"
        }
    }

    /// What the status means for the reader, given the page's difference rows and the records rejected.
    func meaning(rows: [Discrepancy], rejected: Int) -> String {
        switch status {
        case .success:
            if notComparedReason != nil {
                return "no differences, but only because no record could be paired; see the note below."
            }
            guard newDifferences != nil else { return "no differences and no records rejected; nothing to do." }
            return rows.isEmpty
                ? "no new differences and no records rejected tonight, and none open; nothing to do."
                : "no new differences and no records rejected tonight, but \(Self.count(rows.count, "difference")) "
                    + "\(rows.count == 1 ? "is" : "are") still open (the backlog below)."
        case .findings:
            var parts: [String] = []
            if failOnRules { parts.append("the --fail-on rule crossed is listed below") }
            if !rows.isEmpty { parts.append("each kind of difference below says what it means and what to do") }
            if rejected > 0 { parts.append("the rejects below say where the input was damaged and how to fix it") }
            return "the report is complete" + (parts.isEmpty ? "." : "; " + parts.joined(separator: ", and ") + ".")
        case .sanityCheckFailed:
            return
                "the input looks wrong (too many rejects, a side empty or late), so the figures may mislead; fix the "
                + "input named below, then run again."
        default: return status.help
        }
    }

    /// The CSS class of a verdict with exit status `status`: `status-N`, and `backlog` (amber, as findings are) for a
    /// nightly exit 0 with differences still open.
    static func statusClass(_ status: Int32?, backlog: Bool) -> String {
        "status-\(status.map { String($0) } ?? "")"
            + (backlog && status == ExitStatus.success.rawValue ? " backlog" : "")
    }

    /// `1 difference`, `7 differences`.
    static func count(_ n: Int, _ noun: String) -> String {
        "\(RejectCauses.grouped(n)) \(noun)\(n == 1 ? "" : "s")"
    }
}
