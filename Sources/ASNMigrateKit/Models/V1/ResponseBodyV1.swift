/// A V1 notification body (`responseBodyV1`), decoded tolerantly; `password` and `latest_receipt` are never kept.
package struct ResponseBodyV1: Sendable, Equatable {
    /// `notification_type`, raw.
    package var notificationType: String
    /// `environment` as sent ("PROD", "Sandbox"), raw; falls back to the receipt's.
    package var environmentRaw: String?
    /// `auto_renew_status` at top level ("true"/"false").
    package var autoRenewStatus: Bool?
    /// `auto_renew_product_id` at top level.
    package var autoRenewProductId: String?
    /// `auto_renew_status_change_date_ms` (or `auto_renew_status_change_date`).
    package var autoRenewStatusChangeDate: Int64?
    /// `bid`: the app's bundle identifier.
    package var bid: String?
    /// `bvrs`: the app's bundle version.
    package var bvrs: String?
    /// Top-level `original_transaction_id` (a JSON number in Apple's bodies), kept digit for digit.
    package var originalTransactionId: String?
    /// Top-level `cancellation_date_ms` (or `cancellation_date`).
    package var cancellationDate: Int64?
    /// Top-level `web_order_line_item_id`.
    package var webOrderLineItemId: String?
    /// Top-level `expiration_intent` (legacy bodies).
    package var expirationIntent: String?
    /// Top-level `is_in_billing_retry_period` (legacy bodies).
    package var isInBillingRetryPeriod: Bool?
    /// All transactions known to this body: `unified_receipt.latest_receipt_info`, then legacy `latest_receipt_info` and `latest_expired_receipt_info`, merged by transaction id.
    package var transactions: [LatestReceiptInfo]
    /// `unified_receipt.pending_renewal_info` (and a legacy top-level `pending_renewal_info`).
    package var pendingRenewalInfo: [PendingRenewalInfo]

    /// Creates a body by hand (tests, simulator).
    package init(
        notificationType: String, transactions: [LatestReceiptInfo] = [], pendingRenewalInfo: [PendingRenewalInfo] = []
    ) {
        self.notificationType = notificationType
        self.transactions = transactions
        self.pendingRenewalInfo = pendingRenewalInfo
    }

    /// Decodes a body; `notification_type` must be a string, and fields the mapping reads must have readable values.
    package init(_ object: JSONObject, location: SourceLocation) throws(ASNError) {
        try self.init(V1FieldReader(object, location: location))
    }

    /// Decodes a body from either path's source (`V1FieldReader` or the fast path's tape), by `V1Key`: the one
    /// place that says which keys a body reads, by which rule, and how its receipt lists merge.
    package init<Source: V1FieldSource>(_ r: Source) throws(Source.Failure) {
        notificationType = try r.requiredString(.notificationType)
        let unified = try r.nested(.unifiedReceipt)
        environmentRaw = try r.string(.environment)
        if environmentRaw == nil, let unified { environmentRaw = try unified.string(.environment) }
        autoRenewStatus = try r.bool(.autoRenewStatus)
        autoRenewProductId = try r.string(.autoRenewProductId)
        autoRenewStatusChangeDate = try r.date(.autoRenewStatusChangeDate)
        bid = try r.string(.bid)
        bvrs = try r.string(.bvrs)
        originalTransactionId = try r.identifier(.originalTransactionId)
        cancellationDate = try r.date(.cancellationDate)
        webOrderLineItemId = try r.identifier(.webOrderLineItemId)
        expirationIntent = try r.code(.expirationIntent)
        isInBillingRetryPeriod = try r.bool(.isInBillingRetryPeriod)

        var merged: [LatestReceiptInfo] = []
        var indexById: [String: Int] = [:]
        func add(_ sources: [Source]) throws(Source.Failure) {
            merged.reserveCapacity(merged.count + sources.count)
            for source in sources {
                let info = try LatestReceiptInfo(source)
                if let id = info.transactionId, let at = indexById[id] {
                    merged[at].fillGaps(from: info)
                } else {
                    if let id = info.transactionId { indexById[id] = merged.count }
                    merged.append(info)
                }
            }
        }
        if let unified { try add(unified.objectList(.latestReceiptInfo)) }
        try add(r.objectList(.latestReceiptInfo))
        try add(r.objectList(.latestExpiredReceiptInfo))
        transactions = merged

        var pending: [PendingRenewalInfo] = []
        if let unified {
            for source in try unified.objectList(.pendingRenewalInfo) { pending.append(try PendingRenewalInfo(source)) }
        }
        for source in try r.objectList(.pendingRenewalInfo) { pending.append(try PendingRenewalInfo(source)) }
        pendingRenewalInfo = pending
    }
}
