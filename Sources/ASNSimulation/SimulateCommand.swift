import ASNMigrateKit

/// `asn-migrate simulate --subscribers N --seed S [--start DATE] [--months M] [--inject RATE] [--receipt-history N] [--realistic-edges] [--gzip] [--sign] --out DIR`.
package enum SimulateCommand {
    /// The command's spec (options, help).
    package static let spec = CommandSpec(
        name: "simulate",
        abstract:
            "Simulate subscription lifecycles and write what Apple sent for them as V1 and V2 archives and Apple's API view (v2-api), with known injected differences (truth.csv, truth-api.csv).",
        usage:
            "asn-migrate simulate --subscribers N --seed S [--start DATE] [--months M] [--inject RATE] [--receipt-history N] [--realistic-edges] [--fetch-at DATE] [--switch DATE] [--gzip] [--sign] --out DIR",
        options: [
            .single(
                "--subscribers", valueName: "N",
                help: "How many subscribers to simulate (the first is the anchor fixing the period).",
                valueKind: .integer(1...100_000_000)),
            .single(
                "--seed", valueName: "S",
                help: "The seed (0 to 18446744073709551615); the same seed and options give byte-identical files."),
            .single(
                "--start", valueName: "DATE", help: "The first simulated instant, a UTC day or ISO 8601 instant.",
                defaultValue: "2021-01-01"),
            .single(
                "--months", valueName: "M", help: "How many calendar months to simulate.", defaultValue: "12",
                valueKind: .integer(1...600)),
            .single(
                "--inject", valueName: "RATE",
                help:
                    "The fraction of records (0 to 1) to perturb, and of Apple's API view; truth.csv lists what reconcile --v2 DIR/v2 must report, truth-api.csv what reconcile --v2 DIR/v2-api must.",
                defaultValue: "0"),
            .single(
                "--receipt-history", valueName: "N",
                help:
                    "The most latest_receipt_info entries a V1 body lists (the newest); at least 2, because an upgrade's body must show the transaction it replaces.",
                defaultValue: "50", valueKind: .integer(2...10_000)),
            .single(
                "--fetch-at", valueName: "DATE",
                help:
                    "When Apple's API view (v2-api) is fetched: a UTC day or ISO 8601 instant, inside the span (statuses fetched while the archive still runs) or after it (default: the span's end)."
            ),
            .repeatable(
                "--switch", valueName: "DATE",
                help:
                    "Simulate the day the server URL moved to V2: V1 written before DATE, V2 notifications from it on (production=DATE / sandbox=DATE set one environment; a bare DATE both); --inject then places seam faults (a V2 outage, a change notification lost, an event delivered in both, a V2 renewal dropped) and truth.csv holds the rows reconcile --switch must report, truth-switch.csv its figures."
            ),
            .flag(
                "--realistic-edges",
                help:
                    "Sign the anchor's V2 records 1 s to 5 min after its V1 events, as real data is, so the first and last events straddle the period edges (default: no delay there)."
            ),
            .flag("--gzip", help: "Write the V1 and V2 files gzip-compressed (.jsonl.gz)."),
            .flag(
                "--sign",
                help:
                    "Sign every V2 JWS with a test CA made from the seed (P-256, Apple's marker OIDs) and write its root to DIR/test-root.der."
            ),
            .single(
                "--out", short: "-o", valueName: "DIR",
                help:
                    "The output directory (replaced atomically; an existing one only when it is empty or holds nothing but an earlier simulation's v1, v2, v2-api, README.txt, test-root.der and truth files).",
                output: .folder
            )
        ],
        exits: [
            CommandExit(.success, "the simulated archive is written"),
            CommandExit(.failure, "failed; nothing was written (the message above says what and where)"),
            .usage
        ],
        examples: [
            CommandExample(
                "Simulate 40 subscribers over 3 months with 5% injected faults, for trying reconcile and nightly.",
                [
                    "simulate", "--subscribers", "40", "--seed", "7", "--months", "3", "--inject", "0.05", "--out",
                    ".sample-out/sim"
                ])
        ]
    )

    /// The command as the tool registers it (`ToolCommands.all`).
    package static let entry = CommandEntry(spec: spec) { run($0, console: $1) }

    /// Runs the command.
    package static func run(_ arguments: ParsedArguments, console: Console) -> ExitStatus {
        let options: SimulationOptions
        let directory: String
        do {
            (options, directory) = try parse(arguments)
        } catch {
            console.diagnostic("asn-migrate simulate: \(error.message)")
            return .usage
        }
        do {
            let summary = try Simulator.run(options, directory: directory)
            console.diagnostic(
                "asn-migrate simulate: \(summary.subscribers) subscribers → \(summary.v1Lines) V1 lines (\(summary.v1Bytes) bytes), "
                    + "\(summary.v2Lines) V2 lines (\(summary.v2Bytes) bytes), \(summary.faults.values.reduce(0, +)) injected faults, \(summary.apiFaults.values.reduce(0, +)) truth-api.csv rows; see \(directory)/README.txt"
            )
            return .success
        } catch {
            console.diagnostic("asn-migrate simulate: \(ASNError.describe(error)); nothing was written")
            return .failure
        }
    }

    /// The options and output directory from the command line; usage errors throw `.usage`.
    package static func parse(_ arguments: ParsedArguments) throws(ASNError) -> (SimulationOptions, String) {
        guard let subscribers = try arguments.integer("--subscribers") else {
            throw ASNError(.usage, "option '--subscribers' is required (how many subscribers to simulate)")
        }
        guard let seedText = arguments.value("--seed") else {
            throw ASNError(.usage, "option '--seed' is required (any whole number; the same seed gives the same files)")
        }
        guard let seed = UInt64(seedText) else {
            throw ASNError(
                .usage, "option '--seed' needs a whole number from 0 to 18446744073709551615 (got '\(seedText)')")
        }
        guard let directory = arguments.value("--out"), !directory.isEmpty else {
            throw ASNError(.usage, "option '--out' is required (the directory to write)")
        }
        let startText = arguments.value("--start") ?? "2021-01-01"
        guard let start = Timestamp.parseUTCDayOrInstant(startText)?.ms else {
            throw ASNError(
                .usage, "option '--start' needs a UTC day (2021-01-01) or an ISO 8601 instant (got '\(startText)')")
        }
        let rateText = arguments.value("--inject") ?? "0"
        guard let rate = Double(rateText), rate >= 0, rate <= 1 else {
            throw ASNError(.usage, "option '--inject' needs a fraction from 0 to 1 (got '\(rateText)')")
        }
        var options = SimulationOptions(
            subscribers: subscribers, seed: seed, start: start, months: try arguments.integer("--months") ?? 12,
            injectRate: rate, gzip: arguments.flag("--gzip"),
            receiptHistoryCap: try arguments.integer("--receipt-history") ?? 50,
            realisticEdges: arguments.flag("--realistic-edges"))
        options.sign = arguments.flag("--sign")
        if let text = arguments.value("--fetch-at") {
            guard let at = Timestamp.parseUTCDayOrInstant(text)?.ms, at > options.start else {
                throw ASNError(
                    .usage, "option '--fetch-at' needs a UTC day or ISO 8601 instant after --start (got '\(text)')")
            }
            options.fetchAt = at
        }
        options.switchDates = try SwitchDates.parse(arguments.values("--switch"), option: "--switch")
        for (name, instant) in options.switchDates.environments where instant <= options.start || instant >= options.end
        {
            throw ASNError(
                .usage,
                "--switch: \(name)'s switch \(Timestamp.iso8601(ms: instant)) lies outside the simulated span \(Timestamp.iso8601(ms: options.start)) .. \(Timestamp.iso8601(ms: options.end)); give a date inside it"
            )
        }
        return (options, directory)
    }
}
