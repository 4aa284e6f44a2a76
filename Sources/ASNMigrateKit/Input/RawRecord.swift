/// The bytes of one record exactly as found in the input (surrounding whitespace and line terminator removed), and where it starts.
package struct RawRecord: Sendable, Equatable {
    /// The input path, the 1-based line where the record starts and, in a top-level array, its 0-based index.
    package var location: SourceLocation
    /// The record's bytes, untouched and not validated as UTF-8 or JSON.
    package var bytes: [UInt8]

    /// Creates a record.
    package init(location: SourceLocation, bytes: [UInt8]) {
        self.location = location
        self.bytes = bytes
    }
}
