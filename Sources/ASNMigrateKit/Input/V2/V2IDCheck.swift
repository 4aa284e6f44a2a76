/// Applies `NumericID` to every V2 record read, whatever its form (JSON, JWS, CSV row, API response): a record whose
/// `transactionId`, `originalTransactionId` or `webOrderLineItemId` is not 1 to 20 digits becomes a `bad_id` reject
/// naming the field. An empty ID counts as absent, as it does in V1.
enum V2IDCheck {
    /// The `V2FieldTable` paths of the ids a notification's check reads.
    static let paths = [
        "data.transactionInfo.transactionId", "data.transactionInfo.originalTransactionId",
        "data.transactionInfo.webOrderLineItemId", "data.renewalInfo.originalTransactionId"
    ]

    /// `outcome`, or a `bad_id` reject when one of its IDs breaks the rule. A field's name is made only for a reject.
    static func checked(_ outcome: V2ReadOutcome) -> V2ReadOutcome {
        let failure: ASNError?
        switch outcome {
        case .record(let record):
            let data = record.payload.data
            failure =
                transactionFailure(data.transactionInfo, prefix: "data.transactionInfo.", at: record.location)
                ?? idFailure(
                    data.renewalInfo?.originalTransactionId, "data.renewalInfo.originalTransactionId",
                    at: record.location)
        case .api(.transaction(let transaction)):
            failure = transactionFailure(transaction.payload, prefix: "", at: transaction.location)
        case .api(.status(let status)):
            failure =
                idFailure(status.originalTransactionId, "originalTransactionId", at: status.location)
                ?? transactionFailure(status.transaction, prefix: "signedTransactionInfo.", at: status.location)
                ?? idFailure(
                    status.renewal?.originalTransactionId, "signedRenewalInfo.originalTransactionId",
                    at: status.location)
        case .rejected:
            return outcome
        }
        return failure.map(V2ReadOutcome.rejected) ?? outcome
    }

    /// The reject for the first of a transaction's three IDs, named under `prefix`, that breaks the rule, or nil.
    private static func transactionFailure(
        _ transaction: JWSTransactionDecodedPayload?, prefix: String, at location: SourceLocation
    ) -> ASNError? {
        idFailure(transaction?.transactionId, prefix + "transactionId", at: location)
            ?? idFailure(transaction?.originalTransactionId, prefix + "originalTransactionId", at: location)
            ?? idFailure(transaction?.webOrderLineItemId, prefix + "webOrderLineItemId", at: location)
    }

    /// The reject for `value` when it breaks the rule (named `field`), or nil.
    private static func idFailure(_ value: String?, _ field: @autoclosure () -> String, at location: SourceLocation)
        -> ASNError?
    {
        guard let value, !value.isEmpty, !NumericID.isValid(value) else { return nil }
        return NumericID.failure(field: field(), found: V1FieldReader.describe(.string(value)), at: location)
    }
}
