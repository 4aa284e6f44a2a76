import Foundation

/// The V1 keys the mapping reads, as field ids, with per-object lookup tables over raw key bytes.
enum V1Keys {
    /// Key bytes → field id, for the keys of one kind of object; looked up by length first.
    struct Table: Sendable {
        /// Candidates by key length.
        private var byLength: [[(bytes: [UInt8], id: Int)]] = Array(repeating: [], count: 40)

        /// A table of `keys`.
        init(_ keys: [(String, Int)]) {
            for (key, id) in keys { byLength[key.utf8.count].append((Array(key.utf8), id)) }
        }

        /// The field id of the `length` key bytes at `start`, if known.
        @inline(__always)
        func lookup(_ start: UnsafePointer<UInt8>, _ length: Int) -> Int? {
            guard length < byLength.count else { return nil }
            for candidate in byLength[length] {
                let same = candidate.bytes.withUnsafeBufferPointer { b in
                    guard let p = b.baseAddress else { return false }
                    return memcmp(p, start, length) == 0
                }
                if same { return candidate.id }
            }
            return nil
        }
    }

    // MARK: - Field ids (one per key name; each table uses its own subset)

    /// Field ids of the keys named like these properties.
    static let notificationType = 0, unifiedReceipt = 1, environment = 2, autoRenewStatus = 3, autoRenewProductId = 4
    /// Field ids of the keys named like these properties.
    static let autoRenewStatusChangeDateMs = 5, autoRenewStatusChangeDate = 6, bid = 7, bvrs = 8, originalTransactionId = 9
    /// Field ids of the keys named like these properties.
    static let cancellationDateMs = 10, cancellationDate = 11, webOrderLineItemId = 12, expirationIntent = 13
    /// Field ids of the keys named like these properties.
    static let isInBillingRetryPeriod = 14, latestReceiptInfo = 15, latestExpiredReceiptInfo = 16, pendingRenewalInfo = 17
    /// Field ids of the keys named like these properties.
    static let transactionId = 18, productId = 19, subscriptionGroupIdentifier = 20, purchaseDateMs = 21, purchaseDate = 22
    /// Field ids of the keys named like these properties.
    static let originalPurchaseDateMs = 23, originalPurchaseDate = 24, expiresDateMs = 25, expiresDate = 26
    /// Field ids of the keys named like these properties.
    static let cancellationReason = 27, quantity = 28, isTrialPeriod = 29, isInIntroOfferPeriod = 30, isUpgraded = 31
    /// Field ids of the keys named like these properties.
    static let offerCodeRefName = 32, promotionalOfferId = 33, inAppOwnershipType = 34, appAccountToken = 35
    /// Field ids of the keys named like these properties.
    static let gracePeriodExpiresDateMs = 36, gracePeriodExpiresDate = 37, priceConsentStatus = 38
    /// How many field ids there are.
    static let count = 39

    // MARK: - Tables

    /// Keys of a body.
    static let top = Table([
        ("notification_type", notificationType), ("unified_receipt", unifiedReceipt), ("environment", environment),
        ("auto_renew_status", autoRenewStatus), ("auto_renew_product_id", autoRenewProductId),
        ("auto_renew_status_change_date_ms", autoRenewStatusChangeDateMs), ("auto_renew_status_change_date", autoRenewStatusChangeDate),
        ("bid", bid), ("bvrs", bvrs), ("original_transaction_id", originalTransactionId),
        ("cancellation_date_ms", cancellationDateMs), ("cancellation_date", cancellationDate),
        ("web_order_line_item_id", webOrderLineItemId), ("expiration_intent", expirationIntent),
        ("is_in_billing_retry_period", isInBillingRetryPeriod), ("latest_receipt_info", latestReceiptInfo),
        ("latest_expired_receipt_info", latestExpiredReceiptInfo), ("pending_renewal_info", pendingRenewalInfo),
    ])

    /// Keys of `unified_receipt`.
    static let unified = Table([
        ("environment", environment), ("latest_receipt_info", latestReceiptInfo), ("pending_renewal_info", pendingRenewalInfo),
    ])

    /// Keys of a `latest_receipt_info` entry.
    static let transaction = Table([
        ("transaction_id", transactionId), ("original_transaction_id", originalTransactionId),
        ("web_order_line_item_id", webOrderLineItemId), ("product_id", productId),
        ("subscription_group_identifier", subscriptionGroupIdentifier), ("purchase_date_ms", purchaseDateMs),
        ("purchase_date", purchaseDate), ("original_purchase_date_ms", originalPurchaseDateMs),
        ("original_purchase_date", originalPurchaseDate), ("expires_date_ms", expiresDateMs), ("expires_date", expiresDate),
        ("cancellation_date_ms", cancellationDateMs), ("cancellation_date", cancellationDate),
        ("cancellation_reason", cancellationReason), ("quantity", quantity), ("is_trial_period", isTrialPeriod),
        ("is_in_intro_offer_period", isInIntroOfferPeriod), ("is_upgraded", isUpgraded),
        ("offer_code_ref_name", offerCodeRefName), ("promotional_offer_id", promotionalOfferId),
        ("in_app_ownership_type", inAppOwnershipType), ("app_account_token", appAccountToken), ("bid", bid), ("bvrs", bvrs),
    ])

    /// Keys of a `pending_renewal_info` entry.
    static let pending = Table([
        ("auto_renew_product_id", autoRenewProductId), ("auto_renew_status", autoRenewStatus),
        ("original_transaction_id", originalTransactionId), ("product_id", productId), ("expiration_intent", expirationIntent),
        ("grace_period_expires_date_ms", gracePeriodExpiresDateMs), ("grace_period_expires_date", gracePeriodExpiresDate),
        ("is_in_billing_retry_period", isInBillingRetryPeriod), ("price_consent_status", priceConsentStatus),
        ("offer_code_ref_name", offerCodeRefName), ("promotional_offer_id", promotionalOfferId),
    ])
}
