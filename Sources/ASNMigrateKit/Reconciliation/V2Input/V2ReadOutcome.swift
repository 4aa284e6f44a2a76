/// What reading one V2 record gave: a record, or a reject saying what was wrong and where.
public enum V2ReadOutcome: Sendable, Equatable {
    /// A decoded notification.
    case record(V2Record)
    /// An input that is not a readable V2 notification; the error names the location and what to do.
    case rejected(ASNError)

    /// The record, if this outcome is one.
    public var record: V2Record? {
        if case .record(let record) = self { return record }
        return nil
    }

    /// The error, if this outcome is a reject.
    public var error: ASNError? {
        if case .rejected(let error) = self { return error }
        return nil
    }
}
