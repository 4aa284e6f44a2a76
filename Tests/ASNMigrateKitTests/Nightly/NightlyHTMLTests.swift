import Foundation
import Testing

@testable import ASNMigrateKit

/// `nightly` writes `report.html` by default (`--no-html` turns it off): its figures are the night's `summary.csv`,
/// its charts count `open.csv`, and its trend gives each night's open differences as that night's summary did.
@Suite struct NightlyHTMLTests {
    @Test func nightsWriteReportHTMLWithTheOpenTrendUnlessTurnedOff() throws {
        let workspace = try NightlyWorkspace(flags: ["--max-reject-rate", "20%"])
        defer { workspace.tmp.remove() }
        for side in ["v1", "v2"] {
            let from = PackagePaths.root.appendingPathComponent("Tests/Fixtures/sample/" + side).path
            for name in try FileManager.default.contentsOfDirectory(atPath: from).sorted() {
                try FileManager.default.copyItem(
                    atPath: from + "/" + name, toPath: workspace.tmp.path + "/in/\(side)/" + name)
            }
        }
        let first = try workspace.run("2021-06-01")
        #expect(first.status == ExitStatus.findings.rawValue, "\(first.stderr)")
        // A second night with nothing new: the backlog stays, and the trend has two bars.
        let second = try workspace.run("2021-06-02")
        #expect(second.status == ExitStatus.success.rawValue, "\(second.stderr)")

        var open: [String] = []
        for date in ["2021-06-01", "2021-06-02"] {
            let folder = workspace.reports + "/" + date
            let document = try ReportHTMLEndToEndTests.checkAgainstCSV(folder, rowsFile: "open.csv")
            open.append(try workspace.summary(date)["differences_open"] ?? "")
            #expect(
                document.bars("chart-trend").map { "\($0.0) \($0.1)" }
                    == zip(["2021-06-01", "2021-06-02"], open).map { "\($0) \($1)" },
                "each night's bar is that night's differences_open")
        }
        #expect(try workspace.run("2021-06-02").status == 0, "publishing a night again")
        let document = try XHTMLDocument(try workspace.tmp.read("Reports/2021-06-02/report.html"))
        #expect(document.bars("chart-trend").count == 2)

        let third = try workspace.run("2021-06-03", ["--no-html"])
        #expect(third.status == ExitStatus.success.rawValue, "\(third.stderr)")
        #expect(!FileManager.default.fileExists(atPath: workspace.reports + "/2021-06-03/report.html"))
        #expect(FileManager.default.fileExists(atPath: workspace.reports + "/2021-06-03/summary.csv"))

