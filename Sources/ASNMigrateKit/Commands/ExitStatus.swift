/// The documented exit codes of asn-migrate.
public enum ExitStatus: Int32, Sendable, Equatable {
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
    /// Another run holds the lock on the same output; try again later (EX_TEMPFAIL).
    case locked = 75
}
