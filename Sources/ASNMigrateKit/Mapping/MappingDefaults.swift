/// The mapping files built into the binary: byte for byte the repository's `Mappings/` files (a test checks it).
///
/// After editing `Mappings/v1-to-v2.rules` or `Mappings/v2-only.rules`, paste the new text here.
enum MappingDefaults {
    /// `Mappings/v1-to-v2.rules`.
    static let rules = #"""
        # asn-migrate mapping rules: V1 notification_type -> V2 notificationType / subtype.
        # Read top to bottom; for each V1 record the first rule whose V1 type and condition match wins.
        # Syntax, every predicate, and the Apple source of every rule: Mappings/README.md.
        #
        # Lines:  format N
        #         setting | NAME | VALUE
        #         rule | ID | V1 TYPE[, V1 TYPE…] | CONDITION[, CONDITION…] | V2 TYPE | V2 SUBTYPE or -
        format 1

        setting | resubscribe-tolerance    | 1h
        setting | companion-tolerance      | 10m
        setting | offer-resubscribe-cutoff | 2024-01-23T00:00:00.000Z

        rule | initial-buy-offer-code        | INITIAL_BUY               | offer-code                                                                  | OFFER_REDEEMED            | INITIAL_BUY
        rule | initial-buy                   | INITIAL_BUY               | always                                                                      | SUBSCRIBED                | INITIAL_BUY
        rule | did-renew                     | DID_RENEW                 | always                                                                      | DID_RENEW                 | -
        rule | did-recover                   | DID_RECOVER, RENEWAL      | always                                                                      | DID_RENEW                 | BILLING_RECOVERY
        rule | interactive-upgrade-offer     | INTERACTIVE_RENEWAL       | upgrade, offer                                                              | OFFER_REDEEMED            | UPGRADE
        rule | interactive-upgrade           | INTERACTIVE_RENEWAL       | upgrade                                                                     | DID_CHANGE_RENEWAL_PREF   | UPGRADE
        rule | interactive-resubscribe-offer | INTERACTIVE_RENEWAL       | offer, before-offer-cutoff                                                  | OFFER_REDEEMED            | RESUBSCRIBE
        rule | interactive-resubscribe       | INTERACTIVE_RENEWAL       | always                                                                      | SUBSCRIBED                | RESUBSCRIBE
        rule | pref-downgrade                | DID_CHANGE_RENEWAL_PREF   | auto-renew-product-differs                                                  | DID_CHANGE_RENEWAL_PREF   | DOWNGRADE
        rule | pref-downgrade-reverted       | DID_CHANGE_RENEWAL_PREF   | always                                                                      | DID_CHANGE_RENEWAL_PREF   | -
        rule | status-expired-voluntary      | DID_CHANGE_RENEWAL_STATUS | auto-renew-off, expired-at-event, !billing-retry, expiration-intent=1       | EXPIRED                   | VOLUNTARY
        rule | status-expired-billing        | DID_CHANGE_RENEWAL_STATUS | auto-renew-off, expired-at-event, !billing-retry, expiration-intent=2       | EXPIRED                   | BILLING_RETRY
        rule | status-expired-price          | DID_CHANGE_RENEWAL_STATUS | auto-renew-off, expired-at-event, !billing-retry, expiration-intent=3       | EXPIRED                   | PRICE_INCREASE
        rule | status-expired-not-for-sale   | DID_CHANGE_RENEWAL_STATUS | auto-renew-off, expired-at-event, !billing-retry, expiration-intent=4       | EXPIRED                   | PRODUCT_NOT_FOR_SALE
        rule | status-expired-other          | DID_CHANGE_RENEWAL_STATUS | auto-renew-off, expired-at-event, !billing-retry, expiration-intent=5       | EXPIRED                   | -
        rule | status-resubscribe-offer      | DID_CHANGE_RENEWAL_STATUS | auto-renew-on, purchased-near-event, previous-expired-before-purchase, offer, before-offer-cutoff | OFFER_REDEEMED | RESUBSCRIBE
        rule | status-resubscribe            | DID_CHANGE_RENEWAL_STATUS | auto-renew-on, purchased-near-event, previous-expired-before-purchase      | SUBSCRIBED                | RESUBSCRIBE
        rule | status-auto-renew-enabled     | DID_CHANGE_RENEWAL_STATUS | auto-renew-on                                                               | DID_CHANGE_RENEWAL_STATUS | AUTO_RENEW_ENABLED
        rule | status-auto-renew-disabled    | DID_CHANGE_RENEWAL_STATUS | auto-renew-off                                                              | DID_CHANGE_RENEWAL_STATUS | AUTO_RENEW_DISABLED
        rule | fail-grace-period             | DID_FAIL_TO_RENEW         | grace-period-after-event                                                    | DID_FAIL_TO_RENEW         | GRACE_PERIOD
        rule | fail                          | DID_FAIL_TO_RENEW         | always                                                                      | DID_FAIL_TO_RENEW         | -
        rule | cancel-upgrade                | CANCEL                    | cancelled-upgraded                                                          | DID_CHANGE_RENEWAL_PREF   | UPGRADE
        rule | cancel-refund                 | CANCEL, REFUND            | always                                                                      | REFUND                    | -
        rule | revoke                        | REVOKE                    | always                                                                      | REVOKE                    | -
        rule | consumption-request           | CONSUMPTION_REQUEST       | always                                                                      | CONSUMPTION_REQUEST       | -
        rule | price-consent-accepted        | PRICE_INCREASE_CONSENT    | price-consent-status=1                                                      | PRICE_INCREASE            | ACCEPTED
        rule | price-consent-pending         | PRICE_INCREASE_CONSENT    | always                                                                      | PRICE_INCREASE            | PENDING
        """# + "\n"

    /// `Mappings/v2-only.rules`.
    static let v2Only = #"""
        # asn-migrate: V2 notifications that have no V1 counterpart by design.
        # An unpaired V2 record listed here counts as v2_only_expected in `reconcile`, not as missing_in_v1.
        # Sources: Mappings/README.md.
        #
        # Lines:  format N
        #         LIST | V2 TYPE | V2 SUBTYPE      (* = any subtype or none, - = no subtype)
        # Lists:  never-announced   V1 had no notification for this event at all.
        #         purchaser-only    V1 sent it to the purchaser only: a FAMILY_SHARED V2 record has no V1 twin.
        format 1

        never-announced | EXPIRED                 | VOLUNTARY
        never-announced | GRACE_PERIOD_EXPIRED    | *
        never-announced | PRICE_INCREASE          | ACCEPTED
        never-announced | REFUND_DECLINED         | *
        never-announced | REFUND_REVERSED         | *
        never-announced | RENEWAL_EXTENDED        | *
        never-announced | RENEWAL_EXTENSION       | *
        never-announced | EXTERNAL_PURCHASE_TOKEN | *
        never-announced | TEST                    | *
        never-announced | ONE_TIME_CHARGE         | *
        never-announced | METADATA_UPDATE         | *
        never-announced | MIGRATION               | *
        never-announced | MIGRATE                 | *
        never-announced | PRICE_CHANGE            | *
        never-announced | RESCIND_CONSENT         | *

        purchaser-only  | SUBSCRIBED              | INITIAL_BUY
        purchaser-only  | REFUND                  | *
        purchaser-only  | PRICE_INCREASE          | *
        """# + "\n"
}
