import Foundation

/// What one `fetch` run does, as its flags say (`FetchSettings+Arguments` reads them).
package struct FetchSettings: Sendable, Equatable {
    /// Apple's base URLs per environment.
    package static let baseURLs = [
        "production": "https://api.storekit.itunes.apple.com",
        "sandbox": "https://api.storekit-sandbox.itunes.apple.com"
    ]

    /// `--key-id`.
    package var keyId = ""
    /// `--issuer-id`.
    package var issuerId = ""
    /// `--bundle-id`.
    package var bundleId = ""
    /// `--private-key`.
    package var keyPath = ""
    /// `--out`.
    package var out = ""
    /// `--from-v1` paths.
    package var archive: [String] = []
    /// `--ids`.
    package var idsFile: String?
    /// `Production` or `Sandbox`.
    package var environment = "Production"
    /// Apple's base URL for the environment, or `--base-url`.
    package var baseURL = ""
    /// `--update`.
    package var update = false
    /// `--notifications-since` in epoch ms.
    package var notificationsSince: Int64?
    /// `--concurrency`.
    package var concurrency = 4
    /// `--max-requests-per-second`.
    package var requestsPerSecond = 10.0
    /// `--max-retries`.
    package var maxRetries = 5
    /// `--retry-delay` in seconds.
    package var retryDelay = 1.0
    /// `--timeout` in seconds.
    package var timeout = 30.0
    /// `--summary-json`.
    package var summaryJSON: String?

    /// How far back Get Notification History reaches.
    package static let notificationHistoryDays: Int64 = 180
}
