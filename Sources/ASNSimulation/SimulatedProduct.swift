import ASNMigrateKit

/// One product of the simulated app: auto-renewable subscriptions in two groups, and a consumable.
package struct SimulatedProduct: Sendable, Equatable {
    /// How a product renews.
    package enum Kind: Sendable, Equatable {
        /// An auto-renewable subscription renewing every `months` months.
        case subscription(months: Int)
        /// A consumable in-app purchase.
        case consumable
    }

    /// The product identifier.
    package let id: String
    /// The subscription group identifier (nil for the consumable).
    package let group: String?
    /// The service level within the group (higher is better); upgrades and downgrades move along it.
    package let level: Int
    /// Subscription or consumable.
    package let kind: Kind
    /// Price in milliunits of USD.
    package let price: Int64

    /// The simulated app's bundle identifier.
    package static let bundleId = "com.example.simulated"
    /// The app's Apple ID (V2 `appAppleId`, Production only).
    package static let appAppleId: Int64 = 1_499_999_001
    /// Group A: monthly basic, pro and premium levels.
    package static let groupA = "21000001"
    /// Group B: a yearly plan.
    package static let groupB = "21000002"

    /// Group A's levels, lowest first.
    package static let monthly: [SimulatedProduct] = [
        SimulatedProduct(
            id: "com.example.simulated.basic.monthly", group: groupA, level: 1, kind: .subscription(months: 1),
            price: 2_990),
        SimulatedProduct(
            id: "com.example.simulated.pro.monthly", group: groupA, level: 2, kind: .subscription(months: 1),
            price: 5_990),
        SimulatedProduct(
            id: "com.example.simulated.premium.monthly", group: groupA, level: 3, kind: .subscription(months: 1),
            price: 9_990)
    ]
    /// Group B's yearly plan.
    package static let yearly = SimulatedProduct(
        id: "com.example.simulated.yearly", group: groupB, level: 1, kind: .subscription(months: 12), price: 49_990)
    /// The consumable.
    package static let coins = SimulatedProduct(
        id: "com.example.simulated.coins100", group: nil, level: 0, kind: .consumable, price: 990)

    /// Every product.
    package static let all: [SimulatedProduct] = monthly + [yearly, coins]

    /// The product with an identifier.
    package static func named(_ id: String) -> SimulatedProduct? {
        all.first { $0.id == id }
    }

    /// The subscription period in months (0 for the consumable).
    package var months: Int {
        if case .subscription(let months) = kind { return months }
        return 0
    }
}
