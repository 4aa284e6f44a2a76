import ASNSimulation
import Foundation
import Testing

@testable import ASNMigrateKit

/// The documentation as a reader meets it: the README is a short guide, every link in every doc leads somewhere, no
/// doc, source or test names an issue number, and every `asn-migrate` command shown in any doc is one the tool accepts.
@Suite struct DocsTests {
    /// Every Markdown document of the repository that a user or a developer reads.
    static func documents() throws -> [String] {
        var paths = [
            "README.md", "Mappings/README.md", "Sources/README.md", "Sources/benchmark-results.md",
            "Tests/Fixtures/README.md"
        ]
        let reports = try FileManager.default.contentsOfDirectory(
            atPath: PackagePaths.root.appendingPathComponent("Reports").path)
        paths += reports.filter { $0.hasSuffix(".md") }.sorted().map { "Reports/" + $0 }
        return paths
    }

    /// The text of a document under the package root.
    static func text(_ path: String) throws -> String {
        String(decoding: try PackagePaths.read(path), as: UTF8.self)
    }

    @Test func theReadmeIsAGuideOfAtMost400Lines() throws {
        let readme = try Self.text("README.md")
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 400, "README.md has \(lines) lines; move reference material to the docs it links")
        for heading in [
            "## Install", "## Set-up on a fresh machine", "## A first run of each job", "## Exit codes",
            "## Where to go next"
        ] {
            #expect(readme.contains("\n" + heading + "\n"), "README.md lacks '\(heading)'")
        }
    }

    @Test func noDocNamesAnIssueNumber() throws {
        let pattern = try NSRegularExpression(pattern: "\\bissues?\\s*#?[0-9]+", options: [.caseInsensitive])
        for path in try Self.documents() {
            let text = try Self.text(path)
            let range = NSRange(text.startIndex..., in: text)
            let found = pattern.matches(in: text, range: range).compactMap { Range($0.range, in: text) }
            #expect(found.isEmpty, "\(path) names \(found.map { String(text[$0]) })")
        }
    }

    /// Code says why, not which issue asked: a comment or string in `Sources` or `Tests` naming an issue number
    /// means nothing to the next reader once the tracker is gone.
    @Test func noSourceOrTestNamesAnIssueNumber() throws {
        let pattern = try NSRegularExpression(pattern: "\\bissues?\\s*#?[0-9]+", options: [.caseInsensitive])
        var read = 0
        for folder in ["Sources", "Tests"] {
            let root = PackagePaths.root.appendingPathComponent(folder)
            let walk = FileManager.default.enumerator(atPath: root.path)
            while let relative = walk?.nextObject() as? String {
                guard relative.hasSuffix(".swift") else { continue }
                let text = try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
                read += 1
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let line = String(line)
                    let range = NSRange(line.startIndex..., in: line)
                    #expect(
                        pattern.firstMatch(in: line, range: range) == nil,
                        "\(folder)/\(relative):\(number + 1) names an issue number: \(line)")
                }
            }
        }
        #expect(read > 300, "the Swift files of Sources and Tests were read: \(read)")
    }

    @Test func everyRelativeLinkLeadsToAFileAndHeadingThatExist() throws {
        var checked = 0
        for path in try Self.documents() {
            let folder = (path as NSString).deletingLastPathComponent
            for link in DocText.links(try Self.text(path)) {
                if link.contains("://") || link.hasPrefix("mailto:") { continue }
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let file = String(parts[0])
                let target = file.isEmpty ? path : DocText.normalized(folder.isEmpty ? file : folder + "/" + file)
                var isDirectory: ObjCBool = false
                let exists = FileManager.default.fileExists(
                    atPath: PackagePaths.root.appendingPathComponent(target).path, isDirectory: &isDirectory)
                #expect(exists, "\(path): the link '\(link)' leads to '\(target)', which does not exist")
                checked += 1
                guard exists, parts.count == 2, !isDirectory.boolValue, target.hasSuffix(".md") else { continue }
                let anchors = DocText.anchors(try Self.text(target))
                #expect(
                    anchors.contains(String(parts[1])),
                    "\(path): the link '\(link)' names no heading of \(target)")
            }
        }
        #expect(checked > 50, "the docs link to each other: \(checked) links checked")
    }

    @Test func theIgnoreFieldReferenceNamesEveryFieldOfTheTable() throws {
        let reference = try Self.text("Reports/commands.md")
        let row = try #require(reference.split(separator: "\n").first { $0.hasPrefix("| `--ignore-field NAME` |") })
        let help = try ToolCommands.program.command("reconcile").helpText
        for field in ComparedField.allCases {
            #expect(
                row.contains("`\(field.rawValue)`"), "Reports/commands.md's --ignore-field row lacks \(field.rawValue)")
            #expect(help.contains(field.rawValue), "reconcile --help lacks \(field.rawValue)")
        }
    }

    @Test func everyCommandShownInTheDocsIsOneTheToolAccepts() throws {
        var checked = 0
        for path in try Self.documents() {
            for command in DocText.commands(try Self.text(path)) {
                checked += 1
                do {
                    _ = try ToolCommands.program.parse(command.arguments)
                } catch {
                    Issue.record("\(path): '\(command.line)' is not accepted: \(error.message)")
                }
            }
        }
        #expect(checked >= 30, "the docs show commands: \(checked) parsed")
    }

    @Test func theShellReaderSplitsCommandsAsAShellWould() {
        let block = """
            N="--v1 a b --v2 c"
            $B nightly $N --state 'x y' && asn-migrate merge --out m s/* # a comment
            for k in 0 1; do JOB_COMPLETION_INDEX=$k asn-migrate reconcile --v1 v \\
              --v2 w --shard auto/2 --out 'o/{shard}' & done; wait
            """
        let commands = DocText.commands("```\n" + block + "\n```\n")
        #expect(
            commands.map(\.arguments) == [
                ["nightly", "--v1", "a", "b", "--v2", "c", "--state", "x y"],
                ["merge", "--out", "m", "s/*"],
                ["reconcile", "--v1", "v", "--v2", "w", "--shard", "auto/2", "--out", "o/{shard}"]
            ])
    }

    @Test func theAnchorsAreGitHubs() {
        let anchors = DocText.anchors("# A b\n## `nightly --shard K/N`\n### Apple's view: v1 & v2\n```\n# not\n```\n")
        #expect(anchors == ["a-b", "nightly---shard-kn", "apples-view-v1--v2"])
    }

    /// The README's first runs, in a folder of their own, with the built binary for `swift run asn-migrate`: each
    /// works on a fresh clone's sample and ends as the README says.
    @Test(.enabled(if: BinaryRun.executable != nil, "needs the built asn-migrate"))
    func theReadmesFirstRunsWorkOnTheSample() throws {
        let readme = try Self.text("README.md")
        let start = try #require(readme.range(of: "\n## A first run of each job\n"))
        let rest = readme[start.upperBound...]
        let section = String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
        let commands = DocText.commands(section)
        #expect(commands.map { $0.arguments.first ?? "" } == ["simulate", "reconcile", "migrate", "nightly"])
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        try FileManager.default.createDirectory(atPath: tmp.path + "/Tests/Fixtures", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: tmp.path + "/Tests/Fixtures/sample", withDestinationPath: PackagePaths.sample.path)
        let here = URL(fileURLWithPath: tmp.path)
        // The set-up's own first command runs first: the section reads the folder it wrote.
        let expected: [Int32] = [0, 1, 1, 1]
        for (command, status) in zip(commands, expected) {
            let run = try BinaryRun.run(command.arguments, in: here)
            #expect(run.status == status, "'\(command.line)' exited \(run.status): \(run.stderr)")
        }
        let night = try #require(commands.last).arguments
        let first = try ReportFiles.summary(tmp.path + "/.sample-out/nightly/" + Self.today())
        let rerun = try BinaryRun.run(night, in: here)
        #expect(rerun.status == 1, "a re-run of the same night publishes the same night: \(rerun.stderr)")
        #expect(try ReportFiles.summary(tmp.path + "/.sample-out/nightly/" + Self.today()) == first)
        let tomorrow = Self.today(offsetDays: 1)
        let next = try BinaryRun.run(night + ["--run-date", tomorrow], in: here)
        #expect(next.status == 0, "the next night reads nothing new: \(next.stderr)")
        #expect(FileManager.default.fileExists(atPath: tmp.path + "/.sample-out/sim/truth-api.csv"))
        #expect(FileManager.default.fileExists(atPath: tmp.path + "/.sample-out/sim-report/report.html"))
        #expect(FileManager.default.fileExists(atPath: tmp.path + "/.sample-out/v2.jsonl"))
        #expect(FileManager.default.fileExists(atPath: tmp.path + "/.sample-out/nightly/state.sqlite"))
    }
}

