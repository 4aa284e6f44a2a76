// asn-migrate: thin executable; all logic lives in ASNMigrateKit, the simulator and its command in ASNSimulation.
import ASNMigrateKit
import ASNSimulation
import Foundation

// A reader that goes away (a closed pipe or FIFO) must fail the write with EPIPE, so the run can say how much of its
// output got out and exit 2, instead of being killed silently by SIGPIPE.
signal(SIGPIPE, SIG_IGN)
let status = ASNMigrateCLI.run(Array(CommandLine.arguments.dropFirst()), commands: ToolCommands.all)
exit(status.rawValue)
