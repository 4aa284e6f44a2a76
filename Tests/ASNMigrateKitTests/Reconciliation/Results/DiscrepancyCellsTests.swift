import Foundation
import Testing

@testable import ASNMigrateKit

/// A difference read back from its report cells, as the state stores it.
@Suite struct DiscrepancyCellsTests {
    /// The state stores a difference as its report cells and reads it back: every column survives the round trip, so
    /// a column added to the reports without a reader here fails this test.
    @Test func aDifferenceReadsBackFromItsCellsWithEveryColumn() throws {
        var difference = Discrepancy(kind: .fieldMismatch)
        difference.eventDate = 1_614_582_000_000
        difference.v2SignedDate = 1_614_582_000_123
        difference.v1EventTimeInferred = true
        difference.webOrderLineItemId = "9300000019970001"
        difference.v1NotificationType = "DID_RENEW"
        difference.expectedType = "DID_RENEW"
        difference.expectedSubtype = "BILLING_RECOVERY"
        difference.v2NotificationType = "DID_RENEW"
        difference.v2Subtype = "BILLING_RECOVERY"
        difference.v1Value = "2021-05-01T08:00:05.000Z"
        difference.v2Value = "2021-05-02T08:00:05.000Z"
        difference.v1Source = "v1.jsonl:5"
        difference.v2NotificationUUID = "ed35168f-be04-56fd-a9e5-af3e691753ef"
        difference.environment = "Production"
        difference.originalTransactionId = "18446744073709551623"
        difference.productId = "com.example.pro"
        difference.bundleId = "com.example"
        difference.field = "expiresDate"
        difference.price = V2PriceList.Price(milliunits: 1_250, currency: "KWD")
        #expect(!difference.cells.contains(""), "every column is filled, so a column read back empty shows")
        let back = try #require(Discrepancy(cells: difference.cells))
        #expect(back.cells == difference.cells)
    }
}
