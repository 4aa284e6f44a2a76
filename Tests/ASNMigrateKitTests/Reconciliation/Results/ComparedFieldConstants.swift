import Testing

@testable import ASNMigrateKit

/// The compared fields the tests name that no source names (the sources name a field only where a rule of theirs is
/// about it; every other field is only its table row).
extension ComparedField {
    /// `originalPurchaseDate`.
    static let originalPurchaseDate = ComparedField(named: "originalPurchaseDate")
    /// `revocationReason`.
    static let revocationReason = ComparedField(named: "revocationReason")
    /// `isUpgraded`.
    static let isUpgraded = ComparedField(named: "isUpgraded")
    /// `expirationIntent`.
    static let expirationIntent = ComparedField(named: "expirationIntent")
    /// `priceIncreaseStatus`.
    static let priceIncreaseStatus = ComparedField(named: "priceIncreaseStatus")
    /// `offerType`.
    static let offerType = ComparedField(named: "offerType")
    /// `offerIdentifier`.
    static let offerIdentifier = ComparedField(named: "offerIdentifier")
    /// `quantity`.
    static let quantity = ComparedField(named: "quantity")
}

/// The compared fields made from the table's `compared:` column keep the report order they had as the enumeration's
/// cases (it is the order of `differences.csv`'s rows, `--help`'s list and the nightly codec's fields), and every
/// constant names a compared field.
@Suite struct ComparedFieldOrderTests {
    @Test func theReportOrderStays() {
        #expect(
            ComparedField.allCases.map(\.rawValue) == [
                "productId", "webOrderLineItemId", "purchaseDate", "expiresDate", "originalPurchaseDate", "bundleId",
                "inAppOwnershipType", "revocationDate", "revocationReason", "isUpgraded", "autoRenewStatus",
                "autoRenewProductId", "expirationIntent", "isInBillingRetryPeriod", "gracePeriodExpiresDate",
                "priceIncreaseStatus", "offerType", "offerIdentifier", "transactionId", "quantity"
            ])
        let orders = V2FieldTable.all.compactMap(\.compared?.order)
        #expect(orders.sorted() == Array(0..<orders.count), "the column's orders are not 0, 1, … each once")
    }

    @Test func everyConstantIsAComparedField() {
        let constants: [ComparedField] = [
            .productId, .webOrderLineItemId, .purchaseDate, .expiresDate, .bundleId, .inAppOwnershipType,
            .revocationDate, .autoRenewStatus, .autoRenewProductId, .isInBillingRetryPeriod, .gracePeriodExpiresDate,
            .transactionId, .originalPurchaseDate, .revocationReason, .isUpgraded, .expirationIntent,
            .priceIncreaseStatus, .offerType, .offerIdentifier, .quantity
        ]
        #expect(Set(constants) == Set(ComparedField.allCases))
        for field in ComparedField.allCases {
            #expect(ComparedField(rawValue: field.rawValue) == field)
        }
        #expect(ComparedField(rawValue: "noSuchField") == nil)
    }

    @Test func aFieldReadsItsMemberByTheVisit() {
        var t = JWSTransactionDecodedPayload()
        t.originalPurchaseDate = 1_700_000_000_123
        t.quantity = 2
        t.isUpgraded = true
        t.inAppOwnershipType = "FAMILY_SHARED"
        #expect(ComparedField.originalPurchaseDate.value(in: t) == .date(1_700_000_000_123))
        #expect(ComparedField.quantity.value(in: t) == .number(2))
        #expect(ComparedField.isUpgraded.value(in: t) == .flag(true))
        #expect(ComparedField.inAppOwnershipType.value(in: t) == .text("FAMILY_SHARED"))
        #expect(ComparedField.purchaseDate.value(in: t) == .date(nil))
        var data = NotificationData()
        data.bundleId = "com.example.app"
        let payload = ResponseBodyV2DecodedPayload(notificationType: "", data: data)
        #expect(ComparedField.bundleId.row.value(in: payload) == .text("com.example.app"), "the fallback path")
        data.transactionInfo = JWSTransactionDecodedPayload()
        data.transactionInfo?.bundleId = "com.example.own"
        #expect(
            ComparedField.bundleId.row.value(in: ResponseBodyV2DecodedPayload(notificationType: "", data: data))
                == .text("com.example.own"))
    }
}
