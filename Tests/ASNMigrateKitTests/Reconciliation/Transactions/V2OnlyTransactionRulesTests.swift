import Foundation
import Testing

@testable import ASNMigrateKit

/// `Mappings/v2-only-transactions.rules`: the built-in copy, the rules' meaning, and load errors naming file and line.
@Suite struct V2OnlyTransactionRulesTests {
    @Test func mappingsFileAndBuiltInCopyAreTheSame() throws {
        let file = String(decoding: try PackagePaths.read("Mappings/" + V2OnlyTransactionRules.fileName), as: UTF8.self)
        #expect(
            file == V2OnlyTransactionRules.defaultText,
            "paste Mappings/v2-only-transactions.rules into V2OnlyTransactionRules.defaultText")
    }

    /// Each built-in line, and Apple's table "Receive notifications for the purchaser and family members": a family
    /// member gets no INITIAL_BUY (its first transaction is V2-only), but DID_RENEW and REVOKE (its renewals and
    /// revocations are not).
    @Test(
        arguments: [
            ("Consumable", "PURCHASED", false, false, true),
            ("Consumable", "PURCHASED", true, false, false),
            ("Non-Consumable", "PURCHASED", false, false, true),
            ("Non-Renewing Subscription", "PURCHASED", false, false, true),
            ("Auto-Renewable Subscription", "PURCHASED", false, true, false),
            ("Auto-Renewable Subscription", "FAMILY_SHARED", false, true, true),
            ("Auto-Renewable Subscription", "FAMILY_SHARED", false, false, false),
            ("Auto-Renewable Subscription", "FAMILY_SHARED", true, true, false),
            ("Auto-Renewable Subscription", "FAMILY_SHARED", true, false, false)
        ] as [(String, String, Bool, Bool, Bool)])
    func builtInRules(type: String, ownership: String, revoked: Bool, first: Bool, expected: Bool) {
        var t = JWSTransactionDecodedPayload()
        t.type = type
        t.inAppOwnershipType = ownership
        t.originalTransactionId = "2000"
        t.transactionId = first ? "2000" : "2001"
        if revoked { t.revocationDate = 1 }
        #expect(V2OnlyTransactionRules.builtIn.isV2OnlyExpected(t) == expected)
    }

    @Test func formatOneFilesStillLoadWithAnyTransaction() throws {
        let rules = try V2OnlyTransactionRules.parse("format 1\n* | FAMILY_SHARED | *\n", path: "old.rules")
        #expect(rules.rules.map(\.first) == [nil])
        var renewal = JWSTransactionDecodedPayload()
        renewal.inAppOwnershipType = "FAMILY_SHARED"
        renewal.originalTransactionId = "2000"
        renewal.transactionId = "2001"
        #expect(rules.isV2OnlyExpected(renewal))
    }

    @Test(
        arguments: [
            (
                "format 1\nConsumable | *\n",
                "expected 'V2 TYPE | IN-APP OWNERSHIP TYPE | REVOKED' (3 fields, format 1), found 2", 2
            ),
            (
                "format 2\nConsumable | * | no\n",
                "expected 'V2 TYPE | IN-APP OWNERSHIP TYPE | REVOKED | TRANSACTION' (4 fields, format 2), found 3", 2
            ),
            ("format 2\nConsumable | * | no | renewal\n", "TRANSACTION must be first, later or *", 2),
            ("format 1\nConsumable | * | maybe\n", "REVOKED must be yes, no or *", 2),
            ("format 1\nConsumables | * | no\n", "unknown V2 transaction type 'Consumables'", 2),
            ("format 1\n\n| * | no\n", "empty field", 3)
        ] as [(String, String, Int)])
    func loadErrorsNameFileAndLine(body: String, message: String, line: Int) {
        do {
            _ = try V2OnlyTransactionRules.parse(body, path: "custom/v2-only-transactions.rules")
            Issue.record("loaded")
        } catch {
            #expect(error.code == .badMapping)
            #expect(error.message.contains(message), "\(error.message)")
            #expect(error.location?.path == "custom/v2-only-transactions.rules")
            #expect(error.location?.line == line)
        }
    }

    @Test func newerFormatIsRefused() {
        #expect(throws: ASNError.self) { try V2OnlyTransactionRules.parse("format 3\n", path: "r") }
    }

    @Test func mappingsDirectoryWithoutTheFileUsesTheBuiltInRules() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        #expect(try V2OnlyTransactionRules.load(directory: tmp.path) == .builtIn)
        _ = try tmp.write(V2OnlyTransactionRules.fileName, "format 1\nConsumable | * | *\n")
        #expect(try V2OnlyTransactionRules.load(directory: tmp.path).rules.count == 1)
    }
}
