import Foundation
import Testing

@testable import ASNMigrateKit
@testable import ASNSimulation

#if canImport(Glibc)
    import Glibc
#endif

/// `fetch` through the built binary against a loopback App Store Server API serving `simulate`'s API view.
@Suite(.serialized) struct FetchEndToEndTests {
    /// A simulation, a key made at run time and its `.p8` file.
    struct Setup {
        /// The test's folder.
        let tmp: TemporaryDirectory
        /// The simulation's folder.
        let sim: String
        /// The API key, made at run time.
        let key: ES256PrivateKey
        /// Its `.p8` file (mode 600).
        let keyPath: String
        /// What the loopback server answers.
        let answers: [SimulatedAPIView.Answers]

        /// Simulates `subscribers` at `seed` (over `months`, when given) and makes a key.
        init(subscribers: Int, seed: Int, inject: String = "0", months: Int? = nil) throws {
            tmp = try TemporaryDirectory()
            sim = tmp.path + "/sim"
            let simulate = try BinaryRun.run(
                [
                    "simulate", "--subscribers", String(subscribers), "--seed", String(seed), "--inject", inject,
                    "--out", sim
                ] + (months.map { ["--months", String($0)] } ?? []))
            guard simulate.status == 0 else { throw ASNError(.outputFailed, "simulate failed: \(simulate.stderr)") }
            guard let key = ES256PrivateKey.generate(), let pem = key.pkcs8PEM() else {
                throw ASNError(.outputFailed, "no key")
            }
            self.key = key
            keyPath = try tmp.write("AuthKey_KEY123.p8", pem)
            chmod(keyPath, 0o600)
            answers = try SimulatedAPIView.answers(directory: sim + "/v2-api")
        }

        /// A started loopback server for the simulation (or for `answers`, Apple's view at another time).
        func server(
            faults: LoopbackAPIServer.Faults = .init(), notificationPages: [[UInt8]] = [],
            answers: [SimulatedAPIView.Answers]? = nil
        ) throws -> LoopbackAPIServer {
            guard let publicKey = key.publicKey else { throw ASNError(.outputFailed, "no public key") }
            let server = LoopbackAPIServer(
                answers: answers ?? self.answers, notificationPages: notificationPages, publicKey: publicKey,
                keyId: "KEY123",
                issuerId: "issuer-1", bundleId: "com.example.simulated", faults: faults)
            try server.start()
            return server
        }

        /// `fetch`'s arguments against `server`.
        func arguments(
            _ server: LoopbackAPIServer, environment: String = "production", out: String, extra: [String] = []
        ) -> [String] {
            [
                "fetch", "--key-id", "KEY123", "--issuer-id", "issuer-1", "--bundle-id", "com.example.simulated",
                "--private-key", keyPath,
                "--environment", environment, "--base-url", server.baseURL(environment), "--out", out,
                "--max-requests-per-second", "1000", "--retry-delay", "20ms"
            ] + extra
        }

        /// Ids the view holds that the archive never names (family-shared purchases V1 never notified), per environment.
        func idsOutsideArchive(_ environment: String) throws -> [String] {
            let named = Set(
                try FetchIds.fromArchive(try InputPaths.expand([sim + "/v1"]), environment: environment).ids)
            return answers.filter { $0.environment == environment && !named.contains($0.originalTransactionId) }.map(
                \.originalTransactionId)
        }
    }

