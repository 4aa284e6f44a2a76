import Foundation
import Testing

@testable import ASNMigrateKit

/// `reconcile --fail-on / --warn-on` through the built binary on the shipped sample (1 missing_in_v2, 1 missing_in_v1,
/// 1 type_mismatch, 1 field_mismatch, 2 state_mismatch of 29 subscriptions, 7 of 43 V1 records rejected).
@Suite(.serialized) struct ReconcileThresholdsEndToEndTests {
    private let sample = [
        "--v1", "Tests/Fixtures/sample/v1", "--v2", "Tests/Fixtures/sample/v2", "--max-reject-rate", "20%"
    ]

    @Test func aCrossedFailRuleExitsOneAndDifferencesBelowEveryRuleExitZero() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let crossed = try BinaryRun.run(
            ["reconcile"] + sample + ["--out", tmp.path + "/a", "--fail-on", "missing_in_v2>0"])
        #expect(crossed.status == 1, "\(crossed.stderr)")
        #expect(
            crossed.stderr.contains(
                "error: threshold --fail-on 'missing_in_v2>0' crossed: missing_in_v2 is 1, threshold > 0"))
        let summary = try ReportFiles.summary(tmp.path + "/a")
        #expect(
            summary["thresholds_checked"] == "1" && summary["thresholds_failed"] == "1"
                && summary["thresholds_warned"] == "0")

        let quiet = try BinaryRun.run(
            ["reconcile"] + sample + [
                "--out", tmp.path + "/b", "--fail-on", "missing_in_v2>1", "--fail-on", "rejects>=10%"
            ])
        #expect(quiet.status == 0, "differences that cross no --fail-on rule exit 0: \(quiet.stderr)")
        #expect(!quiet.stderr.contains("threshold"))
    }

    @Test func aWarningPrintsAndCountsButKeepsTheStatus() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let run = try BinaryRun.run(
            ["reconcile"] + sample + [
                "--out", tmp.path + "/r", "--warn-on", "state_mismatch>5%", "--warn-on", "rejects>=7"
            ])
        #expect(run.status == 1, "warnings alone keep today's status (differences: 1): \(run.stderr)")
        #expect(
            run.stderr.contains(
                "warning: threshold --warn-on 'state_mismatch>5%' crossed: state_mismatch is 6.8966% (2 of 29), threshold > 5%"
            ), "\(run.stderr)")
        #expect(run.stderr.contains("warning: threshold --warn-on 'rejects>=7' crossed: rejects is 7, threshold >= 7"))
        let summary = try ReportFiles.summary(tmp.path + "/r")
        #expect(summary["thresholds_warned"] == "2" && summary["thresholds_failed"] == "0")
    }

    @Test func rejectsAboveTheMaxRejectRateStayExitThree() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let run = try BinaryRun.run([
            "reconcile", "--v1", "Tests/Fixtures/sample/v1", "--v2", "Tests/Fixtures/sample/v2",
            "--out", tmp.path + "/r", "--fail-on", "missing_in_v2>5"
        ])
        #expect(run.status == 3, "\(run.stderr)")
    }

    @Test func anUnknownFigureIsAUsageErrorWithASuggestion() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let run = try BinaryRun.run(
            ["reconcile"] + sample + ["--out", tmp.path + "/r", "--fail-on", "state_mismatches>0"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("did you mean 'state_mismatch'?"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/r"))
        let malformed = try BinaryRun.run(
            ["reconcile"] + sample + ["--out", tmp.path + "/r", "--warn-on", "missing_in_v2 0"])
        #expect(malformed.status == 64 && malformed.stderr.contains("has no operator"), "\(malformed.stderr)")
    }
}
