import Foundation
import Testing

@testable import ASNMigrateKit

/// `report.html` written by the built binary: well-formed XML, the same figures as `summary.csv`, the same rows per
/// kind as `differences.csv`, escaped input, the same bytes on every run, the golden file of the sample, and (where a
/// Chromium is installed) a render that is not blank.
@Suite struct ReportHTMLEndToEndTests {
    static let golden = "Tests/Fixtures/sample/expected/reconcile/report.html"

    /// `reconcile --html` of the sample into `directory/r`.
    static func reconcileSample(into directory: String, extra: [String] = []) throws -> BinaryRun {
        let run = try BinaryRun.run(
            [
                "reconcile", "--v1", "Tests/Fixtures/sample/v1", "--v2", "Tests/Fixtures/sample/v2", "--out",
                directory + "/r",
                "--run-date", "2021-06-01", "--html"
            ] + extra)
        // The sample's deliberate rejects (7 of 43 V1 records) are above the default --max-reject-rate of 1%.
        #expect(run.status == ExitStatus.sanityCheckFailed.rawValue, "\(run.stderr)")
        return run
    }

    /// The rows of a CSV report file (header dropped).
    static func csv(_ path: String) throws -> [[String]] {
        try CSVReader.read(Array(try Data(contentsOf: URL(fileURLWithPath: path))), path: path).records.map(\.fields)
    }

    /// Checks a report folder's `report.html` against its CSV files: every `summary.csv` row in order in the figures
    /// table, each headline figure equal to its row, the by-kind chart equal to the rows per kind of `rowsFile`, and
    /// as many rows listed per kind as the page says (at most 50).
    static func checkAgainstCSV(_ folder: String, rowsFile: String = "differences.csv") throws -> XHTMLDocument {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/report.html")))
        let document = try XHTMLDocument(bytes)
        let summary = try csv(folder + "/summary.csv").map { ($0[0], $0[1]) }
        let figures = document.metrics(inside: "figures-table")
        #expect(figures.map(\.0) == summary.map(\.0), "every summary.csv metric, in order")
        #expect(figures.map(\.1) == summary.map(\.1), "every summary.csv value")
        let values = Dictionary(summary, uniquingKeysWith: { first, _ in first })
        let headline = document.metrics(inside: "headline-table")
        #expect(headline.count >= 10, "the headline figures are there")
        for (name, value) in headline { #expect(values[name] == value, "headline \(name)") }
        #expect(
            document.all("td", inside: "identities-table").filter { $0.text == "NO" }.isEmpty, "every identity holds")

        var byKind: [String: Int] = [:]
        for row in try csv(folder + "/" + rowsFile) { byKind[row[0], default: 0] += 1 }
        let bars = document.bars("chart-kind")
        #expect(Dictionary(bars, uniquingKeysWith: +) == byKind, "the by-kind chart counts \(rowsFile)'s rows")
        #expect(bars.map(\.1) == bars.map(\.1).sorted(by: >), "largest first")
        for (kind, count) in byKind {
            #expect(
                document.all("tr", inside: "rows-\(kind)-table").count - 1 == min(count, HTMLReport.rowsPerKind),
                "\(kind)")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(
            !text.contains("<script") && !text.contains("<link") && !text.contains("src=") && !text.contains("url("),
            "nothing loaded, nothing run")
        #expect(!text.contains("do-not-log"), "never a V1 password or latest_receipt")
        return document
    }

