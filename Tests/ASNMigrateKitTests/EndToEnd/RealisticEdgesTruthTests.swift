import Foundation
import Testing

@testable import ASNMigrateKit

/// The acceptance check for the period rule: with `simulate --realistic-edges` the data's first and last events
/// have the ordinary V1-to-V2 delay, so they straddle the derived period's edges, and `reconcile` must still report
/// nothing on clean data and exactly `truth.csv` with injected faults.
@Suite(.serialized) struct RealisticEdgesTruthTests {
    private func read(_ path: String) throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    }

    /// Simulates with realistic edges and reconciles; returns the data and report folders.
    private func simulateAndReconcile(seed: Int, inject: String, in tmp: TemporaryDirectory) throws -> (
        data: String, report: String, status: Int32
    ) {
        let data = tmp.path + "/sim"
        let report = tmp.path + "/report"
        let simulate = try BinaryRun.run([
            "simulate", "--subscribers", "400", "--seed", String(seed), "--months", "3", "--inject", inject,
            "--receipt-history", "2", "--realistic-edges", "--out", data
        ])
        #expect(simulate.status == 0, "\(simulate.stderr)")
        let reconcile = try BinaryRun.run(["reconcile", "--v1", data + "/v1", "--v2", data + "/v2", "--out", report])
        return (data, report, reconcile.status)
    }

    /// The edges really straddle: V1's first event is the simulated start, V2's first is signed after it, so the
    /// derived period starts after the first V1 record and ends before the last V2 record.
    private func expectStraddlingEdges(_ report: String) throws {
        let m = try ReportFiles.summary(report)
        #expect(
            m["period_start"] != "2021-01-01T00:00:00.000Z" && (m["period_start"] ?? "").hasPrefix("2021-01-01T00:0"),
            "V2's first record is signed seconds to minutes after V1's: \(m["period_start"] ?? "")")
        #expect(
            m["period_end"] == "2021-04-01T00:00:00.000Z",
            "the period ends at V1's last event; V2's copy is signed after it")
        #expect(m["v1_out_of_period"] == "0" && m["v2_out_of_period"] == "0", "the edge pairs are judged, not dropped")
    }

    @Test(arguments: [7, 29])
    func cleanDataHasZeroRows(seed: Int) throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let run = try simulateAndReconcile(seed: seed, inject: "0", in: tmp)
        #expect(run.status == 0)
        let header = Discrepancy.columns.joined(separator: ",") + "\n"
        #expect(try read(run.report + "/differences.csv") == header)
        #expect(try read(run.report + "/pending.csv") == header, "every unpaired record lies well inside the data")
        #expect(try read(run.report + "/rejected.csv") == "side,source,line,reason\n")
        try expectStraddlingEdges(run.report)
    }

    @Test(arguments: [5, 23])
    func injectedFaultsAreExactlyTheTruth(seed: Int) throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let run = try simulateAndReconcile(seed: seed, inject: "0.09", in: tmp)
        #expect(run.status == 1)
        let truth = try read(run.data + "/truth.csv")
        #expect(truth.split(separator: "\n").count > 15, "the run injected a meaningful number of faults")
        #expect(truth.contains("\nmissing_in_v1,") && truth.contains("\nmissing_in_v2,"), "drops are among the faults")
        #expect(
            try ReportFiles.withoutPrice(try read(run.report + "/differences.csv")) == truth,
            "differences.csv must equal truth.csv byte for byte (seed \(seed))")
        let truthRejects = try CSVReader.read(
            Array(try Data(contentsOf: URL(fileURLWithPath: run.data + "/truth-rejects.csv"))),
            path: "truth-rejects.csv")
        let rejected = try CSVReader.read(
            Array(try Data(contentsOf: URL(fileURLWithPath: run.report + "/rejected.csv"))), path: "rejected.csv")
        #expect(
            Set(
                rejected.records.map {
                    "\($0.fields[0]) \($0.fields[1]):\($0.fields[2]) \($0.fields[3].prefix { $0 != ":" })"
                })
                == Set(truthRejects.records.map { "\($0.fields[0]) \($0.fields[1]) \($0.fields[2])" }))
        try expectStraddlingEdges(run.report)
    }
}
