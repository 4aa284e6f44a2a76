import Foundation

/// The resolved settings of one `nightly` run: flags over the config file over defaults, values checked, paths resolved.
public struct NightlySettings: Sendable, Equatable {
    /// V1 input roots.
    public var v1: [String] = []
    /// V2 input roots.
    public var v2: [String] = []
    /// Column map for V2 CSV exports.
    public var v2Columns: String?
    /// The state database.
    public var state = "Reports/state.sqlite"
    /// The reports root; each run writes `<reports>/<run date>/`.
    public var reports = "Reports"
    /// Pairing window, ms.
    public var window: Int64 = 48 * 3_600_000
    /// How long an unpaired record stays pending, ms.
    public var settle: Int64 = 72 * 3_600_000
    /// How long records of settled subscriptions are kept, ms.
    public var horizon: Int64 = 90 * Timestamp.millisecondsPerDay
    /// Only records of this environment ("Production" / "Sandbox"); nil = all.
    public var environment: String?
    /// Mappings folder.
    public var mappings: String?
    /// Report folders older than this many days are removed; nil = kept.
    public var retentionDays: Int?
    /// The highest tolerated share of rejected records per side (0.01 = 1%).
    public var maxRejectRate = SanityCheck.defaultMaxRejectRate
    /// Prometheus text file to write.
    public var metricsFile: String?
    /// The run date (YYYY-MM-DD), nil = today (UTC).
    public var runDate: String?
    /// Whether every V2 JWS read is verified (`verify-signatures`), as `reconcile --verify-signatures` does.
    public var verifySignatures = false
    /// Whether V2 records given decoded are rejects rather than unverified (`require-signatures`).
    public var requireSignatures = false
    /// Extra accepted root certificates, DER or PEM files (`root-certificate`, repeatable).
    public var rootCertificates: [String] = []
    /// The bundle ID V2 records must have (`bundle-id`).
    public var bundleId: String?
    /// The appAppleId V2 records must have (`app-apple-id`).
    public var appAppleId: String?

    /// Creates default settings.
    public init() {}

    // MARK: - Resolving

    /// Resolves `config` (if any) and the flags in `arguments`; flags win; relative paths in the config (and the
    /// defaults, when a config is given) are taken relative to the config file's folder.
    public static func resolve(_ arguments: ParsedArguments, config: NightlyConfigFile?) throws(ASNError) -> NightlySettings {
        var s = NightlySettings()
        let base = config.map { FileSystem.parentDirectory(of: $0.path) }
        func relative(_ path: String) -> String {
            guard let base, !path.hasPrefix("/"), base != "." else { return path }
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
                if arguments.isSet(flag) {
                    values = arguments.values(flag)
                } else {
                    values = config?.entries(key).map { relative($0.value) } ?? []
                }
                switch key {
                case "v1": s.v1 = values
                case "v2": s.v2 = values
                default: s.rootCertificates = values
                }
                continue
            }
            if NightlyConfigFile.booleanKeys.contains(key) {
                var on = arguments.flag(flag)
                if !on, let config, let entry = config.entries(key).last {
                    guard let parsed = Self.boolean(entry.value) else {
                        throw NightlyConfigFile.error(config.path, entry.line, "key '\(key)' needs yes or no (got '\(entry.value)')")
                    }
                    on = parsed
                }
                if key == "verify-signatures" { s.verifySignatures = on } else { s.requireSignatures = on }
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
        guard !s.v1.isEmpty || !s.v2.isEmpty else {
            throw ASNError(.usage, "no input roots: give --v1 PATH and --v2 PATH (or v1 = / v2 = lines in --config FILE). See 'asn-migrate nightly --help'.")
        }
        return s
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
        case "window": window = try ArgumentValue.durationMilliseconds(value, option: option)
        case "settle": settle = try ArgumentValue.durationMilliseconds(value, option: option)
        case "horizon": horizon = try ArgumentValue.durationMilliseconds(value, option: option)
        case "environment": environment = try ArgumentValue.choice(value, option: option, among: ["Production", "Sandbox"])
        case "retention-days": retentionDays = try ArgumentValue.integer(value, option: option, in: 1...36_500)
        case "bundle-id": bundleId = value
        case "app-apple-id": appAppleId = value
        case "max-reject-rate":
            guard let rate = SanityCheck.parseRate(value) else {
                throw ASNError(.usage, "option '\(option)' needs a fraction (0.01) or a percentage (1%) between 0 and 1, not '\(value)'")
            }
            maxRejectRate = rate
        case "run-date":
            guard let parsed = Timestamp.parseUTCDayOrInstant(value), parsed.isWholeDay else {
                throw ASNError(.usage, "option '\(option)' needs a date like 2021-03-01, not '\(value)'")
            }
            runDate = Timestamp.day(ms: parsed.ms)
        default:
            throw ASNError(.usage, "unknown key '\(key)'")
        }
    }

    /// `yes`/`no`, `true`/`false`, `1`/`0` (any case); nil otherwise.
    static func boolean(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "yes", "true", "1", "on": return true
        case "no", "false", "0", "off": return false
        default: return nil
        }
    }

    /// The signature checks these settings ask for (nil without `verify-signatures`), built as `reconcile` builds them.
    public func signaturePolicy() throws(ASNError) -> SignaturePolicy? {
        try ReconcileCommand.signaturePolicy(verify: verifySignatures, requireSignatures: requireSignatures,
                                             rootCertificates: rootCertificates, bundleId: bundleId, appAppleId: appAppleId)
    }

    // MARK: - Derived

    /// The run's "now": the last millisecond of `runDate` (UTC) when given, else `clock`.
    public func now(clock: Int64) -> Int64 {
        guard let runDate, let parsed = Timestamp.parseUTCDayOrInstant(runDate) else { return clock }
        return parsed.ms + Timestamp.millisecondsPerDay - 1
    }

    /// The run date: `runDate`, else the clock's UTC day.
    public func day(clock: Int64) -> String {
        runDate ?? Timestamp.day(ms: clock)
    }
}
