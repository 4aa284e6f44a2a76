/// Everything a `reconcile` run found: counts, differences, rejects, mapping coverage and subscription states.
package struct ReconciliationResult: Sendable {
    /// One row of `rejected.csv` (columns `side,source,line,reason`, shared with `migrate --rejects`).
    package struct Reject: Sendable, Equatable {
        /// "v1" or "v2".
        package var side: String
        /// The input path (`stdin` for standard input; `path[index]` for a top-level array element without a line).
        package var source: String
        /// The 1-based line, when known.
        package var line: Int?
        /// What was wrong.
        package var reason: String
        /// The key rejects are grouped under (`ASNError.causeKey`).
        package var cause: String

        /// A reject of one side from the error that caused it.
        package init(side: String, error: ASNError) {
            self.side = side
            source = RejectRow.source(error.location)
            line = error.location?.line
            reason = error.reportReason
            cause = error.causeKey
        }

        /// A reject as stored earlier (the nightly state keeps rejects of the files it read).
        package init(side: String, source: String, line: Int?, reason: String, cause: String) {
            self.side = side
            self.source = source
            self.line = line
            self.reason = reason
            self.cause = cause
        }

        /// The CSV cells, in `RejectRow.columns` order.
        package var cells: [String] { [side, source, line.map(String.init) ?? "", reason] }
    }

    /// One row of `mapping-coverage.csv`.
    package struct Coverage: Sendable, Equatable {
        /// V1 notification_type.
        package var v1Type: String
        /// V2 notificationType ("" when unmapped).
        package var v2Type: String
        /// V2 subtype.
        package var v2Subtype: String
        /// Rule id ("" when unmapped).
        package var rule: String
        /// Records.
        package var count: Int
    }

    /// One subscription's state on both sides at the period end: a row of `subscriptions.csv`.
    package struct SubscriptionRow: Sendable, Equatable {
        /// Environment.
        package var environment: String
        /// originalTransactionId.
        package var originalTransactionId: String
        /// V1 side's state.
        package var v1: SubscriptionState
        /// V2 side's state.
        package var v2: SubscriptionState
        /// The differing items (productId, expiresDate, autoRenewStatus, active).
        package var mismatches: [String]
    }

    /// The figures (`summary.csv`, `--summary-json`, the console summary), as numbers.
    package var summary: ReconciliationSummary
    /// The differences, in report order.
    package var differences: [Discrepancy]
    /// The pending records (`pending_in_v1` / `pending_in_v2`): not differences, their partner could lie outside the
    /// data; in report order.
    package var pending: [Discrepancy]
    /// The rejects, in input order (V1 first).
    package var rejects: [Reject]
    /// Mapping coverage, sorted.
    package var coverage: [Coverage]
    /// Subscription states, sorted by environment and originalTransactionId.
    package var subscriptions: [SubscriptionRow]
    /// The V2 prices of the subscriptions the differences name (`report.html`'s value at stake).
    package var prices = V2PriceList()
    /// With `--switch` and `ReconcileOptions.keepsSwitchShares`: each subscription's part of the seam's counts,
    /// for every subscription of a switched environment fed (an empty share included).
    package var switchShares: [SwitchFigures.Share] = []

    /// Creates a result.
    package init(
        summary: ReconciliationSummary, differences: [Discrepancy], pending: [Discrepancy], rejects: [Reject],
        coverage: [Coverage], subscriptions: [SubscriptionRow]
    ) {
        self.summary = summary
        self.differences = differences
        self.pending = pending
        self.rejects = rejects
        self.coverage = coverage
        self.subscriptions = subscriptions
    }

    /// True when there is nothing to report: no differences and no rejects (pending records are not findings).
    package var isClean: Bool { differences.isEmpty && rejects.isEmpty }
}
