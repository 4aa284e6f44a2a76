import Testing

@testable import ASNMigrateKit

/// Telling V1 bodies from V2 notifications by their first bytes, and the usage error of swapped sides.
@Suite struct SwappedSidesCheckTests {
    @Test func looksAtTheKeysOnlyOneSideCarries() {
        #expect(SwappedSidesCheck.look(Array(#"{"notification_type":"DID_RENEW","unified_receipt":{}}"#.utf8)) == .v1)
        #expect(SwappedSidesCheck.look(Array(#"{"payload":"{\"notification_type\":\"DID_RENEW\"}"}"#.utf8)) == .v1)
        #expect(SwappedSidesCheck.look(Array(#"{"signedPayload":"eyJ..."}"#.utf8)) == .v2)
        #expect(SwappedSidesCheck.look(Array(#"{"notificationType":"DID_RENEW","data":{}}"#.utf8)) == .v2)
        #expect(SwappedSidesCheck.look(Array(#"{"signedTransactions":["eyJ"]}"#.utf8)) == .unknown)
        #expect(SwappedSidesCheck.look([]) == .unknown)
    }

    @Test func onlyASideHoldingTheOtherSidesRecordsIsAProblem() {
        #expect(SwappedSidesCheck.problem(v1: .v1, v2: .v2) == nil)
        #expect(SwappedSidesCheck.problem(v1: .unknown, v2: .unknown) == nil)
        #expect(
            SwappedSidesCheck.problem(v1: .v2, v2: .v1)?.message.contains("and the --v2 files hold V1 bodies") == true)
        #expect(SwappedSidesCheck.problem(v1: .v1, v2: .v1)?.message.hasPrefix("the --v2 files hold V1 bodies") == true)
        #expect(SwappedSidesCheck.problem(v1: .v2, v2: .v2)?.code == .usage)
    }
}
