/// Applies `NumericID` to every V2 record read, whatever its form (JSON, JWS, CSV row, API response): a record whose
/// `transactionId`, `originalTransactionId` or `webOrderLineItemId` is not 1 to 20 digits becomes a `bad_id` reject
/// naming the field. An empty ID counts as absent, as it does in V1.
enum V2IDCheck {
    /// `outcome`, or a `bad_id` reject when one of its IDs breaks the rule.
    static func checked(_ outcome: V2ReadOutcome) -> V2ReadOutcome {
        switch outcome {
        case .record(let record):
            let data = record.payload.data
            let ids =
                transactionIDs(data.transactionInfo, prefix: "data.transactionInfo.")
                + [("data.renewalInfo.originalTransactionId", data.renewalInfo?.originalTransactionId)]
            return failure(ids, at: record.location).map(V2ReadOutcome.rejected) ?? outcome
        case .api(.transaction(let transaction)):
            return failure(transactionIDs(transaction.payload, prefix: ""), at: transaction.location).map(
                V2ReadOutcome.rejected) ?? outcome
        case .api(.status(let status)):
            let ids =
                [("originalTransactionId", Optional(status.originalTransactionId))]
                + transactionIDs(status.transaction, prefix: "signedTransactionInfo.")
                + [("signedRenewalInfo.originalTransactionId", status.renewal?.originalTransactionId)]
            return failure(ids, at: status.location).map(V2ReadOutcome.rejected) ?? outcome
        case .rejected:
            return outcome
        }
    }

    /// The three IDs of a transaction, named under `prefix`.
    private static func transactionIDs(_ transaction: JWSTransactionDecodedPayload?, prefix: String) -> [(
        String, String?
    )] {
        [
            (prefix + "transactionId", transaction?.transactionId),
            (prefix + "originalTransactionId", transaction?.originalTransactionId),
            (prefix + "webOrderLineItemId", transaction?.webOrderLineItemId)
        ]
    }

    /// The reject for the first ID that breaks the rule, or nil.
    private static func failure(_ ids: [(String, String?)], at location: SourceLocation) -> ASNError? {
        for (field, value) in ids {
            guard let value, !value.isEmpty, !NumericID.isValid(value) else { continue }
            return NumericID.failure(field: field, found: V1FieldReader.describe(.string(value)), at: location)
        }
        return nil
    }
}
