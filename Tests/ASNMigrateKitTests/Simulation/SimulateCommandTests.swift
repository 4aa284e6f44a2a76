import Foundation
import Testing

@testable import ASNMigrateKit
@testable import ASNSimulation

@Suite struct SimulateCommandTests {
    /// Collects what a command writes to standard error.
    private final class Capture: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        var text: String { lock.withLock { lines.joined(separator: "\n") } }
        func add(_ line: String) { lock.withLock { lines.append(line) } }
    }

    private func run(_ arguments: [String]) -> (status: ASNMigrateKit.ExitStatus, stderr: String) {
        let capture = Capture()
        let console = Console(output: { (_: [UInt8]) throws(ASNError) in }, diagnostic: { capture.add($0) })
        return (ASNMigrateCLI.run(arguments, console: console, commands: ToolCommands.all), capture.text)
    }

    @Test func specIsSoundAndRegistered() {
        #expect(SimulateCommand.spec.specProblems.isEmpty)
        #expect(ToolCommands.program.commands.contains { $0.name == "simulate" })
    }

    @Test func theToolAddsSimulateLastAndTheLibraryAloneDoesNotKnowIt() {
        #expect(
            ToolCommands.all.map(\.spec.name) == [
                "migrate", "reconcile", "nightly", "merge", "partition", "mappings", "fetch", "simulate"
            ])
        #expect(!ASNMigrateCLI.builtInCommands.contains { $0.spec.name == "simulate" })
        let console = Console(output: { (_: [UInt8]) throws(ASNError) in }, diagnostic: { _ in })
        #expect(
            ASNMigrateCLI.run(["simulate", "--subscribers", "1", "--seed", "1", "--out", "x"], console: console)
                == .usage)
    }

    @Test(arguments: [
        (["simulate", "--seed", "1", "--out", "x"], "--subscribers"),
        (["simulate", "--subscribers", "5", "--out", "x"], "--seed"),
        (["simulate", "--subscribers", "5", "--seed", "1"], "--out"),
        (["simulate", "--subscribers", "5", "--seed", "-1", "--out", "x"], "--seed"),
        (["simulate", "--subscribers", "5", "--seed", "1", "--inject", "1.5", "--out", "x"], "--inject"),
        (["simulate", "--subscribers", "5", "--seed", "1", "--start", "yesterday", "--out", "x"], "--start"),
        (["simulate", "--subscribers", "0", "--seed", "1", "--out", "x"], "--subscribers"),
        // An upgrade's V1 body must show the transaction it replaces, so one receipt entry cannot simulate it.
        (["simulate", "--subscribers", "5", "--seed", "1", "--receipt-history", "1", "--out", "x"], "--receipt-history")
    ])
    func usageErrors(arguments: [String], option: String) {
        let result = run(arguments)
        #expect(result.status == ASNMigrateKit.ExitStatus.usage)
        #expect(result.stderr.contains(option), "\(result.stderr)")
    }

    @Test func writesTheDirectory() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let out = directory.path + "/sim"
        let result = run([
            "simulate", "--subscribers", "30", "--seed", "9", "--start", "2022-03-01", "--months", "3", "--inject",
            "0.1", "--out", out
        ])
        #expect(result.status == ASNMigrateKit.ExitStatus.success, "\(result.stderr)")
        #expect(result.stderr.contains("30 subscribers"))
        let readme = try String(contentsOfFile: out + "/README.txt", encoding: .utf8)
        #expect(readme.contains("seed                  9"))
        #expect(readme.contains("start                 2022-03-01T00:00:00.000Z"))
        #expect(FileManager.default.fileExists(atPath: out + "/v1/2022-03.jsonl"))
        #expect(FileManager.default.fileExists(atPath: out + "/v2/2022-05.jsonl"))
        #expect(FileManager.default.fileExists(atPath: out + "/truth.csv"))
        #expect(FileManager.default.fileExists(atPath: out + "/truth-rejects.csv"))
        #expect(readme.contains("realistic edges       false"))
    }

    @Test func realisticEdgesIsAnOptionAndTheReadmeRepeatsIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let out = directory.path + "/sim"
        let result = run([
            "simulate", "--subscribers", "5", "--seed", "2", "--months", "2", "--realistic-edges", "--out", out
        ])
        #expect(result.status == ASNMigrateKit.ExitStatus.success, "\(result.stderr)")
        let readme = try String(contentsOfFile: out + "/README.txt", encoding: .utf8)
        #expect(readme.contains("realistic edges       true"))
        #expect(readme.contains(" --realistic-edges --out "))
    }
}
