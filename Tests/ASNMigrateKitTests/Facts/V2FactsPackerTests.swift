import Foundation
import Testing

@testable import ASNMigrateKit

/// The packer finds, from the field table's own readers, the member each compared field reads: every field compared
/// in notifications is packed, from the object and key its reader names, ranked as the reader's `??` ranks them.
/// (`V2TapeDecoderTests.checkPacked` holds the packed values to the models' on real, random and damaged records.)
@Suite struct V2FactsPackerTests {
    /// Each field's (object, key, rank) as the probe found them.
    static let found: [ComparedField: [(object: V2FactsPacker.Object, key: String, rank: UInt8)]] = {
        var found: [ComparedField: [(object: V2FactsPacker.Object, key: String, rank: UInt8)]] = [:]
        for object in V2FactsPacker.Object.allCases {
            for member in V2FactsPacker.members[object.rawValue] {
                found[member.field, default: []].append((object, member.key, member.rank))
                #expect(ComparedField.allCases[member.ordinal] == member.field)
            }
        }
        return found
    }()

    @Test func everyFieldComparedInNotificationsIsPackedFromItsReadersMember() {
        for field in ComparedField.allCases {
            let members = Self.found[field] ?? []
            if case .notInNotifications = field.row {
                #expect(members.isEmpty, "\(field) is not compared in notifications but is packed")
                continue
            }
            #expect(!members.isEmpty, "\(field): no member found for it")
            // Named after Apple's member it reads (the table's rule), ranks 0, 1, … without gaps.
            #expect(members.allSatisfy { $0.key == field.rawValue }, "\(field): \(members)")
            #expect(members.map(\.rank).sorted() == (0..<members.count).map { UInt8($0) }, "\(field): \(members)")
        }
    }

    @Test func aFieldReadFromTwoObjectsRanksThemAsItsReaderDoes() throws {
        // `bundleId` is the transaction's, else `data`'s (`transaction?.bundleId ?? data.bundleId`).
        let bundle = try #require(Self.found[.bundleId])
        #expect(bundle.count == 2)
        #expect(bundle.first { $0.rank == 0 }?.object == .transaction)
        #expect(bundle.first { $0.rank == 1 }?.object == .data)
        // Renewal info's fields come from the renewal info only.
        #expect(Self.found[.autoRenewProductId]?.map(\.object) == [.renewal])
    }
}
