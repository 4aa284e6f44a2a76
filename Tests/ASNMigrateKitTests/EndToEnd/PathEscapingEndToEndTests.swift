import Foundation
import Testing

@testable import ASNMigrateKit

/// A file name holding a line break or an escape sequence cannot forge a console line or a
/// rejects row; every path printed goes through `ConsoleText.path`.
@Suite(.enabled(if: BinaryRun.executable != nil, "needs the built asn-migrate executable"))
struct PathEscapingEndToEndTests {
    @Test func aLineBreakInAFileNameIsPrintedEscapedInWarningsRejectsAndLinkMessages() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let forged = "\nFORGED: all good\n"
        try tmp.write("in/a.jsonl", InputDamageEndToEndTests.goodV1Lines(2).joined(separator: "\n"))
        try tmp.write("in/b\(forged)bad.jsonl", "{not json\n")
        #expect(mkfifo(tmp.path + "/in/c\(forged)\u{1B}[2J.fifo", 0o600) == 0)
        try FileManager.default.createSymbolicLink(
            atPath: tmp.path + "/in/d\(forged)dangling.jsonl", withDestinationPath: tmp.path + "/gone.jsonl")
        let rejects = tmp.path + "/rejects.csv"
        let run = try BinaryRun.run([
            "migrate", tmp.path + "/in", "--out", tmp.path + "/out.jsonl", "--rejects", rejects
        ])
        #expect(run.status == ExitStatus.findings.rawValue, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(!lines.contains { $0.hasPrefix("FORGED") }, "\(run.stderr)")
        #expect(!run.stderr.contains("\u{1B}"))
        #expect(run.stderr.contains("c\\nFORGED: all good\\n\\u{1B}[2J.fifo"), "\(run.stderr)")
        #expect(run.stderr.contains("d\\nFORGED: all good\\ndangling.jsonl"), "\(run.stderr)")
        let text = String(decoding: try tmp.read("rejects.csv"), as: UTF8.self)
        #expect(!text.split(separator: "\n").contains { $0.hasPrefix("FORGED") }, "\(text)")
        let rows = try CSVReader.read(try tmp.read("rejects.csv"), path: rejects).records
        #expect(rows.count == 2, "\(rows)")
        #expect(rows.allSatisfy { !$0.fields.joined().contains("\n") }, "\(rows)")
        #expect(rows.contains { $0.fields[1].hasSuffix("b\\nFORGED: all good\\nbad.jsonl") }, "\(rows)")
    }
}
