import Foundation
import Testing

@testable import ASNMigrateKit

/// The acceptance check of the simulator's truth: `simulate --inject` writes the differences it caused; `reconcile` must report exactly those.
/// 600 subscribers at a 10% fault rate give as many faults, of the same kinds, as 2,000 at 3% did, in a third of the
/// time.
@Suite(.serialized) struct SimulateReconcileTruthTests {
    @Test(arguments: [(3, false), (17, true), (101, false)])
    func reconcileReportsExactlyTheInjectedDifferences(seed: Int, gzip: Bool) throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let data = tmp.path + "/sim"
        let report = tmp.path + "/report"
        let simulate = try BinaryRun.run(
            [
                "simulate", "--subscribers", "600", "--seed", String(seed), "--months", "3", "--inject", "0.1",
                "--receipt-history", "3", "--out", data
            ] + (gzip ? ["--gzip"] : []))
        #expect(simulate.status == 0, "\(simulate.stderr)")
        let reconcile = try BinaryRun.run(["reconcile", "--v1", data + "/v1", "--v2", data + "/v2", "--out", report])
        #expect(reconcile.status == 1, "injected faults are differences: \(reconcile.stderr)")

        let truth = try String(contentsOfFile: data + "/truth.csv", encoding: .utf8)
        let differences = try ReportFiles.withoutPrice(
            try String(contentsOfFile: report + "/differences.csv", encoding: .utf8))
        #expect(truth.split(separator: "\n").count > 20, "the run injected a meaningful number of faults")
        let kinds = Set(truth.split(separator: "\n").dropFirst().map { $0.prefix { $0 != "," } })
        #expect(kinds.count >= 5, "faults of every kind the injector makes: \(kinds.sorted())")
        #expect(differences == truth, "differences.csv must equal truth.csv byte for byte (seed \(seed))")

        // Rejects: same side, source and error code, in any order.
        let truthRejects = try CSVReader.read(
            Array(try Data(contentsOf: URL(fileURLWithPath: data + "/truth-rejects.csv"))), path: "truth-rejects.csv")
        let rejected = try CSVReader.read(
            Array(try Data(contentsOf: URL(fileURLWithPath: report + "/rejected.csv"))), path: "rejected.csv")
        let expected = Set(truthRejects.records.map { "\($0.fields[0]) \($0.fields[1]) \($0.fields[2])" })
        let got = Set(
            rejected.records.map {
                "\($0.fields[0]) \($0.fields[1]):\($0.fields[2]) \($0.fields[3].prefix { $0 != ":" })"
            })
        #expect(!expected.isEmpty)
        #expect(got == expected)
    }
}
