/// What one record tells the reconciliation engine, and nothing more: its subscription, type, time and place, and the
/// values the comparison and the state rules read. `reconcile` extracts it from each payload as it feeds the engine;
/// `nightly` stores it (compactly, `RecordFactsCodec`) and feeds it back, so both modes judge the very same values.
///
/// Texts stay as read (`nil` when absent); the engine interns them. No V1 `password` or `latest_receipt` is in here.
package struct RecordFacts: Sendable, Equatable {
    /// Where the record came from.
    package enum Kind: UInt8, Sendable {
        /// A V1 record mapped to a V2 type and subtype.
        case migrated = 0
        /// A V1 record no rule maps.
        case unmapped = 1
        /// A V2 record.
        case v2 = 2
    }

    /// Where the record came from.
    package var kind: Kind
    /// "Production" / "Sandbox" as the engine names it (unmapped V1: as read).
    package var environment: String?
    /// The subscription.
    package var originalTransactionId: String?
    /// notificationUUID.
    package var notificationUUID: String?
    /// V2 notificationType (V1: the expected one).
    package var notificationType: String?
    /// V2 subtype (V1: the expected one).
    package var subtype: String?
    /// V1 notification_type (V1 only).
    package var v1NotificationType: String?
    /// The mapping rule (migrated V1 only).
    package var ruleId: String?
    /// Event time (V1) or signedDate (V2), epoch ms.
    package var time: Int64?
    /// V1: the event time is only inferred.
    package var eventTimeInferred = false
    /// Where the record was read.
    package var location: SourceLocation
    /// The transaction's `productId`.
    package var productId: String?
    /// `webOrderLineItemId`.
    package var webOrderLineItemId: String?
    /// `bundleId` (the transaction's, else the notification's).
    package var bundleId: String?
    /// `inAppOwnershipType`.
    package var inAppOwnershipType: String?
    /// The renewal info's `autoRenewProductId`.
    package var autoRenewProductId: String?
    /// `offerIdentifier`.
    package var offerIdentifier: String?
    /// `transactionId`.
    package var transactionId: String?
    /// `purchaseDate`, ms.
    package var purchaseDate: Int64?
    /// `expiresDate`, ms.
    package var expiresDate: Int64?
    /// `originalPurchaseDate`, ms.
    package var originalPurchaseDate: Int64?
    /// `revocationDate`, ms.
    package var revocationDate: Int64?
    /// The renewal info's `gracePeriodExpiresDate`, ms.
    package var gracePeriodExpiresDate: Int64?
    /// `revocationReason`.
    package var revocationReason: Int?
    /// The renewal info's `autoRenewStatus`.
    package var autoRenewStatus: Int?
    /// The renewal info's `expirationIntent`.
    package var expirationIntent: Int?
    /// The renewal info's `priceIncreaseStatus`.
    package var priceIncreaseStatus: Int?
    /// The transaction's `offerType`.
    package var offerType: Int?
    /// `isUpgraded`.
    package var isUpgraded: Bool?
    /// The renewal info's `isInBillingRetryPeriod`.
    package var isInBillingRetryPeriod: Bool?
    /// The record carries renewal info with an `autoRenewStatus`.
    package var hasAutoRenewStatus = false

    /// A record with only its kind and place (the rest set field by field).
    package init(kind: Kind, location: SourceLocation) {
        self.kind = kind
        self.location = location
    }

    /// The facts of a V2 payload: a V2 record as read (`kind` `.v2`, at `location`), or a V1 record's mapped payload
    /// (`kind` `.migrated`, placed by its `migration` metadata).
    package init(_ p: ResponseBodyV2DecodedPayload, kind: Kind, location: SourceLocation) {
        self.init(kind: kind, location: location)
        let t = p.data.transactionInfo
        let r = p.data.renewalInfo
        environment = Reconciler.environmentName(p.data.environment)
        originalTransactionId = t?.originalTransactionId ?? r?.originalTransactionId
        notificationUUID = p.notificationUUID
        notificationType = p.notificationType
        subtype = p.subtype
        time = p.signedDate
        if kind == .migrated, let migration = p.migration {
            v1NotificationType = migration.v1NotificationType
            ruleId = migration.ruleId
            eventTimeInferred = migration.eventTimeInferred
            self.location = SourceLocation(path: migration.source, line: migration.line, index: migration.index)
        }
        productId = t?.productId
        webOrderLineItemId = t?.webOrderLineItemId
        bundleId = t?.bundleId ?? p.data.bundleId
        inAppOwnershipType = t?.inAppOwnershipType
        autoRenewProductId = r?.autoRenewProductId
        offerIdentifier = t?.offerIdentifier
        transactionId = t?.transactionId
        purchaseDate = t?.purchaseDate
        expiresDate = t?.expiresDate
        originalPurchaseDate = t?.originalPurchaseDate
        revocationDate = t?.revocationDate
        gracePeriodExpiresDate = r?.gracePeriodExpiresDate
        revocationReason = t?.revocationReason
        autoRenewStatus = r?.autoRenewStatus
        expirationIntent = r?.expirationIntent
        priceIncreaseStatus = r?.priceIncreaseStatus
        offerType = t?.offerType
        isUpgraded = t?.isUpgraded
        isInBillingRetryPeriod = r?.isInBillingRetryPeriod
        hasAutoRenewStatus = r?.autoRenewStatus != nil
    }

    /// The facts of a V1 record no rule maps.
    package init(unmapped u: UnmappedNotification) {
        self.init(kind: .unmapped, location: u.location)
        environment = u.environment
        originalTransactionId = u.originalTransactionId
        notificationUUID = u.notificationUUID
        v1NotificationType = u.v1NotificationType
        webOrderLineItemId = u.webOrderLineItemId
        time = u.eventTime
    }

    /// The transaction is FAMILY_SHARED.
    package var isFamilyShared: Bool { inAppOwnershipType == "FAMILY_SHARED" }

    /// The later of the transaction's `expiresDate` and the grace period's end, epoch ms.
    package var expiry: Int64? { [expiresDate, gracePeriodExpiresDate].compactMap { $0 }.max() }

    /// "v1" or "v2".
    package var side: String { kind == .v2 ? "v2" : "v1" }
}