extension DocsTests {
    /// Whether the `sqlite3` shell is on the machine.
    static let sqlitePresent = Shell.run("command -v sqlite3 > /dev/null", in: "/").status == 0

    /// `Reports/README.md`'s SQLite session, run as written from a repository root (its `Reports/` scripts, the sample,
    /// the set-up's report in `.sample-out/report/`): it answers from the report, twice in a row, and leaves the
    /// report folder as the next run of the set-up's `reconcile` can replace (the database beside it, not inside).
    @Test(
        .enabled(if: sqlitePresent && BinaryRun.executable != nil, "needs the sqlite3 shell and the built asn-migrate"))
    func theSQLiteRecipeRunsAsWrittenOnTheSetUpsReport() throws {
        let text = try Self.text("Reports/README.md")
        // The fenced block (lines between ``` fences) that runs the session from the repository root.
        var blocks: [[String]] = []
        var block: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                if let open = block { blocks.append(open) }
                block = block == nil ? [] : nil
            } else {
                block?.append(line)
            }
        }
        let recipe = try #require(
            blocks.first { $0.contains { $0.hasPrefix("sqlite3 ") && $0.contains(".read Reports/schema.sql") } },
            "Reports/README.md has no SQLite session run from the repository root"
        ).joined(separator: "\n")
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        try FileManager.default.createDirectory(atPath: tmp.path + "/Tests/Fixtures", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: tmp.path + "/Tests/Fixtures/sample", withDestinationPath: PackagePaths.sample.path)
        for name in ["schema.sql", "sqlite-empty-to-null.sql"] {
            _ = try tmp.write("Reports/" + name, try PackagePaths.read("Reports/" + name))
        }
        let setUp = [
            "reconcile", "--v1", "Tests/Fixtures/sample/v1", "--v2", "Tests/Fixtures/sample/v2", "--out",
            ".sample-out/report", "--max-reject-rate", "20%", "--html"
        ]
        let here = URL(fileURLWithPath: tmp.path)
        let first = try BinaryRun.run(setUp, in: here)
        #expect(first.status == ExitStatus.findings.rawValue, "\(first.stderr)")
        // The answer the query must give: missing_in_v2 rows by product and month, counted from the CSV itself.
        let csv = try CSVReader.read(try tmp.read(".sample-out/report/differences.csv"), path: "differences.csv")
        let header = csv.header
        let rows = [header] + csv.records.map(\.fields)
        let kind = try #require(header.firstIndex(of: "kind"))
        let product = try #require(header.firstIndex(of: "product_id"))
        let date = try #require(header.firstIndex(of: "event_date"))
        var counts: [String: Int] = [:]
        for row in rows.dropFirst() where row[kind] == "missing_in_v2" {
            counts[row[product] + "|" + String(row[date].prefix(7)), default: 0] += 1
        }
        let expected = counts.sorted { $0.key < $1.key }.map { "\($0.key)|\($0.value)\n" }.joined()
        #expect(!expected.isEmpty, "the sample holds missing_in_v2 rows")
        for round in 1...2 {
            let run = Shell.run(recipe + " > .sample-out/answer.txt", in: tmp.path)
            #expect(run.status == 0, "round \(round): \(run.stderr)")
            let answer = String(decoding: try tmp.read(".sample-out/answer.txt"), as: UTF8.self)
            #expect(answer == expected, "round \(round)")
        }
        #expect(FileManager.default.fileExists(atPath: tmp.path + "/.sample-out/reports.db"), "beside the folder")
        let again = try BinaryRun.run(setUp, in: here)
        #expect(again.status == ExitStatus.findings.rawValue, "the next run replaces the folder: \(again.stderr)")
    }

    /// The UTC date `offsetDays` from today, as `--run-date` takes it.
    static func today(offsetDays: Int = 0) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date().addingTimeInterval(Double(offsetDays) * 86_400))
    }
}

