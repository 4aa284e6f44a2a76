/// A difference as the state keeps it: the `differences.csv` row plus when it was first and last seen, and how it ended.
package struct DifferenceRow: Sendable, Equatable {
    /// The difference.
    package var difference: Discrepancy
    /// The run date it was first confirmed (or first held pending).
    package var firstSeen: String
    /// The last run date it was still there.
    package var lastSeen: String
    /// The run date it was resolved, nil while open.
    package var resolved: String?
    /// `late_record`, `corrected_record` or `rule`, nil while open.
    package var resolvedBy: String?
    /// Pending items: when the record settles (UTC ISO 8601).
    package var settlesAt: String = ""
    /// Pending items: `settle` (younger than the settle time) or `edge` (its partner could lie outside the data).
    package var pendingReason: String = ""

    /// Creates a row.
    package init(
        difference: Discrepancy, firstSeen: String, lastSeen: String, resolved: String? = nil, resolvedBy: String? = nil
    ) {
        self.difference = difference
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.resolved = resolved
        self.resolvedBy = resolvedBy
    }

    /// Where the price columns (`price`, `currency`) start in `Discrepancy.columns`.
    static let pricedColumns = Discrepancy.columns.firstIndex(of: "price") ?? Discrepancy.columns.count

    /// What makes two nights' rows "the same difference": every cell but the two values and the price, and for a state mismatch
    /// (dated by the newest record of its states, which moves) only kind, subscription and field.
    package static func identity(_ d: Discrepancy) -> String {
        let cells = d.cells
        let kept: [String]
        if d.kind == .stateMismatch {
            kept = [cells[0], cells[1], cells[2], cells[10]]
        } else {
            // The price is what V2 says the purchase cost, known or not yet: not what makes the difference.
            kept = cells.enumerated().filter { $0.offset != 11 && $0.offset != 12 && $0.offset < Self.pricedColumns }
                .map(\.element)
        }
        return kept.joined(separator: "\u{1F}")
    }
}
