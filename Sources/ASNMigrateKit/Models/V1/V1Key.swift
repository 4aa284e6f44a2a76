/// Every V1 body key the mapping reads, declared once: the models read their fields by these keys, and the fast path
/// builds its key tables from `allCases`, so a key added here is seen by both paths.
///
/// A date key names its base field (`purchase_date`); readers take its `_ms` form (`purchase_date_ms`) first.
package enum V1Key: Int, CaseIterable, Sendable {
    // MARK: - Body (`responseBodyV1`) and `unified_receipt`

    /// `notification_type`.
    case notificationType
    /// `unified_receipt`.
    case unifiedReceipt
    /// `environment`.
    case environment
    /// `auto_renew_status`.
    case autoRenewStatus
    /// `auto_renew_product_id`.
    case autoRenewProductId
    /// `auto_renew_status_change_date` (a date key).
    case autoRenewStatusChangeDate
    /// `bid`.
    case bid
    /// `bvrs`.
    case bvrs
    /// `original_transaction_id`.
    case originalTransactionId
    /// `cancellation_date` (a date key).
    case cancellationDate
    /// `web_order_line_item_id`.
    case webOrderLineItemId
    /// `expiration_intent`.
    case expirationIntent
    /// `is_in_billing_retry_period`.
    case isInBillingRetryPeriod
    /// `latest_receipt_info`.
    case latestReceiptInfo
    /// `latest_expired_receipt_info`.
    case latestExpiredReceiptInfo
    /// `pending_renewal_info`.
    case pendingRenewalInfo

    // MARK: - `latest_receipt_info` entries

    /// `transaction_id`.
    case transactionId
    /// `product_id`.
    case productId
    /// `subscription_group_identifier`.
    case subscriptionGroupIdentifier
    /// `purchase_date` (a date key).
    case purchaseDate
    /// `original_purchase_date` (a date key).
    case originalPurchaseDate
    /// `expires_date` (a date key).
    case expiresDate
    /// `cancellation_reason`.
    case cancellationReason
    /// `quantity`.
    case quantity
    /// `is_trial_period`.
    case isTrialPeriod
    /// `is_in_intro_offer_period`.
    case isInIntroOfferPeriod
    /// `is_upgraded`.
    case isUpgraded
    /// `offer_code_ref_name`.
    case offerCodeRefName
    /// `promotional_offer_id`.
    case promotionalOfferId
    /// `in_app_ownership_type`.
    case inAppOwnershipType
    /// `app_account_token`.
    case appAccountToken

    // MARK: - `pending_renewal_info` entries

    /// `grace_period_expires_date` (a date key).
    case gracePeriodExpiresDate
    /// `price_consent_status`.
    case priceConsentStatus

    // MARK: - Names

    /// The key as Apple spells it in the JSON body.
    package var name: String {
        switch self {
        case .notificationType: "notification_type"
        case .unifiedReceipt: "unified_receipt"
        case .environment: "environment"
        case .autoRenewStatus: "auto_renew_status"
        case .autoRenewProductId: "auto_renew_product_id"
        case .autoRenewStatusChangeDate: "auto_renew_status_change_date"
        case .bid: "bid"
        case .bvrs: "bvrs"
        case .originalTransactionId: "original_transaction_id"
        case .cancellationDate: "cancellation_date"
        case .webOrderLineItemId: "web_order_line_item_id"
        case .expirationIntent: "expiration_intent"
        case .isInBillingRetryPeriod: "is_in_billing_retry_period"
        case .latestReceiptInfo: "latest_receipt_info"
        case .latestExpiredReceiptInfo: "latest_expired_receipt_info"
        case .pendingRenewalInfo: "pending_renewal_info"
        case .transactionId: "transaction_id"
        case .productId: "product_id"
        case .subscriptionGroupIdentifier: "subscription_group_identifier"
        case .purchaseDate: "purchase_date"
        case .originalPurchaseDate: "original_purchase_date"
        case .expiresDate: "expires_date"
        case .cancellationReason: "cancellation_reason"
        case .quantity: "quantity"
        case .isTrialPeriod: "is_trial_period"
        case .isInIntroOfferPeriod: "is_in_intro_offer_period"
        case .isUpgraded: "is_upgraded"
        case .offerCodeRefName: "offer_code_ref_name"
        case .promotionalOfferId: "promotional_offer_id"
        case .inAppOwnershipType: "in_app_ownership_type"
        case .appAccountToken: "app_account_token"
        case .gracePeriodExpiresDate: "grace_period_expires_date"
        case .priceConsentStatus: "price_consent_status"
        }
    }

    /// The milliseconds form of a date key (`purchase_date_ms`), read before the base key.
    package var millisecondsName: String { name + "_ms" }
}
