import Foundation

extension FetchSettings {
    /// Reads and checks `arguments`; usage errors name the option.
    package init(_ arguments: ParsedArguments, now: Int64) throws(ASNError) {
        self.init()
        for (option, placeholder) in [
            ("--key-id", "KEY_ID"), ("--issuer-id", "ISSUER_ID"), ("--bundle-id", "BUNDLE_ID"),
            ("--private-key", "FILE"), ("--out", "DIR")
        ] {
            guard let value = arguments.value(option), !value.isEmpty else {
                throw ASNError(.usage, "missing \(option) \(placeholder). See 'asn-migrate fetch --help'.")
            }
            switch option {
            case "--key-id": keyId = value
            case "--issuer-id": issuerId = value
            case "--bundle-id": bundleId = value
            case "--private-key": keyPath = value
            default: out = value
            }
        }
        archive = arguments.values("--from-v1")
        idsFile = arguments.value("--ids")
        guard !archive.isEmpty || idsFile != nil else {
            throw ASNError(
                .usage,
                "give the ids to fetch: --from-v1 PATH (a V1 archive) or --ids FILE (one originalTransactionId per line)"
            )
        }
        let choice = arguments.value("--environment") ?? "production"
        environment = choice == "sandbox" ? "Sandbox" : "Production"
        try apply("--base-url", arguments.value("--base-url") ?? FetchSettings.baseURLs[choice] ?? "")
        update = arguments.flag("--update")
        if let since = arguments.value("--notifications-since") {
            guard let parsed = Timestamp.parseUTCDayOrInstant(since) else {
                throw ASNError(
                    .usage,
                    "option '--notifications-since' needs a date (2024-03-01) or an ISO 8601 instant, not '\(since)'"
                )
            }
            guard parsed.ms < now else {
                throw ASNError(.usage, "option '--notifications-since' (\(since)) lies in the future")
            }
            guard parsed.ms >= now - Self.notificationHistoryDays * 86_400_000 else {
                throw ASNError(
                    .usage,
                    "option '--notifications-since' (\(since)) lies more than \(Self.notificationHistoryDays) days back; Get Notification History keeps \(Self.notificationHistoryDays) days"
                )
            }
            notificationsSince = parsed.ms
        }
        for option in Self.sharedOptions where option != "--base-url" && option != "--bundle-id" {
            if let value = arguments.value(option) { try apply(option, value) }
        }
        summaryJSON = arguments.value("--summary-json")
    }

    /// The options `nightly --fetch` takes from `fetch`, under the same names and specs (`FetchCommand.spec`'s), in
    /// the order `--help` shows them.
    package static let sharedOptions = [
        "--key-id", "--issuer-id", "--bundle-id", "--private-key", "--base-url", "--max-requests-per-second",
        "--concurrency", "--max-retries", "--retry-delay", "--timeout"
    ]

    /// Sets one of `sharedOptions` from its text (a flag's or a config file's value), checked as `fetch` checks it;
    /// a bad value is a usage error naming the option.
    package mutating func apply(_ option: String, _ value: String) throws(ASNError) {
        if let spec = FetchCommand.spec.options.first(where: { $0.long == option }) {
            try ArgumentValue.validate(value, for: spec)
        }
        switch option {
        case "--key-id": keyId = value
        case "--issuer-id": issuerId = value
        case "--bundle-id": bundleId = value
        case "--private-key": keyPath = value
        case "--base-url":
            guard let url = URL(string: value), let scheme = url.scheme, ["http", "https"].contains(scheme),
                url.host != nil
            else {
                throw ASNError(.usage, "option '--base-url' needs an http or https URL, not '\(value)'")
            }
            baseURL = value
        case "--max-requests-per-second":
            guard let perSecond = Double(value), perSecond > 0, perSecond <= 10_000 else {
                throw ASNError(.usage, "option '--max-requests-per-second' needs a number above 0, not '\(value)'")
            }
            requestsPerSecond = perSecond
        case "--concurrency": concurrency = try ArgumentValue.integer(value, option: option, in: 1...64)
        case "--max-retries": maxRetries = try ArgumentValue.integer(value, option: option, in: 0...100)
        case "--retry-delay": retryDelay = Double(try ArgumentValue.durationMilliseconds(value, option: option)) / 1000
        case "--timeout":
            timeout = max(0.1, Double(try ArgumentValue.durationMilliseconds(value, option: option)) / 1000)
        default: throw ASNError(.usage, "'\(option)' is not an option fetch shares")
        }
    }
}
