import Foundation

/// The transactions a V1 archive has no reason to show (`Mappings/v2-only-transactions.rules`): versioned data,
/// validated when loaded, with file and line in every error.
///
/// A line is `V2 TYPE | IN-APP OWNERSHIP TYPE | REVOKED | TRANSACTION` (format 2), `*` meaning any, REVOKED `yes`, `no`
/// or `*`, TRANSACTION `first` (the subscription's first purchase: `transactionId` equals `originalTransactionId`),
/// `later` (any other) or `*`; format 1 files have no TRANSACTION column (any) and keep loading. A transaction matching
/// any line is expected only on the V2 side: consumable, non-consumable and non-renewing purchases without a refund
/// (V1 sent no notification for them and receipts list only subscriptions in `latest_receipt_info`), and a family
/// member's first transaction that was not revoked (Apple's table "Receive notifications for the purchaser and family
/// members": INITIAL_BUY is not sent for family members, while DID_RENEW, DID_RECOVER, INTERACTIVE_RENEWAL and REVOKE
/// are).
package struct V2OnlyTransactionRules: Sendable, Equatable {
    /// One line of the file.
    package struct Rule: Sendable, Equatable {
        /// Apple's `type` (`Consumable`, …), nil for any.
        package var type: String?
        /// `inAppOwnershipType`, nil for any.
        package var ownership: String?
        /// Whether the transaction is revoked, nil for either.
        package var revoked: Bool?
        /// Whether the transaction is the subscription's first purchase, nil for either.
        package var first: Bool?
        /// The line it was read from.
        package var line: Int

        /// Whether `transaction` matches this rule.
        package func matches(_ transaction: JWSTransactionDecodedPayload) -> Bool {
            if let type, transaction.type != type { return false }
            if let ownership, transaction.inAppOwnershipType != ownership { return false }
            if let revoked, (transaction.revocationDate != nil) != revoked { return false }
            if let first,
                (transaction.transactionId != nil && transaction.transactionId == transaction.originalTransactionId)
                    != first
            {
                return false
            }
            return true
        }
    }

    /// The file name inside a `--mappings` folder.
    package static let fileName = "v2-only-transactions.rules"
    /// The newest format this build reads.
    package static let supportedFormat = 2

    /// The rules, in file order.
    package var rules: [Rule]

    /// Whether a transaction is expected only on the V2 side.
    package func isV2OnlyExpected(_ transaction: JWSTransactionDecodedPayload) -> Bool {
        rules.contains { $0.matches(transaction) }
    }

    /// The built-in rules (the text of `Mappings/v2-only-transactions.rules`).
    package static let builtIn: V2OnlyTransactionRules = {
        do {
            return try parse(defaultText, path: "(built-in) " + fileName)
        } catch {
            preconditionFailure("built-in \(fileName) does not load: \(error)")
        }
    }()

    /// `DIR/v2-only-transactions.rules` when `directory` is given and holds one, else the built-in rules.
    package static func load(directory: String?) throws(ASNError) -> V2OnlyTransactionRules {
        guard let directory else { return builtIn }
        let path = (directory as NSString).appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: path) else { return builtIn }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ASNError(
                .unreadableInput, "cannot read '\(ConsoleText.path(path))': \(error.localizedDescription)",
                at: SourceLocation(path: path)
            )
        }
        return try parse(text, path: path)
    }

    /// Parses the file's text; errors name `path` and the line.
    package static func parse(_ text: String, path: String) throws(ASNError) -> V2OnlyTransactionRules {
        var rules: [Rule] = []
        var format: Int?
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            let at = SourceLocation(path: path, line: offset + 1)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let format else {
                let parts = line.split(separator: " ", omittingEmptySubsequences: true)
                guard parts.count == 2, parts[0] == "format", let version = Int(parts[1]), version >= 1 else {
                    throw ASNError(.badMapping, "the file must start with 'format 1', not '\(line)'", at: at)
                }
                guard version <= supportedFormat else {
                    throw ASNError(
                        .badMapping,
                        "format \(version) is newer than this asn-migrate supports (up to \(supportedFormat)); upgrade asn-migrate",
                        at: at)
                }
                format = version
                continue
            }
            let fields = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            let columns =
                format >= 2
                ? "V2 TYPE | IN-APP OWNERSHIP TYPE | REVOKED | TRANSACTION"
                : "V2 TYPE | IN-APP OWNERSHIP TYPE | REVOKED"
            let expected = format >= 2 ? 4 : 3
            guard fields.count == expected else {
                throw ASNError(
                    .badMapping, "expected '\(columns)' (\(expected) fields, format \(format)), found \(fields.count)",
                    at: at)
            }
            guard !fields.contains(where: \.isEmpty) else {
                throw ASNError(.badMapping, "empty field; write * for any", at: at)
            }
            let revoked: Bool?
            switch fields[2] {
            case "yes": revoked = true
            case "no": revoked = false
            case "*": revoked = nil
            default: throw ASNError(.badMapping, "REVOKED must be yes, no or *, not '\(fields[2])'", at: at)
            }
            var first: Bool?
            if format >= 2 {
                switch fields[3] {
                case "first": first = true
                case "later": first = false
                case "*": first = nil
                default:
                    throw ASNError(.badMapping, "TRANSACTION must be first, later or *, not '\(fields[3])'", at: at)
                }
            }
            let type = fields[0] == "*" ? nil : fields[0]
            if let type, !knownTypes.contains(type) {
                throw ASNError(
                    .badMapping,
                    "unknown V2 transaction type '\(type)'; Apple's types are \(knownTypes.sorted().joined(separator: ", "))",
                    at: at)
            }
            rules.append(
                Rule(
                    type: type, ownership: fields[1] == "*" ? nil : fields[1], revoked: revoked, first: first,
                    line: offset + 1))
        }
        guard format != nil else {
            throw ASNError(
                .badMapping, "no 'format 1' line; is this an asn-migrate rules file?", at: SourceLocation(path: path))
        }
        return V2OnlyTransactionRules(rules: rules)
    }

    /// Apple's transaction `type` values.
    package static let knownTypes: Set<String> = [
        "Auto-Renewable Subscription", "Non-Consumable", "Consumable", "Non-Renewing Subscription"
    ]

    /// The text of `Mappings/v2-only-transactions.rules` (a test keeps them equal).
    package static let defaultText = #"""
        # asn-migrate: transactions Apple's API shows that a V1 archive had no reason to show.
        # `reconcile` with an App Store Server API view on the V2 side: an unpaired V2 transaction matching a line counts as
        # v2_only_expected, not as transaction_missing_in_v1, and a V1 transaction matching one is never unannounced_in_v1.
        # Sources: Mappings/README.md, "Transactions V1 never had reason to show".
        #
        # Lines:  format N
        #         V2 TYPE | IN-APP OWNERSHIP TYPE | REVOKED | TRANSACTION
        #         (* = any; REVOKED is yes, no or *; TRANSACTION is first, later or *: first = the subscription's first
        #         purchase, transactionId = originalTransactionId)
        format 2

        Consumable                | *             | no | *
        Non-Consumable            | *             | no | *
        Non-Renewing Subscription | *             | no | *
        *                         | FAMILY_SHARED | no | first

        """#
}
