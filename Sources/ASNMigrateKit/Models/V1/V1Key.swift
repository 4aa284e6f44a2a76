/// A V1 body key the mapping reads: the models read their fields by these keys, and the fast path builds its key
/// tables from `allCases`, so a key declared is seen by both paths.
///
/// The keys are values, declared where their model is: the body's own, its lists' and `pending_renewal_info`'s here
/// (`V1Key.declared`), a receipt entry's with `LatestReceiptInfo`'s members (`LatestReceiptInfo.keys`), so a receipt
/// field is one member, one key and one line of its member visit in that one file. A date key names its base field
/// (`purchase_date`); readers take its `_ms` form (`purchase_date_ms`) first.
package struct V1Key: RawRepresentable, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The key's place in `allCases` (the fast path's slots follow it).
    package let rawValue: Int

    /// The key at `rawValue` in `allCases`.
    package init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The key spelt `name`: one of `names` (`V1KeyTests` checks every declared key is).
    package init(named name: String) {
        rawValue = Self.names.firstIndex(of: name) ?? -1
    }

    /// The keys of the body, its lists and `pending_renewal_info` entries, as Apple spells them; a receipt entry's
    /// are `LatestReceiptInfo.keys`.
    static let declared: [String] = [
        "notification_type", "unified_receipt", "environment", "auto_renew_status", "auto_renew_product_id",
        "auto_renew_status_change_date", "bid", "bvrs", "original_transaction_id", "cancellation_date",
        "web_order_line_item_id", "expiration_intent", "is_in_billing_retry_period", "latest_receipt_info",
        "latest_expired_receipt_info", "pending_renewal_info", "grace_period_expires_date", "price_consent_status"
    ]

    /// Every key's name, each once: the declared ones, then the receipt entry's others.
    package static let names: [String] = {
        var names = declared
        for key in LatestReceiptInfo.keys where !names.contains(key.name) { names.append(key.name) }
        return names
    }()

    /// Every key.
    package static let allCases: [V1Key] = names.indices.map(V1Key.init(rawValue:))

    /// The key as Apple spells it in the JSON body.
    package var name: String { Self.names[rawValue] }

    /// The milliseconds form of a date key (`purchase_date_ms`), read before the base key.
    package var millisecondsName: String { name + "_ms" }

    /// The key as Swift spells it (`web_order_line_item_id` → `webOrderLineItemId`).
    package var description: String {
        var result = ""
        var upper = false
        for character in name {
            if character == "_" {
                upper = true
            } else {
                result += upper ? character.uppercased() : String(character)
                upper = false
            }
        }
        return result
    }

    // MARK: - Body (`responseBodyV1`) and `unified_receipt`

    /// `notification_type`.
    package static let notificationType = V1Key(named: "notification_type")
    /// `unified_receipt`.
    package static let unifiedReceipt = V1Key(named: "unified_receipt")
    /// `environment`.
    package static let environment = V1Key(named: "environment")
    /// `auto_renew_status`.
    package static let autoRenewStatus = V1Key(named: "auto_renew_status")
    /// `auto_renew_product_id`.
    package static let autoRenewProductId = V1Key(named: "auto_renew_product_id")
    /// `auto_renew_status_change_date` (a date key).
    package static let autoRenewStatusChangeDate = V1Key(named: "auto_renew_status_change_date")
    /// `bid`.
    package static let bid = V1Key(named: "bid")
    /// `bvrs`.
    package static let bvrs = V1Key(named: "bvrs")
    /// `original_transaction_id`.
    package static let originalTransactionId = V1Key(named: "original_transaction_id")
    /// `cancellation_date` (a date key).
    package static let cancellationDate = V1Key(named: "cancellation_date")
    /// `web_order_line_item_id`.
    package static let webOrderLineItemId = V1Key(named: "web_order_line_item_id")
    /// `expiration_intent`.
    package static let expirationIntent = V1Key(named: "expiration_intent")
    /// `is_in_billing_retry_period`.
    package static let isInBillingRetryPeriod = V1Key(named: "is_in_billing_retry_period")
    /// `latest_receipt_info`.
    package static let latestReceiptInfo = V1Key(named: "latest_receipt_info")
    /// `latest_expired_receipt_info`.
    package static let latestExpiredReceiptInfo = V1Key(named: "latest_expired_receipt_info")
    /// `pending_renewal_info`.
    package static let pendingRenewalInfo = V1Key(named: "pending_renewal_info")

    // MARK: - `pending_renewal_info` entries

    /// `grace_period_expires_date` (a date key).
    package static let gracePeriodExpiresDate = V1Key(named: "grace_period_expires_date")
    /// `price_consent_status`.
    package static let priceConsentStatus = V1Key(named: "price_consent_status")
}

/// How a V1 field is read (`V1FieldReader`'s rules): the fast path reads each field by its kind.
package enum V1FieldKind: Sendable {
    /// A text (`string`).
    case text
    /// An identifier (`identifier`).
    case identifier
    /// A code of digits (`code`).
    case code
    /// A date in ms (`date`).
    case date
    /// A boolean (`bool`).
    case flag
}
