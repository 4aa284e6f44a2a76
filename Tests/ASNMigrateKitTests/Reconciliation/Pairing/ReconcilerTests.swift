import Testing

@testable import ASNMigrateKit

/// Builds V1 outcomes and V2 payloads directly, so each matching rule is tested without files (shared by the engine tests).
struct Side {
    static func ms(_ iso: String) -> Int64 { V1Fixture.ms(iso) }

    static func payload(
        _ type: String, _ subtype: String?, otx: String?, wol: String?, time: String?, env: String = "Production",
        uuid: String?, product: String = "pro.monthly", expires: String? = "2021-12-01T00:00:00Z",
        family: Bool = false, autoRenew: Int? = 1, edit: (inout ResponseBodyV2DecodedPayload) -> Void = { _ in }
    ) -> ResponseBodyV2DecodedPayload {
        var t = JWSTransactionDecodedPayload()
        t.originalTransactionId = otx
        t.transactionId = otx.map { $0 + "9" }
        t.webOrderLineItemId = wol
        t.productId = product
        t.bundleId = "com.example.app"
        t.purchaseDate = ms("2021-01-01T00:00:00Z")
        t.expiresDate = expires.map(ms)
        t.inAppOwnershipType = family ? "FAMILY_SHARED" : "PURCHASED"
        var r = JWSRenewalInfoDecodedPayload()
        r.originalTransactionId = otx
        r.autoRenewStatus = autoRenew
        r.autoRenewProductId = product
        var data = NotificationData()
        data.environment = env
        data.bundleId = "com.example.app"
        data.transactionInfo = otx == nil ? nil : t
        data.renewalInfo = otx == nil ? nil : r
        var p = ResponseBodyV2DecodedPayload(
            notificationType: type, subtype: subtype, notificationUUID: uuid,
            signedDate: time.map(ms), data: data)
        edit(&p)
        return p
    }

    static func v1(
        _ type: String, _ subtype: String? = nil, v1Type: String = "DID_RENEW", otx: String? = "1000",
        wol: String? = "5001",
        time: String, env: String = "Production", line: Int, inferred: Bool = false, product: String = "pro.monthly",
        expires: String? = "2021-12-01T00:00:00Z", edit: (inout ResponseBodyV2DecodedPayload) -> Void = { _ in }
    ) -> V1RecordOutcome {
        var p = payload(
            type, subtype, otx: otx, wol: wol, time: time, env: env,
            uuid: "00000000-0000-5000-8000-" + String(repeating: "0", count: 12 - String(line).count) + String(line),
            product: product, expires: expires, edit: edit)
        p.migration = MigrationInfo(
            source: "v1.jsonl", line: line, index: nil, v1NotificationType: v1Type, ruleId: "rule-\(line)",
            eventTimeInferred: inferred)
        return .migrated(p)
    }
}

/// A period wide enough to judge every test record, so tests of other rules are not affected by the period rule.
let wide: ReconcileOptions = {
    var o = ReconcileOptions()
    o.from = Side.ms("2020-01-01T00:00:00Z")
    o.to = Side.ms("2022-12-31T00:00:00Z")
    return o
}()

/// Records far outside the wide period on both sides (an unmapped V1 record and a V2 TEST at each end): they make
/// each side's data reach well beyond every test record's window, so an unpaired test record is missing, not
/// pending. They only add 2 to `v1_out_of_period`, `v2_out_of_period` and each side's `records_read`.
enum Bookends {
    static let times = ["2019-01-01T00:00:00Z", "2023-12-31T00:00:00Z"]

    static var v1: [V1RecordOutcome] {
        times.enumerated().map { n, time in
            .unmapped(
                UnmappedNotification(
                    v1NotificationType: "BOOKEND", reason: "no rule",
                    location: SourceLocation(path: "bookends.jsonl", line: n + 1),
                    notificationUUID: "99999999-9999-5999-8999-99999999999\(n)", environment: "Production",
                    originalTransactionId: nil, webOrderLineItemId: nil, eventTime: Side.ms(time)))
        }
    }

    static var v2: [ResponseBodyV2DecodedPayload] {
        times.map { Side.payload("TEST", nil, otx: nil, wol: nil, time: $0, uuid: "bookend-" + $0) }
    }
}

