import Foundation
import Testing

@testable import ASNMigrateKit

/// The built binary prints its version, the commit it was built from and the rules digest under every spelling a
/// user tries, and exits 0.
@Suite struct VersionEndToEndTests {
    @Test(arguments: ["--version", "-V", "version"])
    func theVersionIsPrinted(spelling: String) throws {
        let run = try BinaryRun.run([spelling])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(run.stdoutText)")
        #expect(lines.first == ASNMigrateCLI.version)
        #expect(lines.dropFirst().first?.hasPrefix("commit ") == true)
        // The digest a nightly state records for the built-in rules.
        #expect(lines.last == "rules digest \(try MappingTable.builtIn().digest) (built-in Mappings)")
    }
}

/// `.ci/install` puts the binary and the mapping files under `PREFIX`; the installed binary runs the README's sample
/// job with the installed column map. (The test installs the debug binary: CI cannot afford a static release build.)
@Suite(.enabled(if: BinaryRun.executable != nil, "needs the built asn-migrate executable"))
struct InstallEndToEndTests {
    @Test func theInstallScriptInstallsIntoPrefix() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let binary = try #require(BinaryRun.executable).path
        let prefix = tmp.path + "/prefix with space"
        let script = PackagePaths.root.appendingPathComponent(".ci/install").path
        let install = Shell.run("PREFIX='\(prefix)' '\(script)' --binary '\(binary)'", in: tmp.path)
        #expect(install.status == 0, "\(install.stderr)")
        let installed = prefix + "/bin/asn-migrate"
        #expect(FileManager.default.isExecutableFile(atPath: installed))
        for name in try FileManager.default.contentsOfDirectory(
            atPath: PackagePaths.root.appendingPathComponent("Mappings").path)
        {
            #expect(
                FileManager.default.fileExists(atPath: prefix + "/share/asn-migrate/Mappings/" + name),
                "\(name) is installed")
        }
        // The sample job from the README, run by the installed binary from another folder.
        let sample = PackagePaths.sample.path
        let job = Shell.run(
            "'\(installed)' reconcile --v1 '\(sample)/v1' --v2 '\(sample)/v2' --out report --max-reject-rate 20% --run-date 2026-01-01",
            in: tmp.path)
        #expect(job.status == 1, "the sample holds deliberate differences: \(job.stderr)")
        #expect(FileManager.default.fileExists(atPath: tmp.path + "/report/summary.csv"))
        let wrong = Shell.run("PREFIX='\(prefix)' '\(script)' --no-such-option", in: tmp.path)
        #expect(wrong.status == 64, "\(wrong.stderr)")
    }
}
