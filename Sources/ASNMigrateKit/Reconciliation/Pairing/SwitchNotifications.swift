/// With `--switch` and Apple's view (README, The day you switch): what the V2 notifications of each switched
/// environment tell the comparison with Apple, our records after the switch being the V2 notifications: the
/// transactions they carry, the refunds they announce, how far they reach, and the state facts of the subscriptions
/// whose statuses were fetched.
package struct SwitchNotifications: Sendable {
    /// A transaction of an environment.
    package struct Key: Hashable, Sendable {
        /// "Production" / "Sandbox".
        package var environment: String
        /// The transaction's id.
        package var transactionId: TransactionID

        /// Creates a key.
        package init(environment: String, transactionId: TransactionID) {
            self.environment = environment
            self.transactionId = transactionId
        }
    }

    /// The switch instants.
    package var dates: SwitchDates
    /// Every transaction a V2 notification of a switched environment carries.
    package var notified: Set<Key> = []
    /// Every transaction a V2 `REFUND` notification of a switched environment carries.
    package var refunded: Set<Key> = []
    /// Each switched environment's newest V2 notification `signedDate` from its switch on.
    package var reach: [String: Int64] = [:]
    /// The state facts of the V2 notifications from the switch on, in input order, of the subscriptions asked for.
    package var facts: [SubscriptionKey: [StateFact]] = [:]

    /// Nothing yet, under `dates`.
    package init(dates: SwitchDates) {
        self.dates = dates
    }

    /// Adds one V2 notification of environment `environment` signed at `time` (nil: no `signedDate`), of type `type`,
    /// carrying `transactionId`; `fact` is kept when its subscription `key` is one whose status was fetched.
    package mutating func add(
        environment: String, time: Int64?, type: String, transactionId: TransactionID?, key: SubscriptionKey,
        fact: @autoclosure () -> StateFact?, keepsFacts: Bool
    ) {
        guard let instant = dates.instant(of: environment) else { return }
        if let transactionId {
            let k = Key(environment: environment, transactionId: transactionId)
            notified.insert(k)
            if type == "REFUND" { refunded.insert(k) }
        }
        guard let time, time >= instant else { return }
        reach[environment] = max(reach[environment] ?? time, time)
        if keepsFacts, let fact = fact() { facts[key, default: []].append(fact) }
    }
}

extension ReconciliationInputs {
    /// The V2 notifications fed, as `SwitchNotifications` reads them; facts kept for `statuses`' subscriptions.
    func switchNotifications(_ dates: SwitchDates, statuses: Set<SubscriptionKey>) -> SwitchNotifications {
        var notifications = SwitchNotifications(dates: dates)
        for j in v2Records.indices {
            let r = v2Records[j]
            let environment = pool.string(r.environment)
            guard dates.instant(of: environment) != nil else { continue }
            let key = SubscriptionKey(environment: environment, originalTransactionId: pool.string(r.key))
            notifications.add(
                environment: environment, time: r.hasTime ? r.time : nil, type: pool.string(r.type),
                transactionId: pool.transactionID(r.fields.token(.transactionId)), key: key,
                fact: r.stateFact(pool, v2Only: false), keepsFacts: statuses.contains(key))
        }
        return notifications
    }
}
