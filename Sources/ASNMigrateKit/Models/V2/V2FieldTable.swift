/// Every V2 field the tool reads or writes, declared once as data, in the fixed order of the V2 JSON: its path, its
/// kind and where `migrate` takes its value from in a V1 body. `migrate --format csv`'s columns (`MigrationOutput`),
/// the fields a column map may name (`V2ColumnMap.fields`) and `Reports/schema.sql`'s `migrate_csv` table all follow
/// from it; `V2FieldTableTests` holds the models' member visits, the shipped column maps and `schema.sql` to it.
///
/// The compared fields (`ComparedField`) name the members they read; `ComparedFieldTableTests` checks each one reads a
/// field of this table of its own kind.
package enum V2FieldTable {
    /// Every field, in order: the notification's own, `data`'s, the transaction info's, the renewal info's, then the
    /// `migration` members `migrate` adds.
    package static let all: [V2Field] = top + transaction + renewal + migration

    /// The fields `migrate` writes, in order: the columns of `migrate --format csv` (dotted names).
    package static let migrated: [V2Field] = all.filter(\.isMigrated)

    /// The fields a column map may name, in order (`migration` members are `migrate`'s own, not V2 fields).
    package static let mappable: [V2Field] = all.filter(\.isMappable)

    /// The field at `path`, or nil.
    package static func field(_ path: String) -> V2Field? {
        all.first { $0.path == path }
    }

    /// The rows of an object's members, each path `prefix` + its key.
    private static func members(of prefix: String, _ rows: [V2Field]) -> [V2Field] {
        rows.map { V2Field(prefix + $0.path, $0.kind, from: $0.sources, values: $0.values, compared: $0.compared) }
    }

    // MARK: - The table

    /// The notification's own members and `data`'s scalars (`ResponseBodyV2DecodedPayload`, `NotificationData`).
    private static let top: [V2Field] = [
        V2Field("notificationType", .enumText, from: [.rule]),
        V2Field("subtype", .enumText, from: [.rule]),
        V2Field("notificationUUID", .text, from: [.derived]),
        V2Field("version", .text, from: [.derived]),
        V2Field(
            "signedDate", .date,
            from: [
                .derived, .body(.autoRenewStatusChangeDate), .body(.cancellationDate), .receipt(.purchaseDate),
                .receipt(.expiresDate), .receipt(.cancellationDate)
            ]),
        V2Field("signedPayload", .jws, from: []),
        V2Field("data.bundleId", .text, from: [.body(.bid), .receipt(.bid)]),
        V2Field("data.bundleVersion", .text, from: [.body(.bvrs), .receipt(.bvrs)]),
        V2Field("data.environment", .enumText, from: [.body(.environment), .unified(.environment)]),
        V2Field("data.status", .enumCode, from: [.derived]),
        V2Field("data.signedTransactionInfo", .jws, from: []),
        V2Field("data.signedRenewalInfo", .jws, from: [])
    ]

    /// `data.transactionInfo` (`JWSTransactionDecodedPayload`), in its `visitMembers` order.
    private static let transaction: [V2Field] = members(
        of: "data.transactionInfo.",
        [
            V2Field(
                "transactionId", .id, from: [.receipt(.transactionId)],
                compared: .init(order: 18, bit: 13, apiView: .always)),
            V2Field("originalTransactionId", .id, from: [.receipt(.originalTransactionId)]),
            V2Field(
                "webOrderLineItemId", .id, from: [.receipt(.webOrderLineItemId)],
                compared: .init(order: 1, bit: 8, apiView: .always)),
            V2Field(
                "bundleId", .text, from: [.body(.bid), .receipt(.bid)],
                compared: .init(order: 5, bit: 9, or: "data.bundleId")),
            V2Field(
                "productId", .text, from: [.receipt(.productId)], compared: .init(order: 0, bit: 7, apiView: .always)),
            V2Field("subscriptionGroupIdentifier", .text, from: [.receipt(.subscriptionGroupIdentifier)]),
            V2Field(
                "purchaseDate", .date, from: [.receipt(.purchaseDate)],
                compared: .init(order: 2, bit: 14, apiView: .always)),
            V2Field(
                "originalPurchaseDate", .date, from: [.receipt(.originalPurchaseDate)],
                compared: .init(order: 4, bit: 16, base: "purchaseDate", apiView: .always)),
            V2Field(
                "expiresDate", .date, from: [.receipt(.expiresDate)],
                compared: .init(order: 3, bit: 15, base: "purchaseDate", apiView: .always)),
            V2Field(
                "quantity", .integer, from: [.receipt(.quantity)],
                compared: .init(order: 19, apiView: .whenV1States, inNotifications: false)),
            V2Field(
                "type", .enumText,
                from: [.receipt(.expiresDate), .receipt(.webOrderLineItemId), .receipt(.subscriptionGroupIdentifier)]
            ),
            V2Field("appAccountToken", .text, from: [.receipt(.appAccountToken)]),
            V2Field(
                "inAppOwnershipType", .enumText, from: [.receipt(.inAppOwnershipType)],
                values: ["FAMILY_SHARED", "PURCHASED"], compared: .init(order: 6, bit: 10, apiView: .whenV1States)),
            V2Field("signedDate", .date, from: []),
            V2Field(
                "revocationReason", .enumCode, from: [.receipt(.cancellationReason)], values: ["0", "1"],
                compared: .init(order: 8, bit: 19, apiView: .always)),
            V2Field(
                "revocationDate", .date, from: [.receipt(.cancellationDate)],
                compared: .init(order: 7, bit: 17, base: "purchaseDate", apiView: .always)),
            V2Field("isUpgraded", .flag, from: [.receipt(.isUpgraded)], compared: .init(order: 9, apiView: .always)),
            V2Field(
                "offerType", .enumCode,
                from: [
                    .receipt(.offerCodeRefName), .receipt(.promotionalOfferId), .receipt(.isTrialPeriod),
                    .receipt(.isInIntroOfferPeriod)
                ], values: ["1", "2", "3"], compared: .init(order: 16, bit: 23, apiView: .always)
            ),
            V2Field(
                "offerIdentifier", .text, from: [.receipt(.offerCodeRefName), .receipt(.promotionalOfferId)],
                compared: .init(order: 17, bit: 12, apiView: .always)),
            V2Field("offerDiscountType", .enumText, from: [.receipt(.isTrialPeriod)]),
            V2Field("environment", .enumText, from: [.body(.environment), .unified(.environment)]),
            V2Field(
                "transactionReason", .enumText,
                from: [.rule, .receipt(.transactionId), .receipt(.originalTransactionId)]),
            V2Field("storefront", .text, from: []),
            V2Field("price", .integer, from: []),
            V2Field("currency", .text, from: [])
        ])

    /// `data.renewalInfo` (`JWSRenewalInfoDecodedPayload`), in its `visitMembers` order.
    private static let renewal: [V2Field] = members(
        of: "data.renewalInfo.",
        [
            V2Field(
                "originalTransactionId", .id,
                from: [
                    .body(.originalTransactionId), .renewal(.originalTransactionId), .receipt(.originalTransactionId)
                ]
            ),
            V2Field("productId", .text, from: [.renewal(.productId), .receipt(.productId)]),
            V2Field(
                "autoRenewProductId", .text, from: [.renewal(.autoRenewProductId), .body(.autoRenewProductId)],
                compared: .init(order: 11, bit: 11)),
            V2Field(
                "autoRenewStatus", .enumCode, from: [.body(.autoRenewStatus), .renewal(.autoRenewStatus)],
                values: ["0", "1"], compared: .init(order: 10, bit: 20)),
            V2Field(
                "expirationIntent", .enumCode, from: [.renewal(.expirationIntent), .body(.expirationIntent)],
                values: ["1", "2", "3", "4", "5"], compared: .init(order: 12, bit: 21)),
            V2Field(
                "gracePeriodExpiresDate", .date, from: [.renewal(.gracePeriodExpiresDate)],
                compared: .init(order: 14, bit: 18, base: "expiresDate")),
            V2Field(
                "isInBillingRetryPeriod", .flag,
                from: [.renewal(.isInBillingRetryPeriod), .body(.isInBillingRetryPeriod)], compared: .init(order: 13)),
            V2Field(
                "priceIncreaseStatus", .enumCode, from: [.renewal(.priceConsentStatus)], values: ["0", "1"],
                compared: .init(order: 15, bit: 22)),
            V2Field("offerType", .enumCode, from: [.renewal(.offerCodeRefName), .renewal(.promotionalOfferId)]),
            V2Field("offerIdentifier", .text, from: [.renewal(.offerCodeRefName), .renewal(.promotionalOfferId)]),
            V2Field("offerDiscountType", .enumText, from: []),
            V2Field("renewalDate", .date, from: [.receipt(.expiresDate)]),
            V2Field("recentSubscriptionStartDate", .date, from: [.receipt(.purchaseDate), .receipt(.expiresDate)]),
            V2Field("appAccountToken", .text, from: []),
            V2Field("signedDate", .date, from: []),
            V2Field("environment", .enumText, from: [.body(.environment), .unified(.environment)]),
            V2Field("renewalPrice", .integer, from: []),
            V2Field("currency", .text, from: [])
        ])

    /// `migration` (`MigrationInfo`): where `migrate` found the record; not V2 fields, so no column map names them.
    private static let migration: [V2Field] = members(
        of: "migration.",
        [
            V2Field("source", .text, from: [.derived]),
            V2Field("line", .integer, from: [.derived]),
            V2Field("index", .integer, from: [.derived]),
            V2Field("v1NotificationType", .enumText, from: [.body(.notificationType)]),
            V2Field("rule", .text, from: [.rule]),
            V2Field("eventTimeInferred", .flag, from: [.derived])
        ])
}

