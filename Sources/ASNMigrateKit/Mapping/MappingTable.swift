import Foundation

/// The effective V1 → V2 mapping: settings, ordered rules and the V2-only lists, loaded and validated from `Mappings/`.
package struct MappingTable: Sendable, Equatable {
    /// The newest rules-file format this build understands.
    package static let supportedFormat = 1
    /// The rules file name inside a mappings directory.
    package static let rulesFileName = "v1-to-v2.rules"
    /// The V2-only list file name inside a mappings directory.
    package static let v2OnlyFileName = "v2-only.rules"

    /// Tunable values.
    package var settings: MappingSettings
    /// Rules in file order; the first match wins.
    package var rules: [MappingRule]
    /// V2 notifications with no V1 counterpart by design.
    package var v2Only: [V2OnlyEntry]

    /// Creates a table from parts.
    package init(settings: MappingSettings, rules: [MappingRule], v2Only: [V2OnlyEntry]) {
        self.settings = settings
        self.rules = rules
        self.v2Only = v2Only
    }

    /// A digest of the table as parsed (settings, rules in order, V2-only lists; comments, spacing and line numbers aside), as a
    /// 63-bit number: `nightly` keeps it in its state and re-maps its V1 files when the rules in force differ.
    package var digest: Int64 {
        var lines = [
            "settings|\(settings.resubscribeTolerance)|\(settings.companionTolerance)|\(settings.offerResubscribeCutoff)"
        ]
        lines += rules.map {
            "rule|\($0.id)|\($0.v1Types.joined(separator: ","))|\($0.conditionText)|\($0.v2Type)|\($0.v2Subtype ?? "-")"
        }
        lines += v2Only.map { "v2-only|\($0.list)|\($0.type)|\(String(reflecting: $0.subtype))" }
        let text = lines.joined(separator: "\n")
        let bytes = SHA1.digest(Array(text.utf8))
        return Int64(bitPattern: SHA1.prefix64(bytes)) & Int64.max
    }

    // MARK: - Loading

    /// The table built into this binary (identical to the repository's `Mappings/` files; a test checks it).
    package static func builtIn() throws(ASNError) -> MappingTable {
        try parse(
            rules: MappingDefaults.rules, rulesPath: "(built-in) " + rulesFileName,
            v2Only: MappingDefaults.v2Only, v2OnlyPath: "(built-in) " + v2OnlyFileName)
    }

    /// Loads `v1-to-v2.rules` and `v2-only.rules` from a directory (`--mappings DIR`).
    package static func load(directory: String) throws(ASNError) -> MappingTable {
        let rulesPath = (directory as NSString).appendingPathComponent(rulesFileName)
        let v2OnlyPath = (directory as NSString).appendingPathComponent(v2OnlyFileName)
        return try parse(
            rules: readText(rulesPath), rulesPath: rulesPath, v2Only: readText(v2OnlyPath), v2OnlyPath: v2OnlyPath)
    }

    /// Parses both files' text; errors name the file and line and say what is wrong.
    package static func parse(rules rulesText: String, rulesPath: String, v2Only v2OnlyText: String, v2OnlyPath: String)
        throws(ASNError) -> MappingTable
    {
        var settings = MappingSettings()
        var rules: [MappingRule] = []
        var seenIds: [String: Int] = [:]
        var seenSettings: Set<String> = []
        var sawFormat = false

        for (lineNumber, fields) in try rows(rulesText, path: rulesPath) {
            let at = SourceLocation(path: rulesPath, line: lineNumber)
            func fail(_ message: String) -> ASNError { ASNError(.badMapping, message, at: at) }
            switch fields[0] {
            case let head where head.hasPrefix("format"):
                try checkFormat(head, at: at)
                sawFormat = true
            case "setting":
                guard fields.count == 3 else {
                    throw fail("a setting line is 'setting | NAME | VALUE' (found \(fields.count) fields)")
                }
                let name = fields[1]
                let value = fields[2]
                guard seenSettings.insert(name).inserted else { throw fail("setting '\(name)' is given twice") }
                switch name {
                case "resubscribe-tolerance":
                    settings.resubscribeTolerance = try duration(value, setting: name, at: at)
                case "companion-tolerance":
                    settings.companionTolerance = try duration(value, setting: name, at: at)
                case "offer-resubscribe-cutoff":
                    guard let ms = Timestamp.parseISO8601(value) else {
                        throw fail(
                            "setting 'offer-resubscribe-cutoff' needs an ISO 8601 instant such as 2024-01-23T00:00:00.000Z, not '\(value)'"
                        )
                    }
                    settings.offerResubscribeCutoff = ms
                default:
                    throw fail(
                        "unknown setting '\(name)'; known: resubscribe-tolerance, companion-tolerance, offer-resubscribe-cutoff"
                    )
                }
            case "rule":
                guard sawFormat else { throw fail("the file must start with a 'format 1' line") }
                guard fields.count == 6 else {
                    throw fail(
                        "a rule line is 'rule | ID | V1 TYPES | CONDITION | V2 TYPE | V2 SUBTYPE' (found \(fields.count) fields)"
                    )
                }
                let id = fields[1]
                guard isIdentifier(id, allowing: "-") else {
                    throw fail("rule id '\(id)' must be lowercase letters, digits and '-'")
                }
                if let first = seenIds[id] { throw fail("rule id '\(id)' is already used on line \(first)") }
                seenIds[id] = lineNumber
                let v1Types = fields[2].split(separator: ",").map { String($0).trimmingSpaces() }
                guard !v1Types.isEmpty, v1Types.allSatisfy({ isUpperIdentifier($0) }) else {
                    throw fail(
                        "rule '\(id)': V1 types must be UPPER_CASE names separated by commas, not '\(fields[2])'")
                }
                let conditions = try parseConditions(fields[3], rule: id, at: at)
                let v2Type = fields[4]
                guard isUpperIdentifier(v2Type) else {
                    throw fail("rule '\(id)': V2 type '\(v2Type)' must be an UPPER_CASE name")
                }
                let subtypeText = fields[5]
                guard subtypeText == "-" || isUpperIdentifier(subtypeText) else {
                    throw fail("rule '\(id)': V2 subtype '\(subtypeText)' must be an UPPER_CASE name or '-' for none")
                }
                let rule = MappingRule(
                    id: id, v1Types: v1Types, conditions: conditions, v2Type: v2Type,
                    v2Subtype: subtypeText == "-" ? nil : subtypeText, line: lineNumber)
                for type in v1Types {
                    if let shadow = rules.first(where: { $0.isUnconditional && $0.v1Types.contains(type) }) {
                        throw fail(
                            "rule '\(id)' can never match \(type): rule '\(shadow.id)' on line \(shadow.line) above matches every \(type); move it below or remove it"
                        )
                    }
                }
                rules.append(rule)
            default:
                throw fail("unknown line kind '\(fields[0])'; lines are 'format N', 'setting | …' or 'rule | …'")
            }
        }
        guard sawFormat else {
            throw ASNError(
                .badMapping, "no 'format 1' line; is this an asn-migrate rules file?",
                at: SourceLocation(path: rulesPath))
        }
        guard !rules.isEmpty else {
            throw ASNError(.badMapping, "no rules", at: SourceLocation(path: rulesPath))
        }

        var v2Only: [V2OnlyEntry] = []
        var sawV2Format = false
        for (lineNumber, fields) in try rows(v2OnlyText, path: v2OnlyPath) {
            let at = SourceLocation(path: v2OnlyPath, line: lineNumber)
            if fields[0].hasPrefix("format") {
                try checkFormat(fields[0], at: at)
                sawV2Format = true
                continue
            }
            guard sawV2Format else { throw ASNError(.badMapping, "the file must start with a 'format 1' line", at: at) }
            guard fields.count == 3 else {
                throw ASNError(
                    .badMapping, "a line is 'LIST | V2 TYPE | V2 SUBTYPE' (found \(fields.count) fields)", at: at)
            }
            guard let list = V2OnlyEntry.List(rawValue: fields[0]) else {
                throw ASNError(
                    .badMapping, "unknown list '\(fields[0])'; known: never-announced, purchaser-only", at: at)
            }
            guard isUpperIdentifier(fields[1]) else {
                throw ASNError(.badMapping, "V2 type '\(fields[1])' must be an UPPER_CASE name", at: at)
            }
            let pattern: V2OnlyEntry.SubtypePattern
            switch fields[2] {
            case "*": pattern = .any
            case "-": pattern = .none
            case let s where isUpperIdentifier(s): pattern = .exactly(s)
            default:
                throw ASNError(
                    .badMapping, "subtype '\(fields[2])' must be an UPPER_CASE name, '*' (any) or '-' (none)", at: at)
            }
            v2Only.append(V2OnlyEntry(list: list, type: fields[1], subtype: pattern, line: lineNumber))
        }
        guard sawV2Format else {
            throw ASNError(
                .badMapping, "no 'format 1' line; is this an asn-migrate v2-only file?",
                at: SourceLocation(path: v2OnlyPath))
        }
        return MappingTable(settings: settings, rules: rules, v2Only: v2Only)
    }

    // MARK: - Queries

    /// True when a V2 notification of this type/subtype has no V1 counterpart (for this ownership type).
    package func isV2OnlyExpected(type: String, subtype: String?, familyShared: Bool) -> Bool {
        v2Only.contains { entry in
            entry.matches(type: type, subtype: subtype) && (entry.list == .neverAnnounced || familyShared)
        }
    }

    /// The rules that apply to a V1 type, in order.
    package func rules(forV1Type type: String) -> [MappingRule] {
        rules.filter { $0.v1Types.contains(type) }
    }

    // MARK: - Private

    private static func readText(_ path: String) throws(ASNError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ASNError(
                .badMapping,
                "cannot read mapping file '\(ConsoleText.path(path))'; --mappings DIR must hold \(rulesFileName) and \(v2OnlyFileName)",
                at: SourceLocation(path: path))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ASNError(
                .badMapping, "mapping file '\(ConsoleText.path(path))' is not UTF-8 text",
                at: SourceLocation(path: path))
        }
        return text
    }

    /// Non-blank, non-comment lines split on `|` and trimmed, with 1-based line numbers.
    private static func rows(_ text: String, path: String) throws(ASNError) -> [(Int, [String])] {
        var result: [(Int, [String])] = []
        var lineNumber = 0
        // Split on scalars: in Swift "\r\n" is one Character, so a Character split would miss CRLF files.
        for rawLine in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map({
            String(String.UnicodeScalarView($0))
        }) {
            lineNumber += 1
            let line = String(rawLine).trimmingSpaces()
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: "|", omittingEmptySubsequences: false).map {
                String($0).trimmingSpaces()
            }
            if fields.contains(where: \.isEmpty) {
                throw ASNError(
                    .badMapping, "empty field in '\(line)'; write '-' for no subtype",
                    at: SourceLocation(path: path, line: lineNumber))
            }
            result.append((lineNumber, fields))
        }
        return result
    }

    private static func checkFormat(_ head: String, at: SourceLocation) throws(ASNError) {
        let parts = head.split(separator: " ")
        guard parts.count == 2, parts[0] == "format", let version = Int(parts[1]), version >= 1 else {
            throw ASNError(.badMapping, "format line must be 'format 1', not '\(head)'", at: at)
        }
        guard version <= supportedFormat else {
            throw ASNError(
                .badMapping,
                "format \(version) is newer than this asn-migrate supports (up to \(supportedFormat)); upgrade asn-migrate",
                at: at)
        }
    }

    private static func parseConditions(_ text: String, rule: String, at: SourceLocation) throws(ASNError)
        -> [MappingCondition]
    {
        var result: [MappingCondition] = []
        for raw in text.split(separator: ",") {
            var term = String(raw).trimmingSpaces()
            var negated = false
            if term.hasPrefix("!") {
                negated = true
                term.removeFirst()
            }
            var argument: String?
            if let eq = term.firstIndex(of: "=") {
                argument = String(term[term.index(after: eq)...])
                term = String(term[..<eq])
            }
            guard let predicate = MappingPredicate(rawValue: term) else {
                let known = MappingPredicate.allCases.map(\.rawValue).joined(separator: ", ")
                throw ASNError(.badMapping, "rule '\(rule)': unknown condition '\(term)'; known: \(known)", at: at)
            }
            if predicate.takesArgument {
                guard let argument, !argument.isEmpty, argument.allSatisfy(\.isNumber) else {
                    throw ASNError(
                        .badMapping, "rule '\(rule)': condition '\(term)' needs a numeric value, e.g. '\(term)=1'",
                        at: at)
                }
            } else if argument != nil {
                throw ASNError(.badMapping, "rule '\(rule)': condition '\(term)' takes no value", at: at)
            }
            if predicate == .always && negated {
                throw ASNError(.badMapping, "rule '\(rule)': '!always' can never match", at: at)
            }
            result.append(MappingCondition(predicate, negated: negated, argument: argument))
        }
        guard !result.isEmpty else {
            throw ASNError(.badMapping, "rule '\(rule)': empty condition; write 'always'", at: at)
        }
        return result
    }

    private static func duration(_ text: String, setting: String, at: SourceLocation) throws(ASNError) -> Int64 {
        guard let ms = DurationText.milliseconds(text) else {
            throw ASNError(
                .badMapping, "setting '\(setting)' needs a duration such as 90s, 10m, 1h or 2d, not '\(text)'", at: at)
        }
        return ms
    }

    private static func isUpperIdentifier(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }
    }

    private static func isIdentifier(_ s: String, allowing extra: Character) -> Bool {
        !s.isEmpty && s.allSatisfy { ($0.isLowercase && $0.isASCII) || ($0.isNumber && $0.isASCII) || $0 == extra }
    }
}
