/// The API view's form: one answer of Apple's App Store Server API (`api_records.record`), a transaction or a
/// subscription status, as its facts; its file and kind are the row's own columns.
extension StateCodec {
    /// A transaction's members by Apple's key, tagged beside the model (`JWSTransactionDecodedPayload.storedMembers`).
    package static let transactionTable: Table = JWSTransactionDecodedPayload.storedMembers

    /// Renewal info's members by Apple's key, tagged beside the model (`JWSRenewalInfoDecodedPayload.storedMembers`).
    package static let renewalTable: Table = JWSRenewalInfoDecodedPayload.storedMembers

    /// A stored answer's own members (a status's, as Apple's Get All Subscription Statuses names them; a
    /// transaction's page environment and payload). Tags are fixed: never change or reuse one.
    package static let answerTable: Table = [
        "environment": Member(1, .shared),
        "originalTransactionId": Member(2, .id),
        "subscriptionGroupIdentifier": Member(3, .shared),
        "status": Member(4, .number),
        "fetchedAt": Member(5, .date),
        "signedTransactionInfo": Member(6, .text),
        "signedRenewalInfo": Member(7, .text),
        "transaction": Member(8, .text)
    ]

    /// Encodes one answer; `text` gives a shared text's `texts` id (adding it when new). Equal answers give equal
    /// bytes (their file and line are not kept: the row's file names them).
    package static func encode(_ record: V2APIRecord, text: (String) throws(ASNError) -> Int64) throws(ASNError)
        -> [UInt8]
    {
        var fields: [Field] = []
        func add(_ key: String, _ value: Value?) {
            if let value, let member = answerTable[key] { fields.append(Field(member: member, value: value)) }
        }
        switch record {
        case .transaction(let t):
            add("environment", .text(t.environment))
            add("transaction", .nested(try Self.fields(of: t.payload, transactionTable, form: "Apple's transaction")))
        case .status(let s):
            add("environment", .text(s.environment))
            add("originalTransactionId", .text(s.originalTransactionId))
            add("subscriptionGroupIdentifier", s.subscriptionGroupIdentifier.map { .text($0) })
            add("status", s.status.map { .number(Int64($0)) })
            add("fetchedAt", s.fetchedAt.map { .number($0) })
            if let transaction = s.transaction {
                add(
                    "signedTransactionInfo",
                    .nested(try Self.fields(of: transaction, transactionTable, form: "Apple's transaction")))
            }
            if let renewal = s.renewal {
                add(
                    "signedRenewalInfo",
                    .nested(try Self.fields(of: renewal, renewalTable, form: "Apple's renewal info")))
            }
        }
        return try blob(fields, text: text)
    }

    /// One answer read back, of the row's `kind` (`transactionKind` or `statusKind`), read from `location`'s file;
    /// nil when the bytes are damaged, of another version, or not of that kind.
    package static func apiRecord(_ bytes: [UInt8], kind: Int64, at location: SourceLocation, text: (Int64) -> String?)
        -> V2APIRecord?
    {
        guard var members = readBlob(bytes, text: text) else { return nil }
        func take(_ key: String) -> Read? {
            guard let tag = answerTable[key]?.tag else { return nil }
            return members.removeValue(forKey: tag)
        }
        guard case .text(let environment)? = take("environment") else { return nil }
        switch kind {
        case transactionKind:
            guard let read = take("transaction"), members.isEmpty,
                let payload: JWSTransactionDecodedPayload = nested(read, transactionTable, text: text)
            else { return nil }
            return .transaction(
                V2Transaction(payload: payload, environment: environment, origin: .history, location: location))
        case statusKind:
            guard case .text(let id)? = take("originalTransactionId") else { return nil }
            var status = V2SubscriptionStatus(
                environment: environment, originalTransactionId: id, subscriptionGroupIdentifier: nil, status: nil,
                transaction: nil, renewal: nil, fetchedAt: nil, location: location)
            switch take("subscriptionGroupIdentifier") {
            case .text(let group)?: status.subscriptionGroupIdentifier = group
            case nil: break
            default: return nil
            }
            switch take("status") {
            case .number(let value)?: status.status = Int(exactly: value)
            case nil: break
            default: return nil
            }
            switch take("fetchedAt") {
            case .number(let value)?: status.fetchedAt = value
            case nil: break
            default: return nil
            }
            if let read = take("signedTransactionInfo") {
                guard let transaction: JWSTransactionDecodedPayload = nested(read, transactionTable, text: text)
                else { return nil }
                status.transaction = transaction
            }
            if let read = take("signedRenewalInfo") {
                guard let renewal: JWSRenewalInfoDecodedPayload = nested(read, renewalTable, text: text) else {
                    return nil
                }
                status.renewal = renewal
            }
            guard members.isEmpty else { return nil }
            return .status(status)
        default:
            return nil
        }
    }

    /// The `api_records.kind` of a transaction.
    package static let transactionKind: Int64 = 1
    /// The `api_records.kind` of a subscription status.
    package static let statusKind: Int64 = 2
}