    /// Every file under `directory` (relative path → bytes), gzip files decompressed, the hidden checkpoint included.
    static func contents(_ directory: String, includeHidden: Bool = true) throws -> [String: [UInt8]] {
        var out: [String: [UInt8]] = [:]
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return out }
        while let relative = walker.nextObject() as? String {
            let path = directory + "/" + relative
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                continue
            }
            if !includeHidden && relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            if relative.hasSuffix(".gz") {
                let source = try GzipByteSource(descriptor: open(path, O_RDONLY), owned: true, name: path)
                var plain: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 1 << 16)
                while true {
                    let n = try buffer.withUnsafeMutableBytes { try source.readChunk(into: $0) }
                    if n == 0 { break }
                    plain += buffer[0..<n]
                }
                bytes = plain
            }
            out[relative] = bytes
        }
        return out
    }

    /// The response folders and the not-found list (what must not depend on concurrency or interruptions).
    static func responses(_ directory: String) throws -> [String: [UInt8]] {
        try contents(directory, includeHidden: false).filter { !$0.key.hasSuffix(FetchOutput.summaryName) }
    }

    /// Runs `reconcile` over `view` placed at `place` (so both runs name the same --v2 root) and returns its reports.
    static func reconcile(_ setup: Setup, view: String, place: String, out: String) throws -> (Int32, [String: [UInt8]])
    {
        try FileManager.default.moveItem(atPath: view, toPath: place)
        defer { try? FileManager.default.moveItem(atPath: place, toPath: view) }
        let run = try BinaryRun.run([
            "reconcile", "--v1", setup.sim + "/v1", "--v2", place, "--out", out, "--run-date", "2026-11-24"
        ])
        return (run.status, try contents(out))
    }

    // MARK: - Tests

    @Test func fetchedFolderReconcilesByteIdenticallyToTheSimulatorsView() throws {
        let setup = try Setup(subscribers: 100, seed: 5, inject: "0.05")
        defer { setup.tmp.remove() }
        let production = setup.answers.filter { $0.environment == "Production" }.map(\.originalTransactionId)
        try #require(production.count >= 20)
        var faults = LoopbackAPIServer.Faults()
        faults.rateLimitWithRetryAfter = [production[0]]
        faults.rateLimitWithoutRetryAfter = [production[1]]
        faults.serverErrors = [production[2]: 2, production[3]: 1]
        faults.slow = Set(production[4...6])
        faults.dropConnection = [production[7]]
        faults.retryableErrorCode = [production[8]]
        let server = try setup.server(faults: faults)
        defer { server.stop() }
        let out = setup.tmp.path + "/fetched"
        var runs: [BinaryRun] = []
        for environment in ["Production", "Sandbox"] {
            // Ids Apple holds that no V1 record names cannot come from the archive: listed with --ids, with two unknown ones.
            let extra = try setup.idsOutsideArchive(environment) + ["999000000000001", "999000000000002"]
            let idsFile = try setup.tmp.write(
                "ids-\(environment).txt", "# extra ids\n" + extra.joined(separator: "\n") + "\n")
            let run = try BinaryRun.run(
                setup.arguments(
                    server, environment: environment.lowercased(), out: out,
                    extra: [
                        "--from-v1", setup.sim + "/v1", "--ids", idsFile, "--summary-json",
                        setup.tmp.path + "/summary-\(environment).json"
                    ]))
            #expect(run.status == ExitStatus.findings.rawValue, "unknown ids are listed (exit 1): \(run.stderr)")
            let last = run.stderr.split(separator: "\n").last ?? ""
            #expect(
                last.hasPrefix("asn-migrate fetch: exit 1: ")
                    && last.hasSuffix(" id(s) not found: Apple does not know them (see \(out)/not-found.csv)"),
                "the last line says what exit 1 means: \(last)")
            runs.append(run)
        }
        #expect(server.tokenProblems.isEmpty, "every request carried a valid token: \(server.tokenProblems)")
        let notFound = try String(contentsOfFile: out + "/not-found.csv", encoding: .utf8)
        #expect(
            notFound
                == "original_transaction_id,environment,error_code\n999000000000001,Production,4040010\n999000000000002,Production,4040010\n999000000000001,Sandbox,4040010\n999000000000002,Sandbox,4040010\n"
        )
        let summary = try String(contentsOfFile: out + "/fetch-summary.csv", encoding: .utf8)
        #expect(summary.contains("environment,Sandbox\n"), "the last run's summary")
        let productionSummary = try String(contentsOfFile: setup.tmp.path + "/summary-Production.json", encoding: .utf8)
        let summaryObject = try JSONParser().parse(productionSummary).objectValue
        let retries = summaryObject.flatMap { V2FieldReader($0).int("retries") } ?? 0
        #expect(retries >= 7, "429 ×2, 500 ×3, a dropped connection, a retryable code: \(productionSummary)")
        let requests = server.requests
        #expect(requests.contains { $0.status == 429 } && requests.contains { $0.status == 500 })
        // An unknown id is asked once per environment, never retried, never asked for statuses.
        #expect(
            requests.filter { $0.id == "999000000000001" }.map {
                $0.environment + " " + $0.endpoint + " " + String($0.status)
            }.sorted()
                == ["production inApps/v2/history 404", "sandbox inApps/v2/history 404"])
        // Retry-After: 1 is honoured: the retry comes a second later, not after the 20 ms backoff.
        let limited = requests.filter { $0.id == production[0] && $0.endpoint == "inApps/v2/history" }
        #expect(limited.count == 2 && limited[1].time - limited[0].time >= 0.95, "\(limited.map(\.time))")
        #expect(
            requests.filter { $0.id == production[2] && $0.endpoint == "inApps/v2/history" }.map(\.status).prefix(3)
                == [500, 500, 200])
        // Every history request of a finished id is asked once, except the ones retried.
        let historyAnswered = requests.filter { $0.endpoint == "inApps/v2/history" && $0.status == 200 }
        #expect(
            Set(historyAnswered.map { $0.environment + $0.id + $0.query }).count == historyAnswered.count,
            "no page asked twice")

        // reconcile over the fetched folder and over the simulator's view, at the same --v2 path: identical reports.
        let (directStatus, direct) = try Self.reconcile(
            setup, view: setup.sim + "/v2-api", place: setup.tmp.path + "/view", out: setup.tmp.path + "/r1")
        let (fetchedStatus, fetched) = try Self.reconcile(
            setup, view: out, place: setup.tmp.path + "/view", out: setup.tmp.path + "/r2")
        #expect(directStatus == 1 && fetchedStatus == 1, "the injected differences are found on both")
        let summaryText = String(decoding: direct["summary.csv"] ?? [], as: UTF8.self)
        #expect(
            summaryText.contains("statuses_compared,") && !summaryText.contains("statuses_compared,0\n"),
            "statuses were compared")
        #expect((direct["differences.csv"] ?? []).filter { $0 == 0x0A }.count > 3, "differences were found")
        #expect(direct.keys.sorted() == fetched.keys.sorted())
        for (name, bytes) in direct { #expect(fetched[name] == bytes, "\(name) differs") }
        let rejected = String(decoding: fetched["rejected.csv"] ?? [], as: UTF8.self)
        #expect(
            !rejected.contains("fetch-summary") && !rejected.contains("not-found"), "the fetch's own files are not read"
        )

        // Neither a token nor the key appears in any output, log or file the fetch wrote.
        let tokens = Set(requests.map { String($0.authorization.dropFirst("Bearer ".count)) })
        try #require(!tokens.isEmpty)
        let pem = String(decoding: try #require(setup.key.pkcs8PEM()), as: UTF8.self)
        let keyLines = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.map(String.init)
        var texts = runs.flatMap { [$0.stdoutText, $0.stderr] }
        texts += try Self.contents(out).values.map { String(decoding: $0, as: UTF8.self) }
        texts.append(try String(contentsOfFile: setup.tmp.path + "/summary-Production.json", encoding: .utf8))
        for text in texts {
            for token in tokens { #expect(!text.contains(token), "a token leaked") }
            for signature in tokens.compactMap({ $0.split(separator: ".").last }) { #expect(!text.contains(signature)) }
            for line in keyLines { #expect(!text.contains(line), "the key leaked") }
        }
    }

    @Test func refusedTokenStopsAtOnceWithExit77AndLeaksNothing() throws {
        let setup = try Setup(subscribers: 20, seed: 2)
        defer { setup.tmp.remove() }
        var faults = LoopbackAPIServer.Faults()
        faults.unauthorized = true
        let server = try setup.server(faults: faults)
        defer { server.stop() }
        let out = setup.tmp.path + "/fetched"
        let run = try BinaryRun.run(setup.arguments(server, out: out, extra: ["--from-v1", setup.sim + "/v1"]))
        #expect(run.status == ExitStatus.unauthorized.rawValue, "\(run.stderr)")
        #expect(
            run.stderr.contains("--key-id") && run.stderr.contains("--issuer-id") && run.stderr.contains("--bundle-id")
                && run.stderr.contains("clock"))
        #expect(server.requests.count <= 4, "stops at once: at most the requests in flight (\(server.requests.count))")
        let tokens = Set(server.requests.map { String($0.authorization.dropFirst("Bearer ".count)) })
        for token in tokens { #expect(!run.stderr.contains(token) && !run.stdoutText.contains(token)) }
        // A key readable by others is warned about.
        chmod(setup.keyPath, 0o644)
        let loose = try BinaryRun.run(setup.arguments(server, out: out, extra: ["--from-v1", setup.sim + "/v1"]))
        #expect(loose.stderr.contains("can be read by other users"), "\(loose.stderr)")
        let usage = try BinaryRun.run(["fetch", "--key-id", "K", "--out", out])
        #expect(usage.status == ExitStatus.usage.rawValue)
    }

    @Test func sigkillAtRandomPointsResumesToTheSameBytesWithoutAskingFinishedIdsAgain() throws {
        let setup = try Setup(subscribers: 60, seed: 7)
        defer { setup.tmp.remove() }
        var faults = LoopbackAPIServer.Faults()
        faults.delay = 0.02
        let server = try setup.server(faults: faults)
        defer { server.stop() }
        let whole = setup.tmp.path + "/whole"
        let killed = setup.tmp.path + "/killed"
        let first = try BinaryRun.run(
            setup.arguments(server, out: whole, extra: ["--from-v1", setup.sim + "/v1", "--concurrency", "1"]))
        #expect(first.status == 0, "\(first.stderr)")
        let executable = try #require(BinaryRun.executable)
        var random = SystemRandomNumberGenerator()
        var kills = 0
        for attempt in 0..<12 {
            let finishedBefore = Self.finishedIds(killed)
            server.clearLog()
            let process = Process()
            process.executableURL = executable
            process.arguments = setup.arguments(
                server, out: killed, extra: ["--from-v1", setup.sim + "/v1", "--concurrency", "4"])
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            if attempt < 4 {
                Thread.sleep(forTimeInterval: Double.random(in: 0.1...0.5, using: &random))
                kill(process.processIdentifier, SIGKILL)
            }
            process.waitUntilExit()
            let askedAgain = server.requests.filter { finishedBefore.contains($0.id) }
            #expect(askedAgain.isEmpty, "ids finished before run \(attempt) were asked again: \(askedAgain.map(\.id))")
            if process.terminationReason == .uncaughtSignal {
                kills += 1
                continue
            }
            #expect(process.terminationStatus == 0)
            break
        }
        #expect(kills >= 1)
        #expect(
            try Self.responses(whole).keys.sorted() == [
                "history/part-0001.jsonl.gz", "not-found.csv", "statuses/part-0001.jsonl.gz"
            ])
        #expect(
            try Self.responses(killed) == (try Self.responses(whole)),
            "the resumed output is byte-identical to an uninterrupted one")

        // --update asks only for history since each id's revision, and statuses afresh.
        let (beforeStatus, before) = try Self.reconcile(
            setup, view: whole, place: setup.tmp.path + "/view", out: setup.tmp.path + "/r1")
        server.clearLog()
        let update = try BinaryRun.run(
            setup.arguments(server, out: whole, extra: ["--from-v1", setup.sim + "/v1", "--update"]))
        #expect(update.status == 0, "\(update.stderr)")
        let history = server.requests.filter { $0.endpoint == "inApps/v2/history" }
        #expect(
            !history.isEmpty && history.allSatisfy { $0.query.hasPrefix("revision=") },
            "every history request continues from a revision")
        #expect(
            server.requests.filter { $0.endpoint == "inApps/v1/subscriptions" }.count == Self.finishedIds(whole).count)
        let (afterStatus, after) = try Self.reconcile(
            setup, view: whole, place: setup.tmp.path + "/view", out: setup.tmp.path + "/r2")
        #expect(beforeStatus == afterStatus && before == after, "nothing changed at Apple: the same reports")
    }

    @Test func notificationHistoryPagesAreKeptAsApplesSentThem() throws {
        let setup = try Setup(subscribers: 10, seed: 4)
        defer { setup.tmp.remove() }
        let pages = (0..<3).map { index in
            Array(
                #"{"notificationHistory":[{"signedPayload":"e30.e30.sig\#(index)"}],"hasMore":\#(index < 2),"paginationToken":"page-\#(index + 1)"}"#
                    .utf8)
        }
        let server = try setup.server(notificationPages: pages)
        defer { server.stop() }
        let out = setup.tmp.path + "/fetched"
        let idsFile = try setup.tmp.write("ids.txt", (setup.answers.first?.originalTransactionId ?? "1") + "\n")
        let since = Timestamp.iso8601(ms: ReconcileCommand.currentTime() - 10 * 86_400_000)
        let run = try BinaryRun.run(
            setup.arguments(server, out: out, extra: ["--ids", idsFile, "--notifications-since", since]))
        #expect(run.status == 0, "\(run.stderr)")
        let kept = try Self.contents(out)["notifications/part-0001.jsonl.gz"]
        #expect(kept == pages.flatMap { $0 + [0x0A] })
        let posts = server.requests.filter { $0.method == "POST" }
        #expect(posts.map(\.query) == ["", "paginationToken=page-1", "paginationToken=page-2"])
        let tooOld = try BinaryRun.run(
            setup.arguments(server, out: out, extra: ["--ids", idsFile, "--notifications-since", "2020-01-01"]))
        #expect(tooOld.status == ExitStatus.usage.rawValue && tooOld.stderr.contains("180 days"), "\(tooOld.stderr)")
    }

    @Test func idStillFailingAfterTheRetriesExits69AndTheNextRunFinishesIt() throws {
        let setup = try Setup(subscribers: 10, seed: 6)
        defer { setup.tmp.remove() }
        let production = setup.answers.filter { $0.environment == "Production" }.map(\.originalTransactionId)
        var faults = LoopbackAPIServer.Faults()
        faults.serverErrors = [production[0]: 3]
        let server = try setup.server(faults: faults)
        defer { server.stop() }
        let out = setup.tmp.path + "/fetched"
        let idsFile = try setup.tmp.write("ids.txt", production.joined(separator: "\n") + "\n")
        let first = try BinaryRun.run(
            setup.arguments(server, out: out, extra: ["--ids", idsFile, "--max-retries", "1"]))
        #expect(first.status == ExitStatus.unavailable.rawValue, "\(first.stderr)")
        #expect(
            first.stderr.contains("still failed after 1 retries")
                && first.stderr.contains("run the same command again"), "\(first.stderr)")
        #expect(Self.finishedIds(out) == Set(production.dropFirst()), "every other id finished")
        server.clearLog()
        let second = try BinaryRun.run(
            setup.arguments(server, out: out, extra: ["--ids", idsFile, "--max-retries", "1"]))
        #expect(second.status == 0, "\(second.stderr)")
        #expect(Set(server.requests.map(\.id)) == [production[0]], "only the failed id is asked again")
    }

    /// Apple answers history and statuses for the whole customer, whichever of the customer's ids is asked: a page
    /// holding transactions of `ids`.
    static func customerAnswers(_ ids: [String], environment: String = "Production") -> (
        page: [UInt8], statuses: [UInt8]
    ) {
        let header = Base64.encodeURL(Array(#"{"alg":"ES256"}"#.utf8))
        let signed = ids.enumerated().map { index, id in
            "\"" + header + "."
                + Base64.encodeURL(
                    Array(
                        #"{"transactionId":"\#(id)\#(index)","originalTransactionId":"\#(id)","environment":"\#(environment)"}"#
                            .utf8)) + ".c2ln\""
        }
        let page =
            #"{"revision":"\#(ids[0])-0","hasMore":false,"environment":"\#(environment)","signedTransactions":[\#(signed.joined(separator: ","))]}"#
        let entries = ids.map { #"{"originalTransactionId":"\#($0)","status":1}"# }.joined(separator: ",")
        let statuses =
            #"{"environment":"\#(environment)","data":[{"subscriptionGroupIdentifier":"1","lastTransactions":[\#(entries)]}]}"#
        return (Array(page.utf8), Array(statuses.utf8))
    }

    @Test func idsOfOneCustomerAreAskedOnceAndKeptOnceWhateverTheOrder() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let key = try #require(ES256PrivateKey.generate())
        let keyPath = try tmp.write("AuthKey_KEY123.p8", try #require(key.pkcs8PEM()))
        chmod(keyPath, 0o600)
        let shared = Self.customerAnswers(["100", "200"])
        let alone = Self.customerAnswers(["300"])
        let answers = [
            SimulatedAPIView.Answers(
                environment: "Production", originalTransactionId: "100", pages: [shared.page], statuses: shared.statuses
            ),
            SimulatedAPIView.Answers(
                environment: "Production", originalTransactionId: "200", pages: [shared.page], statuses: shared.statuses
            ),
            SimulatedAPIView.Answers(
                environment: "Production", originalTransactionId: "300", pages: [alone.page], statuses: alone.statuses)
        ]
        let server = LoopbackAPIServer(
            answers: answers, publicKey: try #require(key.publicKey), keyId: "KEY123", issuerId: "issuer-1",
            bundleId: "com.example.simulated")
        try server.start()
        defer { server.stop() }
        let idsFile = try tmp.write("ids.txt", "300\n200\n100\n")
        func fetch(_ out: String, concurrency: String) throws -> BinaryRun {
            try BinaryRun.run([
                "fetch", "--key-id", "KEY123", "--issuer-id", "issuer-1", "--bundle-id", "com.example.simulated",
                "--private-key", keyPath,
                "--base-url", server.baseURL("production"), "--ids", idsFile, "--out", out, "--concurrency",
                concurrency,
                "--max-requests-per-second", "1000"
            ])
        }
        let sequential = try fetch(tmp.path + "/one", concurrency: "1")
        #expect(sequential.status == 0, "\(sequential.stderr)")
        #expect(!server.requests.contains { $0.id == "200" }, "200 is held in 100's answers: not asked")
        #expect(
            try String(contentsOfFile: tmp.path + "/one/fetch-summary.csv", encoding: .utf8).contains("ids_covered,1\n")
        )
        let one = try Self.responses(tmp.path + "/one")
        #expect(one["history/part-0001.jsonl.gz"] == shared.page + [0x0A] + alone.page + [0x0A])
        #expect(one["statuses/part-0001.jsonl.gz"] == shared.statuses + [0x0A] + alone.statuses + [0x0A])
        // Asked in parallel, 200 is answered too (100 is not finished when it is taken); the output is the same.
        server.clearLog()
        for attempt in 0..<3 {
            let parallel = try fetch(tmp.path + "/many\(attempt)", concurrency: "3")
            #expect(parallel.status == 0)
            #expect(try Self.responses(tmp.path + "/many\(attempt)") == one)
        }
        #expect(server.requests.contains { $0.id == "200" })
    }

    @Test func defaultRateOfTenRequestsPerSecondIsKept() throws {
        let setup = try Setup(subscribers: 12, seed: 9)
        defer { setup.tmp.remove() }
        let server = try setup.server()
        defer { server.stop() }
        let out = setup.tmp.path + "/fetched"
        let arguments = setup.arguments(server, out: out, extra: ["--from-v1", setup.sim + "/v1"]).filter {
            $0 != "--max-requests-per-second" && $0 != "1000"
        }
        let run = try BinaryRun.run(arguments)
        #expect(run.status == 0, "\(run.stderr)")
        let times = server.requests.map(\.time).sorted()
        try #require(times.count >= 20)
        let rate = Double(times.count - 1) / ((times.last ?? 0) - (times.first ?? 0))
        #expect(rate <= 10.5 && rate >= 7, "\(times.count) requests at \(rate) per second")
        print(
            "fetch at the default rate: \(times.count) requests for \(Self.finishedIds(out).count) ids at \(String(format: "%.2f", rate)) requests/s"
        )
    }

    /// Ids with a `done` or `notFound` entry in the checkpoint of `directory`.
    static func finishedIds(_ directory: String) -> Set<String> {
        guard let journal = try? FetchCheckpoint(directory: directory) else { return [] }
        return Set(journal.entries.filter { $0.kind == "done" || $0.kind == "notFound" }.map(\.id))
    }
}
