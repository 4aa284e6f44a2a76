import ASNMigrateKit
import Foundation

/// Apple's App Store Server API view of a simulation (`DIR/v2-api/`), derived from the V2 notifications it wrote: what
/// Get Transaction History and Get All Subscription Statuses would return for the same lifecycles.
///
/// - History: every transaction any V2 notification carried, once per environment + transactionId, as its newest copy
///   shows it (each copy is the lifecycle at its signing, so the newest holds a refund and an extended expiry); a
///   transaction overlapped by a purchase of another product of the subscription is upgraded (`isUpgraded`). Pages hold at most 20 transactions of one
///   customer, oldest first, with `revision` and `hasMore`, one page per line, a file per environment.
/// - Statuses: one response per auto-renewable subscription, fetched at the end of the simulated span (`fetchedAt` in the
///   envelope): the latest transaction, the renewal info of the subscription's latest notification carrying one, and
///   the status both imply then (`LifecycleV2.status`).
///
/// With `--inject`, `APIFaultInjector` perturbs the derived view before it is written (`statusOverrides`, history
/// transactions dropped or changed) and says what `reconcile` must report (`truth-api.csv`).
package enum SimulatedAPIView {
    /// What the view is made of.
    package struct Derived: Sendable {
        /// Transactions per [environment, originalTransactionId], oldest first.
        package var history: [[String]: [JWSTransactionDecodedPayload]] = [:]
        /// The latest renewal info per [environment, originalTransactionId].
        package var renewals: [[String]: JWSRenewalInfoDecodedPayload] = [:]
        /// The newest notification `signedDate`.
        package var newestSignedDate: Int64?
        /// Statuses written instead of the derived one, per [environment, originalTransactionId] (injected faults).
        package var statusOverrides: [[String]: Int] = [:]
    }

    /// Derives the view from a simulation's V2 notifications (one subscriber's, or all).
    package static func derive(_ notifications: [SimulatedV2Notification]) -> Derived {
        derive(
            notifications.map { n in
                var data = NotificationData()
                data.environment = n.transaction?.environment ?? n.renewal?.environment
                data.transactionInfo = n.transaction
                data.renewalInfo = n.renewal
                return ResponseBodyV2DecodedPayload(
                    notificationType: n.notificationType, subtype: n.subtype, notificationUUID: n.notificationUUID,
                    version: "2.0", signedDate: n.signedDate, data: data, migration: nil)
            })
    }

    /// Derives the view from V2 notifications, in any order.
    package static func derive(_ payloads: [ResponseBodyV2DecodedPayload]) -> Derived {
        var byId: [[String]: JWSTransactionDecodedPayload] = [:]
        var transactionTimes: [[String]: Int64] = [:]
        var renewalTimes: [[String]: Int64] = [:]
        var derived = Derived()
        for p in payloads {
            let time = p.signedDate ?? Int64.min
            derived.newestSignedDate = max(derived.newestSignedDate ?? Int64.min, time)
            if let t = p.data.transactionInfo, let id = t.transactionId {
                let key = [t.environment ?? "", id]
                if (transactionTimes[key] ?? Int64.min) <= time {
                    transactionTimes[key] = time
                    byId[key] = t
                }
            }
            if let r = p.data.renewalInfo, let otid = r.originalTransactionId {
                let key = [p.data.environment ?? r.environment ?? "", otid]
                if (renewalTimes[key] ?? Int64.min) <= time {
                    renewalTimes[key] = time
                    derived.renewals[key] = r
                }
            }
        }
        for t in byId.values {
            derived.history[[t.environment ?? "", t.originalTransactionId ?? ""], default: []].append(t)
        }
        for key in derived.history.keys {
            var list = (derived.history[key] ?? []).sorted {
                ($0.purchaseDate ?? 0) != ($1.purchaseDate ?? 0)
                    ? ($0.purchaseDate ?? 0) < ($1.purchaseDate ?? 0)
                    : IdentifierOrder.less($0.transactionId ?? "", $1.transactionId ?? "")
            }
            for i in list.indices.dropLast()
            where list[i].productId != list[i + 1].productId
                && (list[i].expiresDate ?? 0) > (list[i + 1].purchaseDate ?? 0) && list[i].revocationDate == nil
            {
                list[i].isUpgraded = true
            }
            derived.history[key] = list
        }
        return derived
    }

    /// What App Store Server API answers for one originalTransactionId of one environment: its Get Transaction History
    /// pages (oldest first, `revision` `<id>-<page>`) and its Get All Subscription Statuses response (nil when the
    /// latest transaction is not an auto-renewable subscription), bodies as Apple sends them (no `fetchedAt`).
    package struct Answers: Sendable {
        /// `Production` / `Sandbox`.
        package var environment: String
        /// The originalTransactionId.
        package var originalTransactionId: String
        /// The history pages, one JSON object each.
        package var pages: [[UInt8]]
        /// The statuses response.
        package var statuses: [UInt8]?
    }

    /// The answers for every history of the view, in environment then id order (what a loopback App Store Server API
    /// serves); every JWS signed at `fetchedAt` (default one minute after the newest notification) by `signer`
    /// (`simulate --sign`), else with a placeholder signature.
    package static func answers(
        _ derived: Derived, random: inout SimulationRandom, fetchedAt: Int64? = nil,
        signer: TestCertificateAuthority? = nil
    ) throws(ASNError) -> [Answers] {
        try answersAndFetchTime(derived, random: &random, fetchedAt: fetchedAt, signer: signer).answers
    }

    /// The answers held in a written view (`DIR/v2-api/`, as `files` wrote it): history pages grouped by their
    /// `revision` (`<id>-<page>`), statuses bodies without the `fetchedAt` member; in environment then id order.
    package static func answers(directory: String) throws(ASNError) -> [Answers] {
        var byKey: [[String]: Answers] = [:]
        let parser = JSONParser()
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
        for name in names where name.hasSuffix(".jsonl") {
            guard let data = FileManager.default.contents(atPath: directory + "/" + name) else {
                throw ASNError(
                    .unreadableInput, "cannot read '\(directory)/\(name)'",
                    at: SourceLocation(path: directory + "/" + name))
            }
            for line in Array(data).split(separator: 0x0A) where !line.isEmpty {
                guard case .object(var object) = try parser.parse(line) else { continue }
                let reader = V2FieldReader(object)
                let environment = reader.string("environment") ?? ""
                if name.hasPrefix("history-"), let revision = reader.string("revision"),
                    let dash = revision.lastIndex(of: "-")
                {
                    let id = String(revision[..<dash])
                    byKey[
                        [environment, id],
                        default: Answers(environment: environment, originalTransactionId: id, pages: [], statuses: nil)
                    ]
                    .pages.append(Array(line))
                } else if name.hasPrefix("statuses-"), case .array(let groups)? = object["data"],
                    case .object(let group)? = groups.first, case .array(let entries)? = group["lastTransactions"],
                    case .object(let entry)? = entries.first,
                    let id = V2FieldReader(entry).string("originalTransactionId")
                {
                    object.members.removeAll { $0.key == "fetchedAt" }
                    byKey[
                        [environment, id],
                        default: Answers(environment: environment, originalTransactionId: id, pages: [], statuses: nil)
                    ]
                    .statuses = JSONWriter.bytes(.object(object))
                }
            }
        }
        return byKey.keys.sorted { a, b in a[0] != b[0] ? a[0] < b[0] : IdentifierOrder.less(a[1], b[1]) }.compactMap {
            byKey[$0]
        }
    }

    /// The history pages and statuses responses (fetched at `fetchedAt`, default one minute after the newest
    /// notification) as lines per file stem (`history-Production`, `statuses-Sandbox`, …); every JWS signed by `signer`
    /// (`simulate --sign`), else with a placeholder signature. Each statuses line is the `answers` body with a
    /// leading `fetchedAt` member.
    package static func files(
        _ derived: Derived, random: inout SimulationRandom, fetchedAt: Int64? = nil,
        signer: TestCertificateAuthority? = nil
    ) throws(ASNError) -> [(name: String, lines: [[UInt8]])] {
        let (answers, time) = try answersAndFetchTime(derived, random: &random, fetchedAt: fetchedAt, signer: signer)
        var out: [String: [[UInt8]]] = [:]
        for answer in answers {
            out["history-\(answer.environment)", default: []] += answer.pages
            if let statuses = answer.statuses {
                guard case .object(var object)? = try? JSONParser().parse(statuses) else { continue }
                object.members.insert(.init(key: "fetchedAt", value: .string(Timestamp.iso8601(ms: time))), at: 0)
                out["statuses-\(answer.environment)", default: []].append(JSONWriter.bytes(.object(object)))
            }
        }
        return out.keys.sorted().map { ($0, out[$0] ?? []) }
    }

    /// `answers`, and the fetch time used.
    private static func answersAndFetchTime(
        _ derived: Derived, random: inout SimulationRandom, fetchedAt: Int64?,
        signer: TestCertificateAuthority?
    ) throws(ASNError) -> (answers: [Answers], fetchedAt: Int64) {
        var answers: [Answers] = []
        let keys = derived.history.keys.sorted { a, b in
            a[0] != b[0] ? a[0] < b[0] : IdentifierOrder.less(a[1], b[1])
        }
        let fetchedAt = fetchedAt ?? (derived.newestSignedDate ?? 0) + 60_000
        for key in keys {
            let list = derived.history[key] ?? []
            var answer = Answers(environment: key[0], originalTransactionId: key[1], pages: [], statuses: nil)
            for start in stride(from: 0, to: list.count, by: pageSize) {
                var page = JSONObjectBuilder()
                page.add("revision", "\(key[1])-\(start / pageSize)")
                page.add("hasMore", start + pageSize < list.count)
                page.add("bundleId", list.first?.bundleId)
                page.add("environment", key[0])
                var signed: [JSONValue] = []
                for t in list[start..<min(start + pageSize, list.count)] {
                    signed.append(
                        .string(
                            try SimulatedV2Notification.jws(
                                signedAt(t, fetchedAt).json, random: &random, signer: signer)))
                }
                var object = page.object
                object.members.append(.init(key: "signedTransactions", value: .array(signed)))
                answer.pages.append(JSONWriter.bytes(.object(object)))
            }
            defer { answers.append(answer) }
            guard let latest = list.last, latest.type == LifecycleV2.autoRenewableType,
                let renewal = derived.renewals[key]
            else { continue }
            var entry = JSONObjectBuilder()
            entry.add("originalTransactionId", key[1])
            entry.add(
                "status",
                derived.statusOverrides[key] ?? LifecycleV2.status(latest, renewal: renewal, at: fetchedAt)?.rawValue
                    ?? 2)
            var signedRenewal = renewal
            signedRenewal.signedDate = fetchedAt
            entry.add(
                "signedTransactionInfo",
                try SimulatedV2Notification.jws(signedAt(latest, fetchedAt).json, random: &random, signer: signer))
            entry.add(
                "signedRenewalInfo",
                try SimulatedV2Notification.jws(signedRenewal.json, random: &random, signer: signer))
            var group = JSONObjectBuilder()
            group.add("subscriptionGroupIdentifier", latest.subscriptionGroupIdentifier)
            var groupObject = group.object
            groupObject.members.append(.init(key: "lastTransactions", value: .array([.object(entry.object)])))
            var response = JSONObjectBuilder()
            response.add("environment", key[0])
            response.add("bundleId", latest.bundleId)
            var responseObject = response.object
            responseObject.members.append(.init(key: "data", value: .array([.object(groupObject)])))
            answer.statuses = JSONWriter.bytes(.object(responseObject))
        }
        return (answers, fetchedAt)
    }

    /// `transaction` as the API returns it at `time`: Apple signs each response when it is made, so `signedDate` is
    /// the fetch time (a statuses response without `fetchedAt` is then dated right, from its newest `signedDate`).
    private static func signedAt(_ transaction: JWSTransactionDecodedPayload, _ time: Int64)
        -> JWSTransactionDecodedPayload
    {
        var copy = transaction
        copy.signedDate = time
        return copy
    }

    /// Transactions per history page.
    package static let pageSize = 20
}
