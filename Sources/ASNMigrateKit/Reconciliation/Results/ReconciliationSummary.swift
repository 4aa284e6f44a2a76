/// The figures of one `reconcile` run as numbers: what `summary.csv`, `--summary-json` and the console summary show.
///
/// A value, no text: the report renderers (`ReconciliationReport`, `SummaryJSON`) name and format every figure.
/// Each V1 record read ends in exactly one of rejected, duplicate, out of period, unmapped, companion, matched,
/// type mismatch, missing in V2 or pending; each V2 record likewise on its side.
package struct ReconciliationSummary: Sendable, Equatable {
    /// V1 records read (`v1_records_read`).
    package var v1RecordsRead = 0
    /// V1 records that could not be read or mapped (`v1_rejected`).
    package var v1Rejected = 0
    /// V1 records whose notificationUUID was seen before (`v1_duplicates`).
    package var v1Duplicates = 0
    /// V1 records not judged: outside the period (`v1_out_of_period`).
    package var v1OutOfPeriod = 0
    /// V1 records no mapping rule covers (`v1_unmapped`).
    package var v1Unmapped = 0
    /// V1 renewal-status records that accompany another record and found no partner of their own (`v1_companion`).
    package var v1Companion = 0
    /// V2 records read (`v2_records_read`): notifications, and with Apple's API view its transactions and statuses too.
    package var v2RecordsRead = 0
    /// V2 records that could not be read (`v2_rejected`).
    package var v2Rejected = 0
    /// V2 records given decoded while signatures were checked, so unverified; nil when signatures were not checked
    /// (then there is no `v2_unverified` row).
    package var v2Unverified: Int?
    /// zstd frames read without a content checksum, both sides (`unverified_frames`, a row only when there were any).
    package var unverifiedFrames = 0
    /// V2 records whose notificationUUID was seen before (`v2_duplicates`).
    package var v2Duplicates = 0
    /// V2 records not judged: outside the period (`v2_out_of_period`).
    package var v2OutOfPeriod = 0
    /// V2 records that V1 never had a counterpart for, by the mapping table (`v2_only_expected`).
    package var v2OnlyExpected = 0
    /// Pairs of the same type and subtype (`matched`).
    package var matched = 0
    /// Pairs of different types (`type_mismatch`).
    package var typeMismatch = 0
    /// V1 records without a V2 partner (`missing_in_v2`).
    package var missingInV2 = 0
    /// V2 records without a V1 partner (`missing_in_v1`).
    package var missingInV1 = 0
    /// V1 records whose partner could lie beyond the V2 data (`v1_pending`).
    package var v1Pending = 0
    /// V2 records whose partner could lie beyond the V1 data (`v2_pending`).
    package var v2Pending = 0
    /// `field_mismatch` difference rows (`field_mismatch`).
    package var fieldMismatch = 0
    /// Subscriptions whose state differs at the period end (`state_mismatch`).
    package var stateMismatch = 0
    /// V2 records whose notificationUUID was seen with other content (`conflicting_duplicate_v2`).
    package var conflictingDuplicateV2 = 0
    /// Subscriptions whose state was compared at the period end (`subscriptions_compared`).
    package var subscriptionsCompared = 0
    /// The judged period's first instant, epoch ms; nil when open (`period_start`).
    package var periodStart: Int64?
    /// The judged period's last instant, epoch ms; nil when open (`period_end`).
    package var periodEnd: Int64?
    /// The pairing window, ms (`window_ms`).
    package var windowMs: Int64 = 0
    /// `--time-tolerance`, ms (`time_tolerance_ms`).
    package var timeToleranceMs: Int64 = 0
    /// Date difference rows the precision of one side's clock alone accounts for (`time_precision_rows`).
    package var timePrecisionRows = 0
    /// The side whose differing dates all have whole seconds while the other's do not, when one does.
    package var wholeSecondSide: String?
    /// The transaction comparison's figures, when the V2 side held App Store Server API records.
    package var transactions: TransactionFigures?
    /// The seam figures, with `--switch`.
    package var switchFigures: SwitchFigures?
    /// Where the sides do not overlap (V1's last event before V2's first `signedDate`) and no `--switch` was given:
    /// the instants, for the hint to run with `--switch`.
    package var nonOverlap: NonOverlap?
    /// The `--fail-on` / `--warn-on` rules judged and crossed; nil when none were given (no `thresholds_*` rows).
    package var thresholds: ThresholdCounts?
    /// Run date, tool version and input roots.
    package var run = RunInfo()
    /// The rejects grouped by side and cause, in order of first appearance (`rejects_by_cause`).
    package var rejectCauses: [RejectCauses.Cause] = []

    /// An empty summary (every count 0, the period open).
    package init() {}

    /// The figures that count V1 records judged against V2 notifications (zeroed when no notifications were compared).
    package var notificationJudgedV1Records: Int {
        matched + typeMismatch + missingInV2 + v1Pending + v1Companion + v1OutOfPeriod
    }

    /// How many threshold rules a run judged, and how many of each severity it crossed.
    package struct ThresholdCounts: Sendable, Equatable {
        /// Rules given (`thresholds_checked`).
        package var checked: Int
        /// `--warn-on` rules crossed (`thresholds_warned`).
        package var warned: Int
        /// `--fail-on` rules crossed (`thresholds_failed`).
        package var failed: Int

        /// Creates the counts.
        package init(checked: Int, warned: Int, failed: Int) {
            self.checked = checked
            self.warned = warned
            self.failed = failed
        }
    }

    /// The figures added when transactions were compared with Apple's App Store Server API view.
    package struct TransactionFigures: Sendable, Equatable {
        /// Whether V2 notifications were compared too (`notifications_compared`).
        package var notificationsCompared: Bool
        /// V1 records that were not compared because the V2 side held no notifications; nil when they were
        /// (`v1_notifications_not_compared`).
        package var v1NotificationsNotCompared: Int?
        /// The comparison's own figures.
        package var comparison: TransactionSummary

        /// Creates the figures.
        package init(notificationsCompared: Bool, v1NotificationsNotCompared: Int?, comparison: TransactionSummary) {
            self.notificationsCompared = notificationsCompared
            self.v1NotificationsNotCompared = v1NotificationsNotCompared
            self.comparison = comparison
        }
    }

    /// Two sides that do not overlap in time: the V1 archive ends before the V2 records start.
    package struct NonOverlap: Sendable, Equatable {
        /// V1's last event time, ms.
        package var v1End: Int64
        /// V2's first `signedDate`, ms: the date `--switch` likely needs.
        package var v2Start: Int64

        /// Creates the instants.
        package init(v1End: Int64, v2Start: Int64) {
            self.v1End = v1End
            self.v2Start = v2Start
        }
    }
}
