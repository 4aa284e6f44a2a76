/// A V1 receipt entry's members in a fixed order, so the V1 archive's transactions are held packed
/// (`PackedMembers`), as Apple's API view is, rather than as models.
extension LatestReceiptInfo: PackableModel {
    /// Visits every member, by its V1 key (`V1Key`), in declaration order.
    package mutating func visitMembers<Visitor: V2MemberVisitor>(_ v: inout Visitor) {
        v.visit(V1Key.transactionId.name, &transactionId)
        v.visit(V1Key.originalTransactionId.name, &originalTransactionId)
        v.visit(V1Key.webOrderLineItemId.name, &webOrderLineItemId)
        v.visit(V1Key.productId.name, &productId)
        v.visit(V1Key.subscriptionGroupIdentifier.name, &subscriptionGroupIdentifier)
        v.visit(V1Key.purchaseDate.name, &purchaseDate)
        v.visit(V1Key.originalPurchaseDate.name, &originalPurchaseDate)
        v.visit(V1Key.expiresDate.name, &expiresDate)
        v.visit(V1Key.cancellationDate.name, &cancellationDate)
        v.visit(V1Key.cancellationReason.name, &cancellationReason)
        v.visit(V1Key.quantity.name, &quantity)
        v.visit(V1Key.isTrialPeriod.name, &isTrialPeriod)
        v.visit(V1Key.isInIntroOfferPeriod.name, &isInIntroOfferPeriod)
        v.visit(V1Key.isUpgraded.name, &isUpgraded)
        v.visit(V1Key.offerCodeRefName.name, &offerCodeRefName)
        v.visit(V1Key.promotionalOfferId.name, &promotionalOfferId)
        v.visit(V1Key.inAppOwnershipType.name, &inAppOwnershipType)
        v.visit(V1Key.appAccountToken.name, &appAccountToken)
        v.visit(V1Key.bid.name, &bid)
        v.visit(V1Key.bvrs.name, &bvrs)
    }
}
