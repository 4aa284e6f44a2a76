/// What parsing a command line produced: arguments to run with, or text to print and exit 0.
package enum ParseOutcome: Sendable, Equatable {
    /// Run the command with these arguments.
    case run(ParsedArguments)
    /// `-h` / `--help` / `help` was asked for: print this text to standard output and exit 0.
    case help(String)
    /// `--version` was asked for: print this text and exit 0.
    case version(String)
}
