import Foundation
import Testing

@testable import ASNMigrateKit

/// The property of `--switch`: over random lifecycles, random switch dates and random seam faults, `reconcile
/// --switch` reports exactly the rows `simulate --switch` says its faults caused (truth.csv, byte for byte, so kind by
/// kind), and the figures of truth-switch.csv; clean data gives no row. With Apple's view as well, its transactions
/// after the switch that no V2 notification carries are exactly truth-api.csv's rows.
@Suite(.serialized) struct SwitchTruthPropertyTests {
    static let seed = UInt64(ProcessInfo.processInfo.environment["ASN_SWITCH_SEED"] ?? "") ?? 39

    @Test(arguments: 0..<4)
    func reconcileSwitchReportsExactlyTheSeamTruth(round: Int) throws {
        var random = SplitMix64(seed: Self.seed &+ UInt64(round) &* 7919)
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        // 2021-01-01 plus 6 months: a switch between its day 20 and day 160, at any minute.
        let start: Int64 = 1_609_459_200_000
        let instant = start + Int64(20 + below(&random, 140)) * 86_400_000 + Int64(below(&random, 1440)) * 60_000
        let date = Timestamp.iso8601(ms: instant)
        let rate = round == 0 ? "0" : ["0.1", "0.25", "0.5"][below(&random, 3)]
        let simSeed = String(below(&random, 1_000_000))
        // Some rounds switch the environments apart: Sandbox a few days later.
        let sandbox = Timestamp.iso8601(ms: instant + Int64(below(&random, 3)) * 86_400_000)
        let switches =
            round % 2 == 0 ? ["--switch", date] : ["--switch", "production=" + date, "--switch", "sandbox=" + sandbox]
        let data = tmp.path + "/sim"
        let simulate = try BinaryRun.run(
            [
                "simulate", "--subscribers", "450", "--seed", simSeed, "--months", "6", "--inject", rate,
                "--receipt-history", "3", "--out", data
            ] + switches)
        #expect(simulate.status == 0, "\(simulate.stderr)")
        let out = tmp.path + "/report"
        let reconcile = try BinaryRun.run(
            ["reconcile", "--v1", data + "/v1", "--v2", data + "/v2", "--out", out] + switches)
        let truth = try String(contentsOfFile: data + "/truth.csv", encoding: .utf8)
        let differences = try ReportFiles.withoutPrice(
            String(contentsOfFile: out + "/differences.csv", encoding: .utf8))
        let context = "seed \(simSeed), \(switches.joined(separator: " ")), --inject \(rate)"
        #expect(differences == truth, "differences.csv must equal truth.csv (\(context))")
        #expect(reconcile.status == (truth.split(separator: "\n").count > 1 ? 1 : 0), "\(context): \(reconcile.stderr)")
        if rate == "0" {
            #expect(truth.split(separator: "\n").count == 1, "clean data has no seam rows (\(context))")
        } else {
            #expect(truth.split(separator: "\n").count > 5, "the faults caused rows (\(context))")
        }
        let summary = try String(contentsOfFile: out + "/summary.csv", encoding: .utf8)
        let figures = try String(contentsOfFile: data + "/truth-switch.csv", encoding: .utf8)
        for line in figures.split(separator: "\n").dropFirst() {
            #expect(summary.contains("\n\(line)\n"), "summary.csv holds \(line) (\(context))")
        }
        #expect(summary.contains("\nv1_after_switch,0\n") && summary.contains("\nv2_before_switch,0\n"))

        // With Apple's view as well: the seam rows stay, and Apple's transactions after the switch that the V2
        // notifications written do not carry are exactly truth-api.csv's `transaction_missing_in_v2` rows.
        let withView = tmp.path + "/report-api"
        let api = try BinaryRun.run(
            ["reconcile", "--v1", data + "/v1", "--v2", data + "/v2", "--v2", data + "/v2-api", "--out", withView]
                + switches)
        #expect([0, 1].contains(api.status), "\(context): \(api.stderr)")
        let lines = try ReportFiles.withoutPrice(String(contentsOfFile: withView + "/differences.csv", encoding: .utf8))
            .split(separator: "\n").dropFirst()
        let of = { (kinds: [String], rows: [Substring]) in
            rows.filter { row in kinds.contains { row.hasPrefix($0 + ",") } }.map(String.init)
        }
        let seamKinds = ["silent_in_v2", "renewal_gap", "seam_state_mismatch"]
        #expect(of(seamKinds, Array(lines)) == of(seamKinds, Array(truth.split(separator: "\n"))), "\(context)")
        let apiTruth = try String(contentsOfFile: data + "/truth-api.csv", encoding: .utf8).split(separator: "\n")
        #expect(
            of(["transaction_missing_in_v2"], Array(lines)) == apiTruth.dropFirst().map(String.init),
            "transaction_missing_in_v2 must equal truth-api.csv (\(context))")
        if rate == "0" {
            #expect(apiTruth.count == 1, "clean data misses no transaction (\(context))")
            #expect(of(["state_mismatch", "transaction_field_mismatch"], Array(lines)).isEmpty, "\(context)")
        }
    }

    /// A number in `0..<bound` from the seeded generator, so a failing round can be run again.
    private func below(_ random: inout SplitMix64, _ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
}
