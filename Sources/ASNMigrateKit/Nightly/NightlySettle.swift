/// The settle rule: which of a re-pairing's differences are confirmed, and which are still `pending`.
///
/// An unpaired record (`missing_in_v1` / `missing_in_v2`) is pending while it is younger than the settle time
/// (`settle` reason), or while its partner could still lie outside the data: its time is within the window of the
/// other side's first or last event (`edge` reason). A young `type_mismatch` waits too: it is often a record paired
/// with the wrong partner because its own partner has not arrived yet. A subscription with a pending item holds its
/// `state_mismatch` rows pending as well, since the missing partner may be what makes the states differ.
public struct NightlySettle: Sendable {
    /// The settle time, ms.
    public var settle: Int64
    /// The pairing window, ms.
    public var window: Int64
    /// The run's now, epoch ms.
    public var now: Int64
    /// V1's first and last event time over the whole state.
    public var v1Bounds: (min: Int64, max: Int64)?
    /// V2's first and last event time over the whole state.
    public var v2Bounds: (min: Int64, max: Int64)?

    /// Creates the rule for one run.
    public init(settle: Int64, window: Int64, now: Int64, v1Bounds: (min: Int64, max: Int64)?, v2Bounds: (min: Int64, max: Int64)?) {
        self.settle = settle
        self.window = window
        self.now = now
        self.v1Bounds = v1Bounds
        self.v2Bounds = v2Bounds
    }

    /// Splits `differences` into confirmed ones and pending rows (with their settle time and reason).
    public func split(_ differences: [Discrepancy]) -> (confirmed: [Discrepancy], pending: [DifferenceRow]) {
        var confirmed: [Discrepancy] = []
        var pending: [DifferenceRow] = []
        var heldUntil: [SubscriptionKey: (Int64, String)] = [:]
        var states: [Discrepancy] = []
        for d in differences {
            if d.kind == .stateMismatch {
                states.append(d)
                continue
            }
            guard let reason = pendingReason(d), let time = d.eventDate else {
                confirmed.append(d)
                continue
            }
            let settles = time &+ settle
            var row = DifferenceRow(difference: d, firstSeen: "", lastSeen: "")
            row.settlesAt = Timestamp.iso8601(ms: settles)
            row.pendingReason = reason
            pending.append(row)
            let key = SubscriptionKey(environment: d.environment, originalTransactionId: d.originalTransactionId)
            if let held = heldUntil[key], held.0 >= settles { continue }
            heldUntil[key] = (settles, reason)
        }
        for d in states {
            guard let held = heldUntil[SubscriptionKey(environment: d.environment, originalTransactionId: d.originalTransactionId)] else {
                confirmed.append(d)
                continue
            }
            var row = DifferenceRow(difference: d, firstSeen: "", lastSeen: "")
            row.settlesAt = Timestamp.iso8601(ms: held.0)
            row.pendingReason = held.1
            pending.append(row)
        }
        return (confirmed, pending)
    }

    /// `settle`, `edge`, or nil when the difference is confirmed.
    public func pendingReason(_ d: Discrepancy) -> String? {
        guard d.kind == .missingInV1 || d.kind == .missingInV2 || d.kind == .typeMismatch, let time = d.eventDate else { return nil }
        if time > now &- settle { return "settle" }
        guard d.kind != .typeMismatch else { return nil }
        let other = d.kind == .missingInV2 ? v2Bounds : v1Bounds
        if let other, time <= other.min &+ window || time >= other.max &- window { return "edge" }
        return nil
    }
}
