import Testing

@testable import ASNMigrateKit

/// The compact record stays compact: `reconcile` keeps about two million of them for a 1M × 1M run.
@Suite struct ReconRecordTests {
    @Test func aRecordTakesAtMost216Bytes() {
        #expect(MemoryLayout<ReconRecord>.stride <= 216, "every 8 bytes more cost 16 MB on a 1M x 1M reconcile")
    }
}
