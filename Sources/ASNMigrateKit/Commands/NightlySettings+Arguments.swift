import Foundation

/// Resolving `nightly`'s settings from its flags and config file: flags over the config file over defaults.
extension NightlySettings {
    /// Resolves `config` (if any) and the flags in `arguments`; flags win; relative paths in the config (and the
    /// defaults, when a config is given) are taken relative to the config file's folder.
    package static func resolve(_ arguments: ParsedArguments, config: NightlyConfigFile?) throws(ASNError)
        -> NightlySettings
    {
        var s = NightlySettings()
        let base = config.map { FileSystem.parentDirectory(of: $0.path) }
        func relative(_ path: String) -> String {
            guard let base, !path.hasPrefix("/"), base != ".", !PostgresSource.isURI(path) else { return path }
            return base.hasSuffix("/") ? base + path : base + "/" + path
        }
        if config != nil {
            s.state = relative(s.state)
            s.reports = relative(s.reports)
        }
        for key in NightlyConfigFile.keys {
            let flag = "--" + key
            if NightlyConfigFile.repeatableKeys.contains(key) {
                let values: [String]
                let isPath = !["fail-on", "warn-on", "switch"].contains(key)
                if arguments.isSet(flag) {
                    values = arguments.values(flag)
                } else {
                    values = config?.entries(key).map { isPath ? relative($0.value) : $0.value } ?? []
                }
                switch key {
                case "v1": s.v1 = values
                case "v2": s.v2 = values
                case "ignore-field":
                    s.ignoredFields = []
                    if arguments.isSet(flag) {
                        for name in values { s.ignoredFields.append(try ComparedField.named(name, option: flag)) }
                    } else if let config {
                        for entry in config.entries(key) {
                            do {
                                s.ignoredFields.append(try ComparedField.named(entry.value, option: flag))
                            } catch {
                                throw NightlyConfigFile.error(config.path, entry.line, "key '\(key)': \(error.message)")
                            }
                        }
                    }
                case "fail-on": s.failOn = values
                case "switch":
                    if arguments.isSet(flag) {
                        s.switchDates = try SwitchDates.parse(values, option: flag)
                    } else if let config, let entry = config.entries(key).first {
                        do {
                            s.switchDates = try SwitchDates.parse(values, option: "key 'switch'")
                        } catch {
                            throw NightlyConfigFile.error(config.path, entry.line, error.message)
                        }
                    }
                case "warn-on": s.warnOn = values
                default: s.rootCertificates = values
                }
                continue
            }
            if NightlyConfigFile.booleanKeys.contains(key) {
                var on = arguments.flag(flag)
                if !on, let config, let entry = config.entries(key).last {
                    guard let parsed = Self.boolean(entry.value) else {
                        throw NightlyConfigFile.error(
                            config.path, entry.line, "key '\(key)' needs yes or no (got '\(entry.value)')")
                    }
                    on = parsed
                }
                switch key {
                case "verify-signatures": s.verifySignatures = on
                case "require-signatures": s.requireSignatures = on
                case "no-html": s.html = !on
                case "require-checksums": s.inputLimits.requireChecksums = on
                case "fetch": s.fetch = on
                default: s.allowFutureRunDate = on
                }
                continue
            }
            if arguments.isSet(flag), let value = arguments.value(flag) {
                try s.apply(key, value)
            } else if let config, let entry = config.entries(key).last {
                do {
                    try s.apply(key, entry.value, relative: relative)
                } catch {
                    throw NightlyConfigFile.error(config.path, entry.line, "key '\(key)': \(error.message)")
                }
            }
        }
        if arguments.isSet("--reread") { s.reread = try Self.reread(arguments.values("--reread")) }
        if s.fetch { try s.applyFetch() }
        if let shard = s.shard { try s.applyShard(shard) }
        // Both sides, before anything is created: a night of one side only would judge every record unpaired.
        let missing = [("v1", "V1", s.v1), ("v2", "V2", s.v2Roots)].filter { $0.2.isEmpty }
        if !missing.isEmpty {
            let flags = missing.map { "--\($0.0) PATH" }.joined(separator: " and ")
            let lines = missing.map { "\($0.0) = PATH" }.joined(separator: " / ")
            let sides = missing.map(\.1).joined(separator: " and ")
            throw ASNError(
                .usage,
                "missing \(flags): nightly compares the V1 side with the V2 side, so give the \(sides) input root\(missing.count == 1 ? "" : "s") (or \(lines) in --config FILE); nothing was read or created. See 'asn-migrate nightly --help'."
            )
        }
        if !s.switchDates.isEmpty, s.shard != nil {
            throw ASNError(
                .usage,
                "--switch (config key 'switch') does not work with --shard yet: the seam checks need how far every shard's V2 notifications reach; run the night unsharded; nothing was read or created"
            )
        }
        try Self.checkStreams(s)
        for side in ["v1", "v2"] {
            let roots = side == "v1" ? s.v1 : s.v2
            let query = side == "v1" ? s.v1Query : s.v2Query
            if let uri = roots.first(where: PostgresSource.isURI) {
                guard roots.count == 1 else {
                    throw ASNError(
                        .usage,
                        "\(side) \(PostgresSource.redacted(uri)) must be the only \(side) root (\(roots.count) given); read files and the database with separate states"
                    )
                }
                guard let query, !query.trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw ASNError(
                        .usage,
                        "\(side) \(PostgresSource.redacted(uri)) needs \(side)-query TABLE or \(side)-query 'SELECT …' (Reports/operations.md, Reading from PostgreSQL)"
                    )
                }
            } else if query != nil || s.sinceColumn(side: side) != nil {
                throw ASNError(
                    .usage, "\(side)-query and \(side)-since-column need \(side) = postgres://USER@HOST/DATABASE")
            }
        }
        return s
    }

    /// `--reread`'s values: `all`, or files and folders, each by its real path; a path that cannot be found is a usage
    /// error, since the run would read nothing again for it.
    static func reread(_ values: [String]) throws(ASNError) -> Reread {
        if values.contains("all") { return .all }
        var paths: [String] = []
        for value in values {
            guard let real = FileIdentity.realPath(value) else {
                throw ASNError(
                    .usage,
                    "--reread '\(ConsoleText.path(value))': no such file or folder; give the path of a file already read (or a folder of them) under a --v1 or --v2 root, or 'all'"
                )
            }
            paths.append(FileSystem.trimmingTrailingSlashes(real))
        }
        return .paths(paths)
    }

    /// Refuses a root that is a FIFO, socket or device: `nightly` remembers each file by its fingerprint and reads
    /// only what is new, which a stream that is gone once read cannot give, so it is a usage error before anything is
    /// opened (a writer feeding it is left waiting, not killed). `migrate` and `reconcile` read such streams.
    static func checkStreams(_ s: NightlySettings) throws(ASNError) {
        for (side, roots) in [("v1", s.v1), ("v2", s.v2)] {
            for root in roots where !PostgresSource.isURI(root) {
                var info = stat()
                guard stat(root, &info) == 0 else { continue }
                let kind: String
                switch info.st_mode & S_IFMT {
                case S_IFIFO: kind = "a FIFO"
                case S_IFSOCK: kind = "a socket"
                case S_IFCHR, S_IFBLK: kind = "a device"
                default: continue
                }
                throw ASNError(
                    .usage,
                    "\(side) root '\(ConsoleText.path(root))' is \(kind); nightly reads files it can fingerprint and read again the next night. Write the stream to a file in the \(side) folder first, or read it once with 'asn-migrate reconcile'"
                )
            }
        }
    }

    /// Sets one key from its text.
    mutating func apply(_ key: String, _ value: String, relative: (String) -> String = { $0 }) throws(ASNError) {
        let option = "--" + key
        switch key {
        case "v2-columns": v2Columns = relative(value)
        case "state": state = relative(value)
        case "reports": reports = relative(value)
        case "mappings": mappings = relative(value)
        case "metrics-file": metricsFile = relative(value)
        case "state-backup": stateBackup = relative(value)
        case "apple-view": appleView = relative(value)
        case "private-key": try api.apply(option, relative(value))
        case "key-id", "issuer-id", "base-url", "max-requests-per-second", "concurrency", "max-retries", "retry-delay",
            "timeout":
            try api.apply(option, value)
        case "window": window = try ArgumentValue.durationMilliseconds(value, option: option)
        case "time-tolerance": timeTolerance = try ArgumentValue.durationMilliseconds(value, option: option)
        case "settle": settle = try ArgumentValue.durationMilliseconds(value, option: option)
        case "horizon": horizon = value == "none" ? nil : try ArgumentValue.durationMilliseconds(value, option: option)
        case "min-file-age": minFileAge = try ArgumentValue.durationMilliseconds(value, option: option)
        case "max-record-bytes": inputLimits.maxRecordBytes = try InputOptions.parse(value, option: option)
        case "max-lag": maxLag = try Self.maxLag(value, option: option, defaults: maxLag)
        case "environment":
            environment = try ArgumentValue.choice(value, option: option, among: ["Production", "Sandbox"])
        case "retention-days": retentionDays = try ArgumentValue.integer(value, option: option, in: 1...36_500)
        case "v1-query": v1Query = value
        case "v2-query": v2Query = value
        case "v1-since-column": v1SinceColumn = value
        case "v2-since-column": v2SinceColumn = value
        case "since-overlap": sinceOverlap = try ArgumentValue.durationMilliseconds(value, option: option)
        case "shard":
            shard = try ShardSelection.parse(value, option: option, environment: ProcessInfo.processInfo.environment)
        case "bundle-id": bundleId = value
        case "app-apple-id": appAppleId = value
        case "max-reject-rate":
            maxRejectRate = try SanityCheck.rate(value, option: option)
        case "run-date":
            guard let parsed = Timestamp.parseUTCDayOrInstant(value), parsed.isWholeDay else {
                throw ASNError(.usage, "option '\(option)' needs a date like 2021-03-01, not '\(value)'")
            }
            runDate = Timestamp.day(ms: parsed.ms)
        default:
            throw ASNError(.usage, "unknown key '\(key)'")
        }
    }

    /// `fetch = yes`: the API key's settings are all given (the bundle id is `bundle-id`'s) and the fetch folder is
    /// `apple-view`, or `<state>.apple-view` beside the state.
    mutating func applyFetch() throws(ASNError) {
        api.bundleId = bundleId ?? ""
        let missing = [
            ("key-id", "KEY_ID", api.keyId), ("issuer-id", "ISSUER_ID", api.issuerId),
            ("bundle-id", "BUNDLE_ID", api.bundleId), ("private-key", "FILE", api.keyPath)
        ].filter { $0.2.isEmpty }
        guard missing.isEmpty else {
            let flags = missing.map { "--\($0.0) \($0.1)" }.joined(separator: ", ")
            throw ASNError(
                .usage,
                "nightly --fetch needs \(flags) (or \(missing.map { "\($0.0) = …" }.joined(separator: " / ")) in --config FILE): the App Store Server API key Apple's view is asked with, as 'asn-migrate fetch' takes it; nothing was read or created"
            )
        }
        if appleView == nil { appleView = state + ".apple-view" }
        if let uri = v2.first(where: PostgresSource.isURI) {
            throw ASNError(
                .usage,
                "--fetch reads Apple's answers from --apple-view as the V2 side, which a V2 source \(PostgresSource.redacted(uri)) cannot be read beside; give V2 files, or run the database's nightly with its own state"
            )
        }
    }

    /// A shard's night: `{shard}` in the state, reports, metrics and backup paths becomes K, and what a shard cannot
    /// do alone is refused (thresholds are judged on the merged report; a database source is not split).
    mutating func applyShard(_ shard: ShardSelection) throws(ASNError) {
        let k = String(shard.index)
        state = state.replacingOccurrences(of: "{shard}", with: k)
        reports = reports.replacingOccurrences(of: "{shard}", with: k)
        metricsFile = metricsFile?.replacingOccurrences(of: "{shard}", with: k)
        stateBackup = stateBackup?.replacingOccurrences(of: "{shard}", with: k)
        appleView = appleView?.replacingOccurrences(of: "{shard}", with: k)
        if let other = [("--fail-on", failOn), ("--warn-on", warnOn)].first(where: { !$0.1.isEmpty })?.0 {
            throw ASNError(
                .usage,
                "\(other) does not work with --shard: a shard's figures are part of the night's; judge the merged report (asn-migrate merge exits 1 with new differences or rejects, 3 on a failed sanity check)"
            )
        }
        if (v1 + v2).contains(where: PostgresSource.isURI) {
            throw ASNError(
                .usage,
                "--shard reads files; a PostgreSQL source is not split yet: run its nightly without --shard, or export it to files"
            )
        }
    }

    /// `2d` (both sides) or `v1=3d,v2=1d` (either side; a side not named keeps `defaults`' value).
    static func maxLag(_ value: String, option: String, defaults: [String: Int64]) throws(ASNError) -> [String: Int64] {
        guard value.contains("=") else {
            let lag = try ArgumentValue.durationMilliseconds(value, option: option)
            return ["v1": lag, "v2": lag]
        }
        var lags = defaults
        for part in value.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, ["v1", "v2"].contains(pair[0]) else {
                throw ASNError(
                    .usage, "option '\(option)' needs a duration (2d) or per side 'v1=2d,v2=1d', not '\(value)'")
            }
            lags[pair[0]] = try ArgumentValue.durationMilliseconds(pair[1], option: option)
        }
        return lags
    }

    /// `yes`/`no`, `true`/`false`, `1`/`0` (any case); nil otherwise.
    static func boolean(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "yes", "true", "1", "on": return true
        case "no", "false", "0", "off": return false
        default: return nil
        }
    }
}
