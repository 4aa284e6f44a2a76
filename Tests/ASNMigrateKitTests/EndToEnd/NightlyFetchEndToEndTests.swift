import Foundation
import Testing

@testable import ASNMigrateKit
@testable import ASNSimulation

#if canImport(Glibc)
    import Glibc
#endif

/// `nightly --fetch` through the built binary against the loopback App Store Server API, night after night: V1 files
/// arriving, Apple's view moving between nights, a night with no new file, 5xx answers, a kill mid-fetch and its
/// re-run, ids Apple never answers (exit 69) and a refused token (exit 77).
@Suite(.serialized) struct NightlyFetchEndToEndTests {
    typealias Setup = FetchEndToEndTests.Setup

    /// A simulation's Production V1 month files, a workspace to deliver them into, and the key's flags.
    struct Nights {
        /// The simulation and the key.
        let setup: Setup
        /// Where the files arrive, the state and the reports.
        let w: NightlyWorkspace
        /// The month files' names, oldest first.
        let months: [String]
        /// Every process's standard output and error, for the leak check.
        var texts: [String] = []
        /// Every token the server saw.
        var tokens: Set<String> = []

        init(subscribers: Int, seed: Int, months: Int) throws {
            setup = try Setup(subscribers: subscribers, seed: seed, months: months)
            w = try NightlyWorkspace()
            self.months = try FileManager.default.contentsOfDirectory(atPath: setup.sim + "/v1").filter {
                $0.hasSuffix(".jsonl")
            }.sorted()
        }

        /// Removes the simulation and the workspace.
        func remove() {
            setup.tmp.remove()
            w.remove()
        }

        /// The apple-view folder.
        var appleView: String { w.tmp.path + "/apple-view" }

