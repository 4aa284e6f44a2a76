/// A subscription: environment + `originalTransactionId`, the key no pairing, state or comparison crosses.
package struct SubscriptionKey: Sendable, Hashable, Comparable {
    /// "Production" / "Sandbox" ("" when unknown).
    package var environment: String
    /// originalTransactionId.
    package var originalTransactionId: String

    /// Creates a key.
    package init(environment: String, originalTransactionId: String) {
        self.environment = environment
        self.originalTransactionId = originalTransactionId
    }

    /// Byte-wise order, environment first.
    package static func < (a: SubscriptionKey, b: SubscriptionKey) -> Bool {
        if a.environment != b.environment { return a.environment.utf8.lexicographicallyPrecedes(b.environment.utf8) }
        return a.originalTransactionId.utf8.lexicographicallyPrecedes(b.originalTransactionId.utf8)
    }
}
