/// One V2 record as `reconcile` reads it in facts mode: its packed facts, or (an API record, a reject) its outcome.
package enum V2FactsItem: Sendable {
    /// A notification's facts; `verified` says every JWS of it was verified.
    case facts(PackedFacts, verified: Bool)
    /// An API record or a reject.
    case other(V2ReadOutcome)

    /// The item of a decoded outcome, a notification's texts added to `texts`.
    package init(_ outcome: V2ReadOutcome, texts: inout FactTexts) {
        guard case .record(let record) = outcome else {
            self = .other(outcome)
            return
        }
        self = .facts(PackedFacts(record, texts: &texts), verified: record.signatureVerified)
    }
}

extension PackedFacts {
    /// The facts of a decoded V2 record: `RecordFacts` of its payload, its price, currency and content fingerprint.
    package init(_ record: V2Record, texts: inout FactTexts) {
        self.init(RecordFacts(record.payload, kind: .v2, location: record.location), texts: &texts)
        fingerprint = SHA1.prefix64(record.contentDigest)
        price = record.payload.data.transactionInfo?.price
        currency = texts.add(record.payload.data.transactionInfo?.currency)
    }
}
