import Foundation
import Testing

/// `.ci/run` runs exactly the README's test command, so CI checks what a new engineer runs.
@Suite struct ReadmeCommandsTests {
    @Test func ciRunsExactlyTheReadmesTestCommand() throws {
        let readme = try String(contentsOf: PackagePaths.root.appendingPathComponent("README.md"), encoding: .utf8)
        let ci = try String(contentsOf: PackagePaths.root.appendingPathComponent(".ci/run"), encoding: .utf8)
        let setUp = try #require(readme.range(of: "## Set-up on a fresh machine"))
        // The set-up section's fenced blocks: the sample job, then the test command.
        let blocks = readme[setUp.upperBound...].components(separatedBy: "```").enumerated()
            .filter { $0.offset % 2 == 1 }.map { $0.element.trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(blocks.count >= 2)
        let testCommand = try #require(blocks.dropFirst().first)
        let ciCommand = ci.split(separator: "\n").map(String.init).last { !$0.hasPrefix("#") && !$0.isEmpty }
        #expect(ciCommand == testCommand, "README: \(testCommand)\n.ci/run: \(ciCommand ?? "")")
        #expect(testCommand.contains("swift format lint --strict") && testCommand.hasSuffix("swift test"))
    }
}
