/// One exit status a command can return and what it means for that command: a row of its `--help` EXIT STATUS
/// table and the words of the run's last console line (`asn-migrate reconcile: exit 1: …`).
package struct CommandExit: Sendable, Equatable {
    /// The status.
    package var status: ExitStatus
    /// What it means for this command, in a few words a reader of a cron log understands.
    package var meaning: String

    /// Creates a row.
    package init(_ status: ExitStatus, _ meaning: String) {
        self.status = status
        self.meaning = meaning
    }

    /// The rows every command shares: a command line the command could not take.
    package static let usage = CommandExit(.usage, "usage error: the command line was wrong; nothing was run")
}

/// One line of a command's EXAMPLES section in `--help`: what it does and the arguments after the executable name.
package struct CommandExample: Sendable, Equatable {
    /// What the example does.
    package var summary: String
    /// The arguments after `asn-migrate`, the command's name first.
    package var arguments: [String]

    /// Creates an example.
    package init(_ summary: String, _ arguments: [String]) {
        self.summary = summary
        self.arguments = arguments
    }

    /// The command line as a shell takes it: `asn-migrate` and the arguments, single-quoted where needed.
    package func commandLine(programName: String = "asn-migrate") -> String {
        ([programName] + arguments.map(Self.quoted)).joined(separator: " ")
    }

    /// `argument`, single-quoted when a shell would split or expand it.
    private static func quoted(_ argument: String) -> String {
        let plain = argument.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:%,+@".contains($0) }
        guard !plain || argument.isEmpty else { return argument }
        return "'" + argument.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
