import Foundation
import Testing

@testable import ASNMigrateKit

/// `DifferenceKindGuide` is the one source of each kind's two sentences: `Reports/README.md`'s kind tables hold them
/// word for word, and `report.html` shows them above the kind's rows.
@Suite struct DifferenceKindGuideTests {
    @Test(arguments: Discrepancy.Kind.allCases)
    func readmeHoldsTheKindsSentencesWordForWord(kind: Discrepancy.Kind) throws {
        let readme = String(decoding: try PackagePaths.read("Reports/README.md"), as: UTF8.self)
        let lines = readme.split(separator: "\n").map(String.init)
        let rows = lines.filter { $0.hasPrefix("| `\(kind.rawValue)` |") && $0.split(separator: "|").count == 3 }
        #expect(
            rows == [DifferenceKindGuide.markdownRow(kind)],
            "Reports/README.md's row of \(kind.rawValue) must be exactly: \(DifferenceKindGuide.markdownRow(kind))")
    }

    @Test(arguments: Discrepancy.Kind.allCases)
    func eachKindHasTwoPlainSentences(kind: Discrepancy.Kind) {
        let entry = DifferenceKindGuide.entry(kind)
        for sentence in [entry.meaning, entry.action] {
            #expect(sentence.hasSuffix("."), "\(kind.rawValue): one sentence, ending in a full stop: \(sentence)")
            #expect(!sentence.contains("|"), "a table cell in Markdown")
            #expect(sentence.filter { $0 == "`" }.count % 2 == 0, "code spans closed")
        }
    }

    @Test func theReportOrderPlacesEveryKindOnceAndWhatCostsMoneyFirst() {
        let order = DifferenceKindGuide.reportOrder
        #expect(Set(order) == Set(Discrepancy.Kind.allCases), "every kind has its place")
        #expect(order.count == Set(order).count, "once")
        // Every kind that stands for a whole purchase comes before every item of a purchase both sides have.
        for valued in V2PriceList.valuedKinds {
            #expect(DifferenceKindGuide.precedes(valued, .fieldMismatch), "\(valued.rawValue)")
            #expect(DifferenceKindGuide.precedes(valued, .conflictingDuplicateV2), "\(valued.rawValue)")
        }
        let sorted = Discrepancy.Kind.allCases.sorted(by: DifferenceKindGuide.precedes)
        #expect(sorted == order)
    }

    @Test func codeSpansBecomeCodeAndTheRestIsEscaped() {
        #expect(HTMLReport.markdown("see `a<b` & `c`") == "see <code>a&lt;b</code> &amp; <code>c</code>")
    }
}