    @Test func sampleReportMatchesItsCSVFilesAndTheGoldenFile() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        _ = try Self.reconcileSample(into: tmp.path)
        let document = try Self.checkAgainstCSV(tmp.path + "/r")
        let months = document.bars("chart-month").map(\.0)
        #expect(
            months == months.filter { $0 != "(none)" }.sorted() + ["(none)"],
            "months in calendar order, rows without a date last: \(months)")
        let produced = try Data(contentsOf: URL(fileURLWithPath: tmp.path + "/r/report.html"))
        let goldenURL = PackagePaths.root.appendingPathComponent(Self.golden)
        if ProcessInfo.processInfo.environment["ASN_MIGRATE_RECORD_GOLDEN"] == "1" { try produced.write(to: goldenURL) }
        let rerecord = "re-record with ASN_MIGRATE_RECORD_GOLDEN=1 after checking the change"
        #expect(produced == (try Data(contentsOf: goldenURL)), "report.html differs from \(Self.golden); \(rerecord)")
    }

    @Test func twoRunsWriteTheSameBytes() throws {
        let first = try TemporaryDirectory()
        let second = try TemporaryDirectory()
        defer {
            first.remove()
            second.remove()
        }
        _ = try Self.reconcileSample(into: first.path)
        _ = try Self.reconcileSample(into: second.path)
        #expect(try first.read("r/report.html") == second.read("r/report.html"))
    }

    @Test func aHostileProductIdIsShownAsText() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let hostile = "<script>alert('x')</script>&amp;"
        let feed = String(decoding: try PackagePaths.read("Tests/Fixtures/sample/v1/01-live-feed.jsonl"), as: UTF8.self)
        let target = "com.example.sampleapp.pro.monthly"
        #expect(feed.contains(target))
        let v1 = try tmp.write("v1.jsonl", feed.replacingOccurrences(of: target, with: hostile))
        let run = try BinaryRun.run([
            "reconcile", "--v1", v1, "--v2", "Tests/Fixtures/sample/v2", "--out", tmp.path + "/r", "--html"
        ])
        #expect(run.status == ExitStatus.findings.rawValue, "\(run.stderr)")
        let document = try Self.checkAgainstCSV(tmp.path + "/r")
        #expect(document.bars("chart-product").map(\.0).contains(hostile), "the product id reads back as it was")
    }

    @Test func simulatedReportsMatchTheirCSVFilesAndValueDifferencesInBothViews() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let simulate = try BinaryRun.run([
            "simulate", "--subscribers", "60", "--seed", "5", "--inject", "0.1", "--out", tmp.path + "/sim"
        ])
        #expect(simulate.status == 0, "\(simulate.stderr)")
        for view in ["v2", "v2-api"] {
            let run = try BinaryRun.run([
                "reconcile", "--v1", tmp.path + "/sim/v1", "--v2", tmp.path + "/sim/" + view, "--out",
                tmp.path + "/" + view, "--html"
            ])
            #expect(run.status == ExitStatus.findings.rawValue, "\(run.stderr)")
            let document = try Self.checkAgainstCSV(tmp.path + "/" + view)
            #expect(
                document.metrics(inside: "figures-table").contains { $0.0 == "transactions_compared" && $0.1 == "yes" }
                    == (view == "v2-api"))
            // The simulation prices every V2 transaction in USD.
            let currencies = document.all("th", inside: "value-table").filter { $0.attributes["scope"] == "row" }.map(
                \.text)
            #expect(currencies == ["USD"], "\(view): \(currencies)")
        }
    }

    @Test func aLaterRunWithoutHTMLReplacesTheFolder() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        _ = try Self.reconcileSample(into: tmp.path)
        let again = try BinaryRun.run([
            "reconcile", "--v1", "Tests/Fixtures/sample/v1", "--v2", "Tests/Fixtures/sample/v2", "--out",
            tmp.path + "/r",
            "--max-reject-rate", "20%"
        ])
        #expect(
            again.status == ExitStatus.findings.rawValue,
            "report.html is one of the report's own files: \(again.stderr)")
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/r/report.html"))
    }

    @Test(
        "in headless Chromium the page is no wider than a 390 px phone and renders at 390 and 1400 px",
        .enabled(if: Chromium.path != nil, "no Chromium or Chrome on PATH (\(Chromium.names.joined(separator: ", ")))")
    )
    func fitsAPhoneInHeadlessChromium() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        _ = try Self.reconcileSample(into: tmp.path)
        let page = tmp.path + "/r/report.html"
        for width in [390, 1400] {
            let widths = try #require(try Chromium.widths(of: page, at: width), "the wrapper page measured the page")
            #expect(widths.client > 0 && widths.client <= width)
            #expect(
                widths.scroll <= widths.client,
                "at \(width) px the page is \(widths.scroll) px wide in a \(widths.client) px viewport: it overflows")
            let png = try Chromium.screenshot(page, width: width, height: 1600, to: tmp.path + "/report-\(width).png")
            #expect(Chromium.pngSize(png)?.width == width, "a \(width) px wide PNG")
            // Not blank: a blank page compresses to a few hundred bytes; text and tables make it far larger.
            #expect(png.count > 10_000, "\(png.count) bytes")
        }
    }
}
