/// The settle rule: which of a re-pairing's differences are confirmed, and which are still `pending`.
///
/// Two reasons keep an item pending. `edge`: the reconcile engine's own period rule (`ReconciliationPeriod`, fed the
/// whole state's extents) found an unpaired record whose partner could lie outside the data; the engine reports it
/// as `pending_in_v1` / `pending_in_v2`, exactly as `reconcile` writes it to `pending.csv` (when it is also younger
/// than the settle time, its reason is `settle`). `settle` (nightly only): an
/// unpaired record younger than the settle time is pending too (reported as `pending_in_*` as well), and so is a young
/// `type_mismatch`, often a record paired with the wrong partner because its own partner has not arrived yet. A
/// subscription with a `settle` item holds its `state_mismatch` rows pending as well, since the missing partner may be
/// what makes the states differ.
package struct NightlySettle: Sendable {
    /// The settle time, ms.
    package var settle: Int64
    /// The run's now, epoch ms.
    package var now: Int64

    /// Creates the rule for one run.
    package init(settle: Int64, now: Int64) {
        self.settle = settle
        self.now = now
    }

    /// Splits the engine's `differences` into confirmed ones and pending rows (with their settle time and reason);
    /// `edge` is the engine's pending list, every item of which is pending with reason `edge`.
    package func split(_ differences: [Discrepancy], edge: [Discrepancy] = []) -> (
        confirmed: [Discrepancy], pending: [DifferenceRow]
    ) {
        var confirmed: [Discrepancy] = []
        var pending: [DifferenceRow] = []
        var heldUntil: [SubscriptionKey: Int64] = [:]
        var states: [Discrepancy] = []
        for d in edge {
            var row = DifferenceRow(difference: d, firstSeen: "", lastSeen: "")
            row.settlesAt = d.eventDate.map { Timestamp.iso8601(ms: $0 &+ settle) } ?? ""
            // Young and at the edge: `settle` says more (it also holds the subscription's state mismatches, as below).
            if let time = d.eventDate, time > now &- settle {
                row.pendingReason = "settle"
                let key = SubscriptionKey(environment: d.environment, originalTransactionId: d.originalTransactionId)
                heldUntil[key] = Swift.max(heldUntil[key] ?? Int64.min, time &+ settle)
            } else {
                row.pendingReason = "edge"
            }
            pending.append(row)
        }
        for d in differences {
            if d.kind == .stateMismatch {
                states.append(d)
                continue
            }
            guard pendingReason(d) != nil, let time = d.eventDate else {
                confirmed.append(d)
                continue
            }
            let settles = time &+ settle
            var item = d
            if d.kind == .missingInV1 { item.kind = .pendingInV1 }
            if d.kind == .missingInV2 { item.kind = .pendingInV2 }
            var row = DifferenceRow(difference: item, firstSeen: "", lastSeen: "")
            row.settlesAt = Timestamp.iso8601(ms: settles)
            row.pendingReason = "settle"
            pending.append(row)
            let key = SubscriptionKey(environment: d.environment, originalTransactionId: d.originalTransactionId)
            heldUntil[key] = Swift.max(heldUntil[key] ?? Int64.min, settles)
        }
        for d in states {
            guard
                let held = heldUntil[
                    SubscriptionKey(environment: d.environment, originalTransactionId: d.originalTransactionId)]
            else {
                confirmed.append(d)
                continue
            }
            var row = DifferenceRow(difference: d, firstSeen: "", lastSeen: "")
            row.settlesAt = Timestamp.iso8601(ms: held)
            row.pendingReason = "settle"
            pending.append(row)
        }
        return (confirmed, pending)
    }

    /// `settle` when the difference is an unpaired record or a type mismatch younger than the settle time, else nil.
    package func pendingReason(_ d: Discrepancy) -> String? {
        guard d.kind == .missingInV1 || d.kind == .missingInV2 || d.kind == .typeMismatch, let time = d.eventDate else {
            return nil
        }
        return time > now &- settle ? "settle" : nil
    }
}
