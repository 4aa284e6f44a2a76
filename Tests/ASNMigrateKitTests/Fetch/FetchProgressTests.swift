import Testing

@testable import ASNMigrateKit

/// `fetch`'s progress line on a terminal: ids done, requests per second, retries, time left.
@Suite struct FetchProgressTests {
    @Test func lineShowsIdsRateRetriesAndTimeLeft() {
        #expect(
            FetchProgress.render(done: 120, total: 500, requests: 245, retries: 3, seconds: 25)
                == "fetch: 120/500 ids, 9.8 requests/s, 3 retries, ETA 1:19")
        #expect(
            FetchProgress.render(done: 0, total: 500, requests: 0, retries: 0, seconds: 0)
                == "fetch: 0/500 ids, 0.0 requests/s, 0 retries")
        #expect(
            FetchProgress.render(done: 10, total: 100_000, requests: 20, retries: 0, seconds: 2).hasSuffix(
                "ETA 5h33:18"))
    }
}
