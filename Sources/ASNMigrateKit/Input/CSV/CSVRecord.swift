/// One CSV data record: its fields and the 1-based line it starts on.
package struct CSVRecord: Sendable, Equatable {
    /// The fields, unquoted, as many as the header has.
    package var fields: [String]
    /// 1-based line number where the record starts (a quoted field may continue over later lines).
    package var line: Int

    /// Creates a record.
    package init(fields: [String], line: Int) {
        self.fields = fields
        self.line = line
    }

    /// The field at `index`, or nil when out of range.
    package subscript(index: Int) -> String? {
        fields.indices.contains(index) ? fields[index] : nil
    }
}