/// One row of `V2FieldTable`: a V2 field, how its value is held, and what `migrate` makes it from.
package struct V2Field: Sendable, Equatable {
    /// The dotted JSON path (`data.transactionInfo.productId`): `migrate --format csv`'s column and a column map's
    /// field name.
    package let path: String
    /// How the value is held.
    package let kind: V2FieldKind
    /// Where `migrate` takes the value from; empty when it never writes the field.
    package let sources: [V1Source]
    /// An enumeration's values as Apple documents them (codes as digits), in order; empty for other fields.
    package let values: [String]
    /// How `reconcile` and `nightly` compare it (`ComparedField`), or nil when they do not.
    package let compared: V2Compared?

    /// A row.
    package init(
        _ path: String, _ kind: V2FieldKind, from sources: [V1Source], values: [String] = [],
        compared: V2Compared? = nil
    ) {
        self.path = path
        self.kind = kind
        self.sources = sources
        self.values = values
        self.compared = compared
    }

    /// The member's key inside its object (`productId`).
    package var key: String {
        path.split(separator: ".").last.map(String.init) ?? path
    }

    /// Whether `migrate` writes it: a column of `migrate --format csv`.
    package var isMigrated: Bool { !sources.isEmpty }

    /// Whether a column map may name it (every V2 field; not `migrate`'s own `migration` members).
    package var isMappable: Bool { !path.hasPrefix("migration.") }

    /// Its column name under `--csv-names snake` (`data_transaction_info_product_id`).
    package var snakeName: String { V2Field.snakeCase(path) }

    /// Its column's type in `Reports/schema.sql`'s `migrate_csv` table: the dates are timestamps, every other value
    /// text (an id keeps every digit; a CSV value is text until a query says otherwise).
    package var schemaType: String { kind == .date ? "TIMESTAMP" : "TEXT" }

    /// `data.transactionInfo.webOrderLineItemId` → `data_transaction_info_web_order_line_item_id`,
    /// `notificationUUID` → `notification_uuid`, `migration.v1NotificationType` → `migration_v1_notification_type`.
    package static func snakeCase(_ path: String) -> String {
        let characters = Array(path)
        var result = ""
        for (index, character) in characters.enumerated() {
            if character == "." {
                result.append("_")
                continue
            }
            if character.isUppercase, index > 0 {
                let previous = characters[index - 1]
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                let startsWord =
                    previous.isLowercase || previous.isNumber || (previous.isUppercase && next?.isLowercase == true)
                if startsWord { result.append("_") }
            }
            result.append(contentsOf: character.lowercased())
        }
        return result
    }
}

