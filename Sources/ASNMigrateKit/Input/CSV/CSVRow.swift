/// One data row of a CSV file as `CSVReader` finds it: a record, or a row that cannot be read (one reject).
package enum CSVRow: Sendable, Equatable {
    /// A well-formed record with as many fields as the header.
    case record(CSVRecord)
    /// A malformed row (wrong width, text after a closing quote, bad UTF-8, a quote never closed), located at its first line.
    case malformed(ASNError)
}
