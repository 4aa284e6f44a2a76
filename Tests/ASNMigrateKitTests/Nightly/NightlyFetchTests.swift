import Foundation
import Testing

@testable import ASNMigrateKit

/// `nightly --fetch` without the network: its settings from flags and the config file, and what it plans to ask.
@Suite struct NightlyFetchTests {
    private func arguments(_ list: [String]) throws -> ParsedArguments {
        try NightlyConfigFileTests.arguments(list)
    }

    private static let key = [
        "--key-id", "KEY123", "--issuer-id", "issuer-1", "--bundle-id", "com.example", "--private-key", "k.p8"
    ]

    @Test func fetchTakesFetchsOptionsUnderTheSameNamesFromFlagsOrTheConfig() throws {
        let flags = try NightlySettings.resolve(
            try arguments(
                ["--v1", "a", "--fetch", "--state", "s/state.sqlite", "--max-retries", "2", "--concurrency", "8"]
                    + Self.key),
            config: nil)
        #expect(flags.fetch && flags.v2.isEmpty, "--fetch stands in for --v2")
        #expect(flags.api.keyId == "KEY123" && flags.api.issuerId == "issuer-1" && flags.api.bundleId == "com.example")
        #expect(flags.api.maxRetries == 2 && flags.api.concurrency == 8 && flags.api.requestsPerSecond == 10)
        #expect(flags.appleView == "s/state.sqlite.apple-view" && flags.v2Roots == ["s/state.sqlite.apple-view"])
        #expect(flags.apiBaseURL("Sandbox") == "https://api.storekit-sandbox.itunes.apple.com")
        #expect(flags.apiBaseURL("Production") == "https://api.storekit.itunes.apple.com")

        let text = """
            v1 = in/v1
            fetch = yes
            key-id = KEY9
            issuer-id = iss
            bundle-id = com.example
            private-key = keys/AuthKey.p8
            apple-view = view
            base-url = http://127.0.0.1:9/x
            max-requests-per-second = 250
            retry-delay = 20ms
            """
        let config = try NightlyConfigFile(path: "/etc/asn/nightly.conf", text: text)
        let file = try NightlySettings.resolve(try arguments([]), config: config)
        #expect(file.fetch && file.api.keyPath == "/etc/asn/keys/AuthKey.p8", "paths are the config folder's")
        #expect(file.appleView == "/etc/asn/view" && file.v2Roots == ["/etc/asn/view"])
        #expect(
            file.apiBaseURL("Sandbox") == "http://127.0.0.1:9/x" && file.apiBaseURL("Production") == file.api.baseURL)
        #expect(file.api.requestsPerSecond == 250 && file.api.retryDelay == 0.02)
        // A --v2 root is read besides the view; without fetch the view is no V2 root, whatever the key flags say.
        let off = try NightlySettings.resolve(try arguments(["--v2", "b"]), config: config)
        #expect(off.fetch && off.v2Roots == ["b", "/etc/asn/view"])
        let plain = try NightlySettings.resolve(try arguments(["--v1", "a", "--v2", "b"] + Self.key), config: nil)
        #expect(!plain.fetch && plain.v2Roots == ["b"])
    }

    @Test(arguments: [
        (["--fetch"], "--key-id KEY_ID, --issuer-id ISSUER_ID, --bundle-id BUNDLE_ID, --private-key FILE"),
        (["--fetch", "--key-id", "K", "--issuer-id", "I", "--bundle-id", "B"], "needs --private-key FILE"),
        (["--fetch", "--max-requests-per-second", "0"] + key, "'--max-requests-per-second' needs a number above 0"),
        (["--fetch", "--base-url", "ftp://x"] + key, "'--base-url' needs an http or https URL"),
        (["--fetch", "--v2", "postgres://u@h/d", "--v2-query", "t"] + key, "cannot be read beside")
    ])
    func aFetchWithoutItsKeyOrWithABadValueIsAUsageError(flags: [String], message: String) throws {
        #expect {
            _ = try NightlySettings.resolve(try arguments(["--v1", "a"] + flags), config: nil)
        } throws: { error in
            (error as? ASNError)?.code == .usage && (error as? ASNError)?.message.contains(message) == true
        }
    }

    @Test func aBadFetchValueInTheConfigNamesFileLineAndKey() throws {
        let config = try NightlyConfigFile(path: "n.conf", text: "v1 = a\nfetch = yes\nconcurrency = 500\n")
        #expect {
            _ = try NightlySettings.resolve(try arguments(Array(Self.key)), config: config)
        } throws: { error in
            let message = (error as? ASNError)?.message ?? ""
            return message.contains("line 3") && message.contains("key 'concurrency'") && message.contains("64")
        }
    }

    @Test func plansAskEachEnvironmentWithRevisionsAndBringTheCustomersSmallestId() {
        var done = FetchCheckpoint.Entry(kind: "done", environment: "Production", id: "100", generation: 0)
        done.covers = ["205"]
        let failed = FetchCheckpoint.Entry(kind: "history", environment: "Production", id: "300", generation: 0)
        let entries = [done, failed]
        let wanted: Set<SubscriptionKey> = [
            SubscriptionKey(environment: "Production", originalTransactionId: "205"),
            SubscriptionKey(environment: "Production", originalTransactionId: "300"),
            SubscriptionKey(environment: "Sandbox", originalTransactionId: "7"),
            SubscriptionKey(environment: "", originalTransactionId: "8"),
            SubscriptionKey(environment: "Production", originalTransactionId: "abc")
        ]
        var api = FetchSettings()
        api.concurrency = 3
        let plans = NightlyFetch.plans(wanted, entries: entries, night: "2026-11-27", now: 5, settings: api)
        #expect(plans.map(\.environment) == ["Production", "Sandbox"])
        #expect(plans.first?.ids == ["100", "205", "300"], "205 is 100's customer: 100 is asked, 205 held by it")
        #expect(plans.last?.ids == ["7"])
        #expect(plans.allSatisfy { $0.update && $0.night == "2026-11-27" && $0.concurrency == 3 && $0.now == 5 })
        #expect(
            NightlyFetch.answered(entries)
                == [
                    SubscriptionKey(environment: "Production", originalTransactionId: "100"),
                    SubscriptionKey(environment: "Production", originalTransactionId: "205")
                ], "300 was never finished: asked again")
        #expect(NightlyFetch.plans([], entries: entries, night: "d", now: 0, settings: api).isEmpty)
    }

    @Test func unfinishedIdsAreThoseTheNewestGenerationDidNotFinish() {
        var plan = FetchPlan(environment: "Production", ids: ["1", "2", "3", "4"])
        plan.update = true
        let entries = [
            FetchCheckpoint.Entry(kind: "done", environment: "Production", id: "1", generation: 0),
            FetchCheckpoint.Entry(kind: "done", environment: "Production", id: "2", generation: 1),
            FetchCheckpoint.Entry(kind: "covered", environment: "Production", id: "3", generation: 1),
            FetchCheckpoint.Entry(kind: "done", environment: "Sandbox", id: "4", generation: 1)
        ]
        #expect(NightlyFetch.unfinished(plan, entries: entries).map(\.originalTransactionId) == ["1", "4"])
        let csv = String(
            decoding: NightlyFetch.notAnsweredCSV([
                SubscriptionKey(environment: "Sandbox", originalTransactionId: "5"),
                SubscriptionKey(environment: "Production", originalTransactionId: "10"),
                SubscriptionKey(environment: "Production", originalTransactionId: "9")
            ]), as: UTF8.self)
        #expect(csv == "original_transaction_id,environment\n9,Production\n10,Production\n5,Sandbox\n")
    }

    @Test func aNewNightBeginsItsOwnGenerationAndARerunOfTheSameNightContinuesIt() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let checkpoint = try FetchCheckpoint(directory: tmp.path)
        var begun = FetchCheckpoint.Entry(kind: "run", environment: "Production", generation: 0)
        begun.night = "2026-11-26"
        try checkpoint.append(begun)
        let reopened = try FetchCheckpoint(directory: tmp.path)
        #expect(reopened.entries.first?.night == "2026-11-26", "the night is journaled")
        // A plan with no ids runs no request: it only begins (or continues) its generation.
        let client = FetchSettings().client(
            APICredentials(
                keyId: "K", issuerId: "I", bundleId: "B", privateKey: try #require(ES256PrivateKey.generate())),
            baseURL: "http://127.0.0.1:9")
        func run(_ night: String) throws {
            var plan = FetchPlan(environment: "Production", ids: [])
            plan.update = true
            plan.night = night
            _ = try FetchRun(client: client, checkpoint: reopened, plan: plan).run()
        }
        try run("2026-11-26")
        #expect(reopened.entries.map(\.kind) == ["run", "end"], "the same night's unfinished generation continues")
        try run("2026-11-27")
        // A night stopped before its end, then the next night: it begins its own generation.
        var stopped = FetchCheckpoint.Entry(kind: "run", environment: "Production", generation: 2)
        stopped.night = "2026-11-28"
        try reopened.append(stopped)
        try run("2026-11-29")
        #expect(reopened.entries.filter { $0.kind == "run" }.map(\.generation) == [0, 1, 2, 3])
        #expect(reopened.entries.filter { $0.kind == "end" }.map(\.generation) == [0, 1, 3])
    }
}