/// How `reconcile` and `nightly` compare a V2 field: the table's `compared:` column, from which `ComparedField` is
/// made. How the value is held follows from the row's kind (an id, text, a date, a number, a flag); the rest is here.
package struct V2Compared: Sendable, Equatable {
    /// When a field is compared against Apple's API view.
    package enum APIView: Sendable, Equatable {
        /// Whenever both transactions are paired.
        case always
        /// Only when the V1 side holds a value.
        case whenV1States
    }

    /// Its place in the report order (`--compare`'s list, `differences.csv`'s order): a new field takes the next one.
    package let order: Int
    /// Its mask bit in the nightly state's codec (`RecordFactsCodec`): a new field takes the next free one, so states
    /// written before it still read; nil for flags and fields notifications do not hold.
    package let bit: Int?
    /// A date's base: the compared field whose value it is stored relative to; nil for the record's time.
    package let base: String?
    /// Whether it is compared against Apple's API view (`TransactionReconciler`), and when; nil for fields a
    /// transaction does not hold there (renewal info, and `bundleId`, which the history's pages share).
    package let apiView: APIView?
    /// Whether notifications hold it (false: compared between transactions only, against Apple's API view).
    package let inNotifications: Bool
    /// A second path, read when the field's own member is absent.
    package let fallback: String?

    /// A column.
    package init(
        order: Int, bit: Int? = nil, base: String? = nil, apiView: APIView? = nil, inNotifications: Bool = true,
        or fallback: String? = nil
    ) {
        self.order = order
        self.bit = bit
        self.base = base
        self.apiView = apiView
        self.inNotifications = inNotifications
        self.fallback = fallback
    }
}

