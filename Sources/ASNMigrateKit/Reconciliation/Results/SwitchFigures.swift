/// The figures of a run with `--switch`: the seam between each environment's V1 archive (before its switch) and its
/// V2 notifications (from it on), counted, not differences (`summary.csv` and the console).
package struct SwitchFigures: Sendable, Equatable {
    /// The switch instants given.
    package var dates: SwitchDates
    /// Subscriptions V1 leaves live at their environment's switch (`live_at_switch`).
    package var liveAtSwitch = 0
    /// Of those, the ones with a V2 notification from the switch on (`continued_in_v2`).
    package var continuedInV2 = 0
    /// Events in flight at the switch, delivered in both versions and counted once (`delivered_in_both`).
    package var deliveredInBoth = 0
    /// V1 records from the switch on: on the wrong side, left out of the seam checks (`v1_after_switch`).
    package var v1AfterSwitch = 0
    /// V2 notifications before the switch: on the wrong side, left out of the seam checks (`v2_before_switch`).
    package var v2BeforeSwitch = 0
    /// Live subscriptions whose next event the V2 notifications do not reach yet (`awaiting_v2`, in `pending.csv`).
    package var awaitingV2 = 0
    /// `silent_in_v2` rows.
    package var silentInV2 = 0
    /// `renewal_gap` rows.
    package var renewalGap = 0
    /// `seam_state_mismatch` rows.
    package var seamStateMismatch = 0
    /// The first V1 record after the switch (by time): its `path:line` and event time.
    package var firstV1AfterSwitch: (source: String, time: Int64)?
    /// The first V2 notification before the switch (by time): its `notificationUUID` and `signedDate`.
    package var firstV2BeforeSwitch: (uuid: String, time: Int64)?

    /// One subscription's part of the counts: what `nightly` keeps per subscription and sums into the figures.
    package struct Share: Sendable, Equatable {
        /// The subscription's environment.
        package var environment = ""
        /// The subscription's `originalTransactionId`.
        package var originalTransactionId = ""
        /// Live at its environment's switch (`live_at_switch`).
        package var live = false
        /// Live at the switch and notified in V2 from it on (`continued_in_v2`).
        package var continued = false
        /// Its events delivered in both versions (`delivered_in_both`).
        package var deliveredInBoth = 0
        /// Its V1 records from the switch on (`v1_after_switch`).
        package var v1AfterSwitch = 0
        /// Its V2 notifications before the switch (`v2_before_switch`).
        package var v2BeforeSwitch = 0

        /// A share of nothing, or of what is given.
        package init(
            environment: String = "", originalTransactionId: String = "", live: Bool = false, continued: Bool = false,
            deliveredInBoth: Int = 0, v1AfterSwitch: Int = 0,
            v2BeforeSwitch: Int = 0
        ) {
            self.environment = environment
            self.originalTransactionId = originalTransactionId
            self.live = live
            self.continued = continued
            self.deliveredInBoth = deliveredInBoth
            self.v1AfterSwitch = v1AfterSwitch
            self.v2BeforeSwitch = v2BeforeSwitch
        }

        /// Whether it counts nothing (`nightly` stores no row for it).
        package var isEmpty: Bool {
            !live && !continued && deliveredInBoth == 0 && v1AfterSwitch == 0 && v2BeforeSwitch == 0
        }
    }

    /// Adds one subscription's share to the counts.
    package mutating func add(_ share: Share) {
        if share.live { liveAtSwitch += 1 }
        if share.continued { continuedInV2 += 1 }
        deliveredInBoth += share.deliveredInBoth
        v1AfterSwitch += share.v1AfterSwitch
        v2BeforeSwitch += share.v2BeforeSwitch
    }

    /// Figures of a run with `dates`, every count 0.
    package init(dates: SwitchDates) {
        self.dates = dates
    }

    /// Equal figures: every count, date and first record.
    package static func == (a: SwitchFigures, b: SwitchFigures) -> Bool {
        a.dates == b.dates && a.liveAtSwitch == b.liveAtSwitch && a.continuedInV2 == b.continuedInV2
            && a.deliveredInBoth == b.deliveredInBoth && a.v1AfterSwitch == b.v1AfterSwitch
            && a.v2BeforeSwitch == b.v2BeforeSwitch && a.awaitingV2 == b.awaitingV2
            && a.silentInV2 == b.silentInV2 && a.renewalGap == b.renewalGap
            && a.seamStateMismatch == b.seamStateMismatch
            && a.firstV1AfterSwitch?.source == b.firstV1AfterSwitch?.source
            && a.firstV1AfterSwitch?.time == b.firstV1AfterSwitch?.time
            && a.firstV2BeforeSwitch?.uuid == b.firstV2BeforeSwitch?.uuid
            && a.firstV2BeforeSwitch?.time == b.firstV2BeforeSwitch?.time
    }
}
