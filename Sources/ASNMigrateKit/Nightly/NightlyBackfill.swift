/// The pairing of a first night (a state with no records, conflicts, differences or pending items yet), done in
/// memory while the files are read, as `reconcile` does, instead of storing every record and reading it back per
/// subscription. Every stored record is fed exactly as the state path would feed it (`StoredRecord.feed`), so the
/// result is the same; records of the other environment and duplicates are not fed, as they are not stored.
final class NightlyBackfill {
    /// The engine, fed every record stored in this run (its options are set before `finish()`).
    var reconciler: Reconciler
    /// The `conflicting_duplicate_v2` rows found in this run.
    var conflicts: [Discrepancy] = []
    private let decoder = V2RecordDecoder()

    /// A backfill pairing with the mapping `table`.
    init(table: MappingTable) {
        reconciler = Reconciler(table: table, options: ReconcileOptions())
    }

    /// Feeds one stored record.
    func add(_ record: StoredRecord) throws(ASNError) {
        try record.feed(into: &reconciler, decoder: decoder)
    }
}
