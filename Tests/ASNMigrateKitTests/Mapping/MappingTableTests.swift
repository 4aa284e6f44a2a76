import Foundation
import Testing

@testable import ASNMigrateKit

/// One broken rules file and what its load error must say.
struct BrokenRules: CustomTestStringConvertible, Sendable {
    /// What kind of mistake this is.
    let name: String
    /// The rules file text (the v2-only file is valid).
    let text: String
    /// The 1-based line the error must point at.
    let line: Int
    /// Words the message must contain.
    let mentions: String
    /// The case's name in test output.
    var testDescription: String { name }
}

/// A small valid rules file; broken variants below change one line of it.
private let validHeader = """
    # comment line
    format 1

    setting | resubscribe-tolerance | 1h
    """
private let validRules = """
    rule | did-renew   | DID_RENEW   | always     | DID_RENEW  | -
    rule | buy-offer   | INITIAL_BUY | offer-code | OFFER_REDEEMED | INITIAL_BUY
    rule | buy         | INITIAL_BUY | always     | SUBSCRIBED | INITIAL_BUY
    """
private let validV2Only = """
    format 1
    never-announced | TEST | *
    """

/// One broken rules file per kind of load error.
let brokenRules: [BrokenRules] = [
    BrokenRules(
        name: "unknown predicate",
        text: validHeader + "\n" + "rule | x | DID_RENEW | sunny-day | DID_RENEW | -\n" + validRules,
        line: 5, mentions: "unknown condition 'sunny-day'"),
    BrokenRules(
        name: "predicate missing its argument",
        text: validHeader + "\n" + "rule | x | DID_CHANGE_RENEWAL_STATUS | expiration-intent | EXPIRED | VOLUNTARY\n"
            + validRules,
        line: 5, mentions: "needs a numeric value"),
    BrokenRules(
        name: "argument on a predicate that takes none",
        text: validHeader + "\n" + "rule | x | DID_CHANGE_RENEWAL_STATUS | auto-renew-on=1 | EXPIRED | VOLUNTARY\n"
            + validRules,
        line: 5, mentions: "takes no value"),
    BrokenRules(
        name: "duplicate rule id",
        text: validHeader + "\n" + validRules + "\nrule | buy | REFUND | always | REFUND | -\n",
        line: 8, mentions: "already used on line 7"),
    BrokenRules(
        name: "rule shadowed by an unconditional rule above",
        text: validHeader + "\n" + validRules + "\nrule | renew-late | DID_RENEW | offer | DID_RENEW | -\n",
        line: 8, mentions: "can never match DID_RENEW"),
    BrokenRules(
        name: "format newer than supported", text: "# future\nformat 2\n" + validRules,
        line: 2, mentions: "format 2 is newer than this asn-migrate supports"),
    BrokenRules(
        name: "malformed format line", text: "format one\n" + validRules,
        line: 1, mentions: "format line must be 'format 1'"),
    BrokenRules(
        name: "unknown setting", text: validHeader + "\nsetting | retry-tolerance | 1h\n" + validRules,
        line: 5, mentions: "unknown setting 'retry-tolerance'"),
    BrokenRules(
        name: "setting given twice", text: validHeader + "\nsetting | resubscribe-tolerance | 2h\n" + validRules,
        line: 5, mentions: "given twice"),
    BrokenRules(
        name: "bad duration", text: "format 1\nsetting | companion-tolerance | ten minutes\n" + validRules,
        line: 2, mentions: "needs a duration"),
    BrokenRules(
        name: "bad cutoff instant", text: "format 1\nsetting | offer-resubscribe-cutoff | 23/01/2024\n" + validRules,
        line: 2, mentions: "ISO 8601"),
    BrokenRules(
        name: "rule with too few fields",
        text: validHeader + "\nrule | x | DID_RENEW | always | DID_RENEW\n" + validRules,
        line: 5, mentions: "found 5 fields"),
    BrokenRules(
        name: "setting with too many fields",
        text: "format 1\nsetting | resubscribe-tolerance | 1h | 2h\n" + validRules,
        line: 2, mentions: "found 4 fields"),
    BrokenRules(
        name: "empty field", text: validHeader + "\nrule | x | DID_RENEW | always | DID_RENEW | \n" + validRules,
        line: 5, mentions: "empty field"),
    BrokenRules(
        name: "unknown line kind",
        text: validHeader + "\nrules | x | DID_RENEW | always | DID_RENEW | -\n" + validRules,
        line: 5, mentions: "unknown line kind 'rules'"),
    BrokenRules(
        name: "rule before the format line", text: "rule | x | DID_RENEW | always | DID_RENEW | -\nformat 1\n",
        line: 1, mentions: "must start with a 'format 1' line")
]

