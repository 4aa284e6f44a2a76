import Foundation
import Testing

@testable import ASNMigrateKit

/// `asn-migrate mappings` prints every rules file `reconcile` uses, the V2-only transaction rules included.
@Suite struct MappingsCommandTests {
    @Test func printsTheBuiltInV2OnlyTransactionRules() throws {
        let captured = CapturedConsole()
        #expect(ASNMigrateCLI.run(["mappings"], console: captured.console) == .success)
        let out = captured.stdout
        #expect(out.contains("transactions V1 had no reason to show (v2-only-transactions.rules"))
        // Every built-in rule, as a row: type, ownership, revoked, transaction.
        for rule in V2OnlyTransactionRules.builtIn.rules {
            let revoked: String = rule.revoked.map { $0 ? "yes" : "no" } ?? "*"
            let first: String = rule.first.map { $0 ? "first" : "later" } ?? "*"
            let cells: [String] = [rule.type ?? "*", rule.ownership ?? "*", revoked, first]
            let words: [String] = cells.flatMap { (cell: String) -> [String] in
                cell.split(separator: " ").map(String.init)
            }
            let lines: [Substring] = out.split(separator: "\n")
            let found = lines.contains { (line: Substring) -> Bool in
                line.split(separator: " ", omittingEmptySubsequences: true).map(String.init) == words
            }
            #expect(found, "\(cells)")
        }
        #expect(!V2OnlyTransactionRules.builtIn.rules.isEmpty)
    }

    @Test func printsTheTransactionRulesOfTheMappingsDirectory() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let directory = try MappingTableTests.overrideDirectory(scratch) { text in
            text.replacingOccurrences(of: "rule | revoke   ", with: "rule | revoked  ")
        }
        _ = try scratch.write("m/v2-only-transactions.rules", "format 1\nNon-Consumable | FAMILY_SHARED | yes\n")
        let captured = CapturedConsole()
        #expect(ASNMigrateCLI.run(["mappings", "--mappings", directory], console: captured.console) == .success)
        let section = try #require(
            captured.stdout.components(separatedBy: "transactions V1 had no reason to show").last)
        let rows = section.split(separator: "\n").dropFirst(2).map { $0.split(separator: " ").joined(separator: " ") }
        #expect(rows == ["Non-Consumable FAMILY_SHARED yes *"], "only the directory's rule: \(section)")
    }

    @Test func aBadTransactionRulesFileFailsNamingItsLine() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let directory = try MappingTableTests.overrideDirectory(scratch) { text in
            text.replacingOccurrences(of: "rule | revoke   ", with: "rule | revoked  ")
        }
        _ = try scratch.write("m/v2-only-transactions.rules", "format 1\nGift Card | * | no\n")
        let captured = CapturedConsole()
        #expect(ASNMigrateCLI.run(["mappings", "--mappings", directory], console: captured.console) == .failure)
        #expect(captured.stderr.contains("v2-only-transactions.rules:2"), "\(captured.stderr)")
    }
}
