import Foundation

/// The resolved settings of one `nightly` run: flags over the config file over defaults, values checked, paths resolved.
package struct NightlySettings: Sendable, Equatable {
    /// V1 input roots.
    package var v1: [String] = []
    /// V2 input roots.
    package var v2: [String] = []
    /// Column map for V2 CSV exports.
    package var v2Columns: String?
    /// The state database.
    package var state = "Reports/state.sqlite"
    /// The reports root; each run writes `<reports>/<run date>/`.
    package var reports = "Reports"
    /// Pairing window, ms.
    package var window: Int64 = 48 * 3_600_000
    /// Fields not compared (`ignore-field`, repeatable), in every row kind that compares them, as `reconcile`.
    package var ignoredFields: [ComparedField] = []
    /// `--switch` / `switch`: each environment's switch from V1 to V2 notifications (empty: none).
    package var switchDates = SwitchDates()
    /// Two times that differ by less compare equal, ms (`time-tolerance`), as `reconcile`.
    package var timeTolerance: Int64 = 0
    /// How long an unpaired record stays pending, ms.
    package var settle: Int64 = 72 * 3_600_000
    /// How long records of settled subscriptions are kept, ms; nil (the default, `none`): for ever, so no later answer
    /// can differ from one `reconcile` over every file. A horizon trades that exactness for size (README, "Forget").
    package var horizon: Int64?
    /// Only records of this environment ("Production" / "Sandbox"); nil = all.
    package var environment: String?
    /// Mappings folder.
    package var mappings: String?
    /// Report folders older than this many days are removed; nil = kept.
    package var retentionDays: Int?
    /// The highest tolerated share of rejected records per side (0.01 = 1%).
    package var maxRejectRate = SanityCheck.defaultMaxRejectRate
    /// Prometheus text file to write.
    package var metricsFile: String?
    /// The run date (YYYY-MM-DD), nil = today (UTC).
    package var runDate: String?
    /// Whether every V2 JWS read is verified (`verify-signatures`), as `reconcile --verify-signatures` does.
    package var verifySignatures = false
    /// Whether V2 records given decoded are rejects rather than unverified (`require-signatures`).
    package var requireSignatures = false
    /// Extra accepted root certificates, DER or PEM files (`root-certificate`, repeatable).
    package var rootCertificates: [String] = []
    /// The bundle ID V2 records must have (`bundle-id`).
    package var bundleId: String?
    /// The appAppleId V2 records must have (`app-apple-id`).
    package var appAppleId: String?
    /// Files modified less than this long ago (ms, by the machine's clock) are left for a later night (`min-file-age`).
    package var minFileAge: Int64 = 10 * 60_000
    /// The longest record read (`max-record-bytes`; a longer one is one `record_too_large` reject) and whether a zstd
    /// frame without a content checksum is a reject (`require-checksums`).
    package var inputLimits = InputLimits()
    /// The oldest a side's newest record may be at the end of the run date before the side is stale (ms; `max-lag`).
    package var maxLag: [String: Int64] = [
        "v1": 2 * Timestamp.millisecondsPerDay, "v2": 2 * Timestamp.millisecondsPerDay
    ]
    /// A folder where each run first copies the state as it was before the night (`before-<run date>.sqlite`); nil = none.
    package var stateBackup: String?
    /// Whether a run date more than a day after the machine's clock is accepted (`allow-future-run-date`).
    package var allowFutureRunDate = false
    /// Whether each night's report folder holds `report.html` (`--no-html` turns it off; a shard's never does).
    package var html = true
    /// `--shard K/N`: this state keeps only shard K's subscriptions, and each night writes that shard's report with
    /// `shard.csv` into `<reports>/<run date>.shard-K-of-N`, for `asn-migrate merge`; nil: not sharded.
    package var shard: ShardSelection?

    /// `--reread PATH|all`: files already read that this night reads again whole, their records and rejects replaced
    /// (after a file was fixed in place); nil: none.
    package var reread: Reread?

    /// The files `--reread` names.
    package enum Reread: Sendable, Equatable {
        /// Every file in the ledger.
        case all
        /// The files at these real paths, and those under these folders.
        case paths([String])

        /// Whether it names the file at the ledger path `path` (a real path).
        func names(_ path: String) -> Bool {
            switch self {
            case .all: return true
            case .paths(let paths): return paths.contains { path == $0 || path.hasPrefix($0 + "/") }
            }
        }
    }

    /// Whether the night asks Apple's App Store Server API, before it pairs, for every subscription whose answer can
    /// change, and reads the answers as its V2 side (`fetch`).
    package var fetch = false
    /// `fetch`'s settings the night shares (`key-id`, `issuer-id`, `private-key`, `base-url` over both environments'
    /// URLs, the request limits); its bundle id is `bundle-id`'s.
    package var api = FetchSettings()
    /// The fetch folder the night's answers go to and its V2 side is read from (`apple-view`; default
    /// `<state>.apple-view`); nil without `fetch`.
    package var appleView: String?

    /// The V2 roots the night lists: the `v2` roots, and with `fetch` the fetch folder.
    package var v2Roots: [String] {
        v2 + (fetch ? appleView.map { [$0] } ?? [] : [])
    }

    /// Apple's base URL for `environment` (`Production` / `Sandbox`), or `base-url` for both.
    package func apiBaseURL(_ environment: String) -> String {
        api.baseURL.isEmpty ? FetchSettings.baseURLs[environment.lowercased()] ?? "" : api.baseURL
    }

    /// With `v1 = postgres://…`: the table or SELECT to read (`v1-query`).
    package var v1Query: String?
    /// With `v2 = postgres://…`: the table or SELECT to read (`v2-query`).
    package var v2Query: String?
    /// The V1 source's monotonic column: only rows at or after its high-water mark (less `sinceOverlap`) are read.
    package var v1SinceColumn: String?
    /// The V2 source's monotonic column, as `v1SinceColumn`.
    package var v2SinceColumn: String?
    /// How far before the high-water mark a night reads again, so rows that arrive late (with an older since-column
    /// value) are still read: ms for time columns (default 3d); integer columns are read from the mark itself.
    package var sinceOverlap: Int64 = 3 * Timestamp.millisecondsPerDay

    /// The PostgreSQL source of `side` (`v1`/`v2`), when that side's root is a `postgres://` URI.
    package func databaseSource(side: String) -> PostgresSource? {
        let roots = side == "v1" ? v1 : v2
        guard roots.count == 1, let uri = roots.first, PostgresSource.isURI(uri) else { return nil }
        return PostgresSource(side: side, uri: uri, query: (side == "v1" ? v1Query : v2Query) ?? "")
    }

    /// The since-column of `side`, if one was named.
    package func sinceColumn(side: String) -> String? {
        side == "v1" ? v1SinceColumn : v2SinceColumn
    }

    /// `--fail-on` rules as given (`ThresholdRule`), judged on the night's new items and figures.
    package var failOn: [String] = []
    /// `--warn-on` rules as given.
    package var warnOn: [String] = []

    /// Creates default settings.
    package init() {}

    /// The signature checks these settings ask for (nil without `verify-signatures`), built as `reconcile` builds them
    /// (with `fetch`, `bundle-id` is the API key's too, so it needs no `verify-signatures`).
    package func signaturePolicy() throws(ASNError) -> SignaturePolicy? {
        try SignaturePolicy.resolve(
            verify: verifySignatures, requireSignatures: requireSignatures,
            rootCertificates: rootCertificates, bundleId: fetch && !verifySignatures ? nil : bundleId,
            appAppleId: appAppleId)
    }

    // MARK: - Derived

    /// The run's "now": the last millisecond of `runDate` (UTC) when given, else `clock`.
    package func now(clock: Int64) -> Int64 {
        guard let runDate, let parsed = Timestamp.parseUTCDayOrInstant(runDate) else { return clock }
        return parsed.ms + Timestamp.millisecondsPerDay - 1
    }

    /// The report folder of the night of `date`: `<reports>/<date>`, or a shard's `<reports>/<date>.shard-K-of-N`.
    package func reportFolder(date: String) -> String {
        let root = reports.hasSuffix("/") ? reports : reports + "/"
        return root + date + (shard.map { ".shard-\($0.index)-of-\($0.count)" } ?? "")
    }

    /// The run date: `runDate`, else the clock's UTC day.
    package func day(clock: Int64) -> String {
        runDate ?? Timestamp.day(ms: clock)
    }
}

extension NightlySettings {
    /// The engine's options for a night, as `reconcile` would judge with the same flags (the period and spans are the
    /// night's to set).
    var reconcileOptions: ReconcileOptions {
        var options = ReconcileOptions()
        options.window = window
        options.fields = ComparedField.defaultFields.filter { !ignoredFields.contains($0) }
        options.timeTolerance = timeTolerance
        options.switchDates = switchDates
        return options
    }
}
