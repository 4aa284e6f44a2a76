import Foundation

/// What one `fetch` run is asked to do.
package struct FetchPlan: Sendable {
    /// `Production` or `Sandbox`.
    package var environment: String
    /// The originalTransactionIds to ask for, de-duplicated.
    package var ids: [String]
    /// `--update`: ask ids finished earlier again, for history changes since their revision and fresh statuses.
    package var update = false
    /// Requests in flight at once (`--concurrency`).
    package var concurrency = 4
    /// `--notifications-since`: also fetch Get Notification History from this instant (epoch ms) to `now`.
    package var notificationsSince: Int64?
    /// The run's clock (epoch ms): the notification history's end.
    package var now: Int64 = 0
    /// With `update`: the night (`nightly --fetch`'s run date) the generation is for; an unfinished generation of
    /// another night is left, and a new one begun, so each night asks every id of its plan afresh.
    package var night: String?

    /// Creates a plan.
    package init(environment: String, ids: [String]) {
        self.environment = environment
        self.ids = ids
    }
}

/// The figures of one `fetch` run.
package struct FetchFigures: Sendable, Equatable {
    /// Ids the run was given.
    package var idsAsked = 0
    /// Ids finished by an earlier run, not asked again.
    package var idsFinishedBefore = 0
    /// Ids Apple answered on this run.
    package var idsAnswered = 0
    /// Ids Apple does not know (or refused), listed in `not-found.csv`.
    package var idsNotFound = 0
    /// Ids whose requests still failed after the retries (asked again by the next run).
    package var idsFailed = 0
    /// Ids not reached because the run stopped (a 401).
    package var idsNotReached = 0
    /// Ids not asked: the answers for a smaller id of the same customer already held them (Apple answers history and
    /// statuses per customer, whichever of the customer's ids is asked).
    package var idsCovered = 0
    /// Get Transaction History pages kept.
    package var historyPages = 0
    /// Get All Subscription Statuses responses kept.
    package var statusResponses = 0
    /// Get Notification History pages kept.
    package var notificationPages = 0
    /// Requests sent (retries included).
    package var requests = 0
    /// Requests sent again.
    package var retries = 0
    /// Wall time in seconds.
    package var seconds = 0.0

    /// Creates empty figures.
    package init() {}
}

