import ASNMigrateKit

/// One row of `truth-rejects.csv`: a malformed line `reconcile` must reject.
package struct TruthReject: Sendable, Equatable {
    /// The columns of `truth-rejects.csv`.
    package static let columns = ["side", "source", "reason-kind"]

    /// "v1" or "v2".
    package var side: String
    /// `path:line` of the malformed line.
    package var source: String
    /// The reject reason's code, as `ASNError.Code` spells it (`malformed_json`, `malformed_jws`, `missing_notification_type`).
    package var reasonKind: String

    /// Creates a row.
    package init(side: String, source: String, reasonKind: String) {
        self.side = side
        self.source = source
        self.reasonKind = reasonKind
    }

    /// The cells in `columns` order.
    package var cells: [String] { [side, source, reasonKind] }
}
