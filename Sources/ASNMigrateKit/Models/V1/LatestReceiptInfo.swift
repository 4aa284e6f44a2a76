/// One transaction of a V1 receipt (`latest_receipt_info` entry), named after Apple's `LatestReceiptInfo`.
package struct LatestReceiptInfo: Sendable, Equatable, MemberVisitable {
    /// `transaction_id`.
    package var transactionId: String?
    /// `original_transaction_id`: the subscription.
    package var originalTransactionId: String?
    /// `web_order_line_item_id`: one renewal purchase.
    package var webOrderLineItemId: String?
    /// `product_id`.
    package var productId: String?
    /// `subscription_group_identifier`.
    package var subscriptionGroupIdentifier: String?
    /// `purchase_date_ms` (or `purchase_date`).
    package var purchaseDate: Int64?
    /// `original_purchase_date_ms` (or `original_purchase_date`).
    package var originalPurchaseDate: Int64?
    /// `expires_date_ms` (or `expires_date`, whose digits are milliseconds in legacy bodies).
    package var expiresDate: Int64?
    /// `cancellation_date_ms` (or `cancellation_date`).
    package var cancellationDate: Int64?
    /// `cancellation_reason` ("0" or "1"), raw.
    package var cancellationReason: String?
    /// `quantity`, raw digits.
    package var quantity: String?
    /// `is_trial_period`.
    package var isTrialPeriod: Bool?
    /// `is_in_intro_offer_period`.
    package var isInIntroOfferPeriod: Bool?
    /// `is_upgraded`.
    package var isUpgraded: Bool?
    /// `offer_code_ref_name`.
    package var offerCodeRefName: String?
    /// `promotional_offer_id`.
    package var promotionalOfferId: String?
    /// `in_app_ownership_type`, raw ("PURCHASED", "FAMILY_SHARED", or whatever Apple sent).
    package var inAppOwnershipType: String?
    /// `app_account_token`.
    package var appAccountToken: String?
    /// `bid` (legacy per-transaction bundle id).
    package var bid: String?
    /// `bvrs` (legacy per-transaction bundle version).
    package var bvrs: String?

    /// Creates an empty transaction.
    package init() {}

    /// Decodes a transaction from either path's source (`V1FieldReader` or the fast path's tape), by `V1Key`.
    package init<Source: V1FieldSource>(_ r: Source) throws(Source.Failure) {
        transactionId = try r.identifier(.transactionId)
        originalTransactionId = try r.identifier(.originalTransactionId)
        webOrderLineItemId = try r.identifier(.webOrderLineItemId)
        productId = try r.string(.productId)
        subscriptionGroupIdentifier = try r.string(.subscriptionGroupIdentifier)
        purchaseDate = try r.date(.purchaseDate)
        originalPurchaseDate = try r.date(.originalPurchaseDate)
        expiresDate = try r.date(.expiresDate)
        cancellationDate = try r.date(.cancellationDate)
        cancellationReason = try r.code(.cancellationReason)
        quantity = try r.code(.quantity)
        isTrialPeriod = try r.bool(.isTrialPeriod)
        isInIntroOfferPeriod = try r.bool(.isInIntroOfferPeriod)
        isUpgraded = try r.bool(.isUpgraded)
        offerCodeRefName = try r.string(.offerCodeRefName)
        promotionalOfferId = try r.string(.promotionalOfferId)
        inAppOwnershipType = try r.string(.inAppOwnershipType)
        appAccountToken = try r.string(.appAccountToken)
        bid = try r.string(.bid)
        bvrs = try r.string(.bvrs)
    }

    /// This transaction with the text many transactions repeat (subscription, product, group, ownership, account
    /// token, offers, bundle) held as `strings`' kept copies; its own ids, unique to it, are left as they are.
    package mutating func shareText(_ strings: inout SharedStrings) {
        originalTransactionId = strings.share(originalTransactionId)
        productId = strings.share(productId)
        subscriptionGroupIdentifier = strings.share(subscriptionGroupIdentifier)
        offerCodeRefName = strings.share(offerCodeRefName)
        promotionalOfferId = strings.share(promotionalOfferId)
        inAppOwnershipType = strings.share(inAppOwnershipType)
        appAccountToken = strings.share(appAccountToken)
        bid = strings.share(bid)
        bvrs = strings.share(bvrs)
    }

    /// Fills fields this transaction lacks from another copy of the same transaction.
    package mutating func fillGaps(from other: LatestReceiptInfo) {
        transactionId = transactionId ?? other.transactionId
        originalTransactionId = originalTransactionId ?? other.originalTransactionId
        webOrderLineItemId = webOrderLineItemId ?? other.webOrderLineItemId
        productId = productId ?? other.productId
        subscriptionGroupIdentifier = subscriptionGroupIdentifier ?? other.subscriptionGroupIdentifier
        purchaseDate = purchaseDate ?? other.purchaseDate
        originalPurchaseDate = originalPurchaseDate ?? other.originalPurchaseDate
        expiresDate = expiresDate ?? other.expiresDate
        cancellationDate = cancellationDate ?? other.cancellationDate
        cancellationReason = cancellationReason ?? other.cancellationReason
        quantity = quantity ?? other.quantity
        isTrialPeriod = isTrialPeriod ?? other.isTrialPeriod
        isInIntroOfferPeriod = isInIntroOfferPeriod ?? other.isInIntroOfferPeriod
        isUpgraded = isUpgraded ?? other.isUpgraded
        offerCodeRefName = offerCodeRefName ?? other.offerCodeRefName
        promotionalOfferId = promotionalOfferId ?? other.promotionalOfferId
        inAppOwnershipType = inAppOwnershipType ?? other.inAppOwnershipType
        appAccountToken = appAccountToken ?? other.appAccountToken
        bid = bid ?? other.bid
        bvrs = bvrs ?? other.bvrs
    }
}

