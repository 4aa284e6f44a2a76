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
        baseURL = arguments.value("--base-url") ?? FetchSettings.baseURLs[choice] ?? ""
        guard let url = URL(string: baseURL), let scheme = url.scheme, ["http", "https"].contains(scheme),
            url.host != nil
        else {
            throw ASNError(.usage, "option '--base-url' needs an http or https URL, not '\(baseURL)'")
        }
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
        concurrency = try arguments.integer("--concurrency") ?? 4
        let rate = arguments.value("--max-requests-per-second") ?? "10"
        guard let perSecond = Double(rate), perSecond > 0, perSecond <= 10_000 else {
            throw ASNError(.usage, "option '--max-requests-per-second' needs a number above 0, not '\(rate)'")
        }
        requestsPerSecond = perSecond
        maxRetries = try arguments.integer("--max-retries") ?? 5
        retryDelay = Double(try arguments.durationMilliseconds("--retry-delay") ?? 1000) / 1000
        timeout = max(0.1, Double(try arguments.durationMilliseconds("--timeout") ?? 30_000) / 1000)
        summaryJSON = arguments.value("--summary-json")
    }
}
