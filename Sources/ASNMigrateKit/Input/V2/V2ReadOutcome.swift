/// What reading one V2 record gave: a record, or a reject saying what was wrong and where.
package enum V2ReadOutcome: Sendable, Equatable {
    /// A decoded notification.
    case record(V2Record)
    /// A transaction or subscription status from an App Store Server API response (or a lone transaction).
    case api(V2APIRecord)
    /// An input that is not a readable V2 notification; the error names the location and what to do.
    case rejected(ASNError)

    /// The record, if this outcome is one.
    package var record: V2Record? {
        if case .record(let record) = self { return record }
        return nil
    }

    /// The API record, if this outcome is one.
    package var apiRecord: V2APIRecord? {
        if case .api(let record) = self { return record }
        return nil
    }

    /// The error, if this outcome is a reject.
    package var error: ASNError? {
        if case .rejected(let error) = self { return error }
        return nil
    }
}
