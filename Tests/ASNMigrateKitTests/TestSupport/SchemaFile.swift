import Foundation

/// `Reports/schema.sql` read back: the column names of each `CREATE TABLE`, for tests that hold it to the code.
enum SchemaFile {
    /// The column names of each `CREATE TABLE` in `Reports/schema.sql`, by table.
    static func tables() throws -> [String: [String]] {
        let text = String(decoding: try PackagePaths.read("Reports/schema.sql"), as: UTF8.self)
        var tables: [String: [String]] = [:]
        var current: String?
        for line in text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("CREATE TABLE ") {
                current = String(line.dropFirst("CREATE TABLE ".count).prefix { $0 != " " })
                tables[current ?? ""] = []
            } else if line.hasPrefix(")") {
                current = nil
            } else if let table = current, let name = line.split(separator: " ").first {
                tables[table]?.append(String(name))
            }
        }
        return tables
    }
}
