/// One transaction of Apple's own V2 view, read from an App Store Server API response or a single transaction record.
package struct V2Transaction: Sendable, Equatable {
    /// Where a transaction was read from.
    package enum Origin: String, Sendable, Equatable {
        /// An entry of a Get Transaction History page's `signedTransactions`.
        case history
        /// A lone transaction: a `.jws` file, a JWS or decoded `JWSTransactionDecodedPayload` per line, or a CSV row.
        case single
    }

    /// The decoded transaction.
    package var payload: JWSTransactionDecodedPayload
    /// "Production" / "Sandbox" (or Apple's other spelling kept raw), from the transaction or its page.
    package var environment: String
    /// Where it came from.
    package var origin: Origin
    /// The file and line (and entry index) it came from.
    package var location: SourceLocation

    /// Creates a transaction record.
    package init(payload: JWSTransactionDecodedPayload, environment: String, origin: Origin, location: SourceLocation) {
        self.payload = payload
        self.environment = environment
        self.origin = origin
        self.location = location
    }
}
