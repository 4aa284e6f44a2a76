/// One record as the state database keeps it: its facts (what the reconciliation engine reads, `RecordFacts`) and,
/// for a V2 record, the fingerprint of its content that tells a repeated notificationUUID from a conflicting one.
///
/// The facts are fed back to the `Reconciler` as `reconcile` feeds the record, so both judge the same values. No V1
/// `password` or `latest_receipt` is in them.
package struct StoredRecord: Sendable, Equatable {
    /// The record's facts.
    package var facts: RecordFacts
    /// V2: the first 8 bytes of the content digest (as `reconcile` compares them); nil for V1.
    package var digest: Int64?

    /// A record with its facts and digest.
    package init(facts: RecordFacts, digest: Int64? = nil) {
        self.facts = facts
        self.digest = digest
    }

    /// A migrated V1 record.
    package init(migrated p: ResponseBodyV2DecodedPayload) {
        self.init(facts: RecordFacts(p, kind: .migrated, location: SourceLocation(path: "")))
    }

    /// A V1 record no rule maps.
    package init(unmapped u: UnmappedNotification) {
        self.init(facts: RecordFacts(unmapped: u))
    }

    /// A V2 record.
    package init(v2 record: V2Record) {
        self.init(
            facts: RecordFacts(record.payload, kind: .v2, location: record.location),
            digest: Int64(bitPattern: SHA1.prefix64(record.contentDigest)))
    }

    /// The subscription's key ("" for an absent environment or originalTransactionId).
    package var key: SubscriptionKey {
        SubscriptionKey(environment: facts.environment ?? "", originalTransactionId: facts.originalTransactionId ?? "")
    }

    /// notificationUUID, "" when none.
    package var notificationUUID: String { facts.notificationUUID ?? "" }

    /// "v1" or "v2".
    package var side: String { facts.side }

    /// Feeds the record to `reconciler` exactly as `reconcile` feeds the original.
    package func feed(into reconciler: inout Reconciler) {
        reconciler.add(facts, fingerprint: digest.map { UInt64(bitPattern: $0) } ?? 0)
    }
}
