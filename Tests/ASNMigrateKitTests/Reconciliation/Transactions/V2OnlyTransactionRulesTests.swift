import Foundation
import Testing
@testable import ASNMigrateKit

/// `Mappings/v2-only-transactions.rules`: the built-in copy, the rules' meaning, and load errors naming file and line.
@Suite struct V2OnlyTransactionRulesTests {
    @Test func mappingsFileAndBuiltInCopyAreTheSame() throws {
        let file = String(decoding: try PackagePaths.read("Mappings/" + V2OnlyTransactionRules.fileName), as: UTF8.self)
        #expect(file == V2OnlyTransactionRules.defaultText, "paste Mappings/v2-only-transactions.rules into V2OnlyTransactionRules.defaultText")
    }

    @Test(arguments: [
        ("Consumable", "PURCHASED", false, true),
        ("Consumable", "PURCHASED", true, false),
        ("Non-Consumable", "PURCHASED", false, true),
        ("Non-Renewing Subscription", "PURCHASED", false, true),
        ("Auto-Renewable Subscription", "PURCHASED", false, false),
        ("Auto-Renewable Subscription", "FAMILY_SHARED", false, true),
        ("Auto-Renewable Subscription", "FAMILY_SHARED", true, true),
    ] as [(String, String, Bool, Bool)])
    func builtInRules(type: String, ownership: String, revoked: Bool, expected: Bool) {
        var t = JWSTransactionDecodedPayload()
        t.type = type
        t.inAppOwnershipType = ownership
        if revoked { t.revocationDate = 1 }
        #expect(V2OnlyTransactionRules.builtIn.isV2OnlyExpected(t) == expected)
    }

    @Test(arguments: [
        ("Consumable | *\n", "expected 'V2 TYPE | IN-APP OWNERSHIP TYPE | REVOKED' (3 fields), found 2", 2),
        ("Consumable | * | maybe\n", "REVOKED must be yes, no or *", 2),
        ("Consumables | * | no\n", "unknown V2 transaction type 'Consumables'", 2),
        ("\n| * | no\n", "empty field", 3),
    ] as [(String, String, Int)])
    func loadErrorsNameFileAndLine(body: String, message: String, line: Int) {
        do {
            _ = try V2OnlyTransactionRules.parse("format 1\n" + body, path: "custom/v2-only-transactions.rules")
            Issue.record("loaded")
        } catch {
            #expect(error.code == .badMapping)
            #expect(error.message.contains(message), "\(error.message)")
            #expect(error.location?.path == "custom/v2-only-transactions.rules")
            #expect(error.location?.line == line)
        }
    }

    @Test func newerFormatIsRefused() {
        #expect(throws: ASNError.self) { try V2OnlyTransactionRules.parse("format 2\n", path: "r") }
    }

    @Test func mappingsDirectoryWithoutTheFileUsesTheBuiltInRules() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        #expect(try V2OnlyTransactionRules.load(directory: tmp.path) == .builtIn)
        _ = try tmp.write(V2OnlyTransactionRules.fileName, "format 1\nConsumable | * | *\n")
        #expect(try V2OnlyTransactionRules.load(directory: tmp.path).rules.count == 1)
    }
}
