/// Reading a difference back from the cells the state database stores.
extension Discrepancy {
    /// Rebuilds a difference from its `differences.csv` cells (as stored in the state database); nil when the kind is unknown.
    package init?(cells: [String]) {
        guard cells.count == Discrepancy.columns.count, let kind = Kind(rawValue: cells[0]) else { return nil }
        self.init(kind: kind)
        environment = cells[1]
        originalTransactionId = cells[2]
        webOrderLineItemId = cells[3]
        eventDate = cells[4].isEmpty ? nil : Timestamp.parseISO8601(cells[4])
        v1NotificationType = cells[5]
        expectedType = cells[6]
        expectedSubtype = cells[7]
        v2NotificationType = cells[8]
        v2Subtype = cells[9]
        field = cells[10]
        v1Value = cells[11]
        v2Value = cells[12]
        v1Source = cells[13]
        v2NotificationUUID = cells[14]
        productId = cells[15]
        bundleId = cells[16]
        v2SignedDate = cells[17].isEmpty ? nil : Timestamp.parseISO8601(cells[17])
        v1EventTimeInferred = cells[18].isEmpty ? nil : cells[18] == "true"
        if let milliunits = CurrencyAmount.milliunits(cells[19]), !cells[20].isEmpty {
            price = V2PriceList.Price(milliunits: milliunits, currency: cells[20])
        }
    }
}
