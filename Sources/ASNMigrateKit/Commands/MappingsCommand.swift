/// `asn-migrate mappings [--mappings DIR]`: prints the effective mapping table and the V2-only transaction rules.
package enum MappingsCommand {
    /// The command's spec.
    package static let spec = CommandSpec(
        name: "mappings",
        abstract:
            "Print the effective V1 to V2 mapping table and V2-only transaction rules (built in, or from --mappings DIR).",
        options: [
            .single(
                "--mappings", valueName: "DIR",
                help:
                    "Validate and print DIR/v1-to-v2.rules, DIR/v2-only.rules and DIR/v2-only-transactions.rules (built-in when absent) instead of the built-in table."
            )
        ],
        exits: [
            CommandExit(.success, "the table is printed"),
            CommandExit(.failure, "a mapping file is missing or wrong (the message above names the file and line)"),
            .usage
        ],
        examples: [
            CommandExample("Print the built-in mapping table.", ["mappings"]),
            CommandExample("Validate and print the repository's mapping files.", ["mappings", "--mappings", "Mappings"])
        ]
    )

    /// Runs the command.
    package static func run(_ arguments: ParsedArguments, console: Console) -> ExitStatus {
        do {
            let table = try MappingLoader.load(arguments.value("--mappings"))
            let transactionRules = try V2OnlyTransactionRules.load(directory: arguments.value("--mappings"))
            try console.output(Array(render(table, transactionRules: transactionRules).utf8))
            return .success
        } catch {
            console.diagnostic("asn-migrate mappings: \(ASNError.describe(error))")
            return .failure
        }
    }

    /// The table as aligned text: settings, rules in order, the V2-only lists, then the V2-only transaction rules
    /// `reconcile` applies against Apple's API view.
    package static func render(_ table: MappingTable, transactionRules: V2OnlyTransactionRules = .builtIn) -> String {
        var lines: [String] = []
        let s = table.settings
        lines.append("settings")
        lines.append("  resubscribe-tolerance     \(s.resubscribeTolerance) ms")
        lines.append("  companion-tolerance       \(s.companionTolerance) ms")
        lines.append("  offer-resubscribe-cutoff  \(Timestamp.iso8601(ms: s.offerResubscribeCutoff))")
        lines.append("")
        lines.append("rules (first match wins)")
        let rows = table.rules.map { rule in
            [
                rule.id, rule.v1Types.joined(separator: ", "), rule.conditionText,
                rule.v2Type + " / " + (rule.v2Subtype ?? "-")
            ]
        }
        let header = ["id", "V1 notification_type", "condition", "V2 notificationType / subtype"]
        lines.append(contentsOf: aligned([header] + rows).map { "  " + $0 })
        lines.append("")
        lines.append("V2 notifications with no V1 counterpart")
        let v2Rows = table.v2Only.map { entry -> [String] in
            let subtype: String
            switch entry.subtype {
            case .any: subtype = "*"
            case .none: subtype = "-"
            case .exactly(let value): subtype = value
            }
            return [entry.list.rawValue, entry.type, subtype]
        }
        lines.append(contentsOf: aligned([["list", "V2 notificationType", "subtype"]] + v2Rows).map { "  " + $0 })
        lines.append("")
        lines.append(
            "transactions V1 had no reason to show (\(V2OnlyTransactionRules.fileName); reconcile against Apple's API view)"
        )
        let transactionRows = transactionRules.rules.map { rule -> [String] in
            [
                rule.type ?? "*", rule.ownership ?? "*", rule.revoked.map { $0 ? "yes" : "no" } ?? "*",
                rule.first.map { $0 ? "first" : "later" } ?? "*"
            ]
        }
        lines.append(
            contentsOf: aligned([["V2 type", "inAppOwnershipType", "revoked", "transaction"]] + transactionRows).map {
                "  " + $0
            })
        return lines.joined(separator: "\n") + "\n"
    }

    private static func aligned(_ rows: [[String]]) -> [String] {
        guard let columns = rows.first?.count else { return [] }
        let widths = (0..<columns).map { c in rows.map { $0[c].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { c, cell in
                c == columns - 1 ? cell : cell.padding(toLength: widths[c], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
    }
}
