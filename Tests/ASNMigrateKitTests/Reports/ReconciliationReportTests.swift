import Foundation
import Testing

@testable import ASNMigrateKit

/// The reconcile report files and their documentation agree.
@Suite struct ReconciliationReportTests {
    @Test func everyFileMetricAndKindIsDocumentedInReportsREADME() throws {
        let readme = try String(
            contentsOf: PackagePaths.root.appendingPathComponent("Reports/README.md"), encoding: .utf8)
        var engine = Reconciler(table: try MappingTable.builtIn(), options: ReconcileOptions())
        engine.addV2Reject(ASNError(.malformedJWS, "bad", at: SourceLocation(path: "v2.jsonl", line: 1)))
        engine.v2Unverified = 0
        var result = engine.finish()
        result = result.adding(
            TransactionComparison(differences: [], summary: TransactionSummary()), notificationsCompared: false)
        for name in ReconciliationReport.fileNames {
            #expect(readme.contains("## `\(name)`"), "Reports/README.md has no section for \(name)")
        }
        for (metric, _) in result.metrics {
            #expect(readme.contains("`\(metric)`"), "Reports/README.md does not explain the metric \(metric)")
        }
        for kind in Discrepancy.Kind.allCases {
            #expect(
                readme.contains("| `\(kind.rawValue)` |"),
                "Reports/README.md does not explain the kind \(kind.rawValue)")
        }
    }

    @Test func pendingRowsGoToPendingCSVOnlyWithDifferencesColumns() throws {
        var row = Discrepancy(kind: .pendingInV2)
        row.environment = "Production"
        row.originalTransactionId = "1000"
        let result = ReconciliationResult(
            summary: ReconciliationSummary(), differences: [], pending: [row], rejects: [], coverage: [],
            subscriptions: [])
        let files = Dictionary(
            uniqueKeysWithValues: ReconciliationReport.files(result).map {
                ($0.name, String(decoding: $0.bytes, as: UTF8.self))
            })
        let header = Discrepancy.columns.joined(separator: ",")
        #expect(files["pending.csv"] == header + "\npending_in_v2,Production,1000,,,,,,,,,,,,,,,,,,\n")
        #expect(files["differences.csv"] == header + "\n")
        #expect(result.isClean)
    }
}
