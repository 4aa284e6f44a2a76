import Foundation
import Testing

@testable import ASNMigrateKit

/// The unattended output items through the built binary: a metrics file that is a device or FIFO stays one (item 1),
/// outputs named through descriptors are checked against the inputs (item 8), an output inside another output not
/// created yet is a usage error leaving no lock behind (item 10), and `partition` leaves the V1 secrets out (item 13).
@Suite(.enabled(if: BinaryRun.executable != nil, "needs the built asn-migrate executable"))
struct UnattendedOutputEndToEndTests {
    /// One V1 record holding both secrets.
    static let secretRecord =
        #"{"notification_type":"INITIAL_BUY","password":"s3cr3t-shared","environment":"PROD","#
        + #""latest_receipt":"UkVDRUlQVA-blob","unified_receipt":{"latest_receipt":"UkVDRUlQVA-blob2","#
        + #""latest_receipt_info":[{"original_transaction_id":"1000000000000001","transaction_id":"1000000000000001","#
        + #""product_id":"p","purchase_date_ms":"1600000000000","expires_date_ms":"1602592000000"}]}}"#

    /// A folder with a tiny V1 and V2 input.
    private func inputs(_ tmp: TemporaryDirectory) throws {
        let root = PackagePaths.root.path
        let v1 = try String(contentsOfFile: root + "/Tests/Fixtures/sample/v1/01-live-feed.jsonl", encoding: .utf8)
        let v2 = try String(contentsOfFile: root + "/Tests/Fixtures/sample/v2/01-notifications.jsonl", encoding: .utf8)
        _ = try tmp.write("v1/a.jsonl", v1.split(separator: "\n").prefix(3).joined(separator: "\n") + "\n")
        _ = try tmp.write("v2/a.jsonl", v2.split(separator: "\n").prefix(3).joined(separator: "\n") + "\n")
    }

    /// Runs `script` with `$B` set to the binary, in `directory`; returns the status and standard error.
    private func shell(_ script: String, in directory: String) throws -> (status: Int32, stderr: String) {
        let binary = try #require(BinaryRun.executable).path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "cd '\(directory)' || exit 99\nB='\(binary)'\n\(script) 2> stderr.txt\n"]
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return (
            process.terminationStatus, (try? String(contentsOfFile: directory + "/stderr.txt", encoding: .utf8)) ?? ""
        )
    }

