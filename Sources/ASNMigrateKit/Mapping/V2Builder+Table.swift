/// How `V2Builder` writes one member of a transaction or renewal info: copied from the one V1 key `V2FieldTable`'s V1
/// column names, or by a rule of the builder's own.
package enum V2BuilderStep: Sendable, Equatable {
    /// Copied from a `latest_receipt_info` entry's key, read as the table's kind says.
    case entry(V2Member, V1EntryField, V2FieldKind)
    /// Copied from the subscription's `pending_renewal_info` entry's key, read as the table's kind says.
    case pending(V2Member, V1PendingField, V2FieldKind)
    /// Written by the builder's rule for the member.
    case rule(V2Member)
}

extension V2Builder {
    /// The transaction info's members with a rule of the builder's own; every other member the table says `migrate`
    /// writes from one receipt key is copied from it.
    package static let transactionRules: Set<V2Member> = [
        .bundleId, .type, .revocationReason, .revocationDate, .isUpgraded, .offerType, .offerIdentifier,
        .offerDiscountType, .environment, .transactionReason
    ]

    /// The renewal info's members with a rule of the builder's own; every other member the table says `migrate`
    /// writes from one `pending_renewal_info` key is copied from it.
    package static let renewalRules: Set<V2Member> = [
        .originalTransactionId, .productId, .autoRenewProductId, .autoRenewStatus, .expirationIntent,
        .isInBillingRetryPeriod, .offerType, .offerIdentifier, .renewalDate, .recentSubscriptionStartDate,
        .environment
    ]

    /// The transaction info's members in the table's order, each with how it is written.
    package static let transactionSteps = steps("data.transactionInfo.", rules: transactionRules)

    /// The renewal info's members in the table's order, each with how it is written.
    package static let renewalSteps = steps("data.renewalInfo.", rules: renewalRules)

    /// The steps of the table's members under `prefix` that `migrate` writes: a rule's member, or a copy of its one
    /// V1 key (a member with neither is left out; `V2BuilderTableTests` fails on one).
    static func steps(_ prefix: String, rules: Set<V2Member>) -> [V2BuilderStep] {
        V2FieldTable.all.compactMap { field -> V2BuilderStep? in
            guard field.path.hasPrefix(prefix), field.isMigrated,
                let member = V2Member.allCases.first(where: { "\($0.key)" == field.key })
            else { return nil }
            if rules.contains(member) { return .rule(member) }
            guard field.sources.count == 1, let source = field.sources.first else { return nil }
            switch source {
            case .receipt(let key):
                return V1EntryField.allCases.first { $0.key == key }.map { .entry(member, $0, field.kind) }
            case .renewal(let key):
                return V1PendingField.allCases.first { $0.key == key }.map { .pending(member, $0, field.kind) }
            default: return nil
            }
        }
    }

    /// Writes a copied member of receipt entry `i`.
    static func copy<View, Sink: V2Sink>(
        _ v: View, _ i: Int, _ member: V2Member, _ field: V1EntryField, _ kind: V2FieldKind, into sink: inout Sink
    ) where Sink.View == View {
        switch kind {
        case .date: sink.int(member, v.date(i, field))
        case .integer, .enumCode: sink.int(member, v.text(i, field).flatMap { v.integer($0) }.map(Int64.init))
        case .flag: sink.flag(member, v.flag(i, field))
        case .id, .text, .enumText, .jws: sink.text(member, v.text(i, field))
        }
    }

    /// Writes a copied member of pending renewal entry `p`.
    static func copy<View, Sink: V2Sink>(
        _ v: View, pending p: Int?, _ member: V2Member, _ field: V1PendingField, _ kind: V2FieldKind,
        into sink: inout Sink
    ) where Sink.View == View {
        switch kind {
        case .date: sink.int(member, p.flatMap { v.pendingDate($0, field) })
        case .integer, .enumCode:
            sink.int(member, p.flatMap { v.pendingText($0, field) }.flatMap { v.integer($0) }.map(Int64.init))
        case .flag: sink.flag(member, p.flatMap { v.pendingFlag($0, field) })
        case .id, .text, .enumText, .jws: sink.text(member, p.flatMap { v.pendingText($0, field) })
        }
    }
}
