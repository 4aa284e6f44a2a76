import Testing

@testable import ASNMigrateKit

@Suite struct ArgumentParserTests {
    // MARK: - Helpers

    private func run(_ arguments: [String], _ spec: CommandSpec = CommandFixtures.migrate) throws -> ParsedArguments {
        guard case .run(let parsed) = try spec.parse(arguments) else {
            Issue.record("expected arguments, got help")
            return ParsedArguments(command: "", positionals: [], options: [], given: [:])
        }
        return parsed
    }

    private func usageError(_ arguments: [String], _ spec: CommandSpec = CommandFixtures.migrate) -> String? {
        do {
            _ = try spec.parse(arguments)
            return nil
        } catch {
            #expect(error.code == .usage)
            return error.message
        }
    }

    // MARK: - Success

    @Test func parsesEveryOptionKind() throws {
        let parsed = try run([
            "--out", "v2.jsonl", "--format=csv", "--ignore-field", "a", "--ignore-field=b", "-n",
            "--window", "90m", "--limit=5", "--offset", "-3", "in1", "-", "dir/"
        ])
        #expect(parsed.command == "migrate")
        #expect(parsed.value("--out") == "v2.jsonl")
        #expect(parsed.value("--format") == "csv")
        #expect(parsed.values("--ignore-field") == ["a", "b"])
        #expect(parsed.flag("--dry-run"))
        #expect(try parsed.durationMilliseconds("--window") == 5_400_000)
        #expect(try parsed.integer("--limit") == 5)
        #expect(try parsed.integer("--offset") == -3)
        #expect(parsed.positionals == ["in1", "-", "dir/"])
        #expect(parsed.readsStandardInput)
    }

    @Test func defaultsApplyWhenOptionsAreAbsent() throws {
        let parsed = try run(["in"])
        #expect(parsed.value("--out") == nil)
        #expect(parsed.value("--format") == "jsonl")
        #expect(!parsed.isSet("--format"))
        #expect(parsed.values("--ignore-field").isEmpty)
        #expect(!parsed.flag("--dry-run"))
        #expect(try parsed.durationMilliseconds("--window") == 172_800_000)
        #expect(try parsed.integer("--limit") == nil)
        #expect(!parsed.readsStandardInput)
    }

    @Test func shortNamesAndInlineValuesWork() throws {
        let parsed = try run(["-o", "x", "-n", "p"])
        #expect(parsed.value("--out") == "x")
        #expect(parsed.isSet("--out"))
        #expect(parsed.flag("--dry-run"))
        #expect(try run(["-o=y", "p"]).value("--out") == "y")
        #expect(try run(["--out=", "p"]).value("--out") == "")
        #expect(try run(["--out=a=b", "p"]).value("--out") == "a=b")
    }

    @Test func doubleDashEndsOptions() throws {
        let parsed = try run(["--dry-run", "--", "--out", "-n", "-"])
        #expect(parsed.positionals == ["--out", "-n", "-"])
        #expect(parsed.value("--out") == nil)
        #expect(parsed.flag("--dry-run"))
    }

    @Test func repeatedFlagIsHarmlessAndOptionsMixWithPositionals() throws {
        let parsed = try run(["a", "-n", "b", "--dry-run", "c"])
        #expect(parsed.flag("--dry-run"))
        #expect(parsed.positionals == ["a", "b", "c"])
    }

    @Test func valuesMayBeDashOrNegativeNumbers() throws {
        #expect(try run(["--out", "-", "p"]).value("--out") == "-")
        #expect(try run(["--offset", "-42", "p"]).value("--offset") == "-42")
    }

    @Test func optionalPositionalMayBeOmitted() throws {
        #expect(try run([], CommandFixtures.simulate).positionals.isEmpty)
        #expect(try run(["7"], CommandFixtures.simulate).positionals == ["7"])
        #expect(try run([], CommandFixtures.mappings).positionals.isEmpty)
    }

    // MARK: - Help

    static let helpRequests: [[String]] = [
        ["-h"], ["--help"], ["in", "--help"], ["--outt", "-h"], ["--format", "xml", "--help"]
    ]

    @Test(arguments: helpRequests)
    func helpWinsOverEverythingElse(arguments: [String]) throws {
        #expect(try CommandFixtures.migrate.parse(arguments) == .help(CommandFixtures.migrate.helpText))
    }

