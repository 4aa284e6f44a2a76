/// The pairing of a first night (a state with no records, conflicts, differences or pending items yet), done in
/// memory while the files are read, as `reconcile` does, instead of storing every record and reading it back per
/// subscription. Every stored record is fed as read, as `reconcile` feeds it (not decoded back from its stored form:
/// that decoding was the largest cost); records of the other environment and duplicates are not fed, as they are not
/// stored. `NightlyBackfillTests` checks the reports equal those of the read-back path.
final class NightlyBackfill {
    /// The engine, fed every record stored in this run (its options are set before `finish()`).
    var reconciler: Reconciler
    /// The `conflicting_duplicate_v2` rows found in this run.
    var conflicts: [Discrepancy] = []

    /// A record as read from its file.
    enum Original {
        /// A V1 outcome of the mapper (migrated or unmapped).
        case v1(V1RecordOutcome)
        /// A decoded V2 record.
        case v2(V2Record)
    }

    /// A backfill pairing with the mapping `table`.
    init(table: MappingTable) {
        reconciler = Reconciler(table: table, options: ReconcileOptions())
    }

    /// Feeds one stored record, as read.
    func add(_ original: Original) {
        switch original {
        case .v1(let outcome): reconciler.addV1(outcome)
        case .v2(let record): reconciler.addV2(record.payload, location: record.location, digest: record.contentDigest)
        }
    }
}
