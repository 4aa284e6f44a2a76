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
            table == ["KRW13,300", "USD355.97"],
            "first price per key stays; 2 × 2.99 + 49.99 USD in 3 rows; KRW has no decimals")
        let cells = document.all("td", inside: "value-table").compactMap { $0.attributes["data-milliunits"] }
        #expect(cells == ["3300000", "55970"])
        let note = document.all("p").first { $0.attributes["id"] == "value-note" }?.text ?? ""
        #expect(note.hasPrefix("5 rows stand for a whole purchase"), "\(note)")
        #expect(note.contains("4 of them have a V2 price") && note.contains("1 has none"), "\(note)")
    }

    @Test func valueAtStakeNeverContradictsItself() throws {
        // Valued rows, none priced: the sentence says the value is unknown, and no table or "None." follows.
        let unpriced = try XHTMLDocument(
            HTMLReport.reconcile(Self.result((1...3).map { Self.row(.missingInV2, "\($0)", product: "p") })).render())
        let note = unpriced.all("p").first { $0.attributes["id"] == "value-note" }?.text ?? ""
        #expect(note.hasPrefix("3 rows stand for a whole purchase") && note.contains("value at stake is unknown"))
        #expect(
            unpriced.all("table", inside: "value-table").isEmpty && unpriced.all("p").allSatisfy { $0.text != "None." })
        // No valued row: nothing at stake, said once.
        let none = try XHTMLDocument(
            HTMLReport.reconcile(Self.result([Self.row(.fieldMismatch, "1", product: "p")])).render())
        let noneNote = none.all("p").first { $0.attributes["id"] == "value-note" }?.text ?? ""
        #expect(noneNote.hasPrefix("No row stands for a whole purchase"), "\(noneNote)")
    }

    @Test func theVerdictComesFirstInPlainWords() throws {
        let rows = [
            Self.row(.missingInV2, "1", product: "p"), Self.row(.fieldMismatch, "1", product: "p"),
            Self.row(.stateMismatch, "2", product: "p")
        ]
        var result = Self.result(rows)
        result.summary.v1Rejected = 1
        result.rejects = [.init(side: "v1", source: "a.jsonl", line: 4, reason: "bad_id: x", cause: "bad_id")]
        let verdict = HTMLReport.reconcileVerdict(result, status: .findings, maxRejectRate: 0.5)
        let document = try XHTMLDocument(HTMLReport.reconcile(result, verdict: verdict).render())
        #expect(document.all("h2").first?.attributes["id"] == "verdict", "the verdict is the first section")
        let text = { (id: String) in document.elements.first { $0.attributes["id"] == id }?.text ?? "" }
        #expect(text("verdict-differences") == "3 differences in 2 subscriptions.")
        #expect(
            text("verdict-rejects") == "1 record rejected: V1 1 of 3 read (33.33%), V2 0 of 2 read (0%), against a "
                + "limit of 50% per side.")
        #expect(text("verdict-status").hasPrefix("Exit 1: differences found and records rejected — the report"))
        let statuses: [(ASNMigrateKit.ExitStatus, String)] = [
            (.success, "Exit 0: all clear"), (.sanityCheckFailed, "Exit 3: report written, but the input failed")
        ]
        for (status, head) in statuses {
            let page = try XHTMLDocument(
                HTMLReport.reconcile(result, verdict: HTMLReport.reconcileVerdict(result, status: status)).render())
            let line = page.elements.first { $0.attributes["id"] == "verdict-status" }
            #expect(line?.attributes["data-exit"] == String(status.rawValue))
            #expect(line?.text.hasPrefix(head) == true, "\(line?.text ?? "")")
        }
    }

    @Test func eachKindPresentHasItsMeaningAndWhatToDoThenItsRows() throws {
        let kinds: [Discrepancy.Kind] = [.missingInV1, .stateMismatch, .unannouncedInV1]
        let document = try XHTMLDocument(
            HTMLReport.reconcile(Self.result(kinds.map { Self.row($0, "1", product: "p") })).render())
        let plain = { (text: String) in text.replacingOccurrences(of: "`", with: "") }
        for kind in Discrepancy.Kind.allCases {
            let meaning = document.elements.first { $0.attributes["id"] == "meaning-\(kind.rawValue)" }
            let action = document.elements.first { $0.attributes["id"] == "action-\(kind.rawValue)" }
            guard kinds.contains(kind) else {
                #expect(meaning == nil && action == nil, "no section for \(kind.rawValue), absent")
                continue
            }
            #expect(meaning?.text == plain(DifferenceKindGuide.entry(kind).meaning))
            #expect(action?.text == "What to do: " + plain(DifferenceKindGuide.entry(kind).action))
            #expect(document.all("tr", inside: "rows-\(kind.rawValue)-table").count == 2, "heading and its row")
        }
    }

    @Test func rejectsAreGroupedByCauseWithTheFirstLocationAndTheFix() throws {
        var result = Self.result([])
        result.rejects = [
            .init(side: "v1", source: "a.jsonl", line: 4, reason: "bad_id: 'x' is not digits", cause: "k1"),
            .init(side: "v1", source: "a.jsonl", line: 9, reason: "malformed_json: cut short", cause: "k2"),
            .init(side: "v2", source: "b.jsonl", line: 2, reason: "bad_id: 'y' is not digits", cause: "k1")
        ]
        let document = try XHTMLDocument(HTMLReport.reconcile(result).render())
        #expect(document.all("tr", inside: "rejects-table").count == 3, "a heading and one row per cause")
        let cells = document.all("td", inside: "rejects-table").map(\.text)
        #expect(cells.starts(with: ["2", "v1 a.jsonl:4", "bad_id: 'x' is not digits", RejectAdvice.fix("bad_id")]))
        #expect(cells.dropFirst(4).starts(with: ["1", "v1 a.jsonl:9"]))
        let none = try XHTMLDocument(HTMLReport.reconcile(Self.result([])).render())
        #expect(none.elements.contains { $0.attributes["id"] == "rejects-none" })
    }

    @Test func everyRejectCodeTheReadmeNamesHasItsOwnFix() throws {
        let general = RejectAdvice.fix("no_such_code")
        let codes = [
            "malformed_json", "not_an_object", "missing_notification_type", "wrong_field_type", "bad_id",
            "malformed_jws", "malformed_csv", "unreadable_input", "signature"
        ]
        let readme = String(decoding: try PackagePaths.read("Reports/README.md"), as: UTF8.self)
        for code in codes {
            #expect(readme.contains("`\(code)`"), "Reports/README.md names \(code)")
            #expect(RejectAdvice.fix(code) != general && RejectAdvice.fix(code).hasSuffix("."), "\(code)")
        }
    }

    @Test func everyReportFileIsLinkedByItsRelativeName() throws {
        let document = try XHTMLDocument(
            HTMLReport.reconcile(Self.result([Self.row(.missingInV2, "1", product: "p")])).render())
        let links = document.all("a", inside: "files-list").compactMap { $0.attributes["href"] }
        #expect(links == ReconciliationReport.fileNames)
        for link in document.all("a").compactMap({ $0.attributes["href"] }) {
            #expect(!link.contains("/") && !link.contains(":"), "relative, beside the page: \(link)")
        }
    }

    @Test func tablesScrollInTheirBoxRowCellsAreNeverBrokenAndPrintAsLabelledLines() throws {
        let bytes = HTMLReport.reconcile(Self.result([Self.row(.missingInV2, "1000000000000001", product: "p")]))
            .render()
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(
            text.components(separatedBy: "<table").count - 1
                == text.components(separatedBy: "<div class=\"scroll\"><table").count - 1,
            "every table is inside a box that scrolls sideways")
        #expect(HTMLReport.style.contains(".scroll{max-width:100%;overflow-x:auto}"))
        #expect(HTMLReport.style.contains(".whole,") && HTMLReport.style.contains("{white-space:nowrap}"))
        #expect(HTMLReport.style.contains("@media print{"))
        #expect(!HTMLReport.style.contains("break-all"), "no word broken letter by letter")
        let document = try XHTMLDocument(bytes)
        let cells = document.all("td", inside: "rows-missing_in_v2-table")
        #expect(!cells.isEmpty && cells.allSatisfy { $0.attributes["class"] == "whole" })
        // In print each row is a block of "column: value" lines: every cell is labelled with its column.
        let headings = document.all("th", inside: "rows-missing_in_v2-table").map(\.text)
        #expect(cells.map { $0.attributes["data-label"] ?? "" } == headings)
        #expect(HTMLReport.style.contains("table.rows td[data-label]::before{content:attr(data-label)"))
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

    @Test func amountsHaveTheCurrencysOwnDecimals() {
        #expect(HTMLReport.amount(0, currency: "USD") == "0.00")
        #expect(HTMLReport.amount(1_990, currency: "USD") == "1.99")
        #expect(HTMLReport.amount(3_300_000, currency: "EUR") == "3,300.00")
        #expect(HTMLReport.amount(120_000, currency: "JPY") == "120")
        #expect(HTMLReport.amount(1_250, currency: "KWD") == "1.250")
        #expect(HTMLReport.amount(5, currency: "USD") == "0.005", "never loses a milliunit")
    }
}
