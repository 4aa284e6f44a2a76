/// The mapped records of one stretch of input, in input order, as the parallel pipeline hands them on.
package struct MigrationBatch: Sendable {
    /// Every record's outcome, in input order (broken items and unreadable stretches as rejects).
    package var outcomes: [V1RecordOutcome] = []
    /// The JSON Lines of the migrated outcomes, in order, when the pipeline renders them.
    package var jsonLines: [UInt8] = []
    /// Records written straight from their bytes (`TapeMigrator`), which have no outcome in `outcomes`: how many
    /// took each route of the pipeline's `TapeMigration.routes` (empty when none did).
    package var directRoutes: [Int] = []
    /// How many records were written straight from their bytes.
    package var directCount = 0
    /// Bytes of input these records came from (each record's bytes and its line break), for the progress line.
    package var inputBytes = 0
    /// An error that ends the run here (a file that cannot be read for a reason other than its content).
    package var failure: (any Error)?

    /// Creates an empty batch.
    package init() {}
}
