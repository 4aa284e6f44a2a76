import Foundation
import Testing

/// A test whose tool (or built binary) is missing must say so: skipped with its reason (`.enabled(if: MachineTools.…, "needs …")`) or
/// failed (`#require`), never passed by a `guard … else { return }` or an `if let` around the checks. This reads every
/// test source and fails on a tool probe in such a guard or `if`, naming the file and line.
@Suite struct NoSilentSkipTests {
    /// Texts that look for a tool on the machine: a binary, a library that loads, a server that starts, a module.
    static let probes = [
        "isExecutableFile", "PostgresServer(", "ArchiveFixture.zstd(", "ZstdLibrary", "import yaml", "python3",
        "terminationStatus", ".run()", "/.git", "command -v", "BinaryRun.executable"
    ]

    /// The one file that may probe for tools in conditions: it turns each into a flag for `.enabled(if:)`.
    static let probingFile = "MachineTools.swift"

    /// A `guard` whose `else` only returns, continues or breaks; the condition is group 1.
    private static let silentGuard = try? NSRegularExpression(
        pattern: #"\bguard\b([^{}]*?)\belse\s*\{\s*(?:return|continue|break)\s*\}"#)
    /// An `if let`, `if var` or `if case` around a block; the condition is group 1.
    private static let conditionalBlock = try? NSRegularExpression(pattern: #"\bif\s+(?:let|var|case)\b([^{}]*?)\{"#)

    /// Every silent skip in `text`, as "line N: the statement's start".
    static func silentSkips(in text: String) throws -> [String] {
        let patterns = [try #require(silentGuard), try #require(conditionalBlock)]
        let whole = NSRange(text.startIndex..., in: text)
        var found: [(line: Int, text: String)] = []
        for pattern in patterns {
            for match in pattern.matches(in: text, range: whole) {
                guard let condition = Range(match.range(at: 1), in: text),
                    let statement = Range(match.range, in: text)
                else { continue }
                guard probes.contains(where: { text[condition].contains($0) }) else { continue }
                let line = text[..<statement.lowerBound].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
                let start = text[statement].split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
                found.append((line, start.trimmingCharacters(in: .whitespaces)))
            }
        }
        return found.sorted { $0.line < $1.line }.map { "line \($0.line): \($0.text)" }
    }

    @Test func noTestPassesSilentlyWithoutItsTool() throws {
        var scanned = 0
        var skips: [String] = []
        for (relative, text) in try PackagePaths.swiftFiles(under: "Tests") {
            guard !relative.hasSuffix("/" + Self.probingFile), !relative.hasSuffix("/NoSilentSkipTests.swift") else {
                continue
            }
            scanned += 1
            skips += try Self.silentSkips(in: text).map { "Tests/\(relative) \($0)" }
        }
        #expect(scanned > 100, "the test sources were found")
        #expect(
            skips.isEmpty,
            "a test passes silently when its tool is missing; skip it visibly (.enabled(if: MachineTools.…)) or #require the tool: \(skips)"
        )
    }

    @Test func theSilentFormsAreCaughtAndTheVisibleOnesAreNot() throws {
        let silent = """
            @Test func a() throws {
                guard FileManager.default.isExecutableFile(atPath: "/usr/bin/flock") else { return }
            }
            @Test func b() throws {
                guard
                    let server = PostgresServer()
                else { return }
                for kind in kinds {
                    guard let compressed = try ArchiveFixture.zstd(bytes) else { continue }
                }
                if let zstd = try ArchiveFixture.zstd(bytes) {
                    #expect(zstd.count > 0)
                }
                guard probe.terminationStatus == 0 else { return }
            }
            """
        #expect(
            try Self.silentSkips(in: silent).map { $0.split(separator: ":").first ?? "" } == [
                "line 2", "line 5", "line 9", "line 11", "line 14"
            ])
        let visible = """
            @Test(.enabled(if: MachineTools.flock, "needs flock(1)"))
            func a() throws {
                let server = try #require(PostgresServer(), "the PostgreSQL server did not start")
                let zstd = try #require(try ArchiveFixture.zstd(bytes))
                guard let first = items.first else { return nil }
                guard record.isEmpty else { return }
            }
            """
        #expect(try Self.silentSkips(in: visible).isEmpty)
    }
}
