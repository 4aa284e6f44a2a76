/// A V1 notification body (`responseBodyV1`), decoded tolerantly; `password` and `latest_receipt` are never kept.
public struct ResponseBodyV1: Sendable, Equatable {
    /// `notification_type`, raw.
    public var notificationType: String
    /// `environment` as sent ("PROD", "Sandbox"), raw; falls back to the receipt's.
    public var environmentRaw: String?
    /// `auto_renew_status` at top level ("true"/"false").
    public var autoRenewStatus: Bool?
    /// `auto_renew_product_id` at top level.
    public var autoRenewProductId: String?
    /// `auto_renew_status_change_date_ms` (or `auto_renew_status_change_date`).
    public var autoRenewStatusChangeDate: Int64?
    /// `bid`: the app's bundle identifier.
    public var bid: String?
    /// `bvrs`: the app's bundle version.
    public var bvrs: String?
    /// Top-level `original_transaction_id` (a JSON number in Apple's bodies), kept digit for digit.
    public var originalTransactionId: String?
    /// Top-level `cancellation_date_ms` (or `cancellation_date`).
    public var cancellationDate: Int64?
    /// Top-level `web_order_line_item_id`.
    public var webOrderLineItemId: String?
    /// Top-level `expiration_intent` (legacy bodies).
    public var expirationIntent: String?
    /// Top-level `is_in_billing_retry_period` (legacy bodies).
    public var isInBillingRetryPeriod: Bool?
    /// All transactions known to this body: `unified_receipt.latest_receipt_info`, then legacy `latest_receipt_info` and `latest_expired_receipt_info`, merged by transaction id.
    public var transactions: [LatestReceiptInfo]
    /// `unified_receipt.pending_renewal_info` (and a legacy top-level `pending_renewal_info`).
    public var pendingRenewalInfo: [PendingRenewalInfo]

    /// Creates a body by hand (tests, simulator).
    public init(notificationType: String, transactions: [LatestReceiptInfo] = [], pendingRenewalInfo: [PendingRenewalInfo] = []) {
        self.notificationType = notificationType
        self.transactions = transactions
        self.pendingRenewalInfo = pendingRenewalInfo
    }

    /// Decodes a body; `notification_type` must be a string, and fields the mapping reads must have readable values.
    public init(_ object: JSONObject, location: SourceLocation) throws(ASNError) {
        let r = V1FieldReader(object, location: location)
        guard let typeValue = object["notification_type"] else {
            throw ASNError(
                .missingNotificationType,
                "no 'notification_type': this is not a V1 notification body (or its envelope key is not one of body, payload, notification, data)",
                at: location.with(key: "notification_type")
            )
        }
        guard case .string(let type) = typeValue, !type.isEmpty else {
            throw r.wrongType("notification_type", expected: "a non-empty string", found: typeValue)
        }
        notificationType = type
        let unified = try r.nested("unified_receipt")
        environmentRaw = try r.string("environment")
        if environmentRaw == nil, let unified { environmentRaw = try unified.string("environment") }
        autoRenewStatus = try r.bool("auto_renew_status")
        autoRenewProductId = try r.string("auto_renew_product_id")
        autoRenewStatusChangeDate = try r.date("auto_renew_status_change_date")
        bid = try r.string("bid")
        bvrs = try r.string("bvrs")
        originalTransactionId = try r.identifier("original_transaction_id")
        cancellationDate = try r.date("cancellation_date")
        webOrderLineItemId = try r.identifier("web_order_line_item_id")
        expirationIntent = try r.code("expiration_intent")
        isInBillingRetryPeriod = try r.bool("is_in_billing_retry_period")

        var merged: [LatestReceiptInfo] = []
        var indexById: [String: Int] = [:]
        func add(_ readers: [V1FieldReader]) throws(ASNError) {
            for reader in readers {
                let info = try LatestReceiptInfo(reader)
                if let id = info.transactionId, let at = indexById[id] {
                    merged[at].fillGaps(from: info)
                } else {
                    if let id = info.transactionId { indexById[id] = merged.count }
                    merged.append(info)
                }
            }
        }
        if let unified { try add(unified.objectList("latest_receipt_info")) }
        try add(r.objectList("latest_receipt_info"))
        try add(r.objectList("latest_expired_receipt_info"))
        transactions = merged

        var pending: [PendingRenewalInfo] = []
        if let unified {
            for reader in try unified.objectList("pending_renewal_info") { pending.append(try PendingRenewalInfo(reader)) }
        }
        for reader in try r.objectList("pending_renewal_info") { pending.append(try PendingRenewalInfo(reader)) }
        pendingRenewalInfo = pending
    }
}
