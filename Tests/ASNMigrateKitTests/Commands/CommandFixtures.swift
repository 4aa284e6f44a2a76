@testable import ASNMigrateKit

/// Specs shaped like the real commands, shared by the parser tests.
enum CommandFixtures {
    /// A `migrate`-like command using every option kind.
    static let migrate = CommandSpec(
        name: "migrate",
        abstract: "Migrate archived V1 notifications to V2 form.",
        options: [
            .single("--out", short: "-o", valueName: "FILE", help: "Where to write the V2 JSON Lines."),
            .single(
                "--format", valueName: "FORMAT", help: "Output format.", defaultValue: "jsonl",
                valueKind: .choice(["jsonl", "csv"])),
            .repeatable("--ignore-field", valueName: "NAME", help: "A V1 field to drop without reporting it."),
            .single(
                "--window", valueName: "DURATION", help: "How far apart duplicates may be.", defaultValue: "48h",
                valueKind: .duration),
            .single("--limit", valueName: "N", help: "Stop after N records.", valueKind: .integer(1...1_000_000)),
            .single("--offset", valueName: "N", help: "Shift by N.", valueKind: .integer(nil)),
            .flag(
                "--dry-run", short: "-n",
                help:
                    "Check everything but write nothing; a long help text that has to wrap onto a second line in the help output."
            )
        ],
        positional: PositionalSpec(
            name: "PATH",
            help: "Input file or directory, or '-' for standard input.",
            minCount: 1,
            acceptsStandardInput: true,
            missingHint: "give at least one input file or directory, or '-' for standard input"
        )
    )

    /// A command without options or positionals.
    static let mappings = CommandSpec(name: "mappings", abstract: "Print the V1 to V2 field mappings.")

    /// A command taking exactly one optional positional.
    static let simulate = CommandSpec(
        name: "simulate",
        abstract: "Generate sample V1 notifications.",
        options: [
            .single("--count", valueName: "N", help: "How many.", defaultValue: "10", valueKind: .integer(1...100))
        ],
        positional: PositionalSpec(name: "SEED", help: "Random seed.", maxCount: 1)
    )

    /// The whole program.
    static let program = Program(
        abstract: "Migrate App Store Server Notifications V1 archives to V2 and reconcile them.",
        version: "asn-migrate 0.1.0",
        commands: [
            migrate,
            CommandSpec(name: "reconcile", abstract: "Compare V1 and V2 archives and write CSV reports."),
            mappings,
            simulate
        ]
    )
}
