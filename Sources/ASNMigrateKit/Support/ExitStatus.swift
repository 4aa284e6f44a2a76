/// The documented exit codes of asn-migrate.
public enum ExitStatus: Int32, Sendable, Equatable, CaseIterable {
    /// Everything read was processed; nothing to report.
    case success = 0
    /// Finished, with rejected or unmapped records (`migrate`) or differences or rejects (`reconcile`).
    case findings = 1
    /// Nothing usable: unreadable input path, bad mapping file, or the run failed; no report written.
    case failure = 2
    /// The report was written, but the input failed a sanity check (reject rate above `--max-reject-rate`, or one side empty).
    case sanityCheckFailed = 3
    /// The command line was wrong (EX_USAGE).
    case usage = 64
    /// `merge`: the shard folders do not make one whole run, or their figures do not add up (EX_DATAERR); nothing written.
    case dataError = 65
    /// Apple's API still failed after the retries for some ids (`fetch`, EX_UNAVAILABLE); what was fetched is kept.
    case unavailable = 69
    /// Another run holds the lock on the same output; try again later (EX_TEMPFAIL).
    case locked = 75
    /// Apple's API refused the token (`fetch`, HTTP 401, EX_NOPERM): key id, issuer id, bundle id, key or clock.
    case unauthorized = 77
    /// A database source is configured wrong: bad URI, failed login, no such database, table or column (EX_CONFIG).
    case configuration = 78

    /// Exit 75 (EX_TEMPFAIL) under the name that fits a database that cannot be reached now; the same code as `locked`.
    package static let temporaryFailure: ExitStatus = .locked

    /// The error codes whose failures have an exit code of their own, each with the words of its row in the README's
    /// exit-code table that name it (`ExitStatusTests` holds the two together); any other code is the step's own
    /// failure status.
    package static let errorCodeTable: [(code: ASNError.Code, status: ExitStatus, documentedAs: String)] = [
        (.usage, .usage, "usage error"),
        (.badShards, .dataError, "not one complete run"),
        (.locked, .locked, "another run holds the lock"),
        (.databaseUnavailable, .temporaryFailure, "PostgreSQL could not be reached"),
        (.unauthorized, .unauthorized, "Apple refused the key"),
        (.databaseConfiguration, .configuration, "PostgreSQL source is misconfigured")
    ]

    /// The status of a run that stopped on `error`: `errorCodeTable`'s for its code, else `otherwise` (the failure
    /// status of the step that stopped: 2 unless that step says another, as `merge`'s check of the shards says 65).
    /// Every command turns an error into its exit code here.
    package init(stoppedBy error: ASNError, otherwise: ExitStatus = .failure) {
        self = Self.errorCodeTable.first { $0.code == error.code }?.status ?? otherwise
    }

    /// The status of a run that stopped on `error`, an `ASNError` or not (another error is `otherwise`).
    package init(stoppedBy error: any Error, otherwise: ExitStatus = .failure) {
        if let error = error as? ASNError {
            self.init(stoppedBy: error, otherwise: otherwise)
        } else {
            self = otherwise
        }
    }

    /// One line for the EXIT STATUS table of `--help` and the README.
    public var help: String {
        switch self {
        case .success: return "Success: everything read was processed; nothing to report."
        case .findings:
            return
                "Output written, with rejected or unmapped records (migrate) or differences or rejects (reconcile); with any --fail-on rule, a crossed --fail-on rule and nothing else."
        case .failure:
            return
                "Failed: unreadable input, bad mapping, unusable output path, or a write failed; no file or report was published (standard output, a device or a FIFO may hold part of the output, as the message says)."
        case .sanityCheckFailed:
            return
                "Output written, but the input failed a sanity check: a reject rate above --max-reject-rate, or (reconcile) one side has no records while the other has some; standard error names the check."
        case .usage: return "The command line was wrong (EX_USAGE)."
        case .dataError:
            return
                "merge: the shard folders are not one whole run (a shard missing or repeated, another N, run date, judgement or tool version) or their figures do not add up (EX_DATAERR); nothing written."
        case .unavailable:
            return
                "fetch, nightly --fetch: App Store Server API still failed after --max-retries for some ids (EX_UNAVAILABLE); everything answered is kept; run the same command again to continue (nightly: the night is published and the next night asks them again)."
        case .unauthorized:
            return
                "fetch, nightly --fetch: App Store Server API refused the token (HTTP 401, EX_NOPERM; nightly: the night was not run): check the key id, issuer id, bundle id, the .p8 key and the clock."
        case .locked:
            return
                "Temporary (EX_TEMPFAIL): another run is writing the same output and holds its lock, or a PostgreSQL source could not be reached or dropped the connection; nothing was published; run again later."
        case .configuration:
            return
                "A PostgreSQL source is configured wrong (EX_CONFIG): bad URI, failed login, no such database, table or column, or a query the server refuses; nothing was published."
        }
    }
}
