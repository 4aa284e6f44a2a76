import Testing
@testable import ASNMigrateKit

/// The built binary prints its version under every spelling a user tries, and exits 0.
@Suite struct VersionEndToEndTests {
    @Test(arguments: ["--version", "-V", "version"])
    func theVersionIsPrinted(spelling: String) throws {
        let run = try BinaryRun.run([spelling])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdoutText == ASNMigrateCLI.version + "\n")
    }
}
