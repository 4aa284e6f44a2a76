import ASNMigrateKit

/// Every command of the `asn-migrate` tool, in help order: the library's own, then `simulate` from this target.
///
/// The executable runs `ASNMigrateCLI.run(arguments, commands: ToolCommands.all)`; the dependency points one way
/// (`ASNSimulation` → `ASNMigrateKit`), so the library builds, and is used, without the simulator.
package enum ToolCommands {
    /// The commands, in help order.
    package static let all: [CommandEntry] = ASNMigrateCLI.builtInCommands + [SimulateCommand.entry]

    /// The tool's program: every subcommand and its options.
    package static var program: Program { ASNMigrateCLI.program(commands: all) }
}
