import Testing

@testable import ASNMigrateKit

/// `V2MemberSelection.read(by:)` finds exactly the members a reading depends on, and `reconcile`'s selection keeps what
/// its engine compares while dropping what it never reads.
@Suite struct V2MemberSelectionTests {
    /// The places, in visit order, of `keys` among a model's members.
    static func bits<Model: V2ScalarModel>(_ model: Model, _ keys: Set<String>) -> UInt64 {
        var names = KeyNames()
        var copy = model
        copy.visitMembers(&names)
        var bits: UInt64 = 0
        for (place, key) in names.keys.enumerated() where keys.contains(key) { bits |= 1 << UInt64(place) }
        return bits
    }

    /// Collects the visited keys in order.
    struct KeyNames: V2MemberVisitor {
        var keys: [String] = []
        mutating func visit(_ key: String, _ value: inout String?) { keys.append(key) }
        mutating func visit(_ key: String, _ value: inout Int64?) { keys.append(key) }
        mutating func visit(_ key: String, _ value: inout Int?) { keys.append(key) }
        mutating func visit(_ key: String, _ value: inout Bool?) { keys.append(key) }
    }

    @Test func aReadingKeepsExactlyTheMembersItReads() {
        let selection = V2MemberSelection.read { p in
            [p.data.transactionInfo?.productId ?? p.data.renewalInfo?.productId, p.notificationUUID]
        }
        #expect(selection.transaction == Self.bits(JWSTransactionDecodedPayload(), ["productId"]))
        #expect(selection.renewal == Self.bits(JWSRenewalInfoDecodedPayload(), ["productId"]))
        #expect(selection.notification == 0b10, "notificationUUID is the payload's second scalar")
        #expect(selection.data == 0)
        let flags = V2MemberSelection.read { p in p.data.renewalInfo?.isInBillingRetryPeriod == false }
        #expect(flags.renewal == Self.bits(JWSRenewalInfoDecodedPayload(), ["isInBillingRetryPeriod"]))
        let environment = V2MemberSelection.read { p in EnvironmentName.normalized(p.data.environment) }
        #expect(environment.data == 0b100, "a member read through a normalisation is found by its probe values")
    }

    @Test func reconcileKeepsWhatItComparesAndDropsWhatItNeverReads() {
        let kept = ReconcilePass.v2Members
        let transactionKept = Self.bits(
            JWSTransactionDecodedPayload(),
            [
                "transactionId", "originalTransactionId", "webOrderLineItemId", "bundleId", "productId", "purchaseDate",
                "originalPurchaseDate", "expiresDate", "inAppOwnershipType", "revocationReason", "revocationDate",
                "isUpgraded", "offerType", "offerIdentifier", "price", "currency"
            ])
        #expect(kept.transaction == transactionKept)
        #expect(kept.transaction & Self.bits(JWSTransactionDecodedPayload(), ["appAccountToken", "storefront"]) == 0)
        let renewalCompared = Self.bits(JWSRenewalInfoDecodedPayload(), ["autoRenewStatus", "autoRenewProductId"])
        #expect(kept.renewal & renewalCompared == renewalCompared)
        #expect(kept != .all)
    }
}
