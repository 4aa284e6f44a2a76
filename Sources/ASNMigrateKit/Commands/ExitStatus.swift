/// The documented exit codes of asn-migrate.
public enum ExitStatus: Int32, Sendable, Equatable {
    /// Everything read was processed; nothing to report.
    case success = 0
    /// Finished, with rejected or unmapped records (`migrate`) or differences or rejects (`reconcile`).
    case findings = 1
    /// Nothing usable: unreadable input path, bad mapping file, or the run failed; no report written.
    case failure = 2
    /// The command line was wrong (EX_USAGE).
    case usage = 64
}
