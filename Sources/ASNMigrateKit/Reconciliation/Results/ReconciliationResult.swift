/// Everything a `reconcile` run found: counts, differences, rejects, mapping coverage and subscription states.
public struct ReconciliationResult: Sendable {
    /// One row of `rejected.csv` (columns `side,source,line,reason`, shared with `migrate --rejects`).
    public struct Reject: Sendable, Equatable {
        /// "v1" or "v2".
        public var side: String
        /// The input path (`stdin` for standard input; `path[index]` for a top-level array element without a line).
        public var source: String
        /// The 1-based line, when known.
        public var line: Int?
        /// What was wrong.
        public var reason: String
        /// The key rejects are grouped under (`ASNError.causeKey`).
        public var cause: String

        /// A reject of one side from the error that caused it.
        public init(side: String, error: ASNError) {
            self.side = side
            source = RejectRow.source(error.location)
            line = error.location?.line
            reason = error.reportReason
            cause = error.causeKey
        }

        /// A reject as stored earlier (the nightly state keeps rejects of the files it read).
        public init(side: String, source: String, line: Int?, reason: String, cause: String) {
            self.side = side
            self.source = source
            self.line = line
            self.reason = reason
            self.cause = cause
        }

        /// The CSV cells, in `RejectRow.columns` order.
        public var cells: [String] { [side, source, line.map(String.init) ?? "", reason] }
    }

    /// One row of `mapping-coverage.csv`.
    public struct Coverage: Sendable, Equatable {
        /// V1 notification_type.
        public var v1Type: String
        /// V2 notificationType ("" when unmapped).
        public var v2Type: String
        /// V2 subtype.
        public var v2Subtype: String
        /// Rule id ("" when unmapped).
        public var rule: String
        /// Records.
        public var count: Int
    }

    /// One subscription's state on both sides at the period end: a row of `subscriptions.csv`.
    public struct SubscriptionRow: Sendable, Equatable {
        /// Environment.
        public var environment: String
        /// originalTransactionId.
        public var originalTransactionId: String
        /// V1 side's state.
        public var v1: SubscriptionState
        /// V2 side's state.
        public var v2: SubscriptionState
        /// The differing items (productId, expiresDate, autoRenewStatus, active).
        public var mismatches: [String]
    }

    /// The figures (`summary.csv`, `--summary-json`, the console summary), as numbers.
    public var summary: ReconciliationSummary
    /// The differences, in report order.
    public var differences: [Discrepancy]
    /// The pending records (`pending_in_v1` / `pending_in_v2`): not differences, their partner could lie outside the
    /// data; in report order.
    public var pending: [Discrepancy]
    /// The rejects, in input order (V1 first).
    public var rejects: [Reject]
    /// Mapping coverage, sorted.
    public var coverage: [Coverage]
    /// Subscription states, sorted by environment and originalTransactionId.
    public var subscriptions: [SubscriptionRow]
    /// The V2 prices of the subscriptions the differences name (`report.html`'s value at stake).
    public var prices = V2PriceList()

    /// Creates a result.
    public init(summary: ReconciliationSummary, differences: [Discrepancy], pending: [Discrepancy], rejects: [Reject],
                coverage: [Coverage], subscriptions: [SubscriptionRow]) {
        self.summary = summary
        self.differences = differences
        self.pending = pending
        self.rejects = rejects
        self.coverage = coverage
        self.subscriptions = subscriptions
    }

    /// True when there is nothing to report: no differences and no rejects (pending records are not findings).
    public var isClean: Bool { differences.isEmpty && rejects.isEmpty }
}

