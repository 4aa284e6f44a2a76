import Foundation
import Testing

@testable import ASNMigrateKit

/// The V2 field table (`V2FieldTable`) against what follows from it or must agree with it: the models' member visits,
/// the V1 keys, `Reports/schema.sql`'s `migrate_csv` table and the column maps shipped in `Mappings/`.
@Suite struct V2FieldTableTests {
    /// Records each visited member's key and Swift type.
    struct MemberList: V2MemberVisitor {
        var members: [(key: String, type: String)] = []
        mutating func visit(_ key: String, _ value: inout String?) { members.append((key, "String")) }
        mutating func visit(_ key: String, _ value: inout Int64?) { members.append((key, "Int64")) }
        mutating func visit(_ key: String, _ value: inout Int?) { members.append((key, "Int")) }
        mutating func visit(_ key: String, _ value: inout Bool?) { members.append((key, "Bool")) }
    }

    /// The Swift types a member of each kind may have.
    static func types(_ kind: V2FieldKind) -> Set<String> {
        switch kind {
        case .id, .text, .enumText, .jws: return ["String"]
        case .date: return ["Int64"]
        case .integer: return ["Int64", "Int"]
        case .enumCode: return ["Int"]
        case .flag: return ["Bool"]
        }
    }

    /// The table's fields under `prefix` that a model visits (signed forms are not members).
    static func fields(under prefix: String) -> [V2Field] {
        V2FieldTable.all.filter {
            $0.path.hasPrefix(prefix) && !$0.path.dropFirst(prefix.count).contains(".") && $0.kind != .jws
        }
    }

    @Test func theModelsVisitTheTablesFieldsInOrderWithTheirKinds() {
        var transaction = JWSTransactionDecodedPayload()
        var renewal = JWSRenewalInfoDecodedPayload()
        var data = NotificationData()
        var payload = ResponseBodyV2DecodedPayload(notificationType: "TEST")
        var lists = [MemberList](repeating: MemberList(), count: 4)
        transaction.visitMembers(&lists[0])
        renewal.visitMembers(&lists[1])
        data.visitScalars(&lists[2])
        payload.visitScalars(&lists[3])
        let expected = [
            Self.fields(under: "data.transactionInfo."), Self.fields(under: "data.renewalInfo."),
            Self.fields(under: "data."),
            Self.fields(under: "").filter { $0.path != "notificationType" }
        ]
        for (list, fields) in zip(lists, expected) {
            #expect(list.members.map(\.key) == fields.map(\.key), "a model's members and the table differ")
            for (member, field) in zip(list.members, fields) {
                #expect(
                    Self.types(field.kind).contains(member.type),
                    "\(field.path) is \(field.kind) in the table but \(member.type) in its model")
            }
        }
    }

    @Test func everyV1KeyFeedsAFieldOrHoldsThem() {
        let containers: Set<V1Key> = [
            .unifiedReceipt, .latestReceiptInfo, .latestExpiredReceiptInfo, .pendingRenewalInfo
        ]
        let sourced = Set(V2FieldTable.all.flatMap { $0.sources.compactMap(\.key) })
        for key in V1Key.allCases where !containers.contains(key) {
            #expect(sourced.contains(key), "V1 key \(key.name) feeds no field of V2FieldTable")
        }
        #expect(V1Source.receipt(.productId).path == "latest_receipt_info[].product_id")
        #expect(V1Source.unified(.environment).path == "unified_receipt.environment")
    }

    @Test func pathsAreUniqueAndMigrateWritesItsColumnsInTableOrder() {
        let paths = V2FieldTable.all.map(\.path)
        #expect(Set(paths).count == paths.count, "a path is declared twice")
        #expect(MigrationOutput.csvColumns == V2FieldTable.migrated.map(\.path))
        #expect(MigrationOutput.csvColumns(.snake) == V2FieldTable.migrated.map(\.snakeName))
        #expect(V2ColumnMap.fields.map(\.path) == V2FieldTable.mappable.map(\.path))
        #expect(V2FieldTable.field("data.transactionInfo.expiresDate")?.kind == .date)
    }

    @Test func schemaSQLsMigrateTableHasTheTablesColumnsAndTypes() throws {
        let text = String(decoding: try PackagePaths.read("Reports/schema.sql"), as: UTF8.self)
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let start = try #require(lines.firstIndex(of: "CREATE TABLE migrate_csv ("), "schema.sql has no migrate_csv")
        let columns = lines[(start + 1)...].prefix { !$0.hasPrefix(")") }.map { line in
            line.split(separator: " ", omittingEmptySubsequences: true).prefix(2).joined(separator: " ")
                .trimmingCharacters(in: CharacterSet(charactersIn: ","))
        }
        let expected = V2FieldTable.migrated.map { "\($0.snakeName) \($0.schemaType)" }
        #expect(columns == expected, "Reports/schema.sql's migrate_csv differs from V2FieldTable.migrated")
    }

    @Test(arguments: [("v2-columns.migrate-csv.map", false), ("v2-columns.migrate-csv-snake.map", true)])
    func theShippedMapsOfMigratesCSVMapEveryMigratedField(file: String, snake: Bool) throws {
        let map = try V2ColumnMap.load(path: PackagePaths.root.appendingPathComponent("Mappings/" + file).path)
        let fields = V2FieldTable.migrated.filter(\.isMappable)
        #expect(map.entries.map(\.field.path) == fields.map(\.path), "Mappings/\(file) differs from the table")
        #expect(map.entries.map(\.column) == fields.map { snake ? $0.snakeName : $0.path })
    }
}
