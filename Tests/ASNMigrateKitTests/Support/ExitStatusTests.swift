import Foundation
import Testing

@testable import ASNMigrateKit

/// The one mapping of errors to exit codes (`ExitStatus(stoppedBy:)`, `ExitStatus.errorCodeTable`) against the
/// README's exit-code table, which it must not drift from, and no command keeping a mapping of its own.
@Suite struct ExitStatusTests {
    /// The README's `## Exit codes` table: each code's row (meaning and what to do), read from the file.
    static func readmeRows() throws -> [Int32: String] {
        let readme = String(decoding: try PackagePaths.read("README.md"), as: UTF8.self)
        let start = try #require(readme.range(of: "\n## Exit codes\n"), "README.md has an '## Exit codes' section")
        let section = readme[start.upperBound...]
        let end = section.range(of: "\n## ")?.lowerBound ?? section.endIndex
        var rows: [Int32: String] = [:]
        for line in section[..<end].split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 4, let code = Int32(cells[1]) else { continue }
            #expect(rows[code] == nil, "code \(code) has two rows")
            rows[code] = cells[2...].joined(separator: " | ")
        }
        return rows
    }

    @Test func theReadmeTableHasARowForEveryCodeAndNoOther() throws {
        let rows = try Self.readmeRows()
        #expect(rows.count >= 10, "the table was read: \(rows.keys.sorted())")
        #expect(Set(rows.keys) == Set(ExitStatus.allCases.map(\.rawValue)))
    }

    @Test func everyMappedErrorCodeGoesWhereItsReadmeRowSays() throws {
        let rows = try Self.readmeRows()
        #expect(Set(ExitStatus.errorCodeTable.map(\.code)).count == ExitStatus.errorCodeTable.count, "a code twice")
        for entry in ExitStatus.errorCodeTable {
            let error = ASNError(entry.code, "stopped")
            #expect(ExitStatus(stoppedBy: error) == entry.status)
            #expect(ExitStatus(stoppedBy: error, otherwise: .dataError) == entry.status, "the table wins")
            #expect(ExitStatus(stoppedBy: error as any Error) == entry.status)
            let row = try #require(rows[entry.status.rawValue], "README has no row for \(entry.status.rawValue)")
            #expect(
                row.contains(entry.documentedAs),
                "README's row for \(entry.status.rawValue) does not say '\(entry.documentedAs)' (\(entry.code)): \(row)"
            )
            // No other row says it: the words name one code.
            for (code, other) in rows where code != entry.status.rawValue {
                #expect(!other.contains(entry.documentedAs), "'\(entry.documentedAs)' is also in row \(code)")
            }
        }
    }

    @Test func anyOtherErrorIsTheFailingStepsOwnStatus() {
        let mapped = Set(ExitStatus.errorCodeTable.map(\.code))
        let others = ASNError.Code.allCases.filter { !mapped.contains($0) }
        #expect(others.contains(.unreadableInput) && others.contains(.outputFailed))
        for code in others {
            #expect(ExitStatus(stoppedBy: ASNError(code, "stopped")) == .failure, "\(code)")
            #expect(ExitStatus(stoppedBy: ASNError(code, "stopped"), otherwise: .dataError) == .dataError, "\(code)")
        }
        #expect(ExitStatus(stoppedBy: CocoaError(.fileNoSuchFile) as any Error) == .failure)
        #expect(ExitStatus(stoppedBy: CocoaError(.fileNoSuchFile) as any Error, otherwise: .usage) == .usage)
    }

    /// Each inline mapping of an error code to an exit status in `text` (`code == .usage ? .usage : …`,
    /// `case .locked: return .locked`).
    static func inlineMaps(in text: String) throws -> [String] {
        let statuses = Set(ExitStatus.allCases.map { "\($0)" } + ["temporaryFailure"])
        let inline = try NSRegularExpression(
            pattern: #"code\s*==\s*\.\w+\s*\?\s*\.(\w+)\b(?!\s*\()|case\s+\.\w+\s*:\s*return\s+\.(\w+)\b(?!\s*\()"#)
        return inline.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            let names = [1, 2].compactMap { Range(match.range(at: $0), in: text).map { String(text[$0]) } }
            guard names.contains(where: statuses.contains), let range = Range(match.range, in: text) else { return nil }
            return String(text[range])
        }
    }

    /// The mapping is declared once: no source maps an error code to a status inline.
    @Test func noSourceMapsAnErrorCodeToAStatusInline() throws {
        var scanned = 0
        var found: [String] = []
        for (relative, text) in try PackagePaths.swiftFiles(under: "Sources") {
            guard !relative.hasSuffix("Support/ExitStatus.swift") else { continue }
            scanned += 1
            found += try Self.inlineMaps(in: text).map { "Sources/\(relative): \($0)" }
        }
        #expect(scanned > 100)
        #expect(found.isEmpty, "map the error through ExitStatus(stoppedBy:): \(found)")
    }

    @Test func anInlineMapIsCaughtAndOtherCodeIsNot() throws {
        let inline = """
            return error.code == .usage ? .usage : .failure
            return (error as? ASNError)?.code == .badShards ? .dataError : .failure
            switch error.code {
            case .usage: return .usage
            case .locked: return .temporaryFailure
            default: return .failure
            }
            """
        #expect(try Self.inlineMaps(in: inline).count == 4)
        let other = """
            return ExitStatus(stoppedBy: error, otherwise: .dataError)
            case .error: return .failure(error)
            let kind = code == .usage ? "usage" : "other"
            case .stored: return .deflate
            """
        #expect(try Self.inlineMaps(in: other).isEmpty)
    }
}
