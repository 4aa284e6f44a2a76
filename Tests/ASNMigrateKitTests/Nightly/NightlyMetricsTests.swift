import Testing

@testable import ASNMigrateKit

/// A shard's metrics file names its shard on every sample; the last success reads back either way.
@Suite struct NightlyMetricsTests {
    private static let report = NightlyReport(
        date: "2021-03-01", new: [], open: [], resolved: [], pending: [], rejects: [],
        metrics: [("differences_new", "2"), ("v1_records_in_state", "40")], sanityFailure: nil)

    @Test func everySampleOfAShardCarriesItsShardAndCount() throws {
        let shard = ShardSelection(index: 2, count: 7)
        let text = NightlyMetrics.render(
            Self.report, status: .findings, durationSeconds: 1.25, lastSuccessSeconds: 1_700_000_000, shard: shard)
        let samples = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(samples.count > 20)
        for sample in samples {
            #expect(sample.contains("shard=\"2\",shards=\"7\"}"), "\(sample)")
        }
        #expect(text.contains("asn_migrate_nightly_run_differences{kind=\"new\",shard=\"2\",shards=\"7\"} 2\n"))
        #expect(text.contains("asn_migrate_nightly_state_records{side=\"v1\",shard=\"2\",shards=\"7\"} 40\n"))
        #expect(text.contains("asn_migrate_nightly_last_run_exit_code{shard=\"2\",shards=\"7\"} 1\n"))
        #expect(NightlyMetrics.lastSuccess(in: text) == 1_700_000_000)
    }

    @Test func anUnshardedRunHasNoShardLabels() {
        let text = NightlyMetrics.render(
            Self.report, status: .success, durationSeconds: 1, lastSuccessSeconds: 1_600_000_000)
        #expect(!text.contains("shard"))
        #expect(text.contains("asn_migrate_nightly_last_success_timestamp_seconds 1600000000\n"))
        #expect(NightlyMetrics.lastSuccess(in: text) == 1_600_000_000)
    }

    @Test func onlyTheLastSuccessGaugeIsReadBack() {
        let text = """
            asn_migrate_nightly_last_success_timestamp_seconds_total 5
            asn_migrate_nightly_last_success_timestamp_seconds{shard="1",shards="2" 6
            asn_migrate_nightly_last_success_timestamp_seconds{shard="1",shards="2"} 7
            """
        #expect(NightlyMetrics.lastSuccess(in: text) == 7)
    }
}
