import Foundation

/// Which CSV column holds which V2 field, for reading a team's own V2 table exported as CSV with a header row
/// (`psql -c "\copy app_store_notifications_v2 TO 'v2.csv' CSV HEADER"`, `sqlite3 -csv -header db 'SELECT …'`).
///
/// ## Column-mapping file (format 1)
///
/// ```
/// format 1
/// # V2 FIELD                          | CSV COLUMN
/// notificationType                    | notification_type
/// subtype                             | subtype
/// data.transactionInfo.transactionId  | transaction_id
/// ```
///
/// - Lines are trimmed; blank lines and lines starting with `#` are ignored. The first other line is `format 1`;
///   a higher number is refused ("format 2 is newer than this asn-migrate supports (up to 1)").
/// - Every other line is `V2 FIELD | CSV COLUMN`. A field is named by its path: `notificationType`, `subtype`,
///   `notificationUUID`, `version`, `signedDate`, `signedPayload`, `data.bundleId`, `data.bundleVersion`,
///   `data.environment`, `data.status`, `data.signedTransactionInfo`, `data.signedRenewalInfo`,
///   `data.transactionInfo.<field>` and `data.renewalInfo.<field>` with every field of `JWSTransactionDecodedPayload`
///   and `JWSRenewalInfoDecodedPayload` under Apple's names (`V2ColumnMap.fields` lists them all).
/// - Each field may be mapped once; one column may feed several fields. `notificationType` must be mapped, unless
///   `signedPayload` is: a column holding the whole signed notification as Apple sent it. When a row's
///   `signedPayload` cell is non-empty the row is decoded from it alone; otherwise from the other columns.
/// - A table of transactions (rows of Get Transaction History, one transaction each) maps neither, but
///   `data.transactionInfo.transactionId` and the other `data.transactionInfo.*` fields it holds (`data.environment`
///   gives the environment when `data.transactionInfo.environment` is not mapped): each row is one transaction.
/// - Checked when loading, with file and line: the format line, the `FIELD | COLUMN` shape, unknown fields (with a
///   suggestion), duplicates, and the `notificationType` / `signedPayload` requirement. Checked when reading a CSV:
///   every mapped column is in its header (columns not mapped are ignored).
///
/// ## Cells
///
/// A cell's formula guard is undone first (`CSVFormulaGuard`: a leading `'` followed by `=`, `+`, `-`, `@`, tab or CR,
/// possibly after more `'`s, is removed; any other leading `'` stays), so the CSV `migrate --format csv` writes reads
/// back exactly.
/// An empty cell is absent (psql writes NULL as an empty cell). Otherwise, by the field's kind:
/// - IDs (`transactionId`, `originalTransactionId`, `webOrderLineItemId`): digits only, kept as text digit for digit;
/// - dates: epoch milliseconds, or ISO 8601 / RFC 3339 (`2024-01-23T10:00:00Z`), also as psql and sqlite print
///   timestamps (`2024-01-23 10:00:00.123+00`, `2024-01-23 10:00:00` is UTC); see `Timestamp.parseAny`;
/// - booleans: `true`/`false`, `t`/`f` (psql) or `1`/`0`, any case;
/// - integers (status, codes, prices in milliunits): whole numbers;
/// - text and signed (JWS) values: as is.
///
/// A cell that cannot be read as its field's kind rejects its row, located `file:line` and naming the column.
///
/// ## Format 2
///
/// Also accepts `V2 FIELD | CSV COLUMN | CONVERSION` (see `V2ColumnConversion`) and `V2 FIELD = VALUE`, a constant
/// every row gets (read as the field's kind when the map loads).
package struct V2ColumnMap: Sendable, Equatable {
    /// The newest column-map format this build understands.
    package static let supportedFormat = 2

    /// How a column's cells are read.
    package enum Kind: Sendable, Equatable {
        /// Text, kept as is.
        case text
        /// A transaction ID: ASCII digits only, kept as text so no digit is lost.
        case identifier
        /// A whole number.
        case integer
        /// An instant, as epoch milliseconds or ISO 8601.
        case date
        /// A boolean: true/false, t/f, yes/no, y/n or 1/0, any case.
        case boolean
        /// A compact JWS, decoded like Apple's own signed values.
        case jws

        /// How a column of a field of the field table's `kind` is read: enumerations as the text or number Apple
        /// gives.
        init(_ kind: V2FieldKind) {
            switch kind {
            case .id: self = .identifier
            case .text, .enumText: self = .text
            case .date: self = .date
            case .integer, .enumCode: self = .integer
            case .flag: self = .boolean
            case .jws: self = .jws
            }
        }
    }

    /// A V2 field a column can hold.
    package struct Field: Sendable, Equatable {
        /// The dotted path, such as `data.transactionInfo.expiresDate`.
        package let path: String
        /// How its cells are read.
        package let kind: Kind
    }

    /// One mapping line.
    package struct Entry: Sendable, Equatable {
        /// The V2 field.
        package let field: Field
        /// The CSV header name of the column holding it (empty for a constant).
        package let column: String
        /// The 1-based line of the map file it was given on.
        package let line: Int
        /// How the column's cells become the field's value (format 2), or nil for the field kind's own reading.
        package var conversion: V2ColumnConversion? = nil
        /// The value every row gets for this field (format 2 `FIELD = VALUE`), read as the field's kind; nil for a column.
        package var constant: JSONValue? = nil
    }

    /// The map file's path as given, for messages.
    package let path: String
    /// The mappings in file order.
    package let entries: [Entry]

    // MARK: - Fields

    /// Every field a map may name, in the field table's order (`V2FieldTable.mappable`): the notification's own,
    /// `data`'s, and every transaction and renewal info field.
    package static let fields: [Field] = V2FieldTable.mappable.map { Field(path: $0.path, kind: Kind($0.kind)) }

    // MARK: - Loading

    /// Loads and validates the map file at `path`.
    package static func load(path: String) throws(ASNError) -> V2ColumnMap {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ASNError(
                .badMapping,
                "cannot read column-map file '\(ConsoleText.path(path))'; check the path given to --v2-columns",
                at: SourceLocation(path: path))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ASNError(
                .badMapping, "column-map file '\(ConsoleText.path(path))' is not UTF-8 text",
                at: SourceLocation(path: path))
        }
        return try parse(text, path: path)
    }

    /// Parses and validates map text; errors name `path` and the line and say what to change.
    package static func parse(_ text: String, path: String) throws(ASNError) -> V2ColumnMap {
        let byPath = Dictionary(fields.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        var entries: [Entry] = []
        var seen: [String: Int] = [:]
        var format: Int?
        var lineNumber = 0
        // "\r\n" is one Character.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lineNumber += 1
            let line = String(rawLine).trimmingSpaces()
            if line.isEmpty || line.hasPrefix("#") { continue }
            let at = SourceLocation(path: path, line: lineNumber)
            guard let version = format else {
                format = try checkFormat(line, at: at)
                continue
            }
            var parts = line.split(separator: "|", omittingEmptySubsequences: false).map { String($0).trimmingSpaces() }
            var isConstant = false
            if version >= 2, parts.count == 1, let equals = line.firstIndex(of: "=") {
                parts = [
                    String(line[..<equals]).trimmingSpaces(),
                    String(line[line.index(after: equals)...]).trimmingSpaces()
                ]
                isConstant = true
            }
            let shape =
                version >= 2
                ? "'V2 FIELD | CSV COLUMN', 'V2 FIELD | CSV COLUMN | CONVERSION' or 'V2 FIELD = VALUE'"
                : "'V2 FIELD | CSV COLUMN'"
            guard parts.count == 2 || (version >= 2 && parts.count == 3), parts.allSatisfy({ !$0.isEmpty }) else {
                throw ASNError(.badMapping, "a mapping line is \(shape), not '\(line)'", at: at)
            }
            guard let field = byPath[parts[0]] else {
                let suggestion =
                    Suggestion.closest(to: parts[0], among: fields.map(\.path)).map { "did you mean '\($0)'? " } ?? ""
                throw ASNError(
                    .badMapping,
                    "unknown V2 field '\(parts[0])'; \(suggestion)fields are notificationType, subtype, notificationUUID, version, signedDate, signedPayload, data.bundleId, data.bundleVersion, data.environment, data.status, data.signedTransactionInfo, data.signedRenewalInfo, and data.transactionInfo.NAME / data.renewalInfo.NAME with Apple's field names",
                    at: at)
            }
            if let first = seen[field.path] {
                throw ASNError(
                    .badMapping, "V2 field '\(field.path)' is already mapped on line \(first); map each field once",
                    at: at)
            }
            seen[field.path] = lineNumber
            var entry = Entry(field: field, column: isConstant ? "" : parts[1], line: lineNumber)
            if isConstant {
                guard let value = value(parts[1], kind: field.kind) else {
                    throw ASNError(
                        .badMapping, "the constant '\(parts[1])' for '\(field.path)' is not \(describe(field.kind))",
                        at: at)
                }
                entry.constant = value
            } else if parts.count == 3 {
                guard let conversion = V2ColumnConversion.parse(parts[2]) else {
                    throw ASNError(
                        .badMapping,
                        "unknown conversion '\(parts[2])'; conversions are \(V2ColumnConversion.spellings)", at: at)
                }
                guard conversion.fits(field.kind) else {
                    throw ASNError(
                        .badMapping,
                        "conversion '\(parts[2])' does not fit '\(field.path)' (\(describe(field.kind))); it is for \(conversion.fitsDescription)",
                        at: at)
                }
                entry.conversion = conversion
            }
            entries.append(entry)
        }
        guard format != nil else {
            throw ASNError(
                .badMapping, "no 'format 1' line; is this an asn-migrate column-map file?",
                at: SourceLocation(path: path))
        }
        guard seen["notificationType"] != nil || seen["signedPayload"] != nil || seen[transactionKeyPath] != nil else {
            throw ASNError(
                .badMapping,
                "no column is mapped to notificationType; add a line such as 'notificationType | notification_type' (or map signedPayload to a column holding the signed notification, or data.transactionInfo.transactionId for a table of transactions)",
                at: SourceLocation(path: path))
        }
        return V2ColumnMap(path: path, entries: entries)
    }

    /// Accepts `format N` for N up to `supportedFormat`; returns N.
    private static func checkFormat(_ line: String, at: SourceLocation) throws(ASNError) -> Int {
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
        return version
    }

    // MARK: - Reading rows

    /// This map bound to one CSV file's header: where each mapped column is.
    package struct Binding: Sendable {
        /// The CSV file's path, for row locations.
        package let csvPath: String
        /// The mapped columns in map order.
        private let columns: [Column]

        /// One mapped column: its entry, its 0-based index in the header, and where its value goes.
        private struct Column: Sendable {
            /// The mapping line.
            let entry: Entry
            /// The column's index in the header.
            let index: Int
            /// The object the value goes into.
            let container: Container
            /// The value's key in that object.
            let key: String
        }

        /// The object of the notification a field's value goes into.
        private enum Container: Sendable {
            case top, data, transactionInfo, renewalInfo
        }

        /// True when the map names no notification (neither `notificationType` nor `signedPayload`) but
        /// `data.transactionInfo.transactionId`: each row is then one transaction, read as a decoded transaction.
        package let isTransactionTable: Bool

        /// Binds `entries` to the header indexes found for them.
        init(csvPath: String, entries: [(Entry, Int)]) {
            self.csvPath = csvPath
            let paths = Set(entries.map(\.0.field.path))
            isTransactionTable =
                !paths.contains("notificationType") && !paths.contains("signedPayload")
                && paths.contains(V2ColumnMap.transactionKeyPath)
            columns = entries.map { entry, index in
                let parts = entry.field.path.split(separator: ".").map(String.init)
                let container: Container
                switch parts.count {
                case 1: container = .top
                case 2: container = .data
                default: container = parts[1] == "transactionInfo" ? .transactionInfo : .renewalInfo
                }
                return Column(entry: entry, index: index, container: container, key: parts[parts.count - 1])
            }
        }

        /// The row as the JSON object of a V2 notification (or `{"signedPayload": …}`), cells typed by their field.
        /// Throws a reject-worthy error located `file:line`, naming the column, for a cell it cannot read.
        package func object(of record: CSVRecord) throws(ASNError) -> JSONObject {
            let at = SourceLocation(path: csvPath, line: record.line)
            var top = JSONObject()
            var data = JSONObject()
            var transaction = JSONObject()
            var renewal = JSONObject()
            for column in columns {
                let value: JSONValue
                if let constant = column.entry.constant {
                    value = constant
                } else {
                    // Undo the formula guard `migrate --format csv` (and every CSV this tool writes) puts on a cell.
                    guard let raw = record[column.index], !raw.isEmpty else { continue }
                    value = try V2ColumnMap.read(CSVFormulaGuard.unguarded(raw), for: column.entry, at: at)
                }
                let field = column.entry.field
                let member = JSONObject.Member(key: column.key, value: value)
                if field.path == "signedPayload" { return JSONObject([member]) }
                switch column.container {
                case .top: top.members.append(member)
                case .data: data.members.append(member)
                case .transactionInfo: transaction.members.append(member)
                case .renewalInfo: renewal.members.append(member)
                }
            }
            if isTransactionTable {
                // A table of transactions (Get Transaction History rows): each row is one decoded transaction.
                if transaction["environment"] == nil, let environment = data["environment"] {
                    transaction.members.append(.init(key: "environment", value: environment))
                }
                guard transaction["transactionId"] != nil else {
                    let named = columns.filter { $0.entry.field.path == V2ColumnMap.transactionKeyPath }.map {
                        "'\($0.entry.column)'"
                    }
                    throw ASNError(
                        .wrongFieldType,
                        "row has no transaction id: column \(named.joined(separator: " and ")) is empty", at: at)
                }
                return transaction
            }
            guard top["notificationType"] != nil else {
                let named = columns.filter { ["notificationType", "signedPayload"].contains($0.entry.field.path) }
                    .map { "'\($0.entry.column)' (\($0.entry.field.path))" }
                throw ASNError(
                    .missingNotificationType,
                    "row has no notification type: column \(named.joined(separator: " and ")) \(named.count == 1 ? "is" : "are") empty",
                    at: at)
            }
            if !transaction.members.isEmpty {
                data.members.append(.init(key: "transactionInfo", value: .object(transaction)))
            }
            if !renewal.members.isEmpty { data.members.append(.init(key: "renewalInfo", value: .object(renewal))) }
            if !data.members.isEmpty { top.members.append(.init(key: "data", value: .object(data))) }
            return top
        }
    }

    /// The field whose mapping, without `notificationType` or `signedPayload`, makes a map a table of transactions.
    package static let transactionKeyPath = "data.transactionInfo.transactionId"

    /// Binds this map to a CSV header; throws `.malformedCSV` naming every mapped column the header lacks.
    package func bind(header: [String], csvPath: String) throws(ASNError) -> Binding {
        var found: [(Entry, Int)] = []
        var missing: [String] = []
        for entry in entries {
            if entry.constant != nil {
                found.append((entry, -1))
            } else if let index = header.firstIndex(of: entry.column) {
                found.append((entry, index))
            } else {
                missing.append("'\(entry.column)' (\(entry.field.path), \(path):\(entry.line))")
            }
        }
        guard missing.isEmpty else {
            let columns = header.map { "'\($0)'" }.joined(separator: ", ")
            throw ASNError(
                .malformedCSV,
                "mapped column\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", ")) not in the header of '\(csvPath)', whose columns are \(columns); fix the column map or the export",
                at: SourceLocation(path: csvPath, line: 1))
        }
        return Binding(csvPath: csvPath, entries: found)
    }

    // MARK: - Cells

    /// The JSON value of a non-empty cell read as `kind`, or nil when it is not one.
    static func value(_ cell: String, kind: Kind) -> JSONValue? {
        switch kind {
        case .text, .jws:
            return .string(cell)
        case .identifier:
            let text = cell.trimmingSpaces()
            guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return .string(text)
        case .integer:
            return Int64(cell.trimmingSpaces()).map { .number(String($0)) }
        case .boolean:
            return V2ColumnConversion.boolean(cell.trimmingSpaces()).map { .bool($0) }
        case .date:
            let text = cell.trimmingSpaces()
            return (Timestamp.parseEpoch(text) ?? Timestamp.parseDatabaseText(text) ?? Timestamp.parseAppleGMT(text))
                .map { .number(String($0)) }
        }
    }

    /// The value of a non-empty `cell` of `entry`'s column, through its conversion if it has one; a reject naming the
    /// column, the cell and, where the cell looks like one, the conversion that would read it.
    static func read(_ cell: String, for entry: Entry, at: SourceLocation) throws(ASNError) -> JSONValue {
        let field = entry.field
        if let conversion = entry.conversion {
            if let value = conversion.apply(cell, kind: field.kind) { return value }
            throw ASNError(
                .wrongFieldType,
                "column '\(entry.column)' (\(field.path)) holds '\(shown(cell))', which is not \(conversion.expects)",
                at: at.with(key: entry.column),
                group: "column '\(entry.column)' (\(field.path)) is not \(conversion.expects)")
        }
        if let value = value(cell, kind: field.kind) { return value }
        let hint =
            suggestedConversion(cell, kind: field.kind).map {
                "; add a \($0) conversion ('\(field.path) | \(entry.column) | \($0)', column map format 2)"
            } ?? ""
        throw ASNError(
            .wrongFieldType,
            "column '\(entry.column)' (\(field.path)) holds '\(shown(cell))', which is not \(describe(field.kind))\(hint)",
            at: at.with(key: entry.column),
            group: "column '\(entry.column)' (\(field.path)) is not \(describe(field.kind))\(hint)")
    }

    /// The conversion that would read `cell` for a field of `kind`, when one would.
    private static func suggestedConversion(_ cell: String, kind: Kind) -> String? {
        let text = cell.trimmingSpaces()
        switch kind {
        case .integer:
            if V2ColumnConversion.boolean(text) != nil { return "boolean" }
            if V2ColumnConversion.scaled(text, by: 1000) != nil { return "scale 1000" }
            return nil
        case .date:
            return V2ColumnConversion.scaled(text, by: 1000) != nil ? "epoch-seconds" : nil
        default:
            return nil
        }
    }

    /// What a kind's cells must be, for reject messages.
    private static func describe(_ kind: Kind) -> String {
        switch kind {
        case .text, .jws: return "text"
        case .identifier: return "an ID of digits; export ID columns as text or bigint so no digit is lost"
        case .integer: return "a whole number"
        case .boolean: return "a boolean (true/false, t/f, yes/no, y/n or 1/0)"
        case .date: return "a date (epoch milliseconds, or ISO 8601 such as 2024-01-23T10:00:00Z)"
        }
    }

    /// A cell as messages show it: at most 40 characters.
    private static func shown(_ cell: String) -> String {
        cell.count > 40 ? String(cell.prefix(40)) + "…" : cell
    }
}