        /// Delivers the Production records of the month file `name` (`--base-url` serves one environment).
        func arrive(_ name: String) throws {
            let text = try String(contentsOfFile: setup.sim + "/v1/" + name, encoding: .utf8)
            let lines = text.split(separator: "\n").filter { !$0.contains(#""environment":"Sandbox""#) }
            try w.tmp.write("in/v1/" + name, lines.map { $0 + "\n" }.joined())
        }

        /// Apple's view as fetched at `instant`: only what Apple had signed by then, statuses as they were then; with
        /// `dropping`, the last transaction of the first Production history of more than one is missing (a fault).
        func view(at instant: Int64, dropping: Bool = false) throws -> [SimulatedAPIView.Answers] {
            var payloads: [ResponseBodyV2DecodedPayload] = []
            try V2RecordReader().read(try InputPaths.expand([setup.sim + "/v2"])) { outcome in
                if let p = outcome.record?.payload, (p.signedDate ?? 0) <= instant { payloads.append(p) }
            }
            var derived = SimulatedAPIView.derive(payloads)
            if dropping,
                let key = derived.history.keys.sorted(by: { $0.joined() < $1.joined() }).first(where: {
                    $0[0] == "Production" && (derived.history[$0]?.count ?? 0) > 1
                })
            {
                derived.history[key]?.removeLast()
            }
            var random = SimulationRandom(seed: 11)
            return try SimulatedAPIView.answers(derived, random: &random, fetchedAt: instant).filter {
                $0.environment == "Production"
            }
        }

        /// `nightly --fetch`'s arguments for the night of `date` against `server`.
        func arguments(_ server: LoopbackAPIServer, date: String, extra: [String] = []) -> [String] {
            [
                "nightly", "--v1", w.v1, "--state", w.state, "--reports", w.reports, "--fetch", "--apple-view",
                appleView, "--key-id", "KEY123", "--issuer-id", "issuer-1", "--bundle-id", "com.example.simulated",
                "--private-key", setup.keyPath, "--base-url", server.baseURL("production"),
                "--max-requests-per-second", "1000", "--retry-delay", "20ms", "--run-date", date,
                "--metrics-file", w.tmp.path + "/metrics.prom"
            ] + NightlyWorkspace.timeless + (extra.contains("--max-retries") ? extra : ["--max-retries", "3"] + extra)
        }

        /// Runs a night, keeping its output and the server's tokens for the leak check.
        mutating func run(_ server: LoopbackAPIServer, date: String, extra: [String] = []) throws -> BinaryRun {
            let run = try BinaryRun.run(arguments(server, date: date, extra: extra))
            texts += [run.stdoutText, run.stderr]
            tokens.formUnion(server.requests.map { String($0.authorization.dropFirst("Bearer ".count)) })
            return run
        }

        /// The finished ids (answered, not found or covered) of the fetch generation of `night`.
        func finished(night: String) throws -> Set<String> {
            let entries = try FetchCheckpoint(directory: appleView).entries
            guard let generation = entries.last(where: { $0.kind == "run" && $0.night == night })?.generation else {
                return []
            }
            return Set(
                entries.filter { $0.generation == generation && ["done", "notFound", "covered"].contains($0.kind) }
                    .map(\.id))
        }

        /// The subscriptions with an open difference or a pending item in the state.
        func unsettled() throws -> Set<String> {
            let db = try SQLiteDatabase(path: w.state, create: false)
            defer { db.close() }
            var ids: Set<String> = []
            try db.prepare(
                "SELECT original_transaction_id FROM differences WHERE resolved IS NULL UNION SELECT original_transaction_id FROM pending"
            ).forEach { (s: SQLiteStatement) throws(ASNError) in ids.insert(s.text(0)) }
            return ids
        }

        /// Expects that neither the key nor a token appears in any output, report, state or log of the nights.
        func expectNothingLeaked(sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
            try #require(!tokens.isEmpty, sourceLocation: sourceLocation)
            let pem = String(decoding: try #require(setup.key.pkcs8PEM()), as: UTF8.self)
            var secrets: [String] = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.map(String.init)
            for token in tokens {
                secrets.append(token)
                if let signature = token.split(separator: ".").last { secrets.append(String(signature)) }
            }
            var texts = self.texts
            for (name, bytes) in try FetchEndToEndTests.contents(w.tmp.path) where !name.hasPrefix("in/") {
                texts.append(String(decoding: bytes, as: UTF8.self))
            }
            for text in texts {
                for secret in secrets {
                    #expect(!text.contains(secret), "the key or a token leaked", sourceLocation: sourceLocation)
                }
            }
        }
    }

    /// The first instant of the month after the file `name` (`2021-02.jsonl`), less a millisecond.
    static func endOfMonth(_ name: String) throws -> Int64 {
        let start = try #require(Timestamp.parseUTCDayOrInstant(String(name.prefix(7)) + "-01")).ms
        return try #require(
            Timestamp.parseUTCDayOrInstant(Timestamp.day(ms: start + 32 * 86_400_000).prefix(7) + "-01")
        )
        .ms - 1
    }

    /// The day after `instant`.
    static func dayAfter(_ instant: Int64) -> String {
        Timestamp.day(ms: instant + 86_400_000)
    }

    /// A report's rows cut to `differences.csv`'s columns, joined and sorted.
    static func rows(_ path: String) throws -> [String] {
        var reader = CSVReader(path: path)
        let records = try reader.feed(Array(try Data(contentsOf: URL(fileURLWithPath: path)))) + reader.finish()
        // The judged columns: nightly keeps no V2 price, so its money columns are empty where reconcile's are filled.
        return records.map { Array($0.fields.prefix(DifferenceRow.pricedColumns)).joined(separator: "\u{1F}") }
            .sorted()
    }

    @Test func threeNightsAgainstTheLoopbackAPIEndEqualToOneReconcileOverTheFetchedFolder() throws {
        var nights = try Nights(subscribers: 12, seed: 3, months: 4)
        defer { nights.remove() }
        let months = nights.months
        try #require(months.count >= 4)

        // Night 1: the first two months arrive; Apple's view as at their end.
        try nights.arrive(months[0])
        try nights.arrive(months[1])
        let firstEnd = try Self.endOfMonth(months[1])
        let night1 = Self.dayAfter(firstEnd)
        // One transaction V1 shows is missing from Apple's history tonight: an open item for the nights to come.
        let server1 = try nights.setup.server(answers: try nights.view(at: firstEnd, dropping: true))
        defer { server1.stop() }
        let run1 = try nights.run(server1, date: night1)
        let asked1 = Set(server1.requests.filter { $0.endpoint == "inApps/v2/history" }.map(\.id))
        #expect(
            server1.requests.allSatisfy { !$0.query.contains("revision=") }, "a first night has no revision to give")
        #expect(!asked1.isEmpty && server1.tokenProblems.isEmpty, "\(server1.tokenProblems)")
        let unsettled = try nights.unsettled()
        #expect(!unsettled.isEmpty, "the missing transaction is open or pending")

        // Night 2: no new file; Apple's view a month later (statuses moved). Only what is open or pending is asked,
        // each from its revision.
        let secondEnd = try Self.endOfMonth(months[2])
        let night2 = Self.dayAfter(secondEnd)
        let server2 = try nights.setup.server(answers: try nights.view(at: secondEnd))
        defer { server2.stop() }
        let run2 = try nights.run(server2, date: night2)
        let requests2 = server2.requests
        let history2 = requests2.filter { $0.endpoint == "inApps/v2/history" }
        let statuses2 = requests2.filter { $0.endpoint == "inApps/v1/subscriptions" }
        #expect(history2.allSatisfy { $0.query.hasPrefix("revision=") }, "every history request gives its revision")
        #expect(Set(history2.map(\.id)).isSubset(of: unsettled), "only open or pending subscriptions are asked")
        let covered2 = try nights.finished(night: night2).subtracting(history2.map(\.id))
        #expect(Set(history2.map(\.id)).union(covered2) == unsettled, "every open or pending subscription is asked")
        #expect(
            requests2.count == history2.count + statuses2.count && statuses2.count == history2.count,
            "one history page from the revision and one statuses request per id: \(requests2.count) requests")
        #expect(!history2.isEmpty && requests2.count < server1.requests.count, "\(requests2.count) requests")
        let metrics2 = try String(contentsOfFile: nights.w.tmp.path + "/metrics.prom", encoding: .utf8)
        #expect(metrics2.contains("asn_migrate_nightly_fetch_requests \(requests2.count)\n"), "\(metrics2)")
        #expect(metrics2.contains("asn_migrate_nightly_fetch_ids{kind=\"not_answered\"} 0\n"))
        // The fetch rewrote its parts: a note, not a warning, and only the subscriptions whose answers changed (those
        // asked, whose statuses moved) are re-paired, not every subscription the parts hold.
        #expect(run2.stderr.contains("(Apple's API view) was rewritten"), "\(run2.stderr)")
        let warnings = run2.stderr.split(separator: "\n").filter { $0.contains("warning:") }
        #expect(!warnings.contains { $0.contains("changed in the part already read") }, "\(warnings)")
        #expect(
            !run2.stderr.contains("file(s) changed in the part already read"),
            "the night's own rewrite is no changed file: \(run2.stderr)")
        #expect(run2.stderr.contains("2 file(s) read, \(unsettled.count) subscription(s) re-paired"), "\(run2.stderr)")