/// Loading and validating the mapping files: every error names file, line and the mistake; the built-in
/// defaults equal the repository's `Mappings/` files; `--mappings DIR` changes what records map to.
@Suite struct MappingTableTests {
    /// The rules path errors must name.
    static let rulesPath = "custom/v1-to-v2.rules"
    /// The v2-only path errors must name.
    static let v2OnlyPath = "custom/v2-only.rules"

    /// The load error for a rules text and a v2-only text, or nil when both load.
    static func loadError(rules: String, v2Only: String = validV2Only) -> ASNError? {
        do {
            _ = try MappingTable.parse(rules: rules, rulesPath: rulesPath, v2Only: v2Only, v2OnlyPath: v2OnlyPath)
            return nil
        } catch {
            return error
        }
    }

    /// The valid base loads.
    @Test func theValidBaseLoads() throws {
        let table = try MappingTable.parse(
            rules: validHeader + "\n" + validRules, rulesPath: Self.rulesPath,
            v2Only: validV2Only, v2OnlyPath: Self.v2OnlyPath)
        #expect(table.rules.map(\.id) == ["did-renew", "buy-offer", "buy"])
        #expect(table.rules.map(\.line) == [5, 6, 7])
        #expect(table.settings.resubscribeTolerance == 3_600_000)
    }

    /// Each mistake is reported with file and line.
    @Test(arguments: brokenRules)
    func eachMistakeIsReportedWithFileAndLine(_ broken: BrokenRules) throws {
        let error = try #require(Self.loadError(rules: broken.text), "\(broken.name) loaded without error")
        #expect(error.code == .badMapping)
        #expect(error.location?.path == Self.rulesPath)
        #expect(error.location?.line == broken.line)
        #expect(error.description.hasPrefix("\(Self.rulesPath):\(broken.line): "), "\(error.description)")
        #expect(error.message.contains(broken.mentions), "\(error.message)")
    }

    /// V2 only mistakes are reported with file and line.
    @Test(arguments: [
        ("format 1\nnever-heard | TEST | *\n", 2, "unknown list 'never-heard'"),
        ("format 1\nnever-announced | TEST\n", 2, "found 2 fields"),
        ("format 1\n\nnever-announced | test | *\n", 3, "UPPER_CASE"),
        ("format 3\n", 1, "format 3 is newer than this asn-migrate supports")
    ])
    func v2OnlyMistakesAreReportedWithFileAndLine(text: String, line: Int, mentions: String) throws {
        let error = try #require(Self.loadError(rules: validHeader + "\n" + validRules, v2Only: text))
        #expect(error.code == .badMapping)
        #expect(error.location?.path == Self.v2OnlyPath)
        #expect(error.location?.line == line)
        #expect(error.message.contains(mentions), "\(error.message)")
    }