/// Reconciles; with the wide period (any window) the bookends are added, unless `bookends` says otherwise.
func reconcile(
    _ v1: [V1RecordOutcome], _ v2: [ResponseBodyV2DecodedPayload], options: ReconcileOptions = wide,
    bookends: Bool? = nil
) throws -> ReconciliationResult {
    let withBookends = bookends ?? (options.from == wide.from && options.to == wide.to)
    var engine = Reconciler(table: try MappingTable.builtIn(), options: options)
    for o in v1 + (withBookends ? Bookends.v1 : []) { engine.addV1(o) }
    for (i, p) in (v2 + (withBookends ? Bookends.v2 : [])).enumerated() {
        engine.addV2(
            p, location: SourceLocation(path: "v2.jsonl", line: i + 1),
            digest: SHA1.digest(JSONWriter.canonical(.object(p.json))))
    }
    let result = engine.finish()
    expectIdentities(result)
    if withBookends {
        #expect(
            result.count("v1_out_of_period") >= 2 && result.count("v2_out_of_period") >= 2,
            "the bookends lie outside the period")
    }
    return result
}

/// Both accounting identities: every record read is counted exactly once.
func expectIdentities(_ result: ReconciliationResult, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let n = { (name: String) in result.count(name) }
    #expect(
        n("v1_records_read") == n("v1_rejected") + n("v1_duplicates") + n("v1_out_of_period") + n("v1_unmapped")
            + n("v1_companion") + n("matched") + n("type_mismatch") + n("missing_in_v2") + n("v1_pending"),
        "V1 identity", sourceLocation: sourceLocation)
    #expect(
        n("v2_records_read") == n("v2_rejected") + n("v2_duplicates") + n("v2_out_of_period") + n("v2_only_expected")
            + n("matched") + n("type_mismatch") + n("missing_in_v1") + n("v2_pending"), "V2 identity",
        sourceLocation: sourceLocation)
    #expect(n("v1_pending") == result.pending.filter { $0.kind == .pendingInV2 }.count, sourceLocation: sourceLocation)
    #expect(n("v2_pending") == result.pending.filter { $0.kind == .pendingInV1 }.count, sourceLocation: sourceLocation)
}

func kinds(_ r: ReconciliationResult) -> [String] { r.differences.map(\.kind.rawValue) }

@Suite struct ReconcilerTests {
    @Test func identicalStreamsHaveNoDifferences() throws {
        let r = try reconcile(
            [Side.v1("DID_RENEW", time: "2021-02-01T00:00:00Z", line: 1)],
            [Side.payload("DID_RENEW", nil, otx: "1000", wol: "5001", time: "2021-02-01T00:00:03Z", uuid: "a")])
        #expect(r.differences.isEmpty)
        #expect(r.count("matched") == 1)
        #expect(r.isClean)
    }

    @Test func firstPassPrefersTheSameWebOrderLineItemOverANearerRecord() throws {
        let r = try reconcile(
            [Side.v1("DID_RENEW", wol: "1", time: "2021-02-01T00:00:00Z", line: 1)],
            [
                Side.payload("DID_RENEW", nil, otx: "1000", wol: "2", time: "2021-02-01T00:01:00Z", uuid: "near"),
                Side.payload("DID_RENEW", nil, otx: "1000", wol: "1", time: "2021-02-01T10:00:00Z", uuid: "same-wol")
            ])
        #expect(r.count("matched") == 1)
        #expect(r.differences.map(\.kind) == [.missingInV1])
        #expect(r.differences.first?.v2NotificationUUID == "near")
    }

    @Test func secondPassTakesTheNearestInTime() throws {
        let r = try reconcile(
            [
                Side.v1("DID_RENEW", wol: nil, time: "2021-02-01T00:00:00Z", line: 1),
                Side.v1("DID_RENEW", wol: nil, time: "2021-02-01T02:00:00Z", line: 2)
            ], [Side.payload("DID_RENEW", nil, otx: "1000", wol: nil, time: "2021-02-01T01:30:00Z", uuid: "x")])
        #expect(r.differences.map(\.kind) == [.missingInV2])
        #expect(r.differences.first?.v1Source == "v1.jsonl:1")
    }