        // The first night's page leads with its verdict: open differences, new tonight, exit 1.
        let page = try XHTMLDocument(try workspace.tmp.read("Reports/2021-06-01/report.html"))
        let new = try workspace.rows("2021-06-01", "new.csv").count
        let verdict = page.elements.first { $0.attributes["id"] == "verdict-differences" }?.text ?? ""
        #expect(verdict.hasSuffix("(\(new) new tonight)."), "\(verdict)")
        #expect(page.elements.first { $0.attributes["id"] == "verdict-status" }?.attributes["data-exit"] == "1")
        #expect(page.all("a", inside: "files-list").compactMap { $0.attributes["href"] } == NightlyReport.fileNames)
    }

    @Test func theIndexListsEveryNightWithItsVerdictFiguresAndLinks() throws {
        let workspace = try NightlyWorkspace(flags: ["--max-reject-rate", "20%"])
        defer { workspace.tmp.remove() }
        let sample = PackagePaths.root.appendingPathComponent("Tests/Fixtures/sample").path
        try FileManager.default.copyItem(atPath: sample + "/v1/01-live-feed.jsonl", toPath: workspace.v1 + "/a.jsonl")
        var statuses: [String: Int32] = [:]
        statuses["2021-06-01"] = try workspace.run("2021-06-01").status
        for name in try FileManager.default.contentsOfDirectory(atPath: sample + "/v2").sorted() {
            try FileManager.default.copyItem(atPath: sample + "/v2/" + name, toPath: workspace.v2 + "/" + name)
        }
        statuses["2021-06-02"] = try workspace.run("2021-06-02", ["--no-html"]).status
        #expect(!FileManager.default.fileExists(atPath: workspace.reports + "/2021-06-02/report.html"))
        statuses["2021-06-03"] = try workspace.run("2021-06-03").status
        #expect(statuses.values.contains(1) && statuses.values.contains(0), "\(statuses)")

        let bytes = try workspace.tmp.read("Reports/index.html")
        let index = try XHTMLDocument(bytes)
        let rows = index.all("tr", inside: "nights-table").filter { $0.attributes["data-date"] != nil }
        #expect(rows.map { $0.attributes["data-date"] ?? "" } == ["2021-06-03", "2021-06-02", "2021-06-01"])
        for row in rows {
            let date = row.attributes["data-date"] ?? ""
            #expect(row.attributes["data-exit"] == statuses[date].map { String($0) }, "\(date)")
            let summary = try workspace.summary(date)
            let cells = Dictionary(
                index.all("td", inside: "night-" + date).compactMap { cell in
                    cell.attributes["data-metric"].map { ($0, cell.text) }
                }, uniquingKeysWith: { first, _ in first })
            for metric in ["differences_new", "differences_resolved", "differences_open", "rejected"] {
                #expect(cells[metric] == summary[metric], "\(date) \(metric)")
            }
            let verdict = index.all("td", inside: "night-" + date).first?.text ?? ""
            #expect(verdict.hasPrefix("Exit \(statuses[date] ?? -1): "), "\(date): \(verdict)")
            let links = index.all("a", inside: "night-" + date).compactMap { $0.attributes["href"] }
            let expected =
                (date == "2021-06-02" ? [] : [date + "/report.html", date + "/report.html"])
                + NightlyReport.fileNames.map { date + "/" + $0 }
            #expect(links.sorted() == expected.sorted(), "\(date): \(links)")
        }
        let open = try ["2021-06-01", "2021-06-02", "2021-06-03"].map {
            Int(try workspace.summary($0)["differences_open"] ?? "") ?? -1
        }
        #expect(index.bars("chart-trend").map(\.1) == open, "the trend is each night's differences_open")
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.contains("<script") && !text.contains("src="), "self-contained")

        // A night whose folder retention removed is still listed, without links.
        #expect(try workspace.run("2021-06-04", ["--retention-days", "1"]).status == ExitStatus.success.rawValue)
        let later = try XHTMLDocument(try workspace.tmp.read("Reports/index.html"))
        #expect(later.all("tr", inside: "nights-table").count == 5, "a heading and four nights")
        #expect(later.all("a", inside: "night-2021-06-01").isEmpty)
        #expect(later.all("td", inside: "night-2021-06-01").last?.text == "(removed: older than the retention)")
        #expect(!later.all("a", inside: "night-2021-06-04").isEmpty)
    }

    @Test(
        "in headless Chromium the nightly index is no wider than a 390 px phone",
        .enabled(if: Chromium.path != nil, "no Chromium or Chrome on PATH (\(Chromium.names.joined(separator: ", ")))")
    )
    func theIndexFitsAPhoneInHeadlessChromium() throws {
        let workspace = try NightlyWorkspace(flags: ["--max-reject-rate", "20%"])
        defer { workspace.tmp.remove() }
        let sample = PackagePaths.root.appendingPathComponent("Tests/Fixtures/sample").path
        try FileManager.default.copyItem(atPath: sample + "/v1", toPath: workspace.v1 + "/sample")
        try FileManager.default.copyItem(atPath: sample + "/v2", toPath: workspace.v2 + "/sample")
        #expect(try workspace.run("2021-06-01").status == ExitStatus.findings.rawValue)
        for page in ["index.html", "2021-06-01/report.html"] {
            let widths = try #require(try Chromium.widths(of: workspace.reports + "/" + page, at: 390))
            #expect(widths.client > 0 && widths.scroll <= widths.client, "\(page): \(widths)")
        }
    }
}
