import Testing

@testable import ASNMigrateKit

/// A receipt entry's keys are declared once, with `LatestReceiptInfo`'s members (`LatestReceiptInfo.keys`): they are
/// the model's member visit's keys in its order, each kind fits its member's type, and `V1Key` and the mapping's
/// `V1EntryField` follow from them.
@Suite struct V1KeyDeclarationTests {
    /// The keys and value types a model visits, in order.
    struct Members: V2MemberVisitor {
        var members: [(key: String, type: String)] = []
        mutating func visit(_ key: String, _ value: inout String?) { members.append((key, "String")) }
        mutating func visit(_ key: String, _ value: inout Int64?) { members.append((key, "Int64")) }
        mutating func visit(_ key: String, _ value: inout Int?) { members.append((key, "Int")) }
        mutating func visit(_ key: String, _ value: inout Bool?) { members.append((key, "Bool")) }
    }

    @Test func theReceiptKeysAreTheModelsVisitInOrderWithFittingKinds() {
        var visited = Members()
        var model = LatestReceiptInfo()
        model.visitMembers(&visited)
        #expect(visited.members.map(\.key) == LatestReceiptInfo.keys.map(\.name))
        for (member, declared) in zip(visited.members, LatestReceiptInfo.keys) {
            let expected =
                switch declared.kind {
                case .date: "Int64"
                case .flag: "Bool"
                case .text, .identifier, .code: "String"
                }
            #expect(member.type == expected, "\(declared.name) is \(declared.kind) but its member is \(member.type)")
        }
    }

    @Test func everyKeyIsDeclaredOnceAndEveryConstantIsAKey() {
        #expect(Set(V1Key.names).count == V1Key.names.count)
        for key in V1Key.allCases { #expect(V1Key(named: key.name) == key) }
        let constants: [V1Key] = [
            .notificationType, .unifiedReceipt, .environment, .autoRenewStatus, .autoRenewProductId,
            .autoRenewStatusChangeDate, .bid, .bvrs, .originalTransactionId, .cancellationDate, .webOrderLineItemId,
            .expirationIntent, .isInBillingRetryPeriod, .latestReceiptInfo, .latestExpiredReceiptInfo,
            .pendingRenewalInfo, .gracePeriodExpiresDate, .priceConsentStatus, .transactionId, .productId,
            .subscriptionGroupIdentifier, .purchaseDate, .originalPurchaseDate, .expiresDate, .cancellationReason,
            .quantity, .isTrialPeriod, .isInIntroOfferPeriod, .isUpgraded, .offerCodeRefName, .promotionalOfferId,
            .inAppOwnershipType, .appAccountToken
        ]
        #expect(Set(constants) == Set(V1Key.allCases))
        #expect(V1Key.originalPurchaseDate.name == "original_purchase_date")
        #expect("\(V1Key.originalPurchaseDate)" == "originalPurchaseDate")
        #expect("\(V1Key.bid)" == "bid")
    }

    @Test func theEntryFieldsAreTheReceiptKeys() {
        #expect(V1EntryField.allCases.map(\.key.name) == LatestReceiptInfo.keys.map(\.name))
        #expect(V1EntryField.allCases.map(\.kind) == LatestReceiptInfo.keys.map(\.kind))
        let constants: [V1EntryField] = [
            .transactionId, .originalTransactionId, .webOrderLineItemId, .productId, .subscriptionGroupIdentifier,
            .purchaseDate, .expiresDate, .cancellationDate, .cancellationReason, .isTrialPeriod,
            .isInIntroOfferPeriod, .isUpgraded, .offerCodeRefName, .promotionalOfferId, .inAppOwnershipType,
            .appAccountToken, .bid, .bvrs
        ]
        for field in constants { #expect(V1EntryField.allCases.contains(field), "\(field.rawValue)") }
    }
}
