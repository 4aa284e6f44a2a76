import ASNMigrateKit

/// One row of `truth-rejects.csv`: a malformed line `reconcile` must reject.
public struct TruthReject: Sendable, Equatable {
    /// The columns of `truth-rejects.csv`.
    public static let columns = ["side", "source", "reason-kind"]

    /// "v1" or "v2".
    public var side: String
    /// `path:line` of the malformed line.
    public var source: String
    /// The reject reason's code, as `ASNError.Code` spells it (`malformed_json`, `malformed_jws`, `missing_notification_type`).
    public var reasonKind: String

    /// Creates a row.
    public init(side: String, source: String, reasonKind: String) {
        self.side = side
        self.source = source
        self.reasonKind = reasonKind
    }

    /// The cells in `columns` order.
    public var cells: [String] { [side, source, reasonKind] }
}