/// Runs a fetch: asks Apple for every id of the plan not finished yet, on `concurrency` threads, journaling each
/// answer in the checkpoint as it comes.
///
/// `@unchecked Sendable`: its worker threads share the figures, the next index and the failures, all guarded by
/// `lock`; the client and the checkpoint are thread-safe themselves; the threads are joined before `run` returns.
package final class FetchRun: @unchecked Sendable {
    /// The API client.
    private let client: APIClient
    /// The journal.
    private let checkpoint: FetchCheckpoint
    /// The plan.
    private let plan: FetchPlan
    /// Called (from any thread, under no lock of ours) with the figures so far after each id.
    private let progress: @Sendable (FetchFigures, Int) -> Void
    /// Guards the figures, the queue and the failures.
    private let lock = NSLock()
    /// The figures so far.
    private var figures = FetchFigures()
    /// The first errors of failed ids.
    private var failures: [ASNError] = []
    /// Whether the run stopped on a 401.
    private var unauthorized = false
    /// The index of the next id to ask for.
    private var nextIndex = 0
    /// For each originalTransactionId held in a finished id's answers, the smallest such id.
    private var coveredBy: [String: String] = [:]

    /// Creates a run.
    package init(
        client: APIClient, checkpoint: FetchCheckpoint, plan: FetchPlan,
        progress: @escaping @Sendable (FetchFigures, Int) -> Void = { _, _ in }
    ) {
        self.client = client
        self.checkpoint = checkpoint
        self.plan = plan
        self.progress = progress
    }

    /// The outcome of a run.
    package struct Outcome: Sendable {
        /// The figures.
        package var figures: FetchFigures
        /// Errors of ids that still failed (the first 20).
        package var failures: [ASNError]
        /// Whether Apple refused the token.
        package var unauthorized: Bool
    }

    /// Runs the plan; throws only when the checkpoint cannot be written.
    package func run() throws(ASNError) -> Outcome {
        let started = RateLimiter.monotonic()
        let environment = plan.environment
        let entries = checkpoint.entries
        // Generations count per environment: an --update of one environment does not disturb the other's resume.
        let latest = entries.filter { $0.environment == environment }.map(\.generation).max() ?? 0
        var generation = latest
        if plan.update {
            let resuming =
                entries.contains {
                    $0.kind == "run" && $0.generation == latest && $0.environment == environment
                        && (plan.night == nil || $0.night == plan.night)
                }
                && !entries.contains { $0.kind == "end" && $0.generation == latest && $0.environment == environment }
            if !resuming {
                generation = entries.contains { $0.environment == environment } ? latest + 1 : 0
                var begun = FetchCheckpoint.Entry(kind: "run", environment: environment, generation: generation)
                begun.night = plan.night
                try checkpoint.append(begun)
            }
        }
        // What earlier runs left: finished ids, this generation's answers, each id's last revision.
        var finishedAny: Set<String> = []
        var finishedNow: Set<String> = []
        var lastRevision: [String: String] = [:]
        var mine: [String: [FetchCheckpoint.Entry]] = [:]
        for entry in entries where entry.environment == environment && !entry.id.isEmpty {
            let key = entry.id
            if entry.kind == "done" || entry.kind == "notFound" || entry.kind == "covered" {
                finishedAny.insert(key)
                if entry.generation == generation { finishedNow.insert(key) }
            }
            if entry.kind == "done" { noteCovered(entry.covers, by: key) }
            if entry.kind == "done", let revision = entry.revision { lastRevision[key] = revision }
            if entry.generation == generation { mine[key, default: []].append(entry) }
        }
        let todo = plan.ids.filter { plan.update ? !finishedNow.contains($0) : !finishedAny.contains($0) }
        lock.lock()
        figures.idsAsked = plan.ids.count
        figures.idsFinishedBefore = plan.ids.count - todo.count
        lock.unlock()

        var journalFailure: ASNError?
        if let since = plan.notificationsSince {
            do {
                try notifications(since: since, generation: generation, entries: entries)
            } catch {
                if error.code == .outputFailed { throw error }
                if error.code == .unauthorized { unauthorized = true } else { record(failure: error, ofId: false) }
            }
        }

        // The workers take the next id from a shared index; every thread is joined before returning.
        let generationNow = generation
        let answered = mine
        let revisions = lastRevision
        nextIndex = 0
        let group = DispatchGroup()
        let failureBox = FailureBox()
        for _ in 0..<max(1, min(plan.concurrency, max(1, todo.count))) {
            group.enter()
            let thread = Thread { [self] in
                defer { group.leave() }
                while true {
                    lock.lock()
                    guard nextIndex < todo.count, !unauthorized, failureBox.error == nil else {
                        lock.unlock()
                        return
                    }
                    let id = todo[nextIndex]
                    nextIndex += 1
                    let heldBy = coveredBy[id].flatMap { IdentifierOrder.less($0, id) ? $0 : nil }
                    lock.unlock()
                    do throws(ASNError) {
                        if let heldBy {
                            // A smaller id of the same customer was answered: Apple would send the same again.
                            var entry = FetchCheckpoint.Entry(
                                kind: "covered", environment: plan.environment, id: id, generation: generationNow)
                            entry.covers = [heldBy]
                            try checkpoint.append(entry)
                            count { $0.idsCovered += 1 }
                        } else {
                            try fetch(
                                id, generation: generationNow, previous: answered[id] ?? [],
                                lastRevision: plan.update ? revisions[id] : nil)
                        }
                    } catch {
                        switch error.code {
                        case .unauthorized:
                            lock.lock()
                            unauthorized = true
                            lock.unlock()
                        case .outputFailed:
                            failureBox.set(error)
                        default:
                            record(failure: error)
                        }
                    }
                    lock.lock()
                    let snapshot = figures
                    lock.unlock()
                    progress(snapshot, todo.count)
                }
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        group.wait()
        journalFailure = failureBox.error
        if let journalFailure { throw journalFailure }

        lock.lock()
        let counts = client.counts
        figures.requests = counts.requests
        figures.retries = counts.retries
        figures.seconds = RateLimiter.monotonic() - started
        let done = figures.idsAnswered + figures.idsNotFound + figures.idsFailed + figures.idsCovered
        figures.idsNotReached = max(0, todo.count - done)
        let outcome = Outcome(figures: figures, failures: failures, unauthorized: unauthorized)
        lock.unlock()
        if !outcome.unauthorized && outcome.figures.idsFailed == 0 && outcome.figures.idsNotReached == 0
            && failures.isEmpty
        {
            try checkpoint.append(FetchCheckpoint.Entry(kind: "end", environment: environment, generation: generation))
        }
        return outcome
    }

    // MARK: - One id

    /// Asks for one id: its history pages from where earlier runs stopped, then its statuses.
    private func fetch(_ id: String, generation: Int, previous: [FetchCheckpoint.Entry], lastRevision: String?)
        throws(ASNError)
    {
        let environment = plan.environment
        var after = lastRevision
        var historyDone = false
        var revision = lastRevision
        if let last = previous.last(where: { $0.kind == "history" }) {
            revision = last.revision ?? revision
            if last.hasMore == true, let next = last.revision, next != last.after {
                after = next
            } else {
                historyDone = true
            }
        }
        var pages = 0
        var held: Set<String> = []
        for entry in previous where entry.kind == "history" || entry.kind == "statuses" {
            held.formUnion(FetchAnswers.originalTransactionIds(in: try checkpoint.body(of: entry)))
        }
        while !historyDone {
            switch try client.transactionHistory(id, revision: after) {
            case .body(let body):
                let (next, hasMore) = Self.pageFacts(body, revisionKey: "revision")
                var entry = FetchCheckpoint.Entry(
                    kind: "history", environment: environment, id: id, generation: generation)
                entry.after = after
                entry.revision = next
                entry.hasMore = hasMore
                try checkpoint.append(entry, body: body)
                held.formUnion(FetchAnswers.originalTransactionIds(in: body))
                pages += 1
                revision = next ?? revision
                // Guard against a page that says more follow without moving on: never ask the same page forever.
                if hasMore, let next, next != after { after = next } else { historyDone = true }
            case .notFound(let code), .refused(_, let code):
                var entry = FetchCheckpoint.Entry(
                    kind: "notFound", environment: environment, id: id, generation: generation)
                entry.errorCode = code
                try checkpoint.append(entry)
                count {
                    $0.historyPages += pages
                    $0.idsNotFound += 1
                }
                return
            }
        }
        var statuses = 0
        if !previous.contains(where: { $0.kind == "statuses" || $0.kind == "statusesNotFound" }) {
            switch try client.subscriptionStatuses(id) {
            case .body(let body):
                try checkpoint.append(
                    FetchCheckpoint.Entry(kind: "statuses", environment: environment, id: id, generation: generation),
                    body: body)
                held.formUnion(FetchAnswers.originalTransactionIds(in: body))
                statuses = 1
            case .notFound(let code), .refused(_, let code):
                var entry = FetchCheckpoint.Entry(
                    kind: "statusesNotFound", environment: environment, id: id, generation: generation)
                entry.errorCode = code
                try checkpoint.append(entry)
            }
        }
        var done = FetchCheckpoint.Entry(kind: "done", environment: environment, id: id, generation: generation)
        done.revision = revision
        held.remove(id)
        done.covers = FetchIds.sorted(held)
        try checkpoint.append(done)
        lock.lock()
        noteCovered(done.covers, by: id)
        lock.unlock()
        count {
            $0.historyPages += pages
            $0.statusResponses += statuses
            $0.idsAnswered += 1
        }
    }

    // MARK: - Notifications

    /// Get Notification History from `since` to the plan's `now` (kept from the first page when resuming), every page.
    private func notifications(since: Int64, generation: Int, entries: [FetchCheckpoint.Entry]) throws(ASNError) {
        let environment = plan.environment
        let mine = entries.filter { $0.environment == environment && $0.generation == generation && $0.id.isEmpty }
        if mine.contains(where: { $0.kind == "notificationsDone" }) { return }
        let pagesSoFar = mine.filter { $0.kind == "notifications" }
        let start = pagesSoFar.first?.startDate ?? since
        let end = pagesSoFar.first?.endDate ?? plan.now
        var token: String?
        if let last = pagesSoFar.last {
            guard last.hasMore == true, let next = last.revision, next != last.after else {
                try checkpoint.append(
                    FetchCheckpoint.Entry(kind: "notificationsDone", environment: environment, generation: generation))
                return
            }
            token = next
        }
        while true {
            switch try client.notificationHistory(startDate: start, endDate: end, paginationToken: token) {
            case .body(let body):
                let (next, hasMore) = Self.pageFacts(body, revisionKey: "paginationToken")
                var entry = FetchCheckpoint.Entry(
                    kind: "notifications", environment: environment, generation: generation)
                entry.after = token
                entry.revision = next
                entry.hasMore = hasMore
                entry.startDate = start
                entry.endDate = end
                try checkpoint.append(entry, body: body)
                count { $0.notificationPages += 1 }
                guard hasMore, let next, next != token else {
                    try checkpoint.append(
                        FetchCheckpoint.Entry(
                            kind: "notificationsDone", environment: environment, generation: generation))
                    return
                }
                token = next
            case .notFound(let code), .refused(_, let code):
                throw ASNError(
                    .fetchFailed,
                    "Get Notification History was refused (Apple error \(code.map(String.init) ?? "none")); Apple keeps 180 days of notification history, so --notifications-since must lie within them",
                    group: "notification history refused")
            }
        }
    }

    // MARK: - Private

    /// The next-page token (`revision` or `paginationToken`) and `hasMore` of a page.
    static func pageFacts(_ body: [UInt8], revisionKey: String) -> (String?, Bool) {
        guard let value = try? JSONParser().parse(body), case .object(let object) = value else { return (nil, false) }
        var hasMore = false
        if case .bool(let more)? = object["hasMore"] { hasMore = more }
        return (V2FieldReader(object).string(revisionKey), hasMore)
    }

    /// Records that `id`'s answers hold `others` (call under the lock, or before the threads start).
    private func noteCovered(_ others: [String], by id: String) {
        for other in others where coveredBy[other].map({ IdentifierOrder.less(id, $0) }) ?? true {
            coveredBy[other] = id
        }
    }

    /// Changes the figures under the lock.
    private func count(_ change: (inout FetchFigures) -> Void) {
        lock.lock()
        change(&figures)
        lock.unlock()
    }

    /// Counts a failed id (unless the failure is the notification history's) and keeps its error (the first 20).
    private func record(failure: ASNError, ofId: Bool = true) {
        lock.lock()
        if ofId { figures.idsFailed += 1 }
        if failures.count < 20 { failures.append(failure) }
        lock.unlock()
    }
}

/// The first journal failure, shared by the workers.
///
/// `@unchecked Sendable`: guarded by `lock`.
private final class FailureBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: ASNError?

    /// The first failure set, if any.
    var error: ASNError? {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    /// Keeps `error` unless one is kept already.
    func set(_ error: ASNError) {
        lock.lock()
        if stored == nil { stored = error }
        lock.unlock()
    }
}
