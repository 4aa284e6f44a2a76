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
    }
}
