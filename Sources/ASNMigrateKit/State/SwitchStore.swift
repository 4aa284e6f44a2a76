/// What the state keeps for `nightly --switch` (README, The day you switch): each subscription's part of the seam's
/// counts as its last re-pairing found it (`switch_shares`), summed into the figures `reconcile --switch` prints, and
/// how far each switched environment's V2 notifications reach over the whole state.
package final class SwitchStore: StateStore {
    /// The shared connection.
    let state: StateDatabase

    /// A store over `state`.
    init(_ state: StateDatabase) {
        self.state = state
    }

    /// Each switched environment's V2 reach over everything stored: the newest V2 notification's `signedDate` from its
    /// switch on (Apple's view, kept apart in `api_records`, does not count). An environment without one is absent.
    package func switchReach(_ dates: SwitchDates) throws(ASNError) -> [String: Int64] {
        var reach: [String: Int64] = [:]
        for (environment, instant) in dates.environments.map({ ($0.name, $0.instant) }) {
            let id = try textId(environment)
            try cached(
                "SELECT MAX(f.event_ms) FROM facts f JOIN subscriptions s ON s.id = f.subscription_id WHERE f.side = 2 AND f.event_ms >= ? AND s.environment_id = ?"
            ).forEach([.integer(instant), .integer(id)]) { s in
                if let newest = s.optionalInt64(0) { reach[environment] = newest }
            }
        }
        return reach
    }

    /// Replaces the stored shares of the subscriptions re-paired (`keys`) with the night's (`shares`); a subscription
    /// re-paired without a share, or with an empty one, keeps no row.
    package func replaceSwitchShares(of keys: [SubscriptionKey], with list: [SwitchFigures.Share]) throws(ASNError) {
        var shares: [SubscriptionKey: SwitchFigures.Share] = [:]
        for share in list {
            shares[
                SubscriptionKey(environment: share.environment, originalTransactionId: share.originalTransactionId)] =
                share
        }
        for key in keys {
            guard let subscription = try subscriptionId(key, create: false) else { continue }
            try cached("DELETE FROM switch_shares WHERE subscription_id = ?").run([.integer(subscription)])
            guard let share = shares[key], !share.isEmpty else { continue }
            try cached(
                "INSERT INTO switch_shares (subscription_id, live, continued, delivered_in_both, v1_after_switch, v2_before_switch) VALUES (?, ?, ?, ?, ?, ?)"
            ).run([
                .integer(subscription), .integer(share.live ? 1 : 0), .integer(share.continued ? 1 : 0),
                .integer(Int64(share.deliveredInBoth)), .integer(Int64(share.v1AfterSwitch)),
                .integer(Int64(share.v2BeforeSwitch))
            ])
        }
    }

    /// Forgets every stored share (the switch dates changed: every subscription is judged again).
    package func clearSwitchShares() throws(ASNError) {
        try database.execute("DELETE FROM switch_shares")
    }

    /// The seam's figures over the whole state: the stored shares summed, under `dates`.
    package func switchFigures(_ dates: SwitchDates) throws(ASNError) -> SwitchFigures {
        var figures = SwitchFigures(dates: dates)
        try cached(
            "SELECT COALESCE(SUM(live), 0), COALESCE(SUM(continued), 0), COALESCE(SUM(delivered_in_both), 0), COALESCE(SUM(v1_after_switch), 0), COALESCE(SUM(v2_before_switch), 0) FROM switch_shares"
        ).forEach { s in
            figures.liveAtSwitch = Int(s.int64(0))
            figures.continuedInV2 = Int(s.int64(1))
            figures.deliveredInBoth = Int(s.int64(2))
            figures.v1AfterSwitch = Int(s.int64(3))
            figures.v2BeforeSwitch = Int(s.int64(4))
        }
        return figures
    }
}
