import Testing

@testable import ASNMigrateKit

/// The V2 prices the engine keeps for `report.html`: only when asked, the first per subscription and product, and only
/// for the subscriptions the differences name.
@Suite struct V2PriceListTests {
    /// A V2 DID_RENEW of subscription `otx` with a price.
    static func priced(
        _ otx: String, wol: String, time: String, uuid: String, milliunits: Int64?, currency: String? = "USD"
    ) -> ResponseBodyV2DecodedPayload {
        Side.payload("DID_RENEW", nil, otx: otx, wol: wol, time: time, uuid: uuid) { p in
            p.data.transactionInfo?.price = milliunits
            p.data.transactionInfo?.currency = currency
        }
    }

    static func run(collectsPrices: Bool) throws -> ReconciliationResult {
        var engine = Reconciler(table: try MappingTable.builtIn(), options: wide)
        engine.collectsPrices = collectsPrices
        let v1 = [
            Side.v1("DID_RENEW", otx: "1000", wol: "5001", time: "2021-03-01T00:00:00Z", line: 1),
            // Lost on the V2 side.
            Side.v1("DID_RENEW", otx: "1000", wol: "5002", time: "2021-04-01T00:00:00Z", line: 2),
            Side.v1("DID_RENEW", otx: "3000", wol: "7001", time: "2021-03-01T00:00:00Z", line: 3)
        ]
        let v2 = [
            Self.priced("1000", wol: "5001", time: "2021-03-01T00:00:05Z", uuid: "a", milliunits: 2_990),
            // Missing in V1, with a later price.
            Self.priced("1000", wol: "5009", time: "2021-05-01T00:00:05Z", uuid: "b", milliunits: 3_490),
            // Matched: no difference.
            Self.priced("3000", wol: "7001", time: "2021-03-01T00:00:05Z", uuid: "c", milliunits: 990)
        ]
        for o in v1 + Bookends.v1 { engine.addV1(o) }
        for (i, p) in (v2 + Bookends.v2).enumerated() {
            engine.addV2(
                p, location: SourceLocation(path: "v2.jsonl", line: i + 1),
                digest: SHA1.digest(JSONWriter.canonical(.object(p.json))))
        }
        return engine.finish()
    }

    @Test func theFirstPriceOfEachDifferingSubscriptionsProductIsKept() throws {
        let result = try Self.run(collectsPrices: true)
        #expect(result.differences.map(\.kind).sorted() == [.missingInV1, .missingInV2])
        let key = V2PriceList.Key(environment: "Production", originalTransactionId: "1000", productId: "pro.monthly")
        #expect(
            result.prices.prices == [key: .init(milliunits: 2_990, currency: "USD")],
            "subscription 3000 has no difference")
        for d in result.differences { #expect(result.prices.price(of: d)?.milliunits == 2_990) }
    }

    @Test func noPricesUnlessAsked() throws {
        let result = try Self.run(collectsPrices: false)
        #expect(result.differences.count == 2)
        #expect(result.prices.prices.isEmpty)
    }

    @Test func aPriceNeedsAnAmountAndACurrency() {
        var list = V2PriceList()
        let key = V2PriceList.Key(environment: "Production", originalTransactionId: "1", productId: "p")
        list.add(key, milliunits: nil, currency: "USD")
        list.add(key, milliunits: 1_000, currency: nil)
        list.add(key, milliunits: 1_000, currency: "")
        list.add(key, milliunits: -5, currency: "USD")
        #expect(list.prices.isEmpty)
        list.add(key, milliunits: 300_000, currency: "JPY")
        list.add(key, milliunits: 1, currency: "JPY")
        #expect(list.prices[key] == .init(milliunits: 300_000, currency: "JPY"))
    }
}
