/// One transaction as the whole V1 archive shows it: every copy of it merged, facts only growing.
package struct V1Transaction: Sendable, Equatable {
    /// "Production" / "Sandbox", "" when unknown.
    package var environment: String
    /// The subscription.
    package var originalTransactionId: String
    /// The merged transaction.
    package var info: LatestReceiptInfo
    /// True once a V1 notification had it as its relevant transaction (announced it).
    package var announced: Bool
    /// `path:line` of the first V1 record that showed it.
    package var source: String
    /// The `notification_type` of that record.
    package var sourceType: String
    /// The app's bundle identifier (`bid`) of the first record that showed it.
    package var bundleId: String?
    /// The event time of the record that first showed the current `expiresDate` (V1 learnt an extension then).
    package var expiresLearntAt: Int64?
    /// The event time of the record that first showed the transaction upgraded.
    package var upgradeLearntAt: Int64?

    /// Creates a transaction as first seen.
    package init(
        environment: String, originalTransactionId: String, info: LatestReceiptInfo, announced: Bool, source: String,
        sourceType: String,
        bundleId: String? = nil, learntAt: Int64? = nil
    ) {
        self.bundleId = bundleId
        self.expiresLearntAt = learntAt
        self.upgradeLearntAt = info.isUpgraded == true ? learntAt : nil
        self.environment = environment
        self.originalTransactionId = originalTransactionId
        self.info = info
        self.announced = announced
        self.source = source
        self.sourceType = sourceType
    }

    /// Merges another copy of the same transaction, shown by a record of event time `time`: gaps are filled, a
    /// revocation once shown stands, the newest expiry wins, an upgrade once shown stands; when the copy shows a later
    /// expiry or the upgrade first, `time` is when V1 learnt it.
    package mutating func merge(_ other: LatestReceiptInfo, at time: Int64? = nil) {
        let newestExpiry = [info.expiresDate, other.expiresDate].compactMap { $0 }.max()
        let upgraded = info.isUpgraded == true || other.isUpgraded == true
        if let later = other.expiresDate, later > (info.expiresDate ?? Int64.min) { expiresLearntAt = time }
        if upgraded, info.isUpgraded != true { upgradeLearntAt = time }
        info.fillGaps(from: other)
        info.expiresDate = newestExpiry
        if upgraded { info.isUpgraded = true }
    }

    /// The transaction in V2's shape (`V2Builder.transaction`), the same conversion `migrate` uses.
    package var v2Shape: JWSTransactionDecodedPayload {
        // On an upgraded transaction V1's cancellation date is the upgrade time, not a refund: V2Builder keeps isUpgraded only.
        let neutral = MappingRule(id: "", v1Types: [], conditions: [], v2Type: "", v2Subtype: nil, line: 0)
        return V2Builder.transaction(info, bundleId: nil, environment: environment, rule: neutral)
    }
}
