import Foundation
import Testing

@testable import ASNMigrateKit

/// The V2 field table (`ComparedField.row`): every slot fits its storage, every codec bit is unique and those of
/// earlier releases stay where states written by them expect them, and every row reads the field Apple names by the
/// case's name from the transaction or renewal info.
@Suite struct ComparedFieldTableTests {
    /// The renewal info's fields among the compared ones (the rest are the transaction's).
    static let renewalFields: Set<ComparedField> = [
        .autoRenewStatus, .autoRenewProductId, .expirationIntent, .isInBillingRetryPeriod, .gracePeriodExpiresDate,
        .priceIncreaseStatus
    ]

    /// The codec bits of the fields states were written with before the table existed: these never move.
    static let pinnedBits: [ComparedField: Int] = [
        .productId: 7, .webOrderLineItemId: 8, .bundleId: 9, .inAppOwnershipType: 10, .autoRenewProductId: 11,
        .offerIdentifier: 12, .transactionId: 13, .purchaseDate: 14, .expiresDate: 15, .originalPurchaseDate: 16,
        .revocationDate: 17, .gracePeriodExpiresDate: 18, .revocationReason: 19, .autoRenewStatus: 20,
        .expirationIntent: 21, .priceIncreaseStatus: 22, .offerType: 23
    ]

