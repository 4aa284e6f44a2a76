import ASNSimulation
import Foundation
import Testing

@testable import ASNMigrateKit

/// The output matrix, through the built binary: every option of every command that names a file or folder it writes
/// (enumerated from the command specs, `OptionSpec.output`, so a new output option is covered the day it is added),
/// against a fresh path, a device node, a FIFO, a symbolic link, a hard link and a `/dev/fd/N` of an input, a path
/// inside an input folder, and the path another output option names. Expected: the inputs' bytes unchanged, devices
/// and FIFOs still devices and FIFOs, and the documented exit status (64 for an output that is or lies in an input or
/// names another output; 2 for a device or FIFO given as a folder, 64 as the state database).
@Suite(.enabled(if: BinaryRun.executable != nil, "needs the built asn-migrate executable"))
struct OutputOptionMatrixTests {
    /// What an output option is pointed at.
    enum Target: String, Sendable, CaseIterable {
        case fresh, device, fifo, symlinkToInput, hardLinkToInput, descriptorOfInput, insideInputFolder, sameAsOther
    }

    /// One run of the matrix: a command, one of its output options and a target for it.
    struct Case: Sendable, CustomTestStringConvertible {
        let command: String
        let option: String
        let kind: OptionSpec.Output
        let target: Target
        /// The command's other output options with their kinds.
        let others: [(option: String, kind: OptionSpec.Output)]

        var testDescription: String { "\(command) \(option) → \(target.rawValue)" }
    }

    /// How each command is run on the tiny inputs in a case folder's `in/` (paths relative to the case folder).
    struct Invocation: Sendable {
        /// The arguments besides the output options.
        let arguments: [String]
        /// An input file, for the link and descriptor targets; nil when the command reads nothing.
        let inputFile: String?
        /// An input folder, for the inside-an-input target.
        let inputFolder: String?
        /// The statuses of a run with every output fresh.
        let ok: Set<Int32>
    }

    /// The commands' invocations; a command with an output option and no entry here fails `everyOutputCommandIsRun`.
    static let invocations: [String: Invocation] = [
        "migrate": Invocation(
            arguments: ["migrate", "in/v1"], inputFile: "in/v1/a.jsonl", inputFolder: "in/v1", ok: [0, 1]),
        "reconcile": Invocation(
            arguments: ["reconcile", "--v1", "in/v1", "--v2", "in/v2", "--max-reject-rate", "100%"],
            inputFile: "in/v1/a.jsonl", inputFolder: "in/v1", ok: [0, 1]),
        "nightly": Invocation(
            arguments: [
                "nightly", "--v1", "in/v1", "--v2", "in/v2", "--min-file-age", "0", "--max-lag", "3000d",
                "--max-reject-rate", "100%", "--fetch", "--key-id", "KEY123", "--issuer-id", "issuer-1", "--bundle-id",
                "com.example", "--private-key", "in/key/AuthKey_KEY123.p8", "--base-url", "http://127.0.0.1:9",
                "--max-retries", "0"
            ],
            // With --fetch (so --apple-view is written): nothing listens on port 9, so ids are not answered (69).
            inputFile: "in/v1/a.jsonl", inputFolder: "in/v1", ok: [0, 1, 69]),
        "partition": Invocation(
            arguments: ["partition", "--v1", "in/v1", "--v2", "in/v2", "--shards", "1"], inputFile: "in/v1/a.jsonl",
            inputFolder: "in/v1", ok: [0]),
        "merge": Invocation(
            arguments: ["merge", "--max-reject-rate", "100%", "in/shard"], inputFile: "in/shard/summary.csv",
            inputFolder: "in/shard", ok: [0, 1]),
        "fetch": Invocation(
            arguments: [
                "fetch", "--key-id", "KEY123", "--issuer-id", "issuer-1", "--bundle-id", "com.example",
                "--private-key", "in/key/AuthKey_KEY123.p8", "--ids", "in/key/ids.txt", "--from-v1", "in/none",
                "--base-url", "http://127.0.0.1:9"
            ],
            inputFile: "in/key/ids.txt", inputFolder: "in/none", ok: [0]),
        "simulate": Invocation(
            arguments: ["simulate", "--subscribers", "1", "--seed", "1"], inputFile: nil, inputFolder: nil, ok: [0])
    ]

    /// Every case: each output option of each command against each target that applies.
    static let cases: [Case] = ToolCommands.all.flatMap { entry -> [Case] in
        let outputs = entry.spec.options.compactMap { option in option.output.map { (option.long, $0) } }
        let reads = invocations[entry.spec.name]?.inputFile != nil
        return outputs.flatMap { option, kind in
            Target.allCases.compactMap { target -> Case? in
                let others = outputs.filter { $0.0 != option }.map { (option: $0.0, kind: $0.1) }
                if target == .sameAsOther, others.isEmpty { return nil }
                if !reads, ![.fresh, .device, .fifo, .sameAsOther].contains(target) { return nil }
                return Case(command: entry.spec.name, option: option, kind: kind, target: target, others: others)
            }
        }
    }