/// Reads Markdown as the docs tests need it: links, heading anchors, and the commands in fenced blocks.
enum DocText {
    /// One `asn-migrate` command of a fenced block: its arguments after the program's name, and the line shown.
    struct Command {
        /// The arguments after `asn-migrate` (or `swift run asn-migrate`, `$B`).
        let arguments: [String]
        /// The command as the doc shows it, continuation lines joined.
        let line: String
    }

    /// The targets of the inline links `[text](target)` outside fenced blocks.
    static func links(_ text: String) -> [String] {
        var links: [String] = []
        for line in prose(text) {
            var rest = Substring(line)
            while let open = rest.range(of: "](") {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(of: ")") else { break }
                let target = String(after[..<close])
                if !target.contains(" ") { links.append(target) }
                rest = after[close...]
            }
        }
        return links
    }

    /// The anchors GitHub gives the headings outside fenced blocks: lowercased, punctuation dropped, spaces to `-`.
    static func anchors(_ text: String) -> [String] {
        prose(text).compactMap { line -> String? in
            guard line.hasPrefix("#") else { return nil }
            let title = line.drop { $0 == "#" }
            guard title.first == " " else { return nil }
            var anchor = ""
            for character in title.dropFirst().lowercased() {
                if character.isLetter || character.isNumber || character == "-" || character == "_" {
                    anchor.append(character)
                } else if character == " " {
                    anchor.append("-")
                }
            }
            return anchor
        }
    }

