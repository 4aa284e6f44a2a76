import Testing

@testable import ASNMigrateKit

/// `TransactionReconciler.merged` merges two copies of an API transaction by the model's member visit; over random
/// pairs it gives what the member-by-member merge it replaced gave, and the members it fills are the ones the API view
/// compares (and the type).
@Suite struct TransactionMergeTests {
    /// The merge as it was written member by member before the visit took it over.
    static func reference(_ a: JWSTransactionDecodedPayload, _ b: JWSTransactionDecodedPayload)
        -> JWSTransactionDecodedPayload
    {
        var m = a
        if m.revocationDate == nil {
            m.revocationDate = b.revocationDate
            m.revocationReason = b.revocationReason
        }
        m.expiresDate = [a.expiresDate, b.expiresDate].compactMap { $0 }.max()
        if b.isUpgraded == true { m.isUpgraded = true }
        m.productId = m.productId ?? b.productId
        m.purchaseDate = m.purchaseDate ?? b.purchaseDate
        m.originalPurchaseDate = m.originalPurchaseDate ?? b.originalPurchaseDate
        m.webOrderLineItemId = m.webOrderLineItemId ?? b.webOrderLineItemId
        m.inAppOwnershipType = m.inAppOwnershipType ?? b.inAppOwnershipType
        m.offerType = m.offerType ?? b.offerType
        m.offerIdentifier = m.offerIdentifier ?? b.offerIdentifier
        m.quantity = m.quantity ?? b.quantity
        m.type = m.type ?? b.type
        return m
    }

    @Test func mergesAsTheMemberByMemberMergeDid() {
        var scrambler = MemberVisitsTests.Scrambler(rng: SplitMix64(seed: 3838))
        var differed = 0
        for _ in 0..<3_000 {
            var a = JWSTransactionDecodedPayload()
            var b = JWSTransactionDecodedPayload()
            a.visitMembers(&scrambler)
            b.visitMembers(&scrambler)
            let merged = TransactionReconciler.merged(a, b)
            #expect(merged == Self.reference(a, b))
            if merged != a { differed += 1 }
        }
        #expect(differed > 0)
    }
}