        // Night 3: the remaining months arrive; 5xx answers, and the night is killed mid-fetch, then run again.
        for name in months[2...] { try nights.arrive(name) }
        let lastEnd = try Self.endOfMonth(try #require(months.last))
        let night3 = Self.dayAfter(lastEnd)
        let answers3 = try nights.view(at: lastEnd)
        var faults = LoopbackAPIServer.Faults()
        let faulty = answers3.map(\.originalTransactionId).suffix(3)
        faults.serverErrors = Dictionary(uniqueKeysWithValues: faulty.map { ($0, 2) })
        faults.delay = 0.05
        let server3 = try nights.setup.server(faults: faults, answers: answers3)
        defer { server3.stop() }
        let executable = try #require(BinaryRun.executable)
        let process = Process()
        process.executableURL = executable
        process.arguments = nights.arguments(server3, date: night3)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while server3.requests.count < 4 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "killed mid-fetch")
        #expect(try nights.w.query("SELECT COUNT(*) FROM runs WHERE run_date = '\(night3)'") == "0", "state unchanged")
        let finishedBefore = try nights.finished(night: night3)
        server3.clearLog()
        let run3 = try nights.run(server3, date: night3)
        #expect(run3.stderr.contains("not answered; "), "the re-run finishes the night: \(run3.stderr)")
        let askedAgain = server3.requests.filter { finishedBefore.contains($0.id) }
        #expect(askedAgain.isEmpty, "ids finished before the kill were asked again: \(askedAgain.map(\.id))")
        let history3 = server3.requests.filter { $0.endpoint == "inApps/v2/history" }
        #expect(history3.contains { $0.status == 500 } || !Set(faulty).isDisjoint(with: finishedBefore))
        let summary3 = try String(contentsOfFile: nights.appleView + "/fetch-summary.csv", encoding: .utf8)
        #expect(summary3.contains("ids_failed,0\n"), "the 5xx answers were retried: \(summary3)")
        #expect(
            try String(contentsOfFile: nights.appleView + "/not-answered.csv", encoding: .utf8)
                == "original_transaction_id,environment\n")

        // The last night equals one reconcile over the same V1 files and the fetched folder at the same run date.
        let reconciled = nights.w.tmp.path + "/reconcile"
        let reconcile = try BinaryRun.run([
            "reconcile", "--v1", nights.w.v1, "--v2", nights.appleView, "--out", reconciled, "--run-date", night3
        ])
        #expect([0, 1].contains(reconcile.status), "\(reconcile.stderr)")
        let nightly = try Self.rows(nights.w.reports + "/\(night3)/open.csv")
        let once = try Self.rows(reconciled + "/differences.csv")
        for run in [run1, run2, run3] { #expect([0, 1].contains(run.status), "\(run.stderr)") }
        #expect(!once.isEmpty, "differences to agree on: not vacuous")
        #expect(
            nightly == once,
            "only nightly: \(Set(nightly).subtracting(once))\nonly reconcile: \(Set(once).subtracting(nightly))")
        try nights.expectNothingLeaked()
    }

    @Test func idsApplesAPINeverAnswersExit69AreListedAndAskedTheNextNight() throws {
        var nights = try Nights(subscribers: 4, seed: 6, months: 2)
        defer { nights.remove() }
        for name in nights.months { try nights.arrive(name) }
        let end = try Self.endOfMonth(try #require(nights.months.last))
        let answers = try nights.view(at: end)
        let stuck = try #require(answers.first?.originalTransactionId)
        var faults = LoopbackAPIServer.Faults()
        faults.serverErrors = [stuck: 1000]
        let server = try nights.setup.server(faults: faults, answers: answers)
        defer { server.stop() }
        let night1 = Self.dayAfter(end)
        let run1 = try nights.run(server, date: night1, extra: ["--max-retries", "1"])
        #expect(run1.status == ExitStatus.unavailable.rawValue, "\(run1.stderr)")
        #expect(run1.stderr.contains("Production \(stuck)") && run1.stderr.contains("not-answered.csv"))
        #expect(
            run1.stderr.contains("exit 69: Apple's API did not answer 1 subscription(s) (listed in "),
            "the last line says what 69 means: \(run1.stderr)")
        #expect(
            try String(contentsOfFile: nights.appleView + "/not-answered.csv", encoding: .utf8)
                == "original_transaction_id,environment\n\(stuck),Production\n")
        #expect(
            FileManager.default.fileExists(atPath: nights.w.reports + "/\(night1)/open.csv"), "the night is published")
        let metrics = try String(contentsOfFile: nights.w.tmp.path + "/metrics.prom", encoding: .utf8)
        #expect(metrics.contains("asn_migrate_nightly_fetch_ids{kind=\"not_answered\"} 1\n"))
        #expect(metrics.contains("asn_migrate_nightly_last_run_exit_code 69\n"))
        #expect(metrics.contains("asn_migrate_nightly_fetch_retries "))
        let open = try nights.w.rows(night1, "open.csv")

        // The next night, with Apple answering again and no new file: the id is asked, whole (it has no revision yet).
        let next = try nights.setup.server(answers: answers)
        defer { next.stop() }
        let night2 = Self.dayAfter(end + 86_400_000)
        let run2 = try nights.run(next, date: night2)
        #expect(run2.stderr.contains("0 not answered; "), "\(run2.stderr)")
        // Not answered is not_fetched, never a difference.
        #expect(!open.contains { $0.contains(stuck) }, "\(open.filter { $0.contains(stuck) })")
        #expect([0, 1].contains(run2.status), "\(run2.stderr)")
        #expect(next.requests.contains { $0.id == stuck && $0.endpoint == "inApps/v2/history" && $0.query.isEmpty })
        #expect(
            try String(contentsOfFile: nights.appleView + "/not-answered.csv", encoding: .utf8)
                == "original_transaction_id,environment\n")
        try nights.expectNothingLeaked()
    }

    @Test func aRefusedTokenIsExit77WithTheNightNotRun() throws {
        var nights = try Nights(subscribers: 3, seed: 4, months: 1)
        defer { nights.remove() }
        for name in nights.months { try nights.arrive(name) }
        var faults = LoopbackAPIServer.Faults()
        faults.unauthorized = true
        let server = try nights.setup.server(faults: faults)
        defer { server.stop() }
        let run = try nights.run(server, date: "2021-06-01")
        #expect(run.status == ExitStatus.unauthorized.rawValue, "\(run.stderr)")
        #expect(run.stderr.contains("the night was not run and the state is unchanged"))
        #expect(try nights.w.query("SELECT COUNT(*) FROM runs") == "0", "no night in the state")
        #expect(!FileManager.default.fileExists(atPath: nights.w.reports + "/2021-06-01"), "no report")
        let metrics = try String(contentsOfFile: nights.w.tmp.path + "/metrics.prom", encoding: .utf8)
        #expect(metrics.contains("asn_migrate_nightly_last_run_exit_code 77\n"))
        try nights.expectNothingLeaked()
    }

    @Test func aFetchFolderAnotherRunHoldsIsExit75WithTheNightNotRun() throws {
        var nights = try Nights(subscribers: 2, seed: 4, months: 1)
        defer { nights.remove() }
        for name in nights.months { try nights.arrive(name) }
        let server = try nights.setup.server()
        defer { server.stop() }
        try FileManager.default.createDirectory(atPath: nights.appleView, withIntermediateDirectories: true)
        // A `fetch --out` of the same folder holds its lock.
        let held = try RunLock.acquire(RunLock.lockPath(besideOutput: nights.appleView))
        let run = try nights.run(server, date: "2021-06-01")
        held.release()
        #expect(run.status == ExitStatus.locked.rawValue, "\(run.stderr)")
        #expect(server.requests.isEmpty, "nothing asked")
        #expect(try nights.w.query("SELECT COUNT(*) FROM runs") == "0", "no night in the state")
    }
}