    /// Missing mapping file is reported by path.
    @Test func missingMappingFileIsReportedByPath() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        try scratch.write("v1-to-v2.rules", validHeader + "\n" + validRules)
        do {
            _ = try MappingTable.load(directory: scratch.path)
            Issue.record("loaded without v2-only.rules")
        } catch {
            #expect(error.code == .badMapping)
            #expect(error.message.contains(scratch.path + "/v2-only.rules"))
        }
    }

    // MARK: - Built-in defaults

    /// Built in defaults equal the repository files byte for byte.
    @Test(arguments: [
        ("Mappings/v1-to-v2.rules", MappingDefaults.rules), ("Mappings/v2-only.rules", MappingDefaults.v2Only)
    ])
    func builtInDefaultsEqualTheRepositoryFilesByteForByte(path: String, builtIn: String) throws {
        let file = try PackagePaths.read(path)
        let same = file == Array(builtIn.utf8)
        #expect(same, "\(path) and MappingDefaults differ; paste the file into MappingDefaults.swift")
    }

    /// Built in table equals the table loaded from mappings.
    @Test func builtInTableEqualsTheTableLoadedFromMappings() throws {
        let fromFiles = try MappingTable.load(directory: PackagePaths.root.appendingPathComponent("Mappings").path)
        let builtIn = try MappingTable.builtIn()
        #expect(fromFiles.rules.map(\.id) == builtIn.rules.map(\.id))
        #expect(fromFiles.settings == builtIn.settings)
        #expect(fromFiles.v2Only == builtIn.v2Only)
    }

    // MARK: - Overrides

    /// A resubscribe whose new purchase is 20 minutes before the auto-renew change.
    static let resubscribe = V1Fixture.body(
        type: "DID_CHANGE_RENEWAL_STATUS",
        top: ["auto_renew_status_change_date_ms": String(V1Fixture.ms("2021-06-01T12:20:00Z"))],
        transactions: [
            V1Fixture.tx(id: "1000000001", purchase: "2021-01-01T00:00:00Z", expires: "2021-02-01T00:00:00Z"),
            V1Fixture.tx(id: "1000000002", purchase: "2021-06-01T12:00:00Z", expires: "2021-07-01T12:00:00Z")
        ],
        pending: [V1Fixture.pending()]
    )

    /// A copy of the repository's mapping files in a scratch directory with `edit` applied to the rules text.
    static func overrideDirectory(_ scratch: TemporaryDirectory, edit: (String) -> String) throws -> String {
        let rules = String(decoding: try PackagePaths.read("Mappings/v1-to-v2.rules"), as: UTF8.self)
        let edited = edit(rules)
        #expect(edited != rules, "the edit changed nothing")
        try scratch.write("m/v1-to-v2.rules", edited)
        try scratch.write("m/v2-only.rules", try PackagePaths.read("Mappings/v2-only.rules"))
        return scratch.path + "/m"
    }

    /// Mappings directory overrides a rule output.
    @Test func mappingsDirectoryOverridesARuleOutput() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let directory = try Self.overrideDirectory(scratch) { text in
            text.replacingOccurrences(
                of: "| DID_RENEW                 | -", with: "| DID_RENEW                 | BILLING_RECOVERY")
        }
        let body = V1Fixture.body(
            type: "DID_RENEW",
            transactions: [
                V1Fixture.tx(id: "1000000001", purchase: "2021-01-01T00:00:00Z", expires: "2021-02-01T00:00:00Z")
            ])
        let record = RawRecord(location: SourceLocation(path: "a.json", line: 1), bytes: Array(body.utf8))

        let builtIn = try #require(V1RecordMapper(table: try MappingLoader.load(nil)).map(record).payload)
        let overridden = try #require(V1RecordMapper(table: try MappingLoader.load(directory)).map(record).payload)
        #expect(builtIn.subtype == nil)
        #expect(overridden.notificationType == "DID_RENEW")
        #expect(overridden.subtype == "BILLING_RECOVERY")
        #expect(overridden.migration?.ruleId == "did-renew")
    }

    /// Mappings directory overrides a setting.
    @Test func mappingsDirectoryOverridesASetting() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let directory = try Self.overrideDirectory(scratch) { text in
            text.replacingOccurrences(of: "resubscribe-tolerance    | 1h", with: "resubscribe-tolerance    | 10m")
        }
        let record = RawRecord(location: SourceLocation(path: "a.json", line: 1), bytes: Array(Self.resubscribe.utf8))
        let builtIn = try #require(V1RecordMapper(table: try MappingLoader.load(nil)).map(record).payload)
        let overridden = try #require(V1RecordMapper(table: try MappingLoader.load(directory)).map(record).payload)
        // 20 minutes apart: within the built-in 1 h, outside the overridden 10 m.
        #expect(builtIn.migration?.ruleId == "status-resubscribe")
        #expect(overridden.migration?.ruleId == "status-auto-renew-enabled")
        #expect(overridden.subtype == "AUTO_RENEW_ENABLED")
    }

    /// Mappings command prints the overridden table.
    @Test func mappingsCommandPrintsTheOverriddenTable() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let directory = try Self.overrideDirectory(scratch) { text in
            text.replacingOccurrences(of: "rule | revoke   ", with: "rule | revoked  ")
        }
        let captured = CapturedConsole()
        let status = ASNMigrateCLI.run(["mappings", "--mappings", directory], console: captured.console)
        #expect(status == .success)
        #expect(captured.stdout.contains("revoked"))
    }
}