    @Test func helpAfterDoubleDashIsAPositional() throws {
        #expect(try run(["--", "--help"]).positionals == ["--help"])
    }

    @Test func helpTextListsUsageAbstractArgumentsAndOptionsInColumns() {
        let help = CommandFixtures.migrate.helpText
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "OVERVIEW: Migrate archived V1 notifications to V2 form.")
        #expect(lines.contains("USAGE: asn-migrate migrate [OPTIONS] PATH..."))
        #expect(lines.contains("ARGUMENTS:"))
        #expect(lines.contains("OPTIONS:"))
        let column = "  --ignore-field NAME  ".count
        for prefix in [
            "  PATH ", "  -o, --out FILE ", "  --format FORMAT ", "  --ignore-field NAME ", "  -n, --dry-run ",
            "  -h, --help "
        ] {
            let line = lines.first { $0.hasPrefix(prefix) }
            #expect(
                line.map { $0.count > column && $0.prefix(column).last == " " && $0.dropFirst(column).first != " " }
                    == true, "\(prefix)")
        }
        #expect(help.contains("(one of: jsonl, csv; default: jsonl)"))
        #expect(help.contains("(repeatable)"))
        #expect(help.contains("(1 to 1000000)"))
        #expect(lines.allSatisfy { $0.count <= 80 })
        #expect(
            lines.contains(String(repeating: " ", count: column) + "has to wrap onto a second line in the help output.")
        )
        #expect(help.hasSuffix("Show this help.\n"))
    }

    @Test func usageLineCanBeGivenOrGenerated() {
        var spec = CommandFixtures.simulate
        #expect(spec.usageLine == "asn-migrate simulate [OPTIONS] [SEED]")
        spec.usage = "asn-migrate simulate [--count N] [SEED]"
        #expect(spec.helpText.contains("USAGE: asn-migrate simulate [--count N] [SEED]\n"))
        #expect(CommandFixtures.mappings.usageLine == "asn-migrate mappings")
        #expect(PositionalSpec(name: "F", help: "", minCount: 1, maxCount: 1).synopsis == "F")
        #expect(PositionalSpec(name: "F", help: "", minCount: 0, maxCount: 3).synopsis == "[F...]")
    }

    @Test func longOptionNamesMoveHelpToTheNextLine() {
        let spec = CommandSpec(
            name: "x", abstract: "X.",
            options: [
                .single("--a-really-quite-long-option-name", valueName: "VALUE", help: "Long."),
                .flag("--short", help: "Short.")
            ])
        let lines = spec.helpText.split(separator: "\n").map(String.init)
        let index = lines.firstIndex(of: "  --a-really-quite-long-option-name VALUE")
        #expect(index.map { lines[$0 + 1].trimmingPrefixSpaces == "Long." } == true)
        #expect(lines.contains { $0.hasPrefix("  --short") && $0.hasSuffix("Short.") })
    }

    // MARK: - Errors

    static let errorCases: [([String], String)] = [
        (
            ["--outt", "x", "p"],
            "unknown option '--outt' for 'migrate'; did you mean '--out'? See 'asn-migrate migrate --help'."
        ),
        (["--zzz", "p"], "unknown option '--zzz' for 'migrate'. See 'asn-migrate migrate --help'."),
        (
            ["--ignore", "a", "p"],
            "unknown option '--ignore' for 'migrate'; did you mean '--ignore-field'? See 'asn-migrate migrate --help'."
        ),
        (
            ["--dryrun", "p"],
            "unknown option '--dryrun' for 'migrate'; did you mean '--dry-run'? See 'asn-migrate migrate --help'."
        ),
        (
            ["-out", "x", "p"],
            "unknown option '-out' for 'migrate'; did you mean '--out'? See 'asn-migrate migrate --help'."
        ),
        (["-x", "p"], "unknown option '-x' for 'migrate'. See 'asn-migrate migrate --help'."),
        (
            ["--outt=x", "p"],
            "unknown option '--outt' for 'migrate'; did you mean '--out'? See 'asn-migrate migrate --help'."
        ),
        (["p", "--out"], "option '--out' needs a value (FILE)"),
        (["--out", "--dry-run", "p"], "option '--out' needs a value (FILE)"),
        (["-o"], "option '--out' needs a value (FILE)"),
        (["--format", "csv", "--format", "jsonl", "p"], "option '--format' given twice"),
        (["--out=a", "-o", "b", "p"], "option '--out' given twice"),
        (["--dry-run=yes", "p"], "option '--dry-run' takes no value"),
        ([], "missing PATH: give at least one input file or directory, or '-' for standard input"),
        (["--dry-run"], "missing PATH: give at least one input file or directory, or '-' for standard input"),
        (["-", "-"], "'-' (standard input) given 2 times; standard input can be read only once"),
        (["--format", "xml", "p"], "option '--format' must be one of: jsonl, csv (got 'xml')"),
        (
            ["--format", "jsonn", "p"],
            "option '--format' must be one of: jsonl, csv (got 'jsonn'; did you mean 'jsonl'?)"
        ),
        (["--format", "JSONL", "p"], "option '--format' must be one of: jsonl, csv (got 'JSONL')"),
        (["--window", "48", "p"], "option '--window' needs a duration such as 48h, 90m, 3600s or 2d (got '48')"),
        (["--window", "h", "p"], "option '--window' needs a duration such as 48h, 90m, 3600s or 2d (got 'h')"),
        (["--window=", "p"], "option '--window' needs a duration such as 48h, 90m, 3600s or 2d (got '')"),
        (["--limit", "ten", "p"], "option '--limit' needs a whole number (got 'ten')"),
        (["--limit", "0", "p"], "option '--limit' must be between 1 and 1000000 (got 0)"),
        (["--limit", "1.5", "p"], "option '--limit' needs a whole number (got '1.5')")
    ]

    @Test(arguments: errorCases)
    func reportsUsageErrors(arguments: [String], message: String) {
        #expect(usageError(arguments) == message)
    }

    static let otherCommandErrors: [(CommandSpec, [String], String)] = [
        (
            CommandFixtures.mappings, ["extra"],
            "unexpected argument 'extra' for 'mappings'; it takes no arguments. See 'asn-migrate mappings --help'."
        ),
        (
            CommandFixtures.simulate, ["1", "2", "3"],
            "too many arguments for 'simulate': it takes at most 1 SEED, got 3 (unexpected: '2', '3')"
        ),
        (CommandFixtures.simulate, ["-"], "'-' (standard input) cannot be used with 'simulate'; give a file path"),
        (CommandFixtures.simulate, ["--count", "101"], "option '--count' must be between 1 and 100 (got 101)"),
        (
            CommandSpec(name: "x", abstract: "", positional: PositionalSpec(name: "F", help: "", minCount: 2)), ["a"],
            "missing F: give at least 2"
        )
    ]

    @Test(arguments: otherCommandErrors)
    func reportsPositionalErrors(spec: CommandSpec, arguments: [String], message: String) {
        #expect(usageError(arguments, spec) == message)
    }

    // MARK: - Spec checks

    @Test func soundSpecsHaveNoProblems() {
        for spec in CommandFixtures.program.commands {
            #expect(spec.specProblems.isEmpty, "\(spec.name): \(spec.specProblems)")
        }
    }

    @Test func specProblemsAreFound() {
        let spec = CommandSpec(
            name: "bad", abstract: "",
            options: [
                .flag("--help", help: ""),
                .flag("out", help: ""),
                .single("--a", short: "-a", valueName: "", help: ""),
                .single("--b", short: "-a", valueName: "B", help: ""),
                .single("--c", short: "c", valueName: "C", help: "", defaultValue: "nope", valueKind: .integer(nil)),
                .repeatable("--d", valueName: "D", help: "")
            ], positional: PositionalSpec(name: "P", help: "", minCount: 2, maxCount: 1))
        let problems = spec.specProblems
        #expect(problems.contains("option name '--help' is declared twice or is reserved"))
        #expect(problems.contains("long name 'out' must look like --name"))
        #expect(problems.contains("option '--a' needs a value name"))
        #expect(problems.contains("option name '-a' is declared twice or is reserved"))
        #expect(problems.contains("short name 'c' must look like -x"))
        #expect(problems.contains("default of '--c': option '--c' needs a whole number (got 'nope')"))
        #expect(problems.contains("positional 'P' has minCount above maxCount"))
        #expect(problems.count == 7)
    }
}

extension String {
    /// The text without leading spaces.
    fileprivate var trimmingPrefixSpaces: String { String(drop(while: { $0 == " " })) }
}
