/// One item found while splitting an input: a record, or a stretch of bytes that could not be split into one.
package enum InputItem: Sendable, Equatable {
    /// A complete record.
    case record(RawRecord)
    /// Structural trouble (code `.malformedJSON`): a truncated value, garbage between array elements, an unclosed
    /// array; or data after the end of a gzip stream (code `.unreadableInput`).
    case broken(ASNError)

    /// Where the record or the trouble starts.
    package var location: SourceLocation? {
        switch self {
        case .record(let record): return record.location
        case .broken(let error): return error.location
        }
    }

    /// The record, if this item is one.
    package var record: RawRecord? {
        if case .record(let record) = self { return record }
        return nil
    }

    /// The error, if this item is a broken one.
    package var error: ASNError? {
        if case .broken(let error) = self { return error }
        return nil
    }
}
