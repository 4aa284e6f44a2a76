// asn-migrate-test-host: the `asn-migrate` binary plus the crash tests' pause hook. Test-only, never installed:
// `nightly` stops at the step named by ASN_MIGRATE_TEST_PAUSE_AT (one of `NightlyCommand.steps`), says so on
// standard error and sleeps, so a test can kill it there with SIGKILL.
import ASNMigrateKit
import ASNSimulation
import Foundation

signal(SIGPIPE, SIG_IGN)
let pauseAt = ProcessInfo.processInfo.environment["ASN_MIGRATE_TEST_PAUSE_AT"]
let commands = ToolCommands.all.map { entry in
    guard entry.spec.name == "nightly" else { return entry }
    return CommandEntry(spec: entry.spec) { arguments, console in
        NightlyCommand.run(
            arguments, console: console,
            stepReached: { step in
                guard step == pauseAt else { return }
                console.diagnostic("asn-migrate nightly: test pause at \(step) (pid \(getpid()))")
                while true { sleep(60) }
            })
    }
}
let status = ASNMigrateCLI.run(Array(CommandLine.arguments.dropFirst()), commands: commands)
exit(status.rawValue)