extension LatestReceiptInfo {
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

extension LatestReceiptInfo {
    /// Every key of a receipt entry, as Apple spells it, with how it is read, in member order (`visitMembers`): the
    /// one list of them, from which `V1Key`'s receipt keys and the mapping's entry fields (`V1EntryField`) follow.
    package static let keys: [(name: String, kind: V1FieldKind)] = [
        ("transaction_id", .identifier), ("original_transaction_id", .identifier),
        ("web_order_line_item_id", .identifier), ("product_id", .text), ("subscription_group_identifier", .text),
        ("purchase_date", .date), ("original_purchase_date", .date), ("expires_date", .date),
        ("cancellation_date", .date), ("cancellation_reason", .code), ("quantity", .code), ("is_trial_period", .flag),
        ("is_in_intro_offer_period", .flag), ("is_upgraded", .flag), ("offer_code_ref_name", .text),
        ("promotional_offer_id", .text), ("in_app_ownership_type", .text), ("app_account_token", .text),
        ("bid", .text), ("bvrs", .text)
    ]
}

extension V1Key {
    /// `transaction_id`.
    package static let transactionId = V1Key(named: "transaction_id")
    /// `product_id`.
    package static let productId = V1Key(named: "product_id")
    /// `subscription_group_identifier`.
    package static let subscriptionGroupIdentifier = V1Key(named: "subscription_group_identifier")
    /// `purchase_date` (a date key).
    package static let purchaseDate = V1Key(named: "purchase_date")
    /// `original_purchase_date` (a date key).
    package static let originalPurchaseDate = V1Key(named: "original_purchase_date")
    /// `expires_date` (a date key).
    package static let expiresDate = V1Key(named: "expires_date")
    /// `cancellation_reason`.
    package static let cancellationReason = V1Key(named: "cancellation_reason")
    /// `quantity`.
    package static let quantity = V1Key(named: "quantity")
    /// `is_trial_period`.
    package static let isTrialPeriod = V1Key(named: "is_trial_period")
    /// `is_in_intro_offer_period`.
    package static let isInIntroOfferPeriod = V1Key(named: "is_in_intro_offer_period")
    /// `is_upgraded`.
    package static let isUpgraded = V1Key(named: "is_upgraded")
    /// `offer_code_ref_name`.
    package static let offerCodeRefName = V1Key(named: "offer_code_ref_name")
    /// `promotional_offer_id`.
    package static let promotionalOfferId = V1Key(named: "promotional_offer_id")
    /// `in_app_ownership_type`.
    package static let inAppOwnershipType = V1Key(named: "in_app_ownership_type")
    /// `app_account_token`.
    package static let appAccountToken = V1Key(named: "app_account_token")
}

extension LatestReceiptInfo {
    /// The nightly state's codec tags of the members `visitMembers` names, by Apple's key: a member's tag is fixed
    /// here, beside it, by hand (never change or reuse one; a new member takes the next free tag), with the kind of
    /// its values (`StateCodec`).
    package static let storedMembers: [String: StoredMember] = [
        "transaction_id": StoredMember(1, .id),
        "original_transaction_id": StoredMember(2, .id),
        "web_order_line_item_id": StoredMember(3, .id),
        "product_id": StoredMember(4, .shared),
        "subscription_group_identifier": StoredMember(5, .shared),
        "purchase_date": StoredMember(6, .date),
        "original_purchase_date": StoredMember(7, .date),
        "expires_date": StoredMember(8, .date),
        "cancellation_date": StoredMember(9, .date),
        "cancellation_reason": StoredMember(10, .shared),
        "quantity": StoredMember(11, .shared),
        "is_trial_period": StoredMember(12, .flag),
        "is_in_intro_offer_period": StoredMember(13, .flag),
        "is_upgraded": StoredMember(14, .flag),
        "offer_code_ref_name": StoredMember(15, .shared),
        "promotional_offer_id": StoredMember(16, .shared),
        "in_app_ownership_type": StoredMember(17, .shared),
        "app_account_token": StoredMember(18, .text),
        "bid": StoredMember(19, .shared),
        "bvrs": StoredMember(20, .shared)
    ]
}
