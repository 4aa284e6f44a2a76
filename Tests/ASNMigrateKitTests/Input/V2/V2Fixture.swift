@testable import ASNMigrateKit

/// Self-made V2 notifications for the V2 input tests: JSON texts and unsigned compact JWS built around them.
enum V2Fixture {
    /// A compact JWS over `payload` with header `{"alg":"ES256"}` and a fake signature (never verified).
    static func jws(_ payload: String) -> String {
        jws(bytes: Array(payload.utf8))
    }

    /// A compact JWS over raw payload bytes (for payloads that are not JSON).
    static func jws(bytes: [UInt8]) -> String {
        Base64.encodeURL(Array(#"{"alg":"ES256"}"#.utf8)) + "." + Base64.encodeURL(bytes) + "."
            + Base64.encodeURL([0xFA, 0x4E, 0x51, 0x67])
    }

    /// A transaction with IDs above 2^53 (as JSON numbers, the way some stores write them) and every value kind.
    static let transaction = #"""
        {"transactionId":"2000000970502538","originalTransactionId":9007199254740993,"webOrderLineItemId":18446744073709551615,
         "bundleId":"com.example.app","productId":"pro.monthly","purchaseDate":1700000000000,"expiresDate":1702592000000,
         "type":"Auto-Renewable Subscription","inAppOwnershipType":"PURCHASED","isUpgraded":false,"environment":"Sandbox",
         "transactionReason":"RENEWAL","storefront":"USA","price":9990,"currency":"USD","signedDate":1700000001000}
        """#

    /// Renewal info for the same subscription.
    static let renewal = #"""
        {"originalTransactionId":"9007199254740993","productId":"pro.monthly","autoRenewProductId":"pro.yearly",
         "autoRenewStatus":1,"isInBillingRetryPeriod":false,"renewalDate":1702592000000,"environment":"Sandbox","signedDate":1700000001000}
        """#

    /// A decoded notification whose `data` members are `dataMembers` (JSON text without braces).
    static func decoded(
        type: String = "DID_RENEW", subtype: String? = nil, uuid: String? = "6f1e2d3c-0000-4000-8000-000000000001",
        data dataMembers: String, extra: String = ""
    ) -> String {
        var members = [#""notificationType":"\#(type)""#]
        if let subtype { members.append(#""subtype":"\#(subtype)""#) }
        if let uuid { members.append(#""notificationUUID":"\#(uuid)""#) }
        members.append(#""data":{\#(dataMembers)}"#)
        members.append(#""version":"2.0","signedDate":1700000002000"#)
        if !extra.isEmpty { members.append(extra) }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// The usual `data` members around given transaction and renewal members.
    static func data(_ nested: String) -> String {
        #""appAppleId":1234,"bundleId":"com.example.app","bundleVersion":"42","environment":"Sandbox","status":1,"#
            + nested
    }

    /// A decoded notification with nested JWS strings, as Apple's payload decodes to.
    static var decodedWithJWS: String {
        decoded(data: data(#""signedTransactionInfo":"\#(jws(transaction))","signedRenewalInfo":"\#(jws(renewal))""#))
    }

    /// The raw body Apple posts for `decodedWithJWS`.
    static var rawBody: String {
        #"{"signedPayload":"\#(jws(decodedWithJWS))"}"#
    }
}