    /// `a/b/../c` as `a/c`.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "..", !parts.isEmpty, parts.last != ".." {
                parts.removeLast()
            } else if part != "." {
                parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }

    /// The lines outside fenced blocks.
    private static func prose(_ text: String) -> [String] {
        var fenced = false
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                fenced.toggle()
            } else if !fenced {
                lines.append(String(line))
            }
        }
        return lines
    }

    /// Every `asn-migrate` command in the fenced blocks of `text`, read as a shell reads it: quotes, `\` line
    /// continuations, `;`, `&&`, `||`, `|`, `&`, comments, `for … do … done`, redirections and `NAME=value`
    /// assignments (a variable set earlier in the block is expanded; any other `$…` reads as `0`).
    static func commands(_ text: String) -> [Command] {
        var commands: [Command] = []
        var block: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                if let lines = block {
                    commands += blockCommands(lines)
                    block = nil
                } else {
                    block = []
                }
            } else if block != nil {
                block?.append(String(line))
            }
        }
        return commands
    }

    /// The commands of one fenced block's lines.
    private static func blockCommands(_ lines: [String]) -> [Command] {
        var joined: [String] = []
        var pending = ""
        for line in lines {
            if line.hasSuffix("\\") {
                pending += line.dropLast() + " "
            } else {
                joined.append(pending + line)
                pending = ""
            }
        }
        var variables: [String: [String]] = [:]
        var commands: [Command] = []
        for line in joined {
            for words in simpleCommands(line, variables: variables) {
                var words = words
                // A crontab line's five time fields.
                if words.count > 5, words.prefix(5).allSatisfy({ $0.allSatisfy { "0123456789*/,-".contains($0) } }) {
                    words.removeFirst(5)
                }
                var skip = false
                while !skip, let first = words.first {
                    if ["do", "then", "else", "time", "exec"].contains(first) {
                        words.removeFirst()
                        continue
                    }
                    guard first.contains("="), !first.hasPrefix("-") else { break }
                    let parts = first.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    let name = parts[0]
                    let value = String(parts[1])
                    if value.hasSuffix("/asn-migrate"), words.count > 1 {
                        // systemd's `ExecStart=/usr/local/bin/asn-migrate …`
                        words[0] = value
                        break
                    }
                    // A shell variable is NAME in capitals; `Description=…` is an ini file's key.
                    guard !name.isEmpty, name.allSatisfy({ $0.isUppercase || $0.isNumber || $0 == "_" }) else {
                        skip = true
                        break
                    }
                    words.removeFirst()
                    if words.isEmpty { variables[String(name)] = value.split(separator: " ").map(String.init) }
                }
                if skip { continue }
                if words.first == "swift", words.dropFirst().first == "run" { words.removeFirst(2) }
                guard let program = words.first,
                    program == "asn-migrate" || program.hasSuffix("/asn-migrate") || program == "\u{1}B"
                else { continue }
                commands.append(Command(arguments: Array(words.dropFirst()), line: line))
            }
        }
        return commands
    }

    /// The simple commands of one line: words split as a shell splits them, cut at operators and comments, with
    /// redirections left out and `$NAME` expanded (`$B` becomes a marker for the program).
    private static func simpleCommands(_ line: String, variables: [String: [String]]) -> [[String]] {
        var commands: [[String]] = []
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        let characters = Array(line)
        var index = 0
        func endWord() {
            if inWord { words.append(word) }
            word = ""
            inWord = false
        }
        func endCommand() {
            endWord()
            let kept = words.enumerated().filter { item in
                let previous = item.offset > 0 ? words[item.offset - 1] : ""
                return !isRedirection(item.element) && !(isRedirection(previous) && isBareRedirection(previous))
            }.map(\.element)
            if !kept.isEmpty { commands.append(kept) }
            words = []
        }
        while index < characters.count {
            let character = characters[index]
            if let open = quote {
                if character == open {
                    quote = nil
                } else if character == "$", open == "\"" {
                    index = expand(characters, at: index, into: &word, words: &words, quoted: true, variables)
                    continue
                } else {
                    word.append(character)
                }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == " " || character == "\t" {
                endWord()
            } else if character == "#", !inWord {
                break
            } else if ";&|()".contains(character) {
                endCommand()
            } else if character == "$" {
                inWord = true
                index = expand(characters, at: index, into: &word, words: &words, quoted: false, variables)
                continue
            } else {
                word.append(character)
                inWord = true
            }
            index += 1
        }
        endCommand()
        return commands
    }

    /// Expands the `$…` at `index` into `word` (an unquoted variable's words split into `words`); returns the index
    /// after it.
    private static func expand(
        _ characters: [Character], at index: Int, into word: inout String, words: inout [String], quoted: Bool,
        _ variables: [String: [String]]
    ) -> Int {
        var end = index + 1
        if end < characters.count, characters[end] == "(" {
            var depth = 0
            while end < characters.count {
                if characters[end] == "(" { depth += 1 }
                if characters[end] == ")" { depth -= 1 }
                end += 1
                if depth == 0 { break }
            }
            word += "0"
            return end
        }
        while end < characters.count, characters[end].isLetter || characters[end].isNumber || characters[end] == "_" {
            end += 1
        }
        let name = String(characters[(index + 1)..<end])
        if name == "B" {
            word += "\u{1}B"
        } else if let value = variables[name] {
            if quoted || value.count <= 1 {
                word += value.joined(separator: " ")
            } else {
                words.append(word + (value.first ?? ""))
                words += value.dropFirst().dropLast()
                word = value.last ?? ""
            }
        } else {
            word += name.isEmpty ? "$" : "0"
        }
        return end
    }

    /// Whether a word is a redirection (`>`, `2>>FILE`, `<FILE`, `2>&1`).
    private static func isRedirection(_ word: String) -> Bool {
        let rest = word.drop { $0.isNumber }
        return rest.hasPrefix(">") || rest.hasPrefix("<")
    }

    /// Whether a redirection word names no file of its own, so the next word is its file.
    private static func isBareRedirection(_ word: String) -> Bool {
        let rest = word.drop { $0.isNumber }
        return rest == ">" || rest == ">>" || rest == "<"
    }
}
