import Foundation

/// `nightly --fetch`: after the night's V1 files are read and before anything is paired, asks Apple's App Store Server
/// API, as `fetch --update` does (each id from its last revision, one history per customer, resumable through the
/// checkpoint), for every subscription whose answer can change, and writes the fetch folder the night then reads as
/// its V2 side:
///
/// - the subscriptions the night's new V1 records name;
/// - those with V1 records that no fetch has answered yet (ids that failed on an earlier night);
/// - those with a pending item or an open difference (their status can move).
///
/// Each environment is asked at its own base URL (`base-url` overrides both). A night with no new V1 file thus asks
/// only with revisions, and only for what is open or unanswered. The key and the tokens are never written anywhere.
package struct NightlyFetch {
    /// The name of the list of ids to retry, in the fetch folder.
    package static let notAnsweredName = FetchFolder.notAnsweredName

    /// The night's settings (`fetch`, `api`, `appleView`).
    package let settings: NightlySettings
    /// The run date: each night begins its own `--update` generation; a re-run of the same night continues it.
    package let night: String
    /// The clock (epoch ms).
    package let now: Int64
    /// Writes one log line.
    package let log: (String) -> Void

    /// Creates the step.
    package init(settings: NightlySettings, night: String, now: Int64, log: @escaping (String) -> Void) {
        self.settings = settings
        self.night = night
        self.now = now
        self.log = log
    }

    /// What the night's fetch did.
    package struct Outcome: Sendable, Equatable {
        /// The figures, summed over the environments.
        package var figures = FetchFigures()
        /// Ids asked (every environment).
        package var idsAsked = 0
        /// Ids Apple did not answer this night (failed after the retries, or not reached): asked again next night.
        package var notAnswered: [SubscriptionKey] = []

        /// Creates an empty outcome.
        package init() {}
    }

    /// The fetch folder as a real path (created when missing; refused when it holds what `fetch` did not write).
    package static func prepare(_ appleView: String) throws(ASNError) -> String {
        let directory = try OutputTarget.resolveDirectory(appleView)
        try FetchOutput.prepare(directory)
        return directory
    }

    /// Asks Apple for the subscriptions of `store` whose answer can change, `touched` being those the night's new V1
    /// records name, and writes the fetch folder. A refused token throws `.unauthorized` (the night is not run).
    package func run(_ store: NightlyStore, touched: Set<SubscriptionKey>) throws(ASNError) -> Outcome {
        guard let appleView = settings.appleView else { return Outcome() }
        let directory = try Self.prepare(appleView)
        let checkpoint = try FetchCheckpoint(directory: directory)
        let known = Self.answered(checkpoint.entries)
        var wanted = touched.union(try store.differences.unsettledSubscriptions())
        wanted.formUnion(try store.facts.subscriptions(side: "v1").filter { !known.contains($0) })
        let plans = Self.plans(wanted, entries: checkpoint.entries, night: night, now: now, settings: settings.api)
        // The key is read every night, so a key gone or unreadable is seen on a night with nothing to ask too.
        let (key, warning) = try APICredentials.loadKey(path: settings.api.keyPath)
        if let warning { log(warning) }
        var outcome = Outcome()
        guard !plans.isEmpty else {
            log("fetch: nothing to ask Apple tonight")
            try write(checkpoint, directory: directory, outcome: outcome)
            return outcome
        }
        let credentials = APICredentials(
            keyId: settings.api.keyId, issuerId: settings.api.issuerId, bundleId: settings.api.bundleId,
            privateKey: key)
        for plan in plans {
            let client = settings.api.client(credentials, baseURL: settings.apiBaseURL(plan.environment))
            let result = try FetchRun(client: client, checkpoint: checkpoint, plan: plan).run()
            if result.unauthorized {
                throw ASNError(
                    .unauthorized,
                    "\(APIClient.unauthorizedError.message); the night was not run and the state is unchanged")
            }
            for failure in result.failures { log("fetch: \(failure.description)") }
            Self.add(result.figures, to: &outcome.figures)
            outcome.idsAsked += plan.ids.count
            outcome.notAnswered += Self.unfinished(plan, entries: checkpoint.entries)
        }
        try write(checkpoint, directory: directory, outcome: outcome)
        let f = outcome.figures
        log(
            "fetch: \(outcome.idsAsked) id(s) asked (\(f.idsFinishedBefore) finished before), \(f.idsAnswered) answered, \(f.idsNotFound) not found, \(f.idsCovered) held by another id of the same customer, \(outcome.notAnswered.count) not answered; \(f.requests) request(s), \(f.retries) retries; written to \(appleView)"
        )
        return outcome
    }

    // MARK: - Planning

    /// The ids every answer so far covers: asked and finished (answered, not found, or held by another id), and the
    /// other ids a finished id's answers hold.
    static func answered(_ entries: [FetchCheckpoint.Entry]) -> Set<SubscriptionKey> {
        var keys: Set<SubscriptionKey> = []
        for entry in entries where ["done", "notFound", "covered"].contains(entry.kind) {
            keys.insert(SubscriptionKey(environment: entry.environment, originalTransactionId: entry.id))
            if entry.kind == "done" {
                for other in entry.covers {
                    keys.insert(SubscriptionKey(environment: entry.environment, originalTransactionId: other))
                }
            }
        }
        return keys
    }

    /// One `--update` plan per environment (Production first) for the `wanted` subscriptions of a known environment
    /// with a transaction id; an id an earlier answer showed to be another id's customer brings that id along, since
    /// Apple answers per customer and the fetch asks only the customer's smallest id.
    static func plans(
        _ wanted: Set<SubscriptionKey>, entries: [FetchCheckpoint.Entry], night: String, now: Int64,
        settings: FetchSettings
    ) -> [FetchPlan] {
        var heldBy: [SubscriptionKey: String] = [:]
        for entry in entries where entry.kind == "done" {
            for other in entry.covers {
                let key = SubscriptionKey(environment: entry.environment, originalTransactionId: other)
                if heldBy[key].map({ IdentifierOrder.less(entry.id, $0) }) ?? true { heldBy[key] = entry.id }
            }
        }
        return ["Production", "Sandbox"].compactMap { environment -> FetchPlan? in
            var ids: Set<String> = []
            for key in wanted where key.environment == environment && FetchIds.isId(key.originalTransactionId) {
                ids.insert(key.originalTransactionId)
                if let holder = heldBy[key] { ids.insert(holder) }
            }
            guard !ids.isEmpty else { return nil }
            var plan = FetchPlan(environment: environment, ids: FetchIds.sorted(ids))
            plan.update = true
            plan.night = night
            plan.concurrency = settings.concurrency
            plan.now = now
            return plan
        }
    }

    /// The ids of `plan` its generation did not finish (the newest of its environment's).
    static func unfinished(_ plan: FetchPlan, entries: [FetchCheckpoint.Entry]) -> [SubscriptionKey] {
        let mine = entries.filter { $0.environment == plan.environment }
        let generation = mine.map(\.generation).max() ?? 0
        let finished = Set(
            mine.filter { $0.generation == generation && ["done", "notFound", "covered"].contains($0.kind) }.map(\.id))
        return plan.ids.filter { !finished.contains($0) }.map {
            SubscriptionKey(environment: plan.environment, originalTransactionId: $0)
        }
    }

    // MARK: - Writing

    /// Writes the folder's answers, `not-found.csv`, `fetch-summary.csv` and `not-answered.csv` (the ids to retry).
    private func write(_ checkpoint: FetchCheckpoint, directory: String, outcome: Outcome) throws(ASNError) {
        let notFound = try FetchOutput.writeResponses(checkpoint, directory: directory)
        try OutputFile.writeWhole(FetchOutput.notFoundCSV(notFound), to: directory + "/" + FetchOutput.notFoundName)
        let metrics = FetchJob.summaryMetrics(outcome.figures, environment: "all", notFoundTotal: notFound.count)
        try OutputFile.writeWhole(
            CSVWriter.renderBytes(header: ["metric", "value"], rows: metrics.map { [$0.0, $0.1] }),
            to: directory + "/" + FetchOutput.summaryName)
        try OutputFile.writeWhole(Self.notAnsweredCSV(outcome.notAnswered), to: directory + "/" + Self.notAnsweredName)
    }

    /// `not-answered.csv`: `original_transaction_id,environment`, in environment then numeric id order.
    package static func notAnsweredCSV(_ keys: [SubscriptionKey]) -> [UInt8] {
        CSVWriter.renderBytes(
            header: ["original_transaction_id", "environment"],
            rows: keys.sorted {
                $0.environment != $1.environment
                    ? $0.environment < $1.environment
                    : IdentifierOrder.less($0.originalTransactionId, $1.originalTransactionId)
            }.map { [$0.originalTransactionId, $0.environment] })
    }

    /// Adds one environment's figures to the night's.
    private static func add(_ f: FetchFigures, to total: inout FetchFigures) {
        let counts: [WritableKeyPath<FetchFigures, Int>] = [
            \.idsAsked, \.idsFinishedBefore, \.idsAnswered, \.idsNotFound, \.idsFailed, \.idsNotReached, \.idsCovered,
            \.historyPages, \.statusResponses, \.notificationPages, \.requests, \.retries
        ]
        for path in counts { total[keyPath: path] += f[keyPath: path] }
        total.seconds += f.seconds
    }
}