    @Test func windowEdgeIsInclusive() throws {
        let at = try reconcile(
            [
                Side.v1("DID_RENEW", time: "2021-02-01T00:00:00Z", line: 1),
                Side.v1("DID_RENEW", wol: "9", time: "2021-02-10T00:00:00Z", line: 2)
            ],
            [
                Side.payload("DID_RENEW", nil, otx: "1000", wol: "5001", time: "2021-02-03T00:00:00Z", uuid: "a"),
                Side.payload("DID_RENEW", nil, otx: "1000", wol: "9", time: "2021-02-10T00:00:00Z", uuid: "b")
            ])
        #expect(at.count("matched") == 2)
        var late = Side.payload("DID_RENEW", nil, otx: "1000", wol: "5001", time: "2021-02-03T00:00:00Z", uuid: "a")
        late.signedDate = (late.signedDate ?? 0) + 1
        let past = try reconcile(
            [
                Side.v1("DID_RENEW", time: "2021-02-01T00:00:00Z", line: 1),
                Side.v1("DID_RENEW", wol: "9", time: "2021-02-10T00:00:00Z", line: 2)
            ],
            [late, Side.payload("DID_RENEW", nil, otx: "1000", wol: "9", time: "2021-02-10T00:00:00Z", uuid: "b")])
        #expect(past.count("matched") == 1)
        #expect(Set(kinds(past)) == ["missing_in_v2", "missing_in_v1"])
    }

    @Test func customWindow() throws {
        var options = wide
        options.window = 60_000
        let r = try reconcile(
            [
                Side.v1("DID_RENEW", time: "2021-02-01T00:00:00Z", line: 1),
                Side.v1("DID_RENEW", wol: "7", time: "2021-02-05T00:00:00Z", line: 2)
            ],
            [
                Side.payload("DID_RENEW", nil, otx: "1000", wol: "5001", time: "2021-02-01T00:02:00Z", uuid: "a"),
                Side.payload("DID_RENEW", nil, otx: "1000", wol: "7", time: "2021-02-05T00:00:00Z", uuid: "b")
            ], options: options)
        #expect(r.count("matched") == 1)
    }

    @Test func lastPassIsATypeMismatchButNeverTakesAnExpectedV2Only() throws {
        let r = try reconcile(
            [
                Side.v1("DID_RENEW", time: "2021-02-01T00:00:00Z", line: 1),
                Side.v1("DID_RENEW", wol: "5002", time: "2021-03-01T00:00:00Z", line: 2)
            ],
            [
                Side.payload(
                    "DID_FAIL_TO_RENEW", nil, otx: "1000", wol: "5001", time: "2021-02-01T00:00:10Z", uuid: "fail"),
                Side.payload(
                    "EXPIRED", "VOLUNTARY", otx: "1000", wol: "5002", time: "2021-03-01T00:00:10Z", uuid: "vol")
            ])
        #expect(r.count("type_mismatch") == 1)
        #expect(r.count("v2_only_expected") == 1)
        #expect(r.count("missing_in_v2") == 1)
        let mismatch = try #require(r.differences.first { $0.kind == .typeMismatch })
        #expect(mismatch.expectedType == "DID_RENEW")
        #expect(mismatch.v2NotificationType == "DID_FAIL_TO_RENEW")
        #expect(mismatch.v2NotificationUUID == "fail")
    }

