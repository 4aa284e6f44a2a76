import ASNMigrateKit

/// The parameters of one `simulate` run.
package struct SimulationOptions: Sendable, Equatable {
    /// Number of simulated subscribers (the first one is the anchor).
    package var subscribers: Int
    /// The seed: the same seed and options always give byte-identical files.
    package var seed: UInt64
    /// The first instant simulated (epoch ms).
    package var start: Int64
    /// How many calendar months are simulated.
    package var months: Int
    /// The fraction (0…1) of records the fault injector tries to perturb.
    package var injectRate: Double
    /// Whether the V1 and V2 files are gzip-compressed.
    package var gzip: Bool
    /// The most `latest_receipt_info` entries a V1 body lists (the newest ones).
    package var receiptHistoryCap: Int
    /// Whether the anchor's V2 records carry the ordinary V1-to-V2 delay (`signedDate` 1 s to 5 min after the V1 event)
    /// as real data does, so the data's first and last events straddle the period edges; false: no delay at the edges.
    package var realisticEdges: Bool
    /// Whether V2 JWS are really signed by a test CA made from the seed (`--sign`), rather than given placeholder signatures.
    package var sign = false
    /// When Apple's API view is fetched (`--fetch-at`), epoch ms; nil: at `end`. Apple's history and statuses then hold
    /// what Apple knew at that instant, while the V1 and V2 archives go on to `end`.
    package var fetchAt: Int64?
    /// `--switch`: each environment's switch from V1 to V2 notifications; when set, V1 is written before it, V2 from
    /// it on, and `--inject` places seam faults (`SwitchSeamTruth`) instead of notification faults.
    package var switchDates = SwitchDates()

    /// The instant the API view is fetched: `fetchAt`, else `end`.
    package var apiFetchTime: Int64 { fetchAt ?? end }

    /// Creates options; `start` defaults to 2021-01-01T00:00:00Z.
    package init(
        subscribers: Int, seed: UInt64, start: Int64 = 1_609_459_200_000, months: Int = 12, injectRate: Double = 0,
        gzip: Bool = false, receiptHistoryCap: Int = 50, realisticEdges: Bool = false
    ) {
        self.subscribers = subscribers
        self.seed = seed
        self.start = start
        self.months = months
        self.injectRate = injectRate
        self.gzip = gzip
        self.receiptHistoryCap = receiptHistoryCap
        self.realisticEdges = realisticEdges
    }

    /// The last instant simulated: `start` plus `months`; the anchor's last event is exactly here.
    package var end: Int64 { SimulationCalendar.adding(months: months, to: start) }
    /// The earliest event time of any non-anchor record (a day after `start`).
    package var windowStart: Int64 { start + SimulationCalendar.day }
    /// The test CA's validity: 30 days before `start` to a year after `end`, covering every signedDate, late ones too.
    package var signingValidity: (notBefore: Int64, notAfter: Int64) {
        (start - 30 * SimulationCalendar.day, end + 365 * SimulationCalendar.day)
    }

    /// The latest event time of any non-anchor record (three days before `end`, so late deliveries stay inside).
    package var windowEnd: Int64 { end - 3 * SimulationCalendar.day }
}