    private func fileType(_ path: String) -> mode_t? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }

    // MARK: - Item 1

    @Test func nightlyMetricsFileWritesThroughAFIFO() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        try inputs(tmp)
        #expect(mkfifo(tmp.path + "/metrics", 0o666) == 0)
        let run = try shell(
            """
            exec 9<>metrics
            cat metrics 9>&- > got.txt & R=$!
            timeout -s KILL 60 "$B" nightly --v1 v1 --v2 v2 --state s.sqlite --reports r --min-file-age 0 \
              --max-lag 3000d --max-reject-rate 100% --metrics-file metrics 9>&-
            S=$?; exec 9>&-; wait $R; exit $S
            """, in: tmp.path)
        #expect(run.status <= 1, "\(run.stderr)")
        #expect(fileType(tmp.path + "/metrics") == S_IFIFO, "the FIFO was replaced")
        #expect(try tmp.read("got.txt").count > 0, "the metrics reached the FIFO's reader")
    }

    @Test(.enabled(if: geteuid() == 0, "mknod of a device node needs root"))
    func nightlyMetricsFileWritesThroughADevice() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        try inputs(tmp)
        #expect(mknod(tmp.path + "/dn", S_IFCHR | 0o666, dev_t(1) << 8 | dev_t(3)) == 0)
        let run = try shell(
            "\"$B\" nightly --v1 v1 --v2 v2 --state s.sqlite --reports r --min-file-age 0 --max-lag 3000d "
                + "--max-reject-rate 100% --metrics-file dn", in: tmp.path)
        #expect(run.status <= 1, "\(run.stderr)")
        #expect(fileType(tmp.path + "/dn") == S_IFCHR, "the device node was replaced by a regular file")
    }

    // MARK: - Item 8

    @Test(arguments: [
        "--out /proc/self/fd/3 3<>v1/a.jsonl", "--out /dev/fd/3 3<>v1/a.jsonl", "--out /dev/stdin 0<>v1/a.jsonl",
        "--out /dev/stdout >> v1/a.jsonl", "--out - >> v1/a.jsonl", "--rejects /dev/fd/4 4>> v1/a.jsonl",
        "--summary-json /dev/fd/3 3<>v1/a.jsonl"
    ])
    func migrateRefusesAnInputNamedThroughADescriptor(_ output: String) throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        try inputs(tmp)
        let before = try tmp.read("v1/a.jsonl")
        let run = try shell("\"$B\" migrate v1 \(output)", in: tmp.path)
        #expect(run.status == 64, "\(output): \(run.stderr)")
        #expect(try tmp.read("v1/a.jsonl") == before, "\(output) changed the input")
        #expect(run.stderr.contains("v1/a.jsonl"), "the message names the input: \(run.stderr)")
        let named = String(output.split(separator: " ")[1])
        #expect(run.stderr.contains("'\(named)'"), "the message names the output: \(run.stderr)")
    }

    @Test func reconcileRefusesASummaryNamedThroughADescriptor() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        try inputs(tmp)
        let before = try tmp.read("v2/a.jsonl")
        let run = try shell(
            "\"$B\" reconcile --v1 v1 --v2 v2 --out rep --summary-json /proc/self/fd/3 3<>v2/a.jsonl", in: tmp.path)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(try tmp.read("v2/a.jsonl") == before)
    }

    // MARK: - Item 10

    @Test func anOutputInsideAnOutputNotMadeYetIsAUsageErrorLeavingNothing() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        try inputs(tmp)
        let run = try shell(
            "\"$B\" reconcile --v1 v1 --v2 v2 --max-reject-rate 100% --out new --summary-json new/s.json", in: tmp.path)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(
            run.stderr.contains("--summary-json 'new/s.json'") && run.stderr.contains("--out 'new'"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/new"), "nothing is created, no lock left behind")
        let again = try shell("\"$B\" reconcile --v1 v1 --v2 v2 --max-reject-rate 100% --out new", in: tmp.path)
        #expect(again.status <= 1, "a later run on --out new works: \(again.stderr)")
    }

    @Test func aLockFileLeftInAReportFolderByADeadRunDoesNotBlock() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        try inputs(tmp)
        let first = try shell("\"$B\" reconcile --v1 v1 --v2 v2 --max-reject-rate 100% --out new", in: tmp.path)
        #expect(first.status <= 1, "\(first.stderr)")
        // What an earlier version left after item 10's run: a lock file nobody holds, inside the report folder.
        _ = try tmp.write("new/.s.json.lock", "12345\n")
        let again = try shell("\"$B\" reconcile --v1 v1 --v2 v2 --max-reject-rate 100% --out new", in: tmp.path)
        #expect(again.status <= 1, "\(again.stderr)")
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/new/.s.json.lock"))
    }

    // MARK: - Item 13

    @Test(arguments: [false, true])
    func partitionLeavesTheSecretsOut(gzip: Bool) throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        try inputs(tmp)
        // The same record again, held escaped in a string under an envelope's `body`, as log pipelines store it.
        let held = "\"" + Self.secretRecord.replacingOccurrences(of: "\"", with: "\\\"") + "\""
        _ = try tmp.write(
            "v1/b.jsonl", Self.secretRecord + "\n" + #"{"received_at":"2021-01-01T00:00:00Z","body":"# + held + "}\n")
        let run = try shell(
            "\"$B\" partition --v1 v1 --v2 v2 --shards 2 --out parts" + (gzip ? " --gzip" : ""), in: tmp.path)
        #expect(run.status == 0, "\(run.stderr)")
        var checked = 0
        let walk = FileManager.default.enumerator(atPath: tmp.path + "/parts")
        while let entry = walk?.nextObject() as? String {
            guard entry.contains(".asnpart") else { continue }
            let path = tmp.path + "/parts/" + entry
            let text: String
            if gzip {
                let plain = try shell("gzip -dc '\(path)' > plain.bin", in: tmp.path)
                #expect(plain.status == 0)
                text = String(decoding: try tmp.read("plain.bin"), as: UTF8.self)
            } else {
                text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
            }
            checked += 1
            for secret in ["s3cr3t-shared", "UkVDRUlQVA", "\"password\"", "latest_receipt\"", "latest_receipt\\\""] {
                #expect(!text.contains(secret), "\(entry) holds \(secret)")
            }
        }
        #expect(checked >= 2)
        // The records are still read: the partition reconciles.
        let reconcile = try shell(
            "\"$B\" reconcile --partition parts/part-0-of-2 --max-reject-rate 100% --out rep0", in: tmp.path)
        #expect(reconcile.status <= 1, "\(reconcile.stderr)")
    }

    @Test func partitionMasksTheSecretsOfADamagedRecordAndItsRejectReadsTheSame() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        try inputs(tmp)
        // A record cut short after its secrets: not JSON, so one reject naming where it breaks.
        let damaged = String(Self.secretRecord.prefix(Self.secretRecord.count - 60))
        _ = try tmp.write("v1/b.jsonl", damaged + "\n" + Self.secretRecord + "\n")
        let run = try shell(
            "\"$B\" partition --v1 v1 --v2 v2 --shards 1 --out parts && \"$B\" reconcile --partition parts/part-0-of-1"
                + " --max-reject-rate 100% --run-date 2024-01-01 --out viaparts; \"$B\" reconcile --v1 v1 --v2 v2"
                + " --max-reject-rate 100% --run-date 2024-01-01 --out direct; true", in: tmp.path)
        #expect(run.status == 0, "\(run.stderr)")
        let walk = FileManager.default.enumerator(atPath: tmp.path + "/parts")
        var checked = 0
        while let entry = walk?.nextObject() as? String {
            guard entry.hasSuffix(".asnpart") else { continue }
            let text = String(decoding: try tmp.read("parts/" + entry), as: UTF8.self)
            checked += 1
            for secret in ["s3cr3t-shared", "UkVDRUlQVA"] {
                #expect(!text.contains(secret), "\(entry) holds \(secret)")
            }
        }
        #expect(checked >= 1)
        let direct = String(decoding: try tmp.read("direct/rejected.csv"), as: UTF8.self)
        let viaParts = String(decoding: try tmp.read("viaparts/rejected.csv"), as: UTF8.self)
        #expect(direct.contains("b.jsonl"), "the damaged record is a reject: \(direct)")
        #expect(viaParts == direct, "the reject reads the same from the partition")
    }

}
