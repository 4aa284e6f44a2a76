import Foundation
import Testing

@testable import ASNMigrateKit

/// `report.html` rendered from values (no binary): escaping of hostile input, the value at stake, the identities, the
/// bar widths, and determinism.
@Suite struct HTMLReportTests {
    /// A difference row of `kind` for a subscription and product.
    static func row(
        _ kind: Discrepancy.Kind, _ subscription: String, product: String, at ms: Int64? = 1_620_000_000_000
    ) -> Discrepancy {
        var d = Discrepancy(kind: kind)
        d.environment = "Production"
        d.originalTransactionId = subscription
        d.productId = product
        d.eventDate = ms
        return d
    }

    /// A result holding `rows` and `prices`, with a summary whose identities hold.
    static func result(_ rows: [Discrepancy], prices: V2PriceList = V2PriceList()) -> ReconciliationResult {
        var summary = ReconciliationSummary()
        summary.v1RecordsRead = 3
        summary.matched = 2
        summary.missingInV2 = 1
        summary.v2RecordsRead = 2
        summary.run = RunInfo(runDate: "2021-06-01", toolVersion: "test", inputs: [])
        var result = ReconciliationResult(
            summary: summary, differences: rows.sorted(by: Discrepancy.reportOrder), pending: [], rejects: [],
            coverage: [], subscriptions: [])
        result.prices = prices
        return result
    }

    @Test func hostileValuesAreEscapedAndReadBackWhole() throws {
        let hostile = "<script>alert('x')</script>&\"amp\""
        var d = Self.row(.missingInV2, "1000001", product: hostile)
        d.v1Value = "line\nbreak \u{1B}[31m and \u{FFFF} and <b>bold</b>"
        d.v1Source = "archive.jsonl:1\"><img src=x onerror=alert(1)>"
        let bytes = HTMLReport.reconcile(Self.result([d])).render()
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.contains("<script"), "no input value opens an element")
        #expect(!text.contains("<img") && !text.contains("<b>"))
        #expect(!text.contains("\u{1B}") && !text.contains("\u{FFFF}"), "characters XML forbids are written as text")
        let document = try XHTMLDocument(bytes)
        let cells = document.all("td", inside: "rows-missing_in_v2-table").map(\.text)
        #expect(cells.contains(hostile), "the product id reads back as the text it was: \(cells)")
        #expect(cells.contains("line\\nbreak \\u{1B}[31m and \\u{FFFF} and <b>bold</b>"), "\(cells)")
        #expect(document.bars("chart-product").map(\.0) == [hostile])
        #expect(document.all("script").isEmpty && document.all("img").isEmpty)
    }

    @Test func valueAtStakeSumsTheV2PricePerCurrencyOverWholePurchaseRowsOnly() throws {
        var prices = V2PriceList()
        prices.add(
            .init(environment: "Production", originalTransactionId: "1", productId: "monthly"), milliunits: 2_990,
            currency: "USD")
        prices.add(
            .init(environment: "Production", originalTransactionId: "1", productId: "monthly"), milliunits: 9_999,
            currency: "USD")
        prices.add(
            .init(environment: "Production", originalTransactionId: "2", productId: "monthly"), milliunits: 3_300_000,
            currency: "KRW")
        prices.add(
            .init(environment: "Production", originalTransactionId: "3", productId: "yearly"), milliunits: 49_990,
            currency: "USD")
        prices.add(
            .init(environment: "Production", originalTransactionId: "4", productId: "yearly"), milliunits: nil,
            currency: "USD")
        let rows = [
            Self.row(.missingInV2, "1", product: "monthly"),
            Self.row(.missingInV2, "1", product: "monthly", at: 1_630_000_000_000),
            Self.row(.missingInV1, "2", product: "monthly"),
            Self.row(.transactionMissingInV1, "3", product: "yearly"),
            Self.row(.fieldMismatch, "3", product: "yearly"), // not a whole purchase: not valued
            Self.row(.typeMismatch, "4", product: "yearly") // no V2 price: counted as without
        ]
        let document = try XHTMLDocument(HTMLReport.reconcile(Self.result(rows, prices: prices)).render())
        let table = document.all("tr", inside: "value-table").dropFirst().map(\.text)
        #expect(
            table == ["KRW13,300.000", "USD355.970"], "first price per key stays; 2 × 2.990 + 49.990 USD in 3 rows")
        let cells = document.all("td", inside: "value-table").compactMap { $0.attributes["data-milliunits"] }
        #expect(cells == ["3300000", "55970"])
        let note = document.all("p").map(\.text).first { $0.contains("such rows") } ?? ""
        #expect(note.contains("5 such rows; 1 without a V2 price"), "\(note)")
    }

    @Test func identitiesSayWhetherTheyHold() throws {
        var result = Self.result([Self.row(.missingInV2, "1", product: "p")])
        let holding = try XHTMLDocument(HTMLReport.reconcile(result).render())
        #expect(
            holding.all("td", inside: "identities-table").map(\.text).filter { $0 == "yes" || $0 == "NO" } == [
                "yes", "yes"
            ])
        result.summary.v1RecordsRead = 4
        let broken = try XHTMLDocument(HTMLReport.reconcile(result).render())
        #expect(
            broken.all("td", inside: "identities-table").map(\.text).filter { $0 == "yes" || $0 == "NO" } == [
                "NO", "yes"
            ])
    }

    @Test func barsAreProportionalAndVisibleAboveZero() {
        var random = SplitMix64(seed: 23)
        for _ in 0..<2_000 {
            let largest = 1 + random.below(1_000_000)
            let value = random.below(largest + 1)
            let width = BarChart.barWidth(value, largest: largest)
            #expect(value == 0 ? width == 0 : (1...BarChart.width).contains(width))
            #expect(BarChart.barWidth(largest, largest: largest) == BarChart.width)
            let smaller = random.below(value + 1)
            #expect(BarChart.barWidth(smaller, largest: largest) <= width, "wider bars for larger values")
        }
    }

    @Test func renderingIsDeterministicWhateverTheRowOrder() {
        var random = SplitMix64(seed: 7)
        let kinds: [Discrepancy.Kind] = [.missingInV2, .missingInV1, .typeMismatch, .fieldMismatch, .stateMismatch]
        var rows: [Discrepancy] = []
        for i in 0..<300 {
            rows.append(
                Self.row(
                    kinds[random.below(kinds.count)], String(1_000 + random.below(50)), product: "p\(random.below(40))",
                    at: i % 17 == 0 ? nil : 1_600_000_000_000 + Int64(random.below(1_000)) * 86_400_000))
        }
        let first = HTMLReport.reconcile(Self.result(rows)).render()
        let second = HTMLReport.reconcile(Self.result(rows.shuffled(using: &random))).render()
        #expect(first == second)
    }

    @Test func amountsKeepThreeDecimals() {
        #expect(HTMLReport.amount(0) == "0.000")
        #expect(HTMLReport.amount(1_990) == "1.990")
        #expect(HTMLReport.amount(3_300_000) == "3,300.000")
        #expect(HTMLReport.amount(5) == "0.005")
    }
}