    @Test func everyOutputCommandIsRun() {
        for entry in ToolCommands.all where entry.spec.options.contains(where: { $0.output != nil }) {
            #expect(
                Self.invocations[entry.spec.name] != nil,
                "add '\(entry.spec.name)' to OutputOptionMatrixTests.invocations so its output options are tested")
        }
        // The options this issue found unchecked are marked, so the matrix reaches them.
        let marked = Set(
            ToolCommands.all.flatMap { entry in
                entry.spec.options.filter { $0.output != nil }.map { "\(entry.spec.name) \($0.long)" }
            })
        for expected in [
            "migrate --out", "migrate --rejects", "migrate --summary-json", "reconcile --out",
            "reconcile --summary-json",
            "nightly --metrics-file", "nightly --state", "nightly --reports", "nightly --state-backup",
            "nightly --apple-view",
            "partition --out",
            "merge --out", "fetch --out", "fetch --summary-json", "simulate --out"
        ] {
            #expect(marked.contains(expected), "\(expected) is not marked as an output option")
        }
    }

    /// Whether this process may make device nodes.
    static let isRoot = geteuid() == 0

    @Test(arguments: cases.filter { $0.target != .device })
    func outputTarget(_ matrixCase: Case) throws {
        try check(matrixCase)
    }

    @Test(.enabled(if: isRoot, "mknod of a device node needs root"), arguments: cases.filter { $0.target == .device })
    func deviceTarget(_ matrixCase: Case) throws {
        try check(matrixCase)
    }

    /// Runs one case and checks the inputs, the target's type and the exit status.
    func check(_ matrixCase: Case) throws {
        let fixture = try Self.fixture.get()
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let invocation = try #require(Self.invocations[matrixCase.command])
        try FileManager.default.copyItem(atPath: fixture.path + "/in", toPath: tmp.path + "/in")
        try FileManager.default.createDirectory(atPath: tmp.path + "/out", withIntermediateDirectories: true)
        let before = Self.snapshot(tmp.path + "/in")

        var arguments = invocation.arguments
        for (index, other) in matrixCase.others.enumerated() where !(matrixCase.target == .sameAsOther && index == 0) {
            arguments += [other.option, Self.freshPath(other.option, other.kind)]
        }
        var redirection = ""
        var reader: String?
        let value: String
        var expected: Set<Int32>
        let isFile = matrixCase.kind == .file && matrixCase.option != "--state"
        // Where a written-through target cannot go: a folder option (exit 2, not a folder), the state database (64).
        let notWrittenThrough: Set<Int32> = matrixCase.option == "--state" ? [64] : [2]
        let inputFile = invocation.inputFile ?? ""
        let inputFolder = invocation.inputFolder ?? ""
        switch matrixCase.target {
        case .fresh:
            value = Self.freshPath(matrixCase.option, matrixCase.kind)
            expected = invocation.ok
        case .device:
            value = "out/device"
            // The null device's numbers (1, 3), made here: never a system device.
            #expect(mknod(tmp.path + "/" + value, S_IFCHR | 0o666, dev_t(1) << 8 | dev_t(3)) == 0)
            expected = isFile ? invocation.ok : notWrittenThrough
        case .fifo:
            value = "out/fifo"
            #expect(mkfifo(tmp.path + "/" + value, 0o666) == 0)
            reader = value
            expected = isFile ? invocation.ok : notWrittenThrough
        case .symlinkToInput:
            value = "out/link"
            let target = matrixCase.kind == .file ? inputFile : inputFolder
            try FileManager.default.createSymbolicLink(
                atPath: tmp.path + "/" + value, withDestinationPath: "../" + target)
            expected = [64]
        case .hardLinkToInput:
            value = "out/hard"
            #expect(link(tmp.path + "/" + inputFile, tmp.path + "/" + value) == 0)
            expected = [64]
        case .descriptorOfInput:
            value = "/dev/fd/3"
            redirection = matrixCase.kind == .file ? " 3<>'\(inputFile)'" : " 3<'\(inputFolder)'"
            expected = [64]
        case .insideInputFolder:
            value = inputFolder + "/new-output"
            expected = [64]
        case .sameAsOther:
            let other = matrixCase.others[0]
            value = Self.freshPath(other.option, other.kind)
            arguments += [other.option, value]
            expected = [64]
        }
        arguments += [matrixCase.option, value]

        let run = try Self.shell(arguments, in: tmp.path, redirection: redirection, fifoReader: reader)
        #expect(
            expected.contains(run.status),
            "\(matrixCase.testDescription): exit \(run.status), expected \(expected.sorted()); stderr: \(run.stderr)")
        #expect(Self.snapshot(tmp.path + "/in") == before, "\(matrixCase.testDescription) changed an input")
        if matrixCase.target == .device { #expect(Self.fileType(tmp.path + "/out/device") == S_IFCHR) }
        if matrixCase.target == .fifo { #expect(Self.fileType(tmp.path + "/out/fifo") == S_IFIFO) }
        if expected == [64] {
            #expect(run.stderr.contains(matrixCase.option), "the refusal names the option: \(run.stderr)")
        }
    }

    // MARK: - Fixture

    /// The tiny inputs every case copies: V1 and V2 records, a shard report folder (merge's input), a key and an id
    /// list (fetch's).
    struct Fixture: Sendable {
        let path: String
    }

    /// Made once for the whole suite (its folder is left in the temporary directory, a few KB).
    static let fixture: Result<Fixture, any Error> = Result {
        let tmp = try TemporaryDirectory()
        let root = PackagePaths.root.path
        let v1 = try String(contentsOfFile: root + "/Tests/Fixtures/sample/v1/01-live-feed.jsonl", encoding: .utf8)
        let v2 = try String(contentsOfFile: root + "/Tests/Fixtures/sample/v2/01-notifications.jsonl", encoding: .utf8)
        func head(_ text: String, _ lines: Int) -> String {
            text.split(separator: "\n").prefix(lines).joined(separator: "\n") + "\n"
        }
        _ = try tmp.write("in/v1/a.jsonl", head(v1, 3))
        _ = try tmp.write("in/v2/a.jsonl", head(v2, 3))
        guard let key = ES256PrivateKey.generate(), let pem = key.pkcs8PEM() else {
            throw ASNError(.outputFailed, "no key")
        }
        chmod(try tmp.write("in/key/AuthKey_KEY123.p8", pem), 0o600)
        _ = try tmp.write("in/key/ids.txt", "")
        // An archive folder with no records: fetch asks for nothing, so no request leaves the machine.
        _ = try tmp.write("in/none/empty.jsonl", "")
        let shard = try BinaryRun.run(
            [
                "reconcile", "--v1", tmp.path + "/in/v1", "--v2", tmp.path + "/in/v2", "--shard", "0/1",
                "--max-reject-rate", "100%", "--out", tmp.path + "/in/shard"
            ])
        guard shard.status <= 1 else { throw ASNError(.outputFailed, "shard report failed: \(shard.stderr)") }
        return Fixture(path: tmp.path)
    }

    // MARK: - Helpers

    /// A fresh path under `out/` for an output option.
    static func freshPath(_ option: String, _ kind: OptionSpec.Output) -> String {
        "out/" + option.dropFirst(2) + (kind == .file ? ".out" : "")
    }

    /// Every file's bytes under `path` (the inputs), by relative path.
    static func snapshot(_ path: String) -> [String: Data] {
        var files: [String: Data] = [:]
        let walk = FileManager.default.enumerator(atPath: path)
        while let entry = walk?.nextObject() as? String {
            if let data = FileManager.default.contents(atPath: path + "/" + entry),
                fileType(path + "/" + entry) == S_IFREG
            {
                files[entry] = data
            }
        }
        return files
    }

    /// What is at `path`, not following a symbolic link.
    static func fileType(_ path: String) -> mode_t? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }

    /// Runs the binary through `/bin/sh` in `directory`, with `redirection` applied to it, and a reader draining
    /// `fifoReader`.
    static func shell(_ arguments: [String], in directory: String, redirection: String, fifoReader: String?) throws
        -> (status: Int32, stderr: String)
    {
        let binary = try #require(BinaryRun.executable).path
        let quoted = ([binary] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
        var script = "cd '\(directory)' || exit 99\n"
        // The test keeps the FIFO open read-write (which never waits on Linux) while the run lasts, so neither the
        // reader nor a run that reads it waits for the other; closing it afterwards ends the reader even when the run
        // never opened the FIFO or replaced it. A run that still hangs is killed, and fails the case.
        if let fifo = fifoReader { script += "exec 9<>'\(fifo)'\ncat '\(fifo)' 9>&- > /dev/null & R=$!\n" }
        script += "timeout -s KILL 60 \(quoted)\(redirection) 9>&- 2> stderr.txt < /dev/null > stdout.txt\nS=$?\n"
        if fifoReader != nil { script += "exec 9>&-; wait $R\n" }
        script += "exit $S\n"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let stderr = (try? String(contentsOfFile: directory + "/stderr.txt", encoding: .utf8)) ?? ""
        return (process.terminationStatus, stderr)
    }
}
