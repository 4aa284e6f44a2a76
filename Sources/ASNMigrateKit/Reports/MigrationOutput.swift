/// Renders `migrate` output: one JSON line per payload, or flat CSV columns; and the rejects CSV.
package enum MigrationOutput {
    /// The output formats of `migrate --format`.
    package enum Format: String, Sendable, CaseIterable {
        /// JSON Lines, one decoded V2 payload per line (the default).
        case jsonl
        /// CSV, the same values as flat columns.
        case csv
    }

    /// How `migrate --format csv` names its columns (`--csv-names`).
    package enum CSVNames: String, Sendable, CaseIterable {
        /// The JSON path, as the JSON Lines output nests it: `data.transactionInfo.productId`.
        case dotted
        /// snake_case, joinable from SQL without quoting: `data_transaction_info_product_id`.
        case snake
    }

    /// The CSV columns of `migrate --format csv` under `names`, in order.
    package static func csvColumns(_ names: CSVNames) -> [String] {
        names == .dotted ? csvColumns : csvColumns.map(snakeCase)
    }

    /// `data.transactionInfo.webOrderLineItemId` → `data_transaction_info_web_order_line_item_id` (`V2Field.snakeCase`).
    package static func snakeCase(_ path: String) -> String { V2Field.snakeCase(path) }

    /// The CSV columns of `migrate --format csv`, in order: the fields `migrate` writes (`V2FieldTable.migrated`).
    package static let csvColumns: [String] = V2FieldTable.migrated.map(\.path)

    /// The columns of `rejects` CSVs (`RejectRow.columns`, shared with `reconcile`'s `rejected.csv`).
    package static let rejectColumns = RejectRow.columns

    /// The keys of V2 date fields, rendered as ISO 8601 in CSV.
    static let dateFields: Set<String> = Set(V2FieldTable.all.filter { $0.kind == .date }.map(\.key))

    /// Appends one payload as a JSON line (with `\n`).
    package static func appendJSONLine(_ payload: ResponseBodyV2DecodedPayload, to out: inout [UInt8]) {
        payload.appendCompactJSON(to: &out)
        out.append(0x0A)
    }

    /// The CSV cells of one payload, in `csvColumns` order; dates as ISO 8601 UTC with milliseconds.
    package static func csvRow(_ payload: ResponseBodyV2DecodedPayload) -> [String] {
        var flat: [String: String] = [:]
        flatten(payload.json, prefix: "", into: &flat)
        return csvColumns.map { flat[$0] ?? "" }
    }

    /// The cells of one rejects row (side `v1`).
    package static func rejectRow(_ error: ASNError) -> [String] {
        RejectRow.cells(side: "v1", location: error.location, reason: error.reportReason)
    }

    /// The cells of a rejects row for an unmapped record (side `v1`).
    package static func unmappedRow(_ u: UnmappedNotification) -> [String] {
        RejectRow.cells(side: "v1", location: u.location, reason: "unmapped: \(u.reason)")
    }

    // MARK: - Private

    private static func flatten(_ object: JSONObject, prefix: String, into flat: inout [String: String]) {
        for member in object.members {
            let key = prefix + member.key
            switch member.value {
            case .object(let o): flatten(o, prefix: key + ".", into: &flat)
            case .string(let s): flat[key] = s
            case .bool(let b): flat[key] = b ? "true" : "false"
            case .number(let n):
                if dateFields.contains(member.key), let ms = Int64(n) {
                    flat[key] = Timestamp.iso8601(ms: ms)
                } else {
                    flat[key] = n
                }
            case .null, .array: break
            }
        }
    }
}
