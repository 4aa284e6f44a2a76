/// The JSON a state of schema 8 to 11 kept before `StateCodec`, read once to convert it: Foundation's encoding of
/// `V1RecordFacts` and `LatestReceiptInfo` (keys as the Swift properties were named then, fixed here) and the
/// project's own JSON of an API answer. Only the conversion to schema 12 reads it.
package enum LegacyStateJSON {
    /// Whether stored bytes are such JSON (an object), not `StateCodec`'s form.
    package static func isJSON(_ bytes: [UInt8]) -> Bool { bytes.first == UInt8(ascii: "{") }

    /// A V1 record's transaction facts from their old JSON; nil when they do not read.
    package static func v1Facts(_ bytes: [UInt8]) -> V1RecordFacts? {
        guard let o = try? JSONParser().parse(bytes).objectValue, let source = o["source"]?.stringValue else {
            return nil
        }
        var facts = V1RecordFacts(
            environment: o["environment"]?.stringValue ?? "",
            notificationType: o["notificationType"]?.stringValue ?? "",
            source: source)
        facts.subscriptionId = o["subscriptionId"]?.stringValue
        facts.eventTime = number(o["eventTime"])
        facts.eventTimeInferred = flag(o["eventTimeInferred"]) ?? false
        facts.bodyEventTime = number(o["bodyEventTime"])
        facts.relevantTransactionId = o["relevantTransactionId"]?.stringValue
        facts.autoRenewStatus = flag(o["autoRenewStatus"])
        facts.autoRenewProductId = o["autoRenewProductId"]?.stringValue
        facts.gracePeriodExpiresDate = number(o["gracePeriodExpiresDate"])
        facts.isInBillingRetryPeriod = flag(o["isInBillingRetryPeriod"])
        facts.bundleId = o["bundleId"]?.stringValue
        return facts
    }

    /// A receipt entry from its old JSON; nil when it does not read. Foundation named each member after its Swift
    /// property, which was its V1 key in camel case (`transaction_id` as `transactionId`), so the entry's own member
    /// visit reads it.
    package static func receiptEntry(_ bytes: [UInt8]) -> LatestReceiptInfo? {
        guard let o = try? JSONParser().parse(bytes).objectValue else { return nil }
        var reader = LegacyMemberReader(object: o)
        var entry = LatestReceiptInfo()
        entry.visitMembers(&reader)
        return entry
    }

    /// An API answer of `kind` (`StateCodec.transactionKind` or `statusKind`) from its old JSON; nil when it does
    /// not read.
    package static func apiRecord(_ bytes: [UInt8], kind: Int64, at location: SourceLocation) -> V2APIRecord? {
        guard let o = try? JSONParser().parse(bytes).objectValue, let environment = o["environment"]?.stringValue
        else { return nil }
        switch kind {
        case StateCodec.transactionKind:
            guard let payload = o["payload"]?.objectValue else { return nil }
            return .transaction(
                V2Transaction(
                    payload: JWSTransactionDecodedPayload(payload), environment: environment, origin: .history,
                    location: location))
        case StateCodec.statusKind:
            guard let id = o["originalTransactionId"]?.stringValue else { return nil }
            return .status(
                V2SubscriptionStatus(
                    environment: environment, originalTransactionId: id,
                    subscriptionGroupIdentifier: o["subscriptionGroupIdentifier"]?.stringValue,
                    status: number(o["status"]).map { Int($0) },
                    transaction: o["transaction"]?.objectValue.map { JWSTransactionDecodedPayload($0) },
                    renewal: o["renewal"]?.objectValue.map { JWSRenewalInfoDecodedPayload($0) },
                    fetchedAt: number(o["fetchedAt"]), location: location))
        default:
            return nil
        }
    }

    /// A JSON number's integer value.
    private static func number(_ value: JSONValue?) -> Int64? {
        if case .number(let text)? = value { return Int64(text) }
        return nil
    }

    /// A JSON Boolean's value.
    private static func flag(_ value: JSONValue?) -> Bool? {
        if case .bool(let flag)? = value { return flag }
        return nil
    }
}

/// Sets each visited member from an old JSON object, by the member's key in camel case.
private struct LegacyMemberReader: V2MemberVisitor {
    let object: JSONObject

    mutating func visit(_ key: String, _ value: inout String?) { value = object[Self.camel(key)]?.stringValue }
    mutating func visit(_ key: String, _ value: inout Int64?) {
        if case .number(let text)? = object[Self.camel(key)] { value = Int64(text) }
    }
    mutating func visit(_ key: String, _ value: inout Int?) {
        if case .number(let text)? = object[Self.camel(key)] { value = Int(text) }
    }
    mutating func visit(_ key: String, _ value: inout Bool?) {
        if case .bool(let flag)? = object[Self.camel(key)] { value = flag }
    }

    /// `snake_case` as `camelCase`.
    static func camel(_ key: String) -> String {
        var out = ""
        var upper = false
        for character in key {
            if character == "_" {
                upper = true
            } else {
                out += upper ? character.uppercased() : String(character)
                upper = false
            }
        }
        return out
    }
}
