/// Decodes Apple's App Store Server API responses, and lone transactions, into `V2APIRecord`s.
///
/// `V2RecordDecoder` hands it the records it recognises as such:
/// - a Get Transaction History page `{"revision", "hasMore", "bundleId", "appAppleId", "environment",
///   "signedTransactions": [JWS, …]}`: one outcome per entry, located by the entry's index;
/// - a Get All Subscription Statuses response `{"environment", "bundleId", "appAppleId", "data":
///   [{"subscriptionGroupIdentifier", "lastTransactions": [{"originalTransactionId", "status", "signedTransactionInfo",
///   "signedRenewalInfo"}]}]}`: one outcome per `lastTransactions` entry, numbered across the whole response. Its fetch
///   time is a member named in `V2Envelope.fetchTimeKeys` (`fetchedAt`, `receivedAt`, …: epoch seconds or ms, or ISO 8601), on
///   the response or on its envelope, else the newest `signedDate` in it;
/// - a decoded `JWSTransactionDecodedPayload` (it has `transactionId`), or one inside a compact JWS.
///
/// A placeholder or malformed JWS (Apple's library examples hold `"signed_transaction_value"`) is a `.malformedJWS`
/// reject of its own entry; the other entries of the page are read. Signatures are not verified here.
package struct V2APIResponseDecoder: Sendable {
    /// The record decoder, for JWS payloads.
    package let decoder: V2RecordDecoder

    /// Creates an API decoder over a record decoder.
    package init(decoder: V2RecordDecoder) {
        self.decoder = decoder
    }

    // MARK: - Detection

    /// Whether `object` is a Get Transaction History page.
    package static func isHistoryPage(_ object: JSONObject) -> Bool {
        object["signedTransactions"] != nil
    }

    /// Whether `object` is a Get All Subscription Statuses response: a `data` array (notifications have an object).
    package static func isStatusesResponse(_ object: JSONObject) -> Bool {
        if case .array? = object["data"] { return true }
        return false
    }

    /// Whether `object` is a decoded transaction: it has a `transactionId` and no `notificationType`.
    package static func isTransaction(_ object: JSONObject) -> Bool {
        object["notificationType"] == nil && object["transactionId"] != nil && object["autoRenewStatus"] == nil
    }

    // MARK: - Decoding

    /// The entries of a Get Transaction History page.
    package func historyPage(_ page: JSONObject, at location: SourceLocation) -> [V2ReadOutcome] {
        guard case .array(let entries)? = page["signedTransactions"] else {
            let found = page["signedTransactions"].map { V1FieldReader.describe($0) } ?? "missing"
            return [
                .rejected(
                    ASNError(
                        .wrongFieldType,
                        "signedTransactions is \(found), not an array; save Get Transaction History responses unchanged",
                        at: location.with(key: "signedTransactions")))
            ]
        }
        let pageEnvironment = V2FieldReader(page).string("environment")
        return entries.enumerated().map { index, entry in
            var at = location
            at.index = index
            let key = "signedTransactions[\(index)]"
            do throws(ASNError) {
                guard case .string(let jws) = entry else {
                    throw ASNError(
                        .malformedJWS,
                        "\(key) is \(V1FieldReader.describe(entry)), not a JWS string; save Get Transaction History responses unchanged",
                        at: at.with(key: key))
                }
                let object = try signedObject(jws, what: key, at: at.with(key: key))
                return .api(
                    .transaction(transaction(object, origin: .history, pageEnvironment: pageEnvironment, at: at)))
            } catch {
                return .rejected(error)
            }
        }
    }

    /// The `lastTransactions` entries of a Get All Subscription Statuses response; `envelopeTime` is the time of the
    /// envelope it came in, its fetch time unless it names one itself.
    package func statusesResponse(_ response: JSONObject, at location: SourceLocation, envelopeTime: Int64? = nil)
        -> [V2ReadOutcome]
    {
        guard case .array(let groups)? = response["data"] else { return [] }
        let reader = V2FieldReader(response)
        let environment = reader.string("environment")
        let namedTime = V2Envelope.fetchTime(of: response)?.ms ?? envelopeTime
        // First pass: decode every entry (a bad one is its own reject), then date the good ones.
        var decoded: [(SourceLocation, Result<V2SubscriptionStatus, ASNError>)] = []
        var index = 0
        for (groupIndex, group) in groups.enumerated() {
            let groupKey = "data[\(groupIndex)]"
            guard case .object(let groupObject) = group, case .array(let entries)? = groupObject["lastTransactions"]
            else {
                var at = location
                at.index = index
                index += 1
                decoded.append(
                    (
                        at,
                        .failure(
                            ASNError(
                                .wrongFieldType,
                                "\(groupKey) is not {\"subscriptionGroupIdentifier\", \"lastTransactions\": […]}; save Get All Subscription Statuses responses unchanged",
                                at: at.with(key: groupKey)))
                    ))
                continue
            }
            let groupId = V2FieldReader(groupObject).string("subscriptionGroupIdentifier")
            for (entryIndex, entry) in entries.enumerated() {
                var at = location
                at.index = index
                index += 1
                let key = "\(groupKey).lastTransactions[\(entryIndex)]"
                do {
                    decoded.append(
                        (at, .success(try status(entry, key: key, group: groupId, environment: environment, at: at))))
                } catch {
                    decoded.append((at, .failure(error)))
                }
            }
        }
        let newestSigned = decoded.compactMap { entry -> Int64? in
            guard case .success(let s) = entry.1 else { return nil }
            return [s.transaction?.signedDate, s.renewal?.signedDate].compactMap { $0 }.max()
        }.max()
        let fetchedAt = namedTime ?? newestSigned
        return decoded.map { _, result in
            switch result {
            case .success(var status):
                status.fetchedAt = fetchedAt
                return .api(.status(status))
            case .failure(let error):
                return .rejected(error)
            }
        }
    }

    /// A lone decoded transaction object.
    package func loneTransaction(_ object: JSONObject, at location: SourceLocation) -> V2ReadOutcome {
        guard let id = V2FieldReader(object).string("transactionId"), !id.isEmpty else {
            let found = object["transactionId"].map { V1FieldReader.describe($0) } ?? "missing"
            return .rejected(
                ASNError(
                    .wrongFieldType,
                    "transactionId is \(found), not a non-empty string of digits; a transaction record must carry Apple's transactionId",
                    at: location.with(key: "transactionId")))
        }
        return .api(.transaction(transaction(object, origin: .single, pageEnvironment: nil, at: location)))
    }

    // MARK: - Private

    /// One `lastTransactions` entry.
    private func status(_ entry: JSONValue, key: String, group: String?, environment: String?, at: SourceLocation)
        throws(ASNError) -> V2SubscriptionStatus
    {
        guard case .object(let object) = entry else {
            throw ASNError(
                .notAnObject, "\(key) is \(V1FieldReader.describe(entry)), not an object", at: at.with(key: key))
        }
        let reader = V2FieldReader(object)
        var transaction: JWSTransactionDecodedPayload?
        var renewal: JWSRenewalInfoDecodedPayload?
        for member in ["signedTransactionInfo", "signedRenewalInfo"] {
            let path = key + "." + member
            switch object[member] {
            case nil, .null?:
                continue
            case .string(let jws)?:
                let decoded = try signedObject(jws, what: path, at: at.with(key: path))
                if member == "signedTransactionInfo" {
                    transaction = JWSTransactionDecodedPayload(decoded)
                } else {
                    renewal = JWSRenewalInfoDecodedPayload(decoded)
                }
            case let other?:
                throw ASNError(
                    .malformedJWS, "\(path) is \(V1FieldReader.describe(other)), not a JWS string",
                    at: at.with(key: path))
            }
        }
        guard
            let id = reader.string("originalTransactionId") ?? transaction?.originalTransactionId
                ?? renewal?.originalTransactionId
        else {
            throw ASNError(
                .wrongFieldType,
                "\(key) has no originalTransactionId; save Get All Subscription Statuses responses unchanged",
                at: at.with(key: key + ".originalTransactionId"))
        }
        let environmentName =
            EnvironmentName.normalized(environment ?? transaction?.environment ?? renewal?.environment) ?? ""
        return V2SubscriptionStatus(
            environment: environmentName, originalTransactionId: id, subscriptionGroupIdentifier: group,
            status: reader.int("status"), transaction: transaction, renewal: renewal, fetchedAt: nil, location: at)
    }

    /// A transaction from its decoded object, its environment from itself or its page.
    private func transaction(
        _ object: JSONObject, origin: V2Transaction.Origin, pageEnvironment: String?, at: SourceLocation
    ) -> V2Transaction {
        let payload = JWSTransactionDecodedPayload(object)
        let environment = EnvironmentName.normalized(payload.environment ?? pageEnvironment) ?? ""
        return V2Transaction(payload: payload, environment: environment, origin: origin, location: at)
    }

    /// The JSON object inside the compact JWS `jws`.
    private func signedObject(_ jws: String, what: String, at: SourceLocation) throws(ASNError) -> JSONObject {
        let value = try decoder.jwsPayload(jws, what: what, at: at)
        guard case .object(let object) = value else {
            throw ASNError(
                .notAnObject, "the payload of \(what) is \(V1FieldReader.describe(value)), not a JSON object", at: at)
        }
        if let signatures = decoder.signatures {
            try signatures.verifier.verify(
                jws, signedDate: V2FieldReader(object).int64("signedDate"), what: what, at: at)
        }
        return object
    }
}
