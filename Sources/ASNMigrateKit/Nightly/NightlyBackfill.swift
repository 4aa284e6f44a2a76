/// The pairing of a first night (a state with no records, conflicts, differences or pending items yet), done in
/// memory while the files are read, as `reconcile` does, instead of storing every record and reading it back per
/// subscription. Every stored record's facts are fed as they are stored (`NightlyPass.keep`); records of the other
/// environment and duplicates are not fed, as they are not stored. `NightlyBackfillTests` checks the reports equal those of the read-back path.
final class NightlyBackfill {
    /// The engine, fed every record stored in this run (its options are set before `finish()`).
    var reconciler: Reconciler
    /// The `conflicting_duplicate_v2` rows found in this run.
    var conflicts: [Discrepancy] = []

    /// A backfill pairing with the mapping `table`.
    init(table: MappingTable) {
        reconciler = Reconciler(table: table, options: ReconcileOptions())
    }
}
