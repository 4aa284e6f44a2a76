import Foundation

@testable import ASNMigrateKit

/// Builds V1 record facts and Apple API records for transaction comparison tests.
enum TransactionScenario {
    /// The facts of a V1 body written by `V1Fixture`, received at `at`.
    static func facts(
        _ type: String, at: String, line: Int, _ transactions: [String], pending: [String] = [],
        autoRenewStatus: String? = "true", environment: String = "PROD"
    ) throws -> V1RecordFacts {
        let text = V1Fixture.body(
            type: type, transactions: transactions, pending: pending, environment: environment,
            autoRenewStatus: autoRenewStatus)
        guard case .object(let object) = try JSONParser().parse(Array(text.utf8)) else { throw ScenarioError() }
        let location = SourceLocation(path: "v1.jsonl", line: line)
        return V1RecordFacts(
            body: try ResponseBodyV1(object, location: location), receivedAt: V1Fixture.ms(at), location: location)
    }

    /// A V1 receipt entry (`V1Fixture.tx`) of subscription `original`.
    static func tx(
        _ id: String, original: String = "1000000001", product: String = "pro.monthly", purchase: String,
        expires: String
    ) -> String {
        V1Fixture.tx(id: id, original: original, product: product, purchase: purchase, expires: expires)
    }

    /// An Apple transaction equal to what `tx` shows, unless told otherwise.
    static func apple(
        _ id: String, original: String = "1000000001", product: String = "pro.monthly", purchase: String,
        expires: String?,
        webOrder: String? = nil, type: String = "Auto-Renewable Subscription", ownership: String = "PURCHASED",
        environment: String = "Production"
    ) -> JWSTransactionDecodedPayload {
        var t = JWSTransactionDecodedPayload()
        t.transactionId = id
        t.originalTransactionId = original
        t.productId = product
        t.purchaseDate = V1Fixture.ms(purchase)
        t.originalPurchaseDate = V1Fixture.ms("2021-01-01T00:00:00Z")
        t.expiresDate = expires.map(V1Fixture.ms)
        t.webOrderLineItemId = type == "Auto-Renewable Subscription" ? (webOrder ?? "5" + id) : nil
        t.quantity = 1
        t.type = type
        t.inAppOwnershipType = ownership
        t.environment = environment
        return t
    }

    /// A history record of `transaction`.
    static func history(_ transaction: JWSTransactionDecodedPayload, index: Int = 0) -> V2APIRecord {
        .transaction(
            V2Transaction(
                payload: transaction, environment: transaction.environment ?? "", origin: .history,
                location: SourceLocation(path: "history.jsonl", line: 1, index: index)))
    }

    /// Runs the engine over V1 facts and API records.
    static func compare(_ v1: [V1RecordFacts], _ v2: [V2APIRecord], options: ReconcileOptions = ReconcileOptions())
        -> TransactionComparison
    {
        var engine = TransactionReconciler(rules: .builtIn, options: options)
        for record in v2 { engine.add(record) }
        var collector = V1TransactionCollector(statusSubscriptions: engine.statusSubscriptions)
        for facts in v1 { collector.add(facts) }
        return engine.finish(v1: collector)
    }

    /// Differences as `kind transactionOrField v1 v2` lines, sorted, for exact comparison.
    static func rows(_ comparison: TransactionComparison) -> [String] {
        comparison.differences.map {
            "\($0.kind.rawValue) \($0.originalTransactionId) \($0.field) \($0.v1Value) \($0.v2Value)"
        }.sorted()
    }

    /// Thrown when a fixture does not parse as an object.
    struct ScenarioError: Error {}
}
