/// The prices V2 records state (`price` in milliunits of `currency`, App Store Server Notifications 2.9+), per
/// subscription and product: what `report.html` values a difference row at.
///
/// A subscription's customer pays in their storefront's currency, so the price of a product within one subscription
/// is the one V2 states for it there; the first record in input order that states both `price` and `currency` gives
/// it. Apple: "Don't use the price or currency values for any revenue reconciliation or recognition", so the report
/// calls the sum an indication, never revenue.
package struct V2PriceList: Sendable, Equatable {
    /// A subscription's product.
    package struct Key: Hashable, Sendable {
        /// "Production" / "Sandbox".
        package var environment: String
        /// The subscription.
        package var originalTransactionId: String
        /// The product.
        package var productId: String

        /// Creates a key.
        package init(environment: String, originalTransactionId: String, productId: String) {
            self.environment = environment
            self.originalTransactionId = originalTransactionId
            self.productId = productId
        }
    }

    /// A price as V2 states it.
    package struct Price: Sendable, Hashable {
        /// The price in milliunits of the currency (1,000 milliunits are one unit).
        package var milliunits: Int64
        /// The ISO 4217 currency code, as V2 wrote it.
        package var currency: String

        /// Creates a price.
        package init(milliunits: Int64, currency: String) {
            self.milliunits = milliunits
            self.currency = currency
        }
    }

    /// The prices by subscription and product.
    package private(set) var prices: [Key: Price] = [:]

    /// An empty list.
    package init() {}

    /// Records a price unless the key has one (the first in input order stays); a missing price, a missing or empty
    /// currency, or a negative price is not a price.
    package mutating func add(_ key: Key, milliunits: Int64?, currency: String?) {
        guard let milliunits, milliunits >= 0, let currency, !currency.isEmpty, prices[key] == nil else { return }
        prices[key] = Price(milliunits: milliunits, currency: currency)
    }

    /// Adds every price of `other` whose key this list lacks.
    package mutating func merge(_ other: V2PriceList) {
        for (key, price) in other.prices where prices[key] == nil { prices[key] = price }
    }

    /// The price of the product of a difference row's subscription, when V2 states one.
    package func price(of d: Discrepancy) -> Price? {
        prices[Key(environment: d.environment, originalTransactionId: d.originalTransactionId, productId: d.productId)]
    }

    /// `rows` with the price of each row that stands for a whole purchase (`valuedKinds`) and whose product V2
    /// states a price for; every other row's price cleared.
    package func priced(_ rows: [Discrepancy]) -> [Discrepancy] {
        rows.map { row in
            var d = row
            d.price = Self.valuedKinds.contains(d.kind) ? price(of: d) : nil
            return d
        }
    }

    /// The kinds whose rows stand for a whole purchase that one side lacks or misnames, so the purchase's price is at
    /// stake; field and state mismatches (one row per differing item of a purchase both sides have) are not.
    package static let valuedKinds: [Discrepancy.Kind] = [
        .missingInV2, .missingInV1, .typeMismatch, .transactionMissingInV2, .transactionMissingInV1, .unannouncedInV1
    ]
}