    @Test func recordsWithoutASubscriptionPairByTypeButNeverAsATypeMismatch() throws {
        let r = try reconcile(
            [
                Side.v1("DID_RENEW", otx: nil, wol: nil, time: "2021-02-01T00:00:00Z", line: 1),
                Side.v1("DID_RECOVER", otx: nil, wol: nil, time: "2021-03-01T00:00:00Z", line: 2)
            ],
            [
                Side.payload("DID_RENEW", nil, otx: nil, wol: nil, time: "2021-02-01T00:00:01Z", uuid: "keyless-renew"),
                Side.payload(
                    "DID_FAIL_TO_RENEW", nil, otx: nil, wol: nil, time: "2021-03-01T00:00:01Z", uuid: "keyless-other")
            ])
        #expect(r.count("matched") == 1)
        #expect(
            r.count("type_mismatch") == 0,
            "a V2 record without originalTransactionId is v2_only_expected, never taken in the last pass")
        #expect(r.count("v2_only_expected") == 1)
        #expect(r.differences.map(\.kind) == [.missingInV2])
    }

    @Test func environmentsNeverMatch() throws {
        let r = try reconcile(
            [Side.v1("DID_RENEW", time: "2021-02-01T00:00:00Z", env: "Sandbox", line: 1)],
            [Side.payload("DID_RENEW", nil, otx: "1000", wol: "5001", time: "2021-02-01T00:00:00Z", uuid: "p")])
        #expect(Set(kinds(r)) == ["missing_in_v2", "missing_in_v1"])
        #expect(r.differences.map(\.environment).sorted() == ["Production", "Sandbox"])
    }

    @Test func fieldMismatchesAreOneRowPerFieldAndCanBeIgnored() throws {
        let v1 = [
            Side.v1(
                "DID_RENEW", time: "2021-02-01T00:00:00Z", line: 1, product: "pro.monthly",
                expires: "2021-03-01T00:00:00Z")
        ]
        let v2 = [
            Side.payload(
                "DID_RENEW", nil, otx: "1000", wol: "5001", time: "2021-02-01T00:00:00Z", uuid: "a",
                product: "pro.yearly", expires: "2022-02-01T00:00:00Z")
        ]
        let r = try reconcile(v1, v2)
        let rows = r.differences.filter { $0.kind == .fieldMismatch }
        #expect(rows.map(\.field).sorted() == ["autoRenewProductId", "expiresDate", "productId"])
        let expires = try #require(rows.first { $0.field == "expiresDate" })
        #expect(expires.v1Value == "2021-03-01T00:00:00.000Z")
        #expect(expires.v2Value == "2022-02-01T00:00:00.000Z")
        var options = wide
        options.fields.removeAll { $0 == .productId || $0 == .autoRenewProductId }
        #expect(
            try reconcile(v1, v2, options: options).differences.filter { $0.kind == .fieldMismatch }.map(\.field) == [
                "expiresDate"
            ])
    }

    @Test func transactionIdIsComparedOnlyWhenAsked() throws {
        let v1 = [
            Side.v1("DID_RENEW", time: "2021-02-01T00:00:00Z", line: 1) {
                $0.data.transactionInfo?.transactionId = "111"
            }
        ]
        let v2 = [
            Side.payload("DID_RENEW", nil, otx: "1000", wol: "5001", time: "2021-02-01T00:00:00Z", uuid: "a") {
                $0.data.transactionInfo?.transactionId = "222"
            }
        ]
        #expect(try reconcile(v1, v2).differences.isEmpty)
        var options = wide
        options.fields.append(.transactionId)
        #expect(try reconcile(v1, v2, options: options).differences.map(\.field) == ["transactionId"])
    }

    @Test func periodIsTheOverlapWithInclusiveEnds() throws {
        let r = try reconcile(
            [
                Side.v1("DID_RENEW", wol: "1", time: "2021-01-01T00:00:00Z", line: 1),
                Side.v1("DID_RENEW", wol: "3", time: "2021-03-01T00:00:00Z", line: 2),
                Side.v1("DID_RENEW", wol: "6", time: "2021-06-01T00:00:00Z", line: 3)
            ],
            [
                Side.payload("DID_RENEW", nil, otx: "1000", wol: "3", time: "2021-03-01T00:00:00Z", uuid: "m"),
                Side.payload("DID_RENEW", nil, otx: "1000", wol: "6", time: "2021-06-01T00:00:00Z", uuid: "j"),
                Side.payload("DID_RENEW", nil, otx: "1000", wol: "10", time: "2021-10-01T00:00:00Z", uuid: "o")
            ], options: ReconcileOptions())
        #expect(r.metric("period_start") == "2021-03-01T00:00:00.000Z")
        #expect(r.metric("period_end") == "2021-06-01T00:00:00.000Z")
        #expect(r.count("v1_out_of_period") == 1)
        #expect(r.count("v2_out_of_period") == 1)
        #expect(r.count("matched") == 2)
        #expect(r.differences.isEmpty)
    }

    @Test func explicitPeriodOverridesTheDerivedOne() throws {
        var options = ReconcileOptions()
        options.from = Side.ms("2021-01-15T00:00:00Z")
        let r = try reconcile(
            [
                Side.v1("DID_RENEW", wol: "1", time: "2021-01-01T00:00:00Z", line: 1),
                Side.v1("DID_RENEW", wol: "2", time: "2021-02-01T00:00:00Z", line: 2)
            ],
            [Side.payload("DID_RENEW", nil, otx: "1000", wol: "2", time: "2021-02-01T00:00:00Z", uuid: "a")],
            options: options)
        #expect(r.count("v1_out_of_period") == 1)
        #expect(r.metric("period_start") == "2021-01-15T00:00:00.000Z")
    }

    @Test func companionOfAnUpgradeCountsAsCompanionNotADifference() throws {
        let v1 = [
            Side.v1(
                "DID_CHANGE_RENEWAL_PREF", "UPGRADE", v1Type: "INTERACTIVE_RENEWAL", time: "2021-02-01T00:00:00Z",
                line: 1),
            Side.v1(
                "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED", v1Type: "DID_CHANGE_RENEWAL_STATUS",
                time: "2021-02-01T00:02:00Z", line: 2)
        ]
        let upgrade = Side.payload(
            "DID_CHANGE_RENEWAL_PREF", "UPGRADE", otx: "1000", wol: "5001", time: "2021-02-01T00:00:05Z", uuid: "u")
        let alone = try reconcile(v1, [upgrade])
        #expect(alone.differences.isEmpty)
        #expect(alone.count("v1_companion") == 1)
        #expect(alone.count("matched") == 1)
        let status = Side.payload(
            "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", otx: "1000", wol: "5001", time: "2021-02-01T00:05:00Z",
            uuid: "s")
        let both = try reconcile(v1, [upgrade, status])
        #expect(both.count("v1_companion") == 0)
        #expect(both.count("matched") == 2)
        #expect(both.differences.isEmpty)
    }

    @Test func aStatusChangeFarFromAnyUpgradeIsNotACompanion() throws {
        let r = try reconcile(
            [
                Side.v1(
                    "DID_CHANGE_RENEWAL_PREF", "UPGRADE", v1Type: "INTERACTIVE_RENEWAL", time: "2021-02-01T00:00:00Z",
                    line: 1),
                Side.v1(
                    "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED", v1Type: "DID_CHANGE_RENEWAL_STATUS",
                    time: "2021-02-01T00:10:01Z", line: 2)
            ],
            [
                Side.payload(
                    "DID_CHANGE_RENEWAL_PREF", "UPGRADE", otx: "1000", wol: "5001", time: "2021-02-01T00:00:05Z",
                    uuid: "u")
            ])
        #expect(r.count("v1_companion") == 0)
        #expect(kinds(r) == ["missing_in_v2"])
    }

    @Test func inferredTimesPairWithoutTheWindow() throws {
        let r = try reconcile(
            [
                Side.v1("DID_RENEW", wol: "1", time: "2021-01-01T00:00:00Z", line: 1),
                Side.v1(
                    "PRICE_INCREASE", "PENDING", v1Type: "PRICE_INCREASE_CONSENT", wol: "3",
                    time: "2021-03-01T00:00:00Z", line: 2, inferred: true),
                Side.v1("DID_RENEW", wol: "9", time: "2021-09-01T00:00:00Z", line: 3)
            ],
            [
                Side.payload("DID_RENEW", nil, otx: "1000", wol: "1", time: "2021-01-01T00:00:00Z", uuid: "a"),
                Side.payload(
                    "PRICE_INCREASE", "PENDING", otx: "1000", wol: "3", time: "2021-03-20T00:00:00Z", uuid: "b"),
                Side.payload("DID_RENEW", nil, otx: "1000", wol: "9", time: "2021-09-01T00:00:00Z", uuid: "c")
            ])
        #expect(r.count("matched") == 3)
        #expect(r.differences.isEmpty)
    }

    @Test func everyRowNamesItsProductBundleV2SignedDateAndWhetherTheV1TimeWasInferred() throws {
        let r = try reconcile(
            [
                // Paired with a V2 record of another product: the V1 product is the row's.
                Side.v1("DID_RENEW", wol: "1", time: "2021-01-01T00:00:00Z", line: 1, product: "pro.monthly"),
                // Paired by inferred time with a V2 record of another type's subtype value: a field mismatch on expiresDate.
                Side.v1(
                    "PRICE_INCREASE", "PENDING", v1Type: "PRICE_INCREASE_CONSENT", wol: "3",
                    time: "2021-03-01T00:00:00Z", line: 2,
                    inferred: true, expires: "2021-04-01T00:00:00Z"),
                // No V2 partner: missing_in_v2, no V2 signed date.
                Side.v1(
                    "DID_RENEW", otx: "4000", wol: "8", time: "2021-06-01T00:00:00Z", line: 3, product: "basic.monthly")
            ],
            [
                Side.payload(
                    "DID_RENEW", nil, otx: "1000", wol: "1", time: "2021-01-01T00:00:05Z", uuid: "a",
                    product: "pro.yearly"),
                Side.payload(
                    "PRICE_INCREASE", "PENDING", otx: "1000", wol: "3", time: "2021-03-20T00:00:00Z", uuid: "b"),
                // No V1 partner: missing_in_v1 carries the V2 record's product and bundle.
                Side.payload(
                    "SUBSCRIBED", "INITIAL_BUY", otx: "3000", wol: "7", time: "2021-05-01T00:00:00Z", uuid: "c",
                    product: "gold.yearly")
            ])
        let product = try #require(r.differences.first { $0.kind == .fieldMismatch && $0.field == "productId" })
        #expect(product.productId == "pro.monthly" && product.bundleId == "com.example.app")
        #expect(product.v2SignedDate == Side.ms("2021-01-01T00:00:05Z") && product.v1EventTimeInferred == false)
        let inferred = try #require(r.differences.first { $0.kind == .fieldMismatch && $0.field == "expiresDate" })
        #expect(inferred.v1EventTimeInferred == true && inferred.v2SignedDate == Side.ms("2021-03-20T00:00:00Z"))
        let missingInV2 = try #require(r.differences.first { $0.kind == .missingInV2 })
        #expect(
            missingInV2.productId == "basic.monthly" && missingInV2.v2SignedDate == nil
                && missingInV2.v1EventTimeInferred == false)
        let missingInV1 = try #require(r.differences.first { $0.kind == .missingInV1 })
        #expect(missingInV1.productId == "gold.yearly" && missingInV1.bundleId == "com.example.app")
        #expect(missingInV1.v2SignedDate == Side.ms("2021-05-01T00:00:00Z") && missingInV1.v1EventTimeInferred == nil)
        // Rendered: appended after the existing columns, dates ISO 8601 with ms, the flag as true / false / empty.
        #expect(
            Array(Discrepancy.columns.suffix(6)) == [
                "product_id", "bundle_id", "v2_signed_date", "v1_event_time_inferred", "price", "currency"
            ])
        #expect(
            Array(missingInV1.cells.suffix(6)) == [
                "gold.yearly", "com.example.app", "2021-05-01T00:00:00.000Z", "", "", ""
            ])
        #expect(inferred.cells.dropLast(2).last == "true" && missingInV2.cells.suffix(4) == ["", "false", "", ""])
    }

    @Test func duplicatesAndConflictingDuplicates() throws {
        let v1 = Side.v1("DID_RENEW", time: "2021-02-01T00:00:00Z", line: 1)
        let same = Side.payload("DID_RENEW", nil, otx: "1000", wol: "5001", time: "2021-02-01T00:00:00Z", uuid: "d")
        var changed = same
        changed.data.transactionInfo?.productId = "pro.other"
        let r = try reconcile([v1, v1], [same, same, changed])
        #expect(r.count("v1_duplicates") == 1)
        #expect(r.count("v2_duplicates") == 2)
        #expect(r.differences.map(\.kind) == [.conflictingDuplicateV2])
        #expect(r.count("matched") == 1)
    }

    @Test func unpairedV2IsMissingUnlessV1NeverHadIt() throws {
        let r = try reconcile(
            [
                Side.v1("DID_RENEW", wol: "1", time: "2021-01-01T00:00:00Z", line: 1),
                Side.v1("DID_RENEW", wol: "9", time: "2021-09-01T00:00:00Z", line: 2)
            ],
            [
                Side.payload("DID_RENEW", nil, otx: "1000", wol: "1", time: "2021-01-01T00:00:00Z", uuid: "a"),
                Side.payload("DID_RENEW", nil, otx: "1000", wol: "9", time: "2021-09-01T00:00:00Z", uuid: "b"),
                Side.payload(
                    "SUBSCRIBED", "INITIAL_BUY", otx: "2000", wol: "7", time: "2021-05-01T00:00:00Z", uuid: "family",
                    family: true),
                Side.payload(
                    "SUBSCRIBED", "INITIAL_BUY", otx: "3000", wol: "8", time: "2021-05-01T00:00:00Z", uuid: "purchaser"),
                Side.payload("TEST", nil, otx: nil, wol: nil, time: "2021-05-02T00:00:00Z", uuid: "test"),
                Side.payload(
                    "RENEWAL_EXTENSION", "SUMMARY", otx: nil, wol: nil, time: "2021-05-03T00:00:00Z", uuid: "summary")
            ])
        #expect(r.count("v2_only_expected") == 3)
        #expect(r.count("missing_in_v1") == 1)
        #expect(r.differences.first?.v2NotificationUUID == "purchaser")
    }

    @Test func unmappedV1IsReportedAndCounted() throws {
        let unmapped = UnmappedNotification(
            v1NotificationType: "NEW_THING", reason: "no rule", location: SourceLocation(path: "v1.jsonl", line: 4),
            notificationUUID: "11111111-1111-5111-8111-111111111111", environment: "Production",
            originalTransactionId: "1000", webOrderLineItemId: nil, eventTime: Side.ms("2021-02-01T00:00:00Z"))
        let r = try reconcile(
            [.unmapped(unmapped), Side.v1("DID_RENEW", time: "2021-02-01T00:00:00Z", line: 1)],
            [Side.payload("DID_RENEW", nil, otx: "1000", wol: "5001", time: "2021-02-01T00:00:00Z", uuid: "a")])
        #expect(r.count("v1_unmapped") == 1)
        #expect(r.differences.map(\.kind) == [.unmappedV1])
        #expect(r.differences.first?.v1Source == "v1.jsonl:4")
        #expect(r.coverage.contains { $0.v1Type == "NEW_THING" && $0.rule.isEmpty && $0.count == 1 })
    }

    @Test func rejectsAreCountedPerSide() throws {
        var engine = Reconciler(table: try MappingTable.builtIn(), options: ReconcileOptions())
        engine.addV1(.rejected(ASNError(.malformedJSON, "bad", at: SourceLocation(path: "a", line: 2))))
        engine.addV2Reject(ASNError(.malformedJWS, "bad jws", at: SourceLocation(path: "b", line: 3)))
        let r = engine.finish()
        #expect(r.count("v1_rejected") == 1)
        #expect(r.count("v2_rejected") == 1)
        #expect(r.rejects.map(\.source) == ["a", "b"])
        #expect(r.rejects.map(\.line) == [2, 3])
        #expect(r.rejects.map(\.side) == ["v1", "v2"])
        #expect(!r.isClean)
    }

    @Test func aTinyDataSetWithOffsetTimesHasAnEmptyPeriod() throws {
        let r = try reconcile(
            [Side.v1("DID_RENEW", time: "2021-02-01T00:00:00Z", line: 1)],
            [Side.payload("DID_RENEW", nil, otx: "1000", wol: "5001", time: "2021-02-01T00:00:03Z", uuid: "a")],
            options: ReconcileOptions())
        #expect(r.count("v1_out_of_period") == 1)
        #expect(r.count("v2_out_of_period") == 1)
        #expect(r.metric("period_start") == "2021-02-01T00:00:03.000Z")
        #expect(r.metric("period_end") == "2021-02-01T00:00:00.000Z")
    }

    @Test func stateAtThePeriodEndIsComparedPerSubscription() throws {
        // V1 thinks the subscription is still active at the end; V2 saw a refund.
        let r = try reconcile(
            [
                Side.v1("DID_RENEW", wol: "1", time: "2021-02-01T00:00:00Z", line: 1),
                Side.v1("DID_RENEW", wol: "2", time: "2021-03-01T00:00:00Z", line: 2)
            ],
            [
                Side.payload("DID_RENEW", nil, otx: "1000", wol: "1", time: "2021-02-01T00:00:00Z", uuid: "a"),
                Side.payload("DID_RENEW", nil, otx: "1000", wol: "2", time: "2021-03-01T00:00:00Z", uuid: "b") {
                    $0.data.transactionInfo?.revocationDate = Side.ms("2021-02-20T00:00:00Z")
                }
            ], options: ReconcileOptions())
        #expect(r.count("state_mismatch") == 1)
        let state = r.differences.filter { $0.kind == .stateMismatch }
        #expect(state.map(\.field) == ["active"])
        #expect(state.first?.v1Value == "true")
        #expect(state.first?.v2Value == "false")
        #expect(state.first?.eventDate == Side.ms("2021-03-01T00:00:00Z"))
        #expect(r.subscriptions.count == 1)
        #expect(r.subscriptions.first?.mismatches == ["active"])
    }

    @Test func aV2OnlyExtensionBeforeThePeriodEndIsNoStateDifference() throws {
        // Apple extends the renewal date (RENEWAL_EXTENDED, V2 only): V1 by design hears of the new expiry only with
        // a later notification, so at a period end between the two the sides' expiries differ without anything lost.
        var options = ReconcileOptions()
        options.from = Side.ms("2021-01-15T00:00:00Z")
        options.to = Side.ms("2021-03-20T00:00:00Z")
        let r = try reconcile(
            [
                Side.v1("DID_RENEW", wol: "1", time: "2021-02-01T00:00:00Z", line: 1, expires: "2021-03-01T00:00:00Z"),
                Side.v1("DID_RENEW", wol: "2", time: "2021-03-01T00:00:00Z", line: 2, expires: "2021-04-01T00:00:00Z")
            ],
            [
                Side.payload(
                    "DID_RENEW", nil, otx: "1000", wol: "1", time: "2021-02-01T00:00:00Z", uuid: "a",
                    expires: "2021-03-01T00:00:00Z"),
                Side.payload(
                    "DID_RENEW", nil, otx: "1000", wol: "2", time: "2021-03-01T00:00:00Z", uuid: "b",
                    expires: "2021-04-01T00:00:00Z"),
                Side.payload(
                    "RENEWAL_EXTENDED", nil, otx: "1000", wol: "2", time: "2021-03-15T00:00:00Z", uuid: "c",
                    expires: "2021-05-01T00:00:00Z")
            ], options: options)
        #expect(r.count("v2_only_expected") == 1, "the extension is expected only on V2")
        #expect(r.subscriptions.count == 1, "the subscription's state is still compared")
        #expect(r.subscriptions.first?.mismatches == [])
        #expect(r.differences.isEmpty, "\(r.differences)")
        // A difference both sides could know still shows: V2's renewal revoked, V1's not.
        let revoked = try reconcile(
            [
                Side.v1("DID_RENEW", wol: "1", time: "2021-02-01T00:00:00Z", line: 1, expires: "2021-03-01T00:00:00Z"),
                Side.v1("DID_RENEW", wol: "2", time: "2021-03-01T00:00:00Z", line: 2, expires: "2021-04-01T00:00:00Z")
            ],
            [
                Side.payload(
                    "DID_RENEW", nil, otx: "1000", wol: "1", time: "2021-02-01T00:00:00Z", uuid: "a",
                    expires: "2021-03-01T00:00:00Z"),
                Side.payload(
                    "DID_RENEW", nil, otx: "1000", wol: "2", time: "2021-03-01T00:00:00Z", uuid: "b",
                    expires: "2021-04-01T00:00:00Z"
                ) {
                    $0.data.transactionInfo?.revocationDate = Side.ms("2021-03-02T00:00:00Z")
                },
                Side.payload(
                    "RENEWAL_EXTENDED", nil, otx: "1000", wol: "2", time: "2021-03-15T00:00:00Z", uuid: "c",
                    expires: "2021-05-01T00:00:00Z")
            ], options: options)
        #expect(revoked.subscriptions.first?.mismatches == ["active"])
    }

    @Test func differencesAreSortedByEnvironmentSubscriptionDateKindField() throws {
        let r = try reconcile(
            [
                Side.v1("DID_RENEW", otx: "2000", wol: "1", time: "2021-02-02T00:00:00Z", line: 1),
                Side.v1("DID_RENEW", otx: "1000", wol: "2", time: "2021-02-03T00:00:00Z", line: 2),
                Side.v1("DID_RENEW", otx: "1000", wol: "3", time: "2021-02-01T00:00:00Z", env: "Sandbox", line: 3)
            ], [Side.payload("DID_RENEW", nil, otx: "1000", wol: "9", time: "2021-02-01T00:00:00Z", uuid: "x")])
        let keys = r.differences.map { "\($0.environment)/\($0.originalTransactionId)/\($0.kind.rawValue)" }
        #expect(keys == keys.sorted())
        #expect(r.differences.first?.environment == "Production")
    }
}
