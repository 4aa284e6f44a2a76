/// One subcommand as the tool runs it: its spec (options, help) and the function that runs it.
///
/// Lets a target above the library (`ASNSimulation`'s `simulate`) add a command without the library importing it.
package struct CommandEntry: Sendable {
    /// The command's name, options and help.
    package let spec: CommandSpec
    /// Runs the command on its parsed arguments and returns its exit status.
    package let run: @Sendable (ParsedArguments, Console) -> ExitStatus

    /// Creates an entry.
    package init(spec: CommandSpec, run: @escaping @Sendable (ParsedArguments, Console) -> ExitStatus) {
        self.spec = spec
        self.run = run
    }
}
