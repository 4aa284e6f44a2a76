import Foundation

/// The originalTransactionIds a fetch asks for: from a V1 archive (every subscription its records of one environment
/// name, and every `original_transaction_id` in their receipts), or from a plain list, de-duplicated, in numeric order.
package enum FetchIds {
    /// The ids of `environment` (`Production` / `Sandbox`) in the V1 archive `files`, read on all cores.
    package static func fromArchive(_ files: [InputFile], environment: String) throws -> (ids: [String], records: Int) {
        var ids: Set<String> = []
        var records = 0
        let table = try MappingTable.builtIn()
        try V1FactsPipeline(table: table, receipts: .init()).run(.files(files)) { batch in
            records += batch.items.count
            for facts in batch.receipts.lazy.map(\.facts) where facts.environment == environment {
                if let id = facts.subscriptionId, isId(id) { ids.insert(id) }
                for transaction in facts.transactions {
                    if let id = transaction.originalTransactionId, isId(id) { ids.insert(id) }
                }
            }
        }
        return (sorted(ids), records)
    }

    /// The ids in the text of an `--ids` file: one per line; blank lines and lines starting with `#` skipped; a line
    /// that is not digits is `.usage` naming the file and line.
    package static func fromList(_ text: String, path: String) throws(ASNError) -> [String] {
        var ids: Set<String> = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard isId(line) else {
                throw ASNError(
                    .usage, "'\(line)' is not an originalTransactionId (digits only); give one id per line",
                    at: SourceLocation(path: path, line: index + 1))
            }
            ids.insert(line)
        }
        return sorted(ids)
    }

    /// Whether `text` is a transaction id: 1 to 30 digits.
    package static func isId(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 30 && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// `ids` in numeric order.
    package static func sorted(_ ids: Set<String>) -> [String] {
        ids.sorted(by: IdentifierOrder.less)
    }
}
