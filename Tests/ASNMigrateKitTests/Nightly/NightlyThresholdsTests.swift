import Foundation
import Testing

@testable import ASNMigrateKit

/// `nightly --fail-on / --warn-on` through the built binary: rules judge the night's new items and figures.
@Suite(.serialized) struct NightlyThresholdsTests {
    /// A workspace holding the sample's clean V1 files and its V2 files (new differences: 1 missing_in_v2, 1 missing_in_v1, …).
    private func sampleWorkspace() throws -> NightlyWorkspace {
        let w = try NightlyWorkspace()
        for file in ReconcileEndToEndTests.cleanSample {
            let name = (file as NSString).lastPathComponent
            try FileManager.default.copyItem(atPath: PackagePaths.root.path + "/" + file, toPath: w.v1 + "/" + name)
        }
        for name in ["01-notifications.jsonl", "02-notification-history-page.json"] {
            try FileManager.default.copyItem(
                atPath: PackagePaths.root.path + "/Tests/Fixtures/sample/v2/" + name, toPath: w.v2 + "/" + name)
        }
        return w
    }

    @Test func aCrossedFailRuleExitsOneAndNewItemsBelowEveryRuleExitZero() throws {
        let crossed = try sampleWorkspace()
        defer { crossed.tmp.remove() }
        let metrics = crossed.tmp.path + "/nightly.prom"
        let run = try crossed.run(
            "2024-06-01", ["--fail-on", "missing_in_v2>0", "--warn-on", "rejects>=0", "--metrics-file", metrics])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "error: threshold --fail-on 'missing_in_v2>0' crossed: missing_in_v2 is 1, threshold > 0"),
            "\(run.stderr)")
        #expect(run.stderr.contains("warning: threshold --warn-on 'rejects>=0' crossed"))
        let summary = try crossed.summary("2024-06-01")
        #expect(
            summary["thresholds_checked"] == "2" && summary["thresholds_failed"] == "1"
                && summary["thresholds_warned"] == "1")
        let prom = String(decoding: try Data(contentsOf: URL(fileURLWithPath: metrics)), as: UTF8.self)
        #expect(prom.contains(#"asn_migrate_nightly_thresholds{kind="failed"} 1"#), "\(prom)")

        let quiet = try sampleWorkspace()
        defer { quiet.tmp.remove() }
        try quiet.tmp.write("nightly.conf", "fail-on = missing_in_v2>1\nfail-on = missing_in_v1 > 5%\n")
        let calm = try BinaryRun.run(quiet.arguments("2024-06-01") + ["--config", quiet.tmp.path + "/nightly.conf"])
        #expect(calm.status == 0, "new differences that cross no fail-on rule exit 0: \(calm.stderr)")
        #expect(try quiet.summary("2024-06-01")["thresholds_failed"] == "0")
    }

    @Test func anUnknownFigureIsAUsageError() throws {
        let w = try NightlyWorkspace()
        defer { w.tmp.remove() }
        let run = try w.run("2024-06-01", ["--warn-on", "differences_nwe>0"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("did you mean 'differences_new'?"), "\(run.stderr)")
    }
}