/// How a V2 field's value is held.
package enum V2FieldKind: Sendable, Equatable, CaseIterable {
    /// A numeric Apple id, kept as text digit for digit (`transactionId`).
    case id
    /// Free text (`productId`).
    case text
    /// An instant, epoch milliseconds (ISO 8601 in CSV).
    case date
    /// A whole number (`quantity`, prices in milliunits).
    case integer
    /// A Boolean.
    case flag
    /// One of Apple's enumerations spelt as text, kept raw (`inAppOwnershipType`).
    case enumText
    /// One of Apple's enumerations given as a small number, kept raw (`autoRenewStatus`).
    case enumCode
    /// A compact JWS, decoded like Apple's own signed values.
    case jws
}

/// Where `migrate` takes a V2 field's value from.
package enum V1Source: Sendable, Equatable {
    /// A key of the V1 body (`bid`).
    case body(V1Key)
    /// A key of the body's `unified_receipt` (`unified_receipt.environment`).
    case unified(V1Key)
    /// A key of a `latest_receipt_info` entry (the relevant transaction's, or the history's).
    case receipt(V1Key)
    /// A key of the subscription's `pending_renewal_info` entry.
    case renewal(V1Key)
    /// The mapping rule that matched (`Mappings/v1-to-v2.rules`).
    case rule
    /// Made by `migrate` itself (the deterministic UUID, the status, the input location).
    case derived

    /// The V1 key, when it is one.
    package var key: V1Key? {
        switch self {
        case .body(let key), .unified(let key), .receipt(let key), .renewal(let key): return key
        case .rule, .derived: return nil
        }
    }

    /// The key path as the V1 body spells it: `latest_receipt_info[].product_id`, `bid`, `(rule)`.
    package var path: String {
        switch self {
        case .body(let key): return key.name
        case .unified(let key): return V1Key.unifiedReceipt.name + "." + key.name
        case .receipt(let key): return V1Key.latestReceiptInfo.name + "[]." + key.name
        case .renewal(let key): return V1Key.pendingRenewalInfo.name + "[]." + key.name
        case .rule: return "(rule)"
        case .derived: return "(derived)"
        }
    }
}
