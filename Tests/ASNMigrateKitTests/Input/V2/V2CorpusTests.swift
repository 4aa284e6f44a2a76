import Foundation
import Testing

@testable import ASNMigrateKit

/// Every file of the shared V2 corpus (`../shared/corpus/v2` from the package root) read by `V2RecordReader`: each
/// notification decodes without a reject; each file that is not one, or whose signed values are placeholders or cut
/// short, is named here with the reject it must give. Skipped when the corpus is absent.
@Suite struct V2CorpusTests {
    // MARK: - Corpus

    /// `../shared/corpus/v2` from the package root, if present.
    static let directory: URL? = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let v2 = root.deletingLastPathComponent().appendingPathComponent("shared/corpus/v2")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: v2.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return nil
        }
        return v2
    }()

    /// The `.json` and `.jws` files of the corpus, sorted.
    static func files() -> [String] {
        guard let directory, let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else {
            return []
        }
        return names.filter { $0.hasSuffix(".json") || $0.hasSuffix(".jws") }.sorted()
    }

    /// Files that are not V2 notifications, each with the reject it gives.
    /// Nested payloads (`*.transaction.decoded.json`, `*.renewal.decoded.json`) are handled by suffix in `expectedReject`.
    static let notNotifications: [String: ASNError.Code] = [
        // Standalone renewal info, signed and decoded.
        "apple-lib-mock-renewalInfo.jws": .missingNotificationType,
        "apple-lib-mock-renewalInfo.decoded.json": .missingNotificationType,
        "apple-lib-xcode-signed-renewal-info.jws": .missingNotificationType,
        "apple-lib-xcode-signed-renewal-info.decoded.json": .missingNotificationType,
        "awa-go-iap-renewal-info-sandbox.jws": .missingNotificationType,
        "awa-go-iap-renewal-info-sandbox.decoded.json": .missingNotificationType,
        "apple-lib-signedRenewalInfo.json": .missingNotificationType,
        // Apple's mock "transaction info" holds only environment, bundleId and signedDate: no transactionId, so no transaction.
        "apple-lib-mock-transactionInfo.jws": .missingNotificationType,
        "apple-lib-mock-transactionInfo.decoded.json": .missingNotificationType,
        // App Store Server API responses from Apple's library tests: their JWS are placeholders ("signed_transaction_value").
        "apple-lib-getAllSubscriptionStatusesResponse.json": .malformedJWS,
        "apple-lib-transactionHistoryResponse.json": .malformedJWS,
        // A documentation wrapper {description, raw_webhook_body (JWS redacted), decoded_payload, decoded_transaction}.
        "api-evangelist-subscribed-initial-buy-example-handmade.json": .missingNotificationType
    ]

    /// Notifications whose signed values cannot be decoded, so they must be rejected, never half-read.
    static let unreadableNotifications: [String: ASNError.Code] = [
        // Apple's library fixtures put placeholder strings where the JWS go ("signed_transaction_info_value", "signed_payload_one").
        "apple-lib-signedNotification.json": .malformedJWS,
        "apple-lib-signedConsumptionRequestNotification.json": .malformedJWS,
        "apple-lib-getNotificationHistoryResponse.json": .malformedJWS,
        // Copied from a comment with signedTransactionInfo cut short ("HeGxJRmR…...").
        "java-comment-refund-sandbox-masked.decoded.json": .malformedJWS
    ]

    /// Standalone transactions, signed and decoded: each reads as one API transaction record (see also `isTransaction`).
    static let transactions: Set<String> = [
        "apple-lib-xcode-signed-transaction.jws", "apple-lib-xcode-signed-transaction.decoded.json",
        "gpa-transaction-2000000970502538.jws", "gpa-transaction-2000000970502538.decoded.json",
        "gpa-transaction-2000000972689512.jws", "gpa-transaction-2000000972689512.decoded.json",
        "mingos-app-store-server-api-consumable-transaction.jws",
        "mingos-app-store-server-api-consumable-transaction.decoded.json",
        "apple-lib-signedTransaction.json", "apple-lib-signedTransactionWithRevocation.json"
    ]

    /// Whether a file holds one lone transaction: named above, or a decoded nested transaction payload.
    static func isTransaction(_ name: String) -> Bool {
        transactions.contains(name) || name.hasSuffix(".transaction.decoded.json")
    }

    /// The reject code a file must give, or nil when it must decode.
    static func expectedReject(_ name: String) -> ASNError.Code? {
        if name.hasSuffix(".renewal.decoded.json") {
            // Decoded nested payloads; hound's renewal files are `null` (their JWS payload segment is 'bnVsbA').
            return name.hasPrefix("hound-") ? .notAnObject : .missingNotificationType
        }
        return notNotifications[name] ?? unreadableNotifications[name]
    }

    /// The outcomes of one corpus file.
    static func outcomes(_ name: String) throws -> [V2ReadOutcome] {
        guard let directory else { return [] }
        var outcomes: [V2ReadOutcome] = []
        try V2RecordReader().read([InputFile(path: directory.appendingPathComponent(name).path)]) {
            outcomes.append($0)
        }
        return outcomes
    }

    // MARK: - Tests

    @Test(.enabled(if: directory != nil, "needs ../shared/corpus/v2"))
    func everyNotificationDecodesAndEveryOtherFileRejectsAsExpected() throws {
        let files = Self.files()
        #expect(files.count >= 190)
        var decodedFiles = 0
        var apiTransactions = 0
        for name in files {
            let outcomes = try Self.outcomes(name)
            #expect(!outcomes.isEmpty, "\(name) gave nothing")
            if Self.isTransaction(name) {
                #expect(outcomes.count == 1, "\(name)")
                guard case .api(.transaction(let transaction))? = outcomes.first else {
                    Issue.record("\(name): expected one transaction, got \(outcomes)")
                    continue
                }
                #expect(transaction.payload.transactionId?.isEmpty == false, "\(name)")
                apiTransactions += 1
            } else if let code = Self.expectedReject(name) {
                for outcome in outcomes {
                    #expect(outcome.error?.code == code, "\(name): expected a \(code.rawValue) reject, got \(outcome)")
                }
            } else {
                for case .rejected(let error) in outcomes {
                    Issue.record("\(name) should decode: \(error)")
                }
                if outcomes.allSatisfy({ $0.record != nil }) { decodedFiles += 1 }
            }
        }
        // At the time of writing, 198 files: 94 notifications decode (42 .jws, 42 .decoded.json, 10 other .json of which
        // 2 raw {signedPayload} bodies); 104 reject as listed (78 nested payloads by suffix, 26 named).
        let named = Set(Self.notNotifications.keys).union(Self.unreadableNotifications.keys)
        #expect(named.isSubset(of: Set(files)), "a listed file is missing: \(named.subtracting(files).sorted())")
        let nested = files.filter { $0.hasSuffix(".renewal.decoded.json") }.count
        #expect(decodedFiles == files.count - named.count - nested - apiTransactions)
        #expect(apiTransactions >= 40, "the standalone and nested transactions read as API transactions")
        #expect(decodedFiles >= 90)
    }

    @Test(.enabled(if: directory != nil, "needs ../shared/corpus/v2"))
    func signedAndDecodedCopiesOfEachNotificationHaveOneDigest() throws {
        let files = Set(Self.files())
        var pairs = 0
        for name in files where name.hasSuffix(".jws") && Self.expectedReject(name) == nil && !Self.isTransaction(name)
        {
            let stem = String(name.dropLast(".jws".count))
            guard files.contains(stem + ".decoded.json") else { continue }
            let signed = try #require(try Self.outcomes(name).first?.record)
            let decoded = try #require(try Self.outcomes(stem + ".decoded.json").first?.record)
            #expect(signed.payload == decoded.payload, "\(stem)")
            #expect(signed.contentDigest == decoded.contentDigest, "\(stem)")
            if let transactionFile = files.first(where: { $0 == stem + ".transaction.decoded.json" }),
                let directory = Self.directory,
                case .object(let transaction)? = try? JSONParser().parse(
                    Array(Data(contentsOf: directory.appendingPathComponent(transactionFile))))
            {
                #expect(signed.payload.data.transactionInfo == JWSTransactionDecodedPayload(transaction), "\(stem)")
            }
            pairs += 1
        }
        #expect(pairs >= 40)
        let raw = try #require(
            try Self.outcomes("imdhemy-appstore-iap-test-notification-signed-payload.json").first?.record)
        let decoded = try #require(
            try Self.outcomes("imdhemy-appstore-iap-test-notification.decoded.json").first?.record)
        #expect(raw.contentDigest == decoded.contentDigest)
    }

    @Test(.enabled(if: directory != nil, "needs ../shared/corpus/v2"))
    func houndNullRenewalInfoIsAbsentNotAnError() throws {
        for name in [
            "hound-did-fail-to-renew-4351a1ea.decoded.json",
            "hound-did-change-renewal-pref-upgrade-8eb27aff.decoded.json"
        ] {
            let record = try #require(try Self.outcomes(name).first?.record, "\(name)")
            #expect(record.payload.data.renewalInfo == nil)
            #expect(record.payload.data.transactionInfo?.originalTransactionId != nil)
            #expect(record.payload.data.status == nil)
        }
    }

    @Test(.enabled(if: directory != nil, "needs ../shared/corpus/v2"))
    func apiResponsesWithPlaceholderJWSRejectEachEntryAndRealSignedTransactionsRead() throws {
        let history = try Self.outcomes("apple-lib-transactionHistoryResponse.json")
        #expect(history.compactMap(\.error?.location?.key) == ["signedTransactions[0]", "signedTransactions[1]"])
        let statuses = try Self.outcomes("apple-lib-getAllSubscriptionStatusesResponse.json")
        #expect(statuses.compactMap(\.error?.location?.index) == [0, 1, 2], "one reject per lastTransactions entry")
        #expect(statuses.allSatisfy { $0.error?.code == .malformedJWS })
        for id in ["2000000970502538", "2000000972689512"] {
            let signed = try Self.outcomes("gpa-transaction-\(id).jws")
            let decoded = try Self.outcomes("gpa-transaction-\(id).decoded.json")
            guard case .api(.transaction(let a))? = signed.first, case .api(.transaction(let b))? = decoded.first else {
                Issue.record("gpa-transaction-\(id) did not read as a transaction")
                continue
            }
            #expect(a.payload == b.payload)
            #expect(a.payload.transactionId == id, "Apple's real signed transaction keeps every digit of its id")
            #expect(a.origin == .single)
        }
    }

    @Test(.enabled(if: directory != nil, "needs ../shared/corpus/v2"))
    func placeholderHistoryPageRejectsEachEntryByIndex() throws {
        let outcomes = try Self.outcomes("apple-lib-getNotificationHistoryResponse.json")
        #expect(outcomes.compactMap(\.error?.location?.index) == [0, 1])
        #expect(
            outcomes.compactMap(\.error?.location?.key) == [
                "notificationHistory[0].signedPayload", "notificationHistory[1].signedPayload"
            ])
    }
}