    /// The one check of the slots' capacities: the slots the table's order assigns (`ComparedField.layout`) are
    /// unique, each storage's from 0 without gaps, and fill `FieldSlots` exactly.
    @Test func slotsAreUniqueAndFitTheirStorage() {
        let empty = FieldSlots<Int, Int, Int, Int>(text: 0, date: 0, number: 0, flag: 0)
        var used: [String: [Int]] = [:]
        for field in ComparedField.allCases {
            #expect(ComparedField.allCases[field.ordinal] == field, "\(field)'s ordinal is not its place")
            guard let slot = field.slot else {
                if case .notInNotifications = field.row {} else { Issue.record("\(field) has no slot") }
                continue
            }
            used["\(slot.storage)", default: []].append(slot.slot)
        }
        let capacity = [
            "texts": empty.texts.count, "dates": empty.dates.count, "numbers": empty.numbers.count,
            "flags": empty.flags.count
        ]
        for (storage, slots) in used {
            #expect(slots == Array(0..<slots.count), "\(storage)'s slots are not 0, 1, … in table order: \(slots)")
            let need = (slots.max() ?? -1) + 1
            #expect(
                need <= capacity[storage] ?? 0,
                "\(storage) needs \(need) slots: raise the count of FieldSlots.\(storage) to \(need)")
            #expect(need == capacity[storage], "FieldSlots.\(storage) holds \(capacity[storage] ?? 0), \(need) used")
        }
    }

    @Test func codecBitsAreUniqueAndEarlierOnesStay() {
        let bits = ComparedField.allCases.compactMap { field in field.row.bit.map { (field, $0) } }
        #expect(Set(bits.map(\.1)).count == bits.count, "two fields share a codec bit")
        for (field, bit) in bits {
            #expect(bit >= 7 && bit < 64, "\(field)'s bit \(bit) is outside 7..<64 (0–6 are the record's own)")
            if let pinned = Self.pinnedBits[field] {
                #expect(bit == pinned, "\(field) moved from bit \(pinned): states written before would misread")
            }
        }
        for field in Self.pinnedBits.keys { #expect(field.row.bit != nil, "\(field) left the codec") }
        for field in ComparedField.allCases {
            if case .date(let bit, let base?, _) = field.row {
                #expect(base.isDate, "\(field) is stored relative to \(base), which is no date")
                #expect((base.row.bit ?? 64) < bit, "\(field)'s base \(base) must be decoded before it")
            }
        }
    }

    /// Each entry is keyed by `V2FieldTable` paths, of a kind its row holds, and its reader reads exactly those members
    /// (the first present one winning): the path is what the packers read, the reader what the models give.
    @Test func everyEntryIsKeyedByTheTablePathsItsReaderReads() throws {
        let empty = Self.payload(setting: nil, seed: 0)
        for (n, field) in ComparedField.allCases.enumerated() {
            let members = try field.paths.map { path in
                try #require(V2FieldTable.field(path), "\(field)'s path \(path) is not in V2FieldTable")
            }
            for member in members {
                #expect(
                    Self.reads(field.row, member.kind), "\(field) holds a \(member.path) (\(member.kind)) it cannot")
                #expect(
                    Self.payload(setting: member, seed: n + 1).isRead(by: field),
                    "\(field) does not read \(member.path)")
            }
            // No other member of the table changes the reading.
            for other in V2FieldTable.all where !field.paths.contains(other.path) {
                #expect(!Self.payload(setting: other, seed: n + 1).isRead(by: field), "\(field) reads \(other.path)")
            }
            #expect(!empty.isRead(by: field))
            if members.count == 2 {
                // The first path wins over the second.
                var both = Self.payload(setting: members[1], seed: 1)
                var first = MemberSetter(key: members[0].key, seed: 2)
                if members[0].path.hasPrefix("data.transactionInfo.") {
                    both.data.transactionInfo?.visitMembers(&first)
                }
                #expect(field.row.value(in: both) == field.row.value(in: Self.payload(setting: members[0], seed: 2)))
            }
        }
    }

    @Test func everyRowReadsTheFieldItIsNamedAfter() throws {
        var transaction: [String: Any] = ["originalTransactionId": "1000000001"]
        var renewal: [String: Any] = ["originalTransactionId": "1000000001"]
        var expected: [ComparedField: String] = [:]
        for (n, field) in ComparedField.allCases.enumerated() {
            let value: Any
            switch field.row {
            case .text: (value, expected[field]) = ("text-\(field.rawValue)", "text-\(field.rawValue)")
            case .id: (value, expected[field]) = ("20000000\(n)", "20000000\(n)")
            case .date:
                let ms = Int64(1_700_000_000_000) + Int64(n) * 86_400_000
                (value, expected[field]) = (ms, Timestamp.iso8601(ms: ms))
            case .number: (value, expected[field]) = (n, String(n))
            case .flag: (value, expected[field]) = (n % 2 == 0, n % 2 == 0 ? "true" : "false")
            case .notInNotifications: continue
            }
            if Self.renewalFields.contains(field) {
                renewal[field.rawValue] = value
            } else {
                transaction[field.rawValue] = value
            }
        }
        let body: [String: Any] = [
            "notificationType": "DID_RENEW", "notificationUUID": "b1f2c3d4-0000-4000-8000-00000000000a",
            "signedDate": 1_700_000_000_000,
            "data": ["environment": "Production", "transactionInfo": transaction, "renewalInfo": renewal]
        ]
        let bytes = [UInt8](try JSONSerialization.data(withJSONObject: body))
        let outcome = V2RecordDecoder().decode(RawRecord(location: SourceLocation(path: "t.json"), bytes: bytes))
        let payload = try #require(outcome.first?.record?.payload)
        let facts = RecordFacts(payload, kind: .v2, location: SourceLocation(path: "t.json"))
        var pool = StringPool()
        let values = FieldValues(facts, pool: &pool)
        for field in ComparedField.allCases {
            #expect(values.text(field, pool: pool) == expected[field], "\(field)")
            #expect(values.has(field) == (expected[field] != nil), "\(field)")
        }
        #expect(facts.hasAutoRenewStatus)
    }

    /// Sets the one member named `key` of a model to a value of its type.
    struct MemberSetter: V2MemberVisitor {
        let key: String
        let seed: Int
        mutating func visit(_ key: String, _ value: inout String?) { if key == self.key { value = "20000000\(seed)" } }
        mutating func visit(_ key: String, _ value: inout Int64?) {
            if key == self.key { value = 1_700_000_000_000 + Int64(seed) * 86_400_000 }
        }
        mutating func visit(_ key: String, _ value: inout Int?) { if key == self.key { value = seed } }
        mutating func visit(_ key: String, _ value: inout Bool?) { if key == self.key { value = true } }
    }

    /// A payload with only the V2 field `field` set (to a value made from `seed`).
    static func payload(setting field: V2Field?, seed: Int) -> ResponseBodyV2DecodedPayload {
        var data = NotificationData()
        var transaction = JWSTransactionDecodedPayload()
        var renewal = JWSRenewalInfoDecodedPayload()
        if let field {
            var setter = MemberSetter(key: field.key, seed: seed)
            if field.path.hasPrefix("data.transactionInfo.") {
                transaction.visitMembers(&setter)
            } else if field.path.hasPrefix("data.renewalInfo.") {
                renewal.visitMembers(&setter)
            } else if field.path.hasPrefix("data.") {
                data.visitScalars(&setter)
            }
        }
        data.transactionInfo = transaction
        data.renewalInfo = renewal
        return ResponseBodyV2DecodedPayload(notificationType: "DID_RENEW", data: data)
    }

    /// The V2 field table's kinds each row kind may read.
    static func reads(_ row: ComparedFieldRow, _ kind: V2FieldKind) -> Bool {
        switch row {
        case .text: return [.text, .enumText].contains(kind)
        case .id: return kind == .id
        case .date: return kind == .date
        case .number, .notInNotifications: return [.integer, .enumCode].contains(kind)
        case .flag: return kind == .flag
        }
    }

    @Test func everyEntryIsReadWrittenComparedAndDocumented() throws {
        let commands = String(decoding: try PackagePaths.read("Reports/commands.md"), as: UTF8.self)
        let ignoreRow = try #require(
            commands.split(separator: "\n").first { $0.hasPrefix("| `--ignore-field NAME` |") })
        let readme = String(decoding: try PackagePaths.read("Reports/README.md"), as: UTF8.self)
        let fieldRow = try #require(readme.split(separator: "\n").first { $0.hasPrefix("| `field` |") })
        let help = ReconcileCommand.spec.options.first { $0.long == "--ignore-field" }?.help ?? ""
        let empty = Self.payload(setting: nil, seed: 0)
        var pool = StringPool()
        let none = FieldValues(RecordFacts(empty, kind: .v2, location: SourceLocation(path: "t")), pool: &pool)
        for (n, field) in ComparedField.allCases.enumerated() {
            // Read: the V2 member named after the field (the transaction's first), of a kind the row holds.
            let candidates = V2FieldTable.all.filter {
                $0.key == field.rawValue
                    && ($0.path.hasPrefix("data.transactionInfo.") || $0.path.hasPrefix("data.renewalInfo."))
            }
            let member = try #require(
                candidates.first { Self.payload(setting: $0, seed: n + 1).isRead(by: field) },
                "\(field) reads no V2 member named \(field.rawValue) in V2FieldTable")
            #expect(Self.reads(field.row, member.kind), "\(field) holds a \(member.path) (\(member.kind)) it cannot")
            #expect(!empty.isRead(by: field), "\(field) reads a value from an empty payload")
            // Written: `migrate` writes the member (a column of its CSV, from the V1 keys the table names).
            #expect(member.isMigrated, "\(field): migrate never writes \(member.path)")
            // Compared: the one comparison tells the member's value from its absence, where the table says it compares.
            let set = Self.payload(setting: member, seed: n + 1)
            #expect(
                FieldComparison.difference(field.row.value(in: set), field.row.value(in: empty), tolerance: 0) != nil,
                "\(field): the comparison does not see its value")
            if field.row.bit != nil || field.flagSlot != nil {
                let values = FieldValues(RecordFacts(set, kind: .v2, location: SourceLocation(path: "t")), pool: &pool)
                #expect(values.has(field) && !values.same(field, as: none), "\(field): notification pairing misses it")
            } else {
                #expect(field.apiView != nil, "\(field) is compared nowhere")
            }
            if let item = field.state {
                var full = SubscriptionState(productId: "p", expiresDate: 1, autoRenewStatus: 1, status: .active)
                full.autoRenewProductId = "q"
                full.gracePeriodExpiresDate = 2
                full.isInBillingRetryPeriod = true
                let bare = SubscriptionState(productId: nil, expiresDate: nil, autoRenewStatus: nil, status: .expired)
                #expect(
                    FieldComparison.difference(item.read(full), item.read(bare), tolerance: 0) != nil,
                    "\(field): the state comparison does not read it")
                #expect(item.inNotifications || item.inStatuses != nil, "\(field) is a state item compared nowhere")
            }
            // Documented: `--help`, the reference's `--ignore-field` row, and the reports' README.
            #expect(help.contains(field.rawValue), "reconcile --help does not list \(field)")
            #expect(
                ignoreRow.contains("`\(field.rawValue)`"), "Reports/commands.md's --ignore-field row lacks \(field)")
            let inReportsReadme =
                field.row.bit != nil || field.flagSlot != nil || field.state != nil
                ? fieldRow.contains("`\(field.rawValue)`") : readme.contains(field.rawValue)
            #expect(inReportsReadme, "Reports/README.md does not name \(field) where its rows are described")
        }
    }
}

extension ResponseBodyV2DecodedPayload {
    /// Whether `field`'s reader finds a value in this payload.
    fileprivate func isRead(by field: ComparedField) -> Bool {
        switch field.row.value(in: self) {
        case .text(let text): return !text.isEmpty
        case .date(let date): return date != nil
        case .number(let number): return number != nil
        case .flag(let flag): return flag != nil
        }
    }
}
