import Foundation
import Testing

@testable import ASNMigrateKit

/// "Outputs are written safely" and "Exit status a cron job can act on", through the built binary: devices,
/// FIFOs and symbolic links as outputs, run locks, failed writes, exit codes 3, 64 and 75.
@Suite(.serialized, .enabled(if: BinaryRun.executable != nil, "needs the built asn-migrate executable"))
struct OutputSafetyEndToEndTests {
    static let sample = "Tests/Fixtures/sample/v1"
    static let cleanSample = [
        "01-live-feed.jsonl", "02-interactive-and-pref.json", "03-status-off-big-ids.json",
        "04-envelopes.jsonl", "05-archive-2021-q4.jsonl.gz"
    ].map { "Tests/Fixtures/sample/v1/" + $0 }
    static let isRoot = geteuid() == 0

    // MARK: - Helpers

    private func fileType(_ path: String) -> mode_t? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }

    /// mknod(2) of a character device; the number is glibc's `makedev` for majors below 4096 and minors below 256.
    private func makeDevice(_ path: String, major: UInt32, minor: UInt32) -> Bool {
        mknod(path, S_IFCHR | 0o666, dev_t(major) << 8 | dev_t(minor)) == 0
    }

    private func makeFIFO(_ path: String) throws {
        guard mkfifo(path, 0o666) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    /// Reads a FIFO on a thread: everything, or only `limit` bytes before closing it early.
    private final class FIFOReader: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var bytes: [UInt8] = []
        private let path: String

        init(_ path: String, limit: Int? = nil) {
            self.path = path
            let thread = Thread { [self] in
                let fd = open(path, O_RDONLY | O_CLOEXEC)
                var chunk = [UInt8](repeating: 0, count: 4096)
                while fd >= 0 {
                    let want = limit.map { min(chunk.count, $0 - bytes.count) } ?? chunk.count
                    if want <= 0 { break }
                    let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, want) }
                    if n <= 0 { break }
                    bytes.append(contentsOf: chunk[0..<n])
                }
                if fd >= 0 { close(fd) }
                done.signal()
            }
            thread.start()
        }

        /// Waits for the reader to finish and returns what it read.
        func result() -> [UInt8] {
            // When the run never opened the FIFO (it failed first), open and close the write end so the reader's
            // open(2) returns and the thread ends, instead of hanging the test.
            if done.wait(timeout: .now() + 2) == .timedOut {
                let writer = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
                if writer >= 0 { close(writer) }
                done.wait()
            }
            return bytes
        }
    }

    /// The sample's migrated output as a regular file, to compare other targets against.
    private func referenceOutput(_ tmp: TemporaryDirectory) throws -> [UInt8] {
        let run = try BinaryRun.run(["migrate"] + Self.cleanSample + ["--out", tmp.path + "/reference.jsonl"])
        #expect(run.status == 0, "\(run.stderr)")
        return try tmp.read("reference.jsonl")
    }

    /// An input big enough (about 400 KB of output) that a pipe cannot take it all before its reader stops.
    private func bigInput(_ tmp: TemporaryDirectory) throws -> String {
        let one = try Data(contentsOf: PackagePaths.root.appendingPathComponent(Self.cleanSample[0]))
        var all = Data()
        for _ in 0..<40 { all.append(one) }
        return try tmp.write("big.jsonl", Array(all))
    }

    /// Starts `asn-migrate` with a standard input that stays open, so it holds its locks until killed.
    private func startHolder(_ arguments: [String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = BinaryRun.executable
        process.arguments = arguments
        process.currentDirectoryURL = PackagePaths.root
        let input = Pipe()
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return (process, input)
    }

    /// Waits until the lock file holds `pid` (the holder took the lock).
    private func waitForLock(_ path: String, pid: Int32) -> Bool {
        for _ in 0..<500 {
            if let text = try? String(contentsOfFile: path, encoding: .utf8), text == "\(pid)\n" { return true }
            usleep(20_000)
        }
        return false
    }

    // MARK: - Output targets

    @Test(.enabled(if: isRoot, "mknod needs root"), arguments: ["--out", "--rejects"])
    func aCharacterDeviceIsWrittenNotReplaced(option: String) throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let device = tmp.path + "/null"
        #expect(makeDevice(device, major: 1, minor: 3))
        let other = option == "--out" ? ["--rejects", tmp.path + "/rejects.csv"] : ["--out", tmp.path + "/out.jsonl"]
        let run = try BinaryRun.run(["migrate", Self.sample, option, device] + other)
        #expect(run.status == ExitStatus.findings.rawValue, "\(run.stderr)")
        #expect(fileType(device) == S_IFCHR, "the device node is still a device")
        let otherName = option == "--out" ? "rejects.csv" : "out.jsonl"
        let entries = try FileManager.default.contentsOfDirectory(atPath: tmp.path).sorted()
        #expect(
            entries == [".\(otherName).lock", "null", otherName].sorted(),
            "no lock or temp file for the device, only for the file: \(entries)")
    }

    @Test func aFIFOGetsTheWholeStreamInOrder() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let reference = try referenceOutput(tmp)
        let fifo = tmp.path + "/fifo"
        try makeFIFO(fifo)
        let reader = FIFOReader(fifo)
        let run = try BinaryRun.run(["migrate"] + Self.cleanSample + ["--out", fifo])
        let received = reader.result()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(received == reference, "the FIFO reader got the same bytes as a regular file")
        #expect(fileType(fifo) == S_IFIFO)
    }

    @Test func aSymlinkChainIsFollowedAndKept() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let reference = try referenceOutput(tmp)
        try tmp.makeDirectory("data")
        try tmp.write("data/out.jsonl", "old\n")
        try FileManager.default.createSymbolicLink(atPath: tmp.path + "/second", withDestinationPath: "data/out.jsonl")
        try FileManager.default.createSymbolicLink(
            atPath: tmp.path + "/first", withDestinationPath: tmp.path + "/second")
        let run = try BinaryRun.run(["migrate"] + Self.cleanSample + ["--out", tmp.path + "/first"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            fileType(tmp.path + "/first") == S_IFLNK && fileType(tmp.path + "/second") == S_IFLNK,
            "both links stay links")
        #expect(try tmp.read("data/out.jsonl") == reference, "the file at the end of the chain is replaced")
        // A dangling link: the file it names is created, the link stays.
        try FileManager.default.createSymbolicLink(
            atPath: tmp.path + "/dangling", withDestinationPath: "data/new.jsonl")
        let second = try BinaryRun.run(["migrate"] + Self.cleanSample + ["--out", tmp.path + "/dangling"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(fileType(tmp.path + "/dangling") == S_IFLNK)
        #expect(try tmp.read("data/new.jsonl") == reference)
    }

    @Test func aDirectoryGivenAsAnOutputFileIsAClearError() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let directory = try tmp.makeDirectory("outdir")
        try tmp.write("outdir/keep.txt", "keep")
        let run = try BinaryRun.run(["migrate", Self.sample, "--out", directory])
        #expect(run.status == ExitStatus.failure.rawValue)
        #expect(run.stderr.contains("'\(directory)' is a directory; give a file name"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["keep.txt"])
    }

    @Test func reportFolderThatIsNotADirectoryIsAClearError() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let file = try tmp.write("report", "not a folder")
        let fifo = tmp.path + "/fifo-report"
        try makeFIFO(fifo)
        for target in [file, fifo] {
            let run = try BinaryRun.run([
                "reconcile", "--v1", Self.cleanSample[0], "--v2", Self.cleanSample[0], "--out", target
            ])
            #expect(run.status == ExitStatus.failure.rawValue)
            #expect(run.stderr.contains("report folder '\(target)' exists and is a"), "\(run.stderr)")
            #expect(run.stderr.contains("not a directory"))
        }
        #expect(try tmp.read("report") == Array("not a folder".utf8))
        #expect(fileType(fifo) == S_IFIFO)
    }

    @Test func aSymlinkToAReportFolderIsKeptAndItsTargetReplaced() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        try tmp.write("real/summary.csv", "stale")
        try FileManager.default.createSymbolicLink(atPath: tmp.path + "/latest", withDestinationPath: "real")
        let migrated = tmp.path + "/v2.jsonl"
        #expect(try BinaryRun.run(["migrate"] + Self.cleanSample + ["--out", migrated]).status == 0)
        let run = try BinaryRun.run(
            ["reconcile"] + Self.cleanSample.flatMap { ["--v1", $0] } + [
                "--v2", migrated, "--out", tmp.path + "/latest"
            ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(fileType(tmp.path + "/latest") == S_IFLNK, "the link stays a link")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: tmp.path + "/real").sorted()
                == ReconciliationReport.fileNames.sorted())
        let entries = try FileManager.default.contentsOfDirectory(atPath: tmp.path).sorted()
        #expect(
            entries == [".real.lock", ".v2.jsonl.lock", "latest", "real", "v2.jsonl"],
            "the locks sit beside the real folder and the migrated file, nothing else is left: \(entries)")
    }

    @Test func anOutputThatIsAnInputIsAUsageErrorAndTheArchiveIsKept() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let archive = try tmp.write("in/archive.jsonl", try PackagePaths.read(Self.cleanSample[0]))
        try FileManager.default.createSymbolicLink(atPath: tmp.path + "/alias.jsonl", withDestinationPath: archive)
        let original = try tmp.read("in/archive.jsonl")
        for arguments in [
            [archive, "--out", archive],
            [tmp.path + "/in", "--out", tmp.path + "/out.jsonl", "--rejects", tmp.path + "/alias.jsonl"]
        ] {
            let run = try BinaryRun.run(["migrate"] + arguments)
            #expect(run.status == ExitStatus.usage.rawValue, "\(arguments): \(run.stderr)")
            #expect(
                run.stderr.contains("is the input '\(archive)'; writing it would replace the archive being read"),
                "\(run.stderr)")
            #expect(try tmp.read("in/archive.jsonl") == original)
        }
    }

    @Test func aFolderHoldingOtherFilesIsNeverReplacedByAReportOrASimulation() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        // A user's folder given as --out by mistake (a home folder, '.'): its files must survive.
        try tmp.write("home/docs/thesis.txt", "mine")
        try tmp.write("home/summary.csv", "an earlier report's file")
        let run = try BinaryRun.run([
            "reconcile", "--v1", Self.cleanSample[0], "--v2", Self.cleanSample[0], "--out", tmp.path + "/home",
            "--force"
        ])
        #expect(run.status == ExitStatus.failure.rawValue, "\(run.stderr)")
        #expect(run.stderr.contains("holds 'docs' that asn-migrate did not write there"), "\(run.stderr)")
        #expect(run.stderr.contains("no report written"), "\(run.stderr)")
        #expect(String(decoding: try tmp.read("home/docs/thesis.txt"), as: UTF8.self) == "mine")
        let simulate = try BinaryRun.run([
            "simulate", "--subscribers", "2", "--seed", "1", "--months", "1", "--out", tmp.path + "/home"
        ])
        #expect(simulate.status == ExitStatus.failure.rawValue, "\(simulate.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: tmp.path + "/home").sorted() == ["docs", "summary.csv"])
    }

    // MARK: - Run locks

    @Test func aSecondMigrateOnTheSameOutputExits75NamingTheHolderAndAKilledHolderNeverBlocks() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let out = tmp.path + "/out.jsonl"
        let (holder, input) = try startHolder(["migrate", "-", "--out", out])
        defer { if holder.isRunning { kill(holder.processIdentifier, SIGKILL) } }
        #expect(
            waitForLock(tmp.path + "/.out.jsonl.lock", pid: holder.processIdentifier), "the first run takes the lock")

        let second = try BinaryRun.run(["migrate", Self.sample, "--out", out])
        #expect(second.status == ExitStatus.locked.rawValue, "\(second.stderr)")
        #expect(second.stderr.contains("process \(holder.processIdentifier)"), "\(second.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out), "the locked-out run wrote nothing")

        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        try? input.fileHandleForWriting.close()
        // The killed run's pid is still in the lock file; only the flock decides.
        #expect(try tmp.read(".out.jsonl.lock") == Array("\(holder.processIdentifier)\n".utf8))
        let third = try BinaryRun.run(["migrate", Self.sample, "--out", out])
        #expect(third.status == ExitStatus.findings.rawValue, "\(third.stderr)")
        #expect(FileManager.default.fileExists(atPath: out))
    }

    @Test func aSecondReconcileIntoTheSameFolderExits75AndTheFolderHoldsNoLock() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let report = tmp.path + "/report"
        let (holder, input) = try startHolder([
            "reconcile", "--v1", "-", "--v2", Self.cleanSample[0], "--out", report, "--force"
        ])
        defer { if holder.isRunning { kill(holder.processIdentifier, SIGKILL) } }
        #expect(waitForLock(tmp.path + "/.report.lock", pid: holder.processIdentifier))

        let second = try BinaryRun.run([
            "reconcile", "--v1", Self.cleanSample[0], "--v2", Self.cleanSample[0], "--out", report, "--force"
        ])
        #expect(second.status == ExitStatus.locked.rawValue, "\(second.stderr)")
        #expect(
            second.stderr.contains("process \(holder.processIdentifier)")
                && second.stderr.contains("no report written"), "\(second.stderr)")
        #expect(!FileManager.default.fileExists(atPath: report))

        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        try? input.fileHandleForWriting.close()
        let third = try BinaryRun.run([
            "reconcile", "--v1", Self.cleanSample[0], "--v2", Self.cleanSample[0], "--out", report, "--force"
        ])
        #expect(
            third.status != ExitStatus.locked.rawValue && third.status != ExitStatus.failure.rawValue, "\(third.stderr)"
        )
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: report).sorted()
                == ReconciliationReport.fileNames.sorted())
    }

    // MARK: - Failed writes

    @Test(.enabled(if: isRoot, "mknod needs root"))
    func aFullDeviceFailsWithExitTwoAndSaysWhatReachedIt() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let full = tmp.path + "/full"
        #expect(makeDevice(full, major: 1, minor: 7))
        let run = try BinaryRun.run(["migrate", Self.sample, "--out", full])
        #expect(run.status == ExitStatus.failure.rawValue)
        #expect(run.stderr.contains("cannot write to '\(full)': nothing was written there"), "\(run.stderr)")
        #expect(run.stderr.contains("No space left on device"), "\(run.stderr)")
        #expect(fileType(full) == S_IFCHR)
    }

    @Test func aFIFOWhoseReaderStopsEarlySaysHowMuchWasWritten() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let input = try bigInput(tmp)
        let fifo = tmp.path + "/fifo"
        try makeFIFO(fifo)
        let reader = FIFOReader(fifo, limit: 1000)
        let run = try BinaryRun.run(["migrate", input, "--out", fifo])
        #expect(reader.result().count == 1000)
        #expect(run.status == ExitStatus.failure.rawValue)
        #expect(!run.stderr.contains("no output was written"), "\(run.stderr)")
        #expect(run.stderr.contains("'\(fifo)' got "), "\(run.stderr)")
        #expect(run.stderr.contains("byte(s) and is incomplete"), "\(run.stderr)")
    }

    @Test func standardOutputWhoseReaderStopsEarlySaysTheOutputIsIncomplete() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let input = try bigInput(tmp)
        let fifo = tmp.path + "/stdout-fifo"
        try makeFIFO(fifo)
        // Open the read end first (non-blocking) so the write end can be the child's standard output.
        let readEnd = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        #expect(readEnd >= 0)
        let writeHandle = try #require(FileHandle(forWritingAtPath: fifo))
        let errPath = tmp.path + "/stderr"
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let process = Process()
        process.executableURL = BinaryRun.executable
        process.arguments = ["migrate", input]
        process.currentDirectoryURL = PackagePaths.root
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = writeHandle
        process.standardError = FileHandle(forWritingAtPath: errPath)
        try process.run()
        try writeHandle.close()
        // Read a little, then go away, as `| head -c 1000` would.
        var received = 0
        var chunk = [UInt8](repeating: 0, count: 1000)
        while received < 1000 {
            let n = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, 1000 - received) }
            if n > 0 { received += n } else if !process.isRunning { break } else { usleep(5_000) }
        }
        #expect(received == 1000, "the run wrote at least 1000 bytes before the reader went away")
        close(readEnd)
        process.waitUntilExit()
        let stderr = try String(contentsOfFile: errPath, encoding: .utf8)
        #expect(process.terminationStatus == ExitStatus.failure.rawValue, "\(stderr)")
        #expect(!stderr.contains("no output was written"), "\(stderr)")
        #expect(stderr.contains("standard output got "), "\(stderr)")
        #expect(stderr.contains("is incomplete"), "\(stderr)")
    }

    // MARK: - Exit codes

    @Test func standardInputOnBothSidesIsAUsageError() throws {
        let run = try BinaryRun.run(["reconcile", "--v1", "-", "--v2", "-"])
        #expect(run.status == ExitStatus.usage.rawValue)
        #expect(run.stderr.contains("standard input can be read only once"), "\(run.stderr)")
    }

    @Test func outputsThatCollideOrCannotBeAFolderAreRefused() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        // --out defaults to standard output, so --rejects - would interleave with it.
        let both = try BinaryRun.run(["migrate", Self.sample, "--rejects", "-"])
        #expect(both.status == ExitStatus.usage.rawValue, "\(both.stderr)")
        #expect(both.stderr.contains("--out and --rejects name the same output"))
        // The same file reached through a link is the same output.
        try FileManager.default.createSymbolicLink(
            atPath: tmp.path + "/alias", withDestinationPath: tmp.path + "/out.jsonl")
        let same = try BinaryRun.run([
            "migrate", Self.sample, "--out", tmp.path + "/out.jsonl", "--rejects", tmp.path + "/alias"
        ])
        #expect(same.status == ExitStatus.usage.rawValue, "\(same.stderr)")
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/out.jsonl"))
        let folder = try BinaryRun.run([
            "reconcile", "--v1", Self.cleanSample[0], "--v2", Self.cleanSample[0], "--out", "-"
        ])
        #expect(folder.status == ExitStatus.failure.rawValue)
        #expect(folder.stderr.contains("a report folder cannot be standard output"), "\(folder.stderr)")
    }

    @Test func reconcileExitsThreeWhenASideIsEmptyOrRejectsTooMuch() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let migrated = tmp.path + "/v2.jsonl"
        #expect(try BinaryRun.run(["migrate"] + Self.cleanSample + ["--out", migrated]).status == 0)
        let v1 = Self.cleanSample.flatMap { ["--v1", $0] }

        // One side empty: every V1 record is missing in V2 (exit 1 alone), but 3 wins.
        let empty = try tmp.makeDirectory("empty")
        let noV2 = try BinaryRun.run(["reconcile"] + v1 + ["--v2", empty, "--out", tmp.path + "/r1"])
        #expect(noV2.status == ExitStatus.sanityCheckFailed.rawValue, "\(noV2.stderr)")
        let line = noV2.stderr.split(separator: "\n").filter { $0.contains("sanity check failed") }
        #expect(line.count == 1, "one line says which check failed: \(noV2.stderr)")
        #expect(line.first?.contains("V2 has no usable records (read 0) while V1 has") == true, "\(noV2.stderr)")
        #expect(FileManager.default.fileExists(atPath: tmp.path + "/r1/summary.csv"), "the report is written")

        // A reject rate above the limit; the same input passes with a looser limit, as a fraction or a percentage.
        var lines = try String(contentsOfFile: migrated, encoding: .utf8).split(separator: "\n").map(String.init)
        lines.append("{\"signedPayload\":\"not-a-jws\"}")
        let damaged = try tmp.write("damaged.jsonl", lines.joined(separator: "\n") + "\n")
        let strict = try BinaryRun.run(["reconcile"] + v1 + ["--v2", damaged, "--out", tmp.path + "/r2"])
        #expect(strict.status == ExitStatus.sanityCheckFailed.rawValue, "\(strict.stderr)")
        #expect(
            strict.stderr.contains("sanity check failed: V2 rejected 1 of \(lines.count) records read"),
            "\(strict.stderr)")
        for rate in ["0.05", "5%"] {
            let loose = try BinaryRun.run(
                ["reconcile"] + v1 + ["--v2", damaged, "--out", tmp.path + "/r3", "--max-reject-rate", rate])
            #expect(loose.status == ExitStatus.findings.rawValue, "\(rate): \(loose.stderr)")
            #expect(!loose.stderr.contains("sanity check"))
        }
        let clean = try BinaryRun.run(["reconcile"] + v1 + ["--v2", migrated, "--out", tmp.path + "/r4"])
        #expect(clean.status == ExitStatus.success.rawValue, "\(clean.stderr)")
    }

    @Test(arguments: ["2", "-1%", "abc", "101%", ""])
    func aBadMaxRejectRateIsAUsageError(rate: String) throws {
        for command in [["reconcile", "--v1", "x", "--v2", "y"], ["migrate", "x"]] {
            let run = try BinaryRun.run(command + ["--max-reject-rate", rate])
            #expect(run.status == ExitStatus.usage.rawValue, "\(command[0]) \(rate): \(run.stderr)")
            #expect(run.stderr.contains("--max-reject-rate"))
        }
    }

    @Test func migrateChecksTheRejectRateOnlyWhenAsked() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let plain = try BinaryRun.run(["migrate", Self.sample, "--out", tmp.path + "/a.jsonl"])
        #expect(plain.status == ExitStatus.findings.rawValue, "\(plain.stderr)")
        let strict = try BinaryRun.run([
            "migrate", Self.sample, "--out", tmp.path + "/b.jsonl", "--max-reject-rate", "1%"
        ])
        #expect(strict.status == ExitStatus.sanityCheckFailed.rawValue, "\(strict.stderr)")
        #expect(
            strict.stderr.contains(
                "sanity check failed: input rejected 7 of 43 records read (16.28%), above --max-reject-rate 1%"),
            "\(strict.stderr)")
        #expect(try tmp.read("b.jsonl") == (try tmp.read("a.jsonl")), "the output is written all the same")
        let loose = try BinaryRun.run([
            "migrate", Self.sample, "--out", tmp.path + "/c.jsonl", "--max-reject-rate", "0.2"
        ])
        #expect(loose.status == ExitStatus.findings.rawValue)
    }

    /// The top-level help lists every code; a command's help lists the codes of its own exit table.
    @Test(arguments: [["--help"], ["migrate", "--help"], ["reconcile", "--help"]])
    func helpListsEveryExitCode(arguments: [String]) throws {
        let run = try BinaryRun.run(arguments)
        #expect(run.status == 0)
        let text = run.stdoutText
        #expect(text.contains("EXIT STATUS:"), "\(text)")
        let command = ASNMigrateCLI.builtInCommands.first { $0.spec.name == arguments[0] }
        for status in command?.spec.exits.map(\.status) ?? ExitStatus.allCases {
            #expect(
                text.contains("\n  \(status.rawValue) "), "code \(status.rawValue) missing from \(arguments): \(text)")
        }
    }

    /// `--out /dev/stdout` (a link to `/proc/self/fd/1`) writes through the inherited descriptor: a file the shell
    /// opened for appending keeps what it held and stays the same file, never replaced by rename.
    @Test(arguments: ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"])
    func namingOurOwnStandardOutputAppendsThroughIt(path: String) throws {
        let binary = try #require(BinaryRun.executable).path
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let log = try tmp.write("log.jsonl", Array("KEEP\n".utf8))
        var before = stat()
        #expect(stat(log, &before) == 0)
        let input = PackagePaths.root.appendingPathComponent("Tests/Fixtures/sample/v1/01-live-feed.jsonl").path
        let run = Shell.run("'\(binary)' migrate '\(input)' --out \(path) >> log.jsonl", in: tmp.path)
        #expect(run.status == 0, "\(run.stderr)")
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: log)), as: UTF8.self)
        let plain = try BinaryRun.run(["migrate", input])
        #expect(text == "KEEP\n" + plain.stdoutText, "the earlier content stays and the whole output follows it")
        var after = stat()
        #expect(stat(log, &after) == 0)
        #expect(after.st_ino == before.st_ino, "the file is written through, not replaced")
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/.log.jsonl.lock"))
    }
}
