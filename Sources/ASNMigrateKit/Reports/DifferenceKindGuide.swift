/// What each difference kind means and what to do about it, in two plain sentences: the one source of the kind
/// tables in `Reports/README.md` (a test checks the README holds these exact sentences) and of `report.html`'s
/// section per kind. Text in backquotes names a column, file or value (Markdown code; `<code>` on the page).
package enum DifferenceKindGuide {
    /// A kind's two sentences.
    package struct Entry: Sendable, Equatable {
        /// What a row of the kind is.
        package var meaning: String
        /// What the reader should do about it.
        package var action: String
    }

    /// The entry of `kind`.
    package static func entry(_ kind: Discrepancy.Kind) -> Entry {
        switch kind {
        case .missingInV2:
            return Entry(
                meaning:
                    "A V1 notification in the period that no V2 notification pairs with, although the V2 data covers the time its partner would have (a partner that could lie outside the V2 data makes it pending instead, see `pending.csv`).",
                action:
                    "Look the subscription up with `asn-migrate fetch` or in App Store Connect: if Apple has the purchase, the V2 feed lost this notification and the V2 records need it."
            )
        case .missingInV1:
            return Entry(
                meaning:
                    "A V2 notification in the period that no V1 notification pairs with, of a type V1 would have sent (not `v2_only_expected`), although the V1 data covers the time its partner would have (else it is pending).",
                action:
                    "Check that the V1 archive is complete for that day; if it is, V1 never sent this event and the V2 record is the one to keep."
            )
        case .typeMismatch:
            return Entry(
                meaning:
                    "A V1 notification paired (in the last pass) with a V2 notification of the same subscription within the window, but of another type or subtype than its mapping expects.",
                action:
                    "Compare `v1_notification_type` with `v2_notification_type` and `v2_subtype`: if Apple sends this combination on purpose, add a rule to the mapping file (`Mappings/`), else one side recorded the wrong event."
            )
        case .fieldMismatch:
            return Entry(
                meaning: "A field present on both sides of a pair with different values (one row per field).",
                action:
                    "Compare `v1_value` with `v2_value` for the `field` named: a different product or expiry date usually means one side was recorded late or edited, so check it against Apple (`asn-migrate fetch`) and correct the other."
            )
        case .stateMismatch:
            return Entry(
                meaning:
                    "The subscription's state at the end of the period differs between the two sides (one row per differing item: `productId`, `expiresDate`, `autoRenewStatus` or `active`).",
                action:
                    "Look at the subscription's last events on both sides: the side that is behind usually lacks a renewal, cancellation or refund, which other rows of the same subscription often name."
            )
        case .conflictingDuplicateV2:
            return Entry(
                meaning:
                    "A V2 `notificationUUID` seen again with different content (the first in input order is kept).",
                action:
                    "Find both copies in the V2 input by their `notificationUUID`: a notification never changes, so the store or export that wrote the second copy needs fixing."
            )
        case .unmappedV1:
            return Entry(
                meaning: "A V1 notification in the period that no mapping rule maps.",
                action:
                    "Add a rule for its `v1_notification_type` to the mapping file (`Mappings/`), or confirm the type has no V2 equivalent, then run again."
            )
        case .pendingInV2:
            return Entry(
                meaning:
                    "A V1 notification whose V2 partner is not in the data yet (V1 columns filled, as for `missing_in_v2`).",
                action: "Nothing yet: a later run over data that reaches further judges it.")
        case .pendingInV1:
            return Entry(
                meaning:
                    "A V2 notification whose V1 partner is not in the data (V2 columns filled, as for `missing_in_v1`).",
                action: "Nothing yet: a later run over data that reaches further judges it.")
        case .transactionMissingInV1:
            return Entry(
                meaning:
                    "App Store Server API view only: a transaction in Apple's history, in the period, that no V1 record ever showed.",
                action:
                    "The V1 archive lost every notification of this purchase: take it from Apple's history (`v2_value` holds its transaction id) when completing the records."
            )
        case .transactionMissingInV2:
            return Entry(
                meaning:
                    "API view only: a transaction the V1 archive showed, in the period, that Apple's fetched history lacks. With `--switch`: a transaction Apple made after the switch (auto-renewable, or a one-time purchase refunded after it) that no V2 notification carries (its id in `v2_value`).",
                action:
                    "Fetch the subscription again (`asn-migrate fetch`); if Apple still lacks the transaction (`v1_value` holds its id), ask Apple or treat the V1 record as not a real purchase. With `--switch` (id in `v2_value`): your V2 endpoint missed that notification; take the transaction from Apple."
            )
        case .transactionFieldMismatch:
            return Entry(
                meaning:
                    "API view only: a field of a paired transaction that differs between the V1 archive and Apple's history (one row per field).",
                action:
                    "Apple's history is the reference: where your records rely on the `field` named, correct the archived value to `v2_value`."
            )
        case .unannouncedInV1:
            return Entry(
                meaning:
                    "API view only: a transaction V1 only ever showed inside a later receipt, never as a notification's own transaction (a lost V1 notification).",
                action:
                    "The purchase is known but its event was lost: when replaying history, take the event from Apple's history, since the V1 archive has no notification for it."
            )
        case .silentInV2:
            return Entry(
                meaning:
                    "With `--switch`: a subscription live after its newest record (V1 before the switch or V2 after it) whose next event was due at `event_date` (its expiry, grace end or billing-retry end), yet no V2 notification about it has a `signedDate` from the switch to `event_date` plus `--window`, although the V2 notifications reach past that.",
                action:
                    "Look the subscription up with `asn-migrate fetch`: if Apple renewed, expired or recovered it, your V2 endpoint dropped or never received its notifications (an outage, or a server URL still on V1); take the events from Apple's history."
            )
        case .renewalGap:
            return Entry(
                meaning:
                    "With `--switch`: a V2 `DID_RENEW` whose purchase (`event_date`, in `v2_value`) comes at least a whole period after the greatest expiry known before it (`v1_value`), with no expiry, billing failure, refund, revocation or renewal extension between: a renewal of a period no notification announced, or a renewal-date extension V1 never reported.",
                action:
                    "Fetch the subscription (`asn-migrate fetch`) and look for the transactions between the two dates: a missing renewal is a lost notification to take from Apple's history; an extension needs no action."
            )
        case .seamStateMismatch:
            return Entry(
                meaning:
                    "With `--switch`: the subscription's first V2 notification after the switch contradicts V1's last record before it (`field` `autoRenewStatus` or `autoRenewProductId`, V1's value in `v1_value`, V2's in `v2_value`): a change of auto-renew or a crossgrade reached neither side.",
                action:
                    "The change happened around the switch and its notification was lost on one side: take the subscription's current renewal info from Apple (`asn-migrate fetch`) and correct your records."
            )
        case .awaitingV2:
            return Entry(
                meaning:
                    "With `--switch`: a subscription live after its newest record whose next event is due at `event_date`, beyond what the V2 notifications reach yet (counted `awaiting_v2`).",
                action:
                    "Nothing yet: a later run over V2 notifications that reach past `event_date` plus `--window` judges it."
            )
        }
    }

    /// The order `report.html` shows the kinds in: first the rows that cost money or customers (a purchase one side
    /// lacks, a customer whose access differs, a misnamed purchase), then items of purchases both sides have, then the
    /// records' own hygiene, then what is not a difference yet. A kind missing here follows these, by name
    /// (`DifferenceKindGuideTests` fails on one, so a new kind gets its place).
    package static let reportOrder: [Discrepancy.Kind] = [
        .missingInV2, .transactionMissingInV1, .silentInV2, .renewalGap, .stateMismatch, .seamStateMismatch,
        .missingInV1, .transactionMissingInV2, .typeMismatch, .unannouncedInV1, .fieldMismatch,
        .transactionFieldMismatch, .conflictingDuplicateV2, .unmappedV1, .pendingInV2, .pendingInV1, .awaitingV2
    ]

    /// Whether `a` comes before `b` in `reportOrder` (kinds it lacks last, by name).
    package static func precedes(_ a: Discrepancy.Kind, _ b: Discrepancy.Kind) -> Bool {
        let rank = { (kind: Discrepancy.Kind) in reportOrder.firstIndex(of: kind) ?? reportOrder.count }
        return (rank(a), a.rawValue) < (rank(b), b.rawValue)
    }

    /// The row of the kind tables in `Reports/README.md`: `` | `kind` | meaning | what to do | ``.
    package static func markdownRow(_ kind: Discrepancy.Kind) -> String {
        let entry = entry(kind)
        return "| `\(kind.rawValue)` | \(entry.meaning) | \(entry.action) |"
    }
}
