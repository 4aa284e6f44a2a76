import ASNMigrateKit
import Foundation

/// Runs a simulation: generates every subscriber (in parallel batches, each from its own PRNG stream, so the output
/// is the same whatever the core count), injects faults, and streams the V1 and V2 files, Apple's API view
/// (`v2-api/`), `truth.csv`, `truth-api.csv`, `truth-rejects.csv` and `README.txt` into a directory that appears whole
/// or not at all.
package enum Simulator {
    /// What a run wrote.
    package struct Summary: Sendable, Equatable {
        /// Subscribers simulated.
        package var subscribers = 0
        /// V1 lines written (duplicates and malformed lines included).
        package var v1Lines = 0
        /// V2 lines written (duplicates and malformed lines included).
        package var v2Lines = 0
        /// Uncompressed V1 bytes written.
        package var v1Bytes = 0
        /// Uncompressed V2 bytes written.
        package var v2Bytes = 0
        /// Records per event kind (`SimulatedRecord.label`).
        package var eventKinds: [String: Int] = [:]
        /// Injected faults per kind (`missing_in_v1`, …, `malformed_v1`, `malformed_v2`).
        package var faults: [String: Int] = [:]
        /// Rows of `truth-api.csv` per kind (`transaction_missing_in_v2`, …, `unannounced_in_v1`, `state_mismatch`).
        package var apiFaults: [String: Int] = [:]
        /// Exact V1 retries written.
        package var v1Retries = 0
        /// Exact V2 retries written.
        package var v2Retries = 0
        /// V1 records in envelopes delivered hours late.
        package var lateDeliveries = 0
        /// The files written, relative to the output directory.
        package var files: [String] = []
        /// With `--switch`: the seam figures the truth expects (`live_at_switch`, `continued_in_v2`,
        /// `delivered_in_both`).
        package var switchFigures: [String: Int] = [:]
    }

    /// The top-level entries a simulation writes: an existing output folder holding anything else is not replaced.
    package static let ownEntries: Set<String> = [
        "v1", "v2", "v2-api", "README.txt", "test-root.der", "truth.csv", "truth-api.csv", "truth-rejects.csv",
        "truth-switch.csv"
    ]

    /// Subscribers generated per parallel batch (with at most `2 × workers + 2` batches alive, bounds memory).
    static let batchSize = 16

    /// Simulates into `directory` (replaced atomically); `displayPath` is how truth files name it (default: as given).
    package static func run(_ options: SimulationOptions, directory: String) throws(ASNError) -> Summary {
        var summary = Summary()
        let display = FileSystem.trimmingTrailingSlashes(directory)
        try AtomicOutput.writeDirectoryAtomically(path: directory, replacing: ownEntries) {
            (staging: StagingDirectory) throws(ASNError) in
            summary = try write(options, into: staging, displayRoot: display)
        }
        return summary
    }

    // MARK: - Writing

    private static func write(
        _ options: SimulationOptions, into staging: StagingDirectory, displayRoot: String
    ) throws(ASNError) -> Summary {
        let files = SimulationFiles(root: staging.path, displayRoot: displayRoot, gzip: options.gzip)
        var summary = Summary()
        var rows: [TruthRow] = []
        var apiRows: [TruthRow] = []
        var rejects: [TruthReject] = []
        var silent: [(row: TruthRow, limit: Int64)] = []
        var apiPending: [(row: TruthRow, limit: Int64)] = []
        var reach: [String: Int64] = [:]
        let total = max(1, options.subscribers)
        let workers = max(1, min(16, ProcessInfo.processInfo.activeProcessorCount))
        let signer = try options.sign ? makeSigner(options, staging: staging) : nil
        // Batches of subscribers generated on worker threads, emitted strictly in subscriber order.
        try OrderedWorkers.run(
            workers: workers, capacity: 2 * workers + 2,
            produce: { feed in
                var first = 0
                while first < total, feed.add(first..<min(first + batchSize, total)) { first += batchSize }
            },
            process: { (indices: Range<Int>) -> [Result<SubscriberOutput, ASNError>] in
                indices.map { index in
                    Result { () throws(ASNError) -> SubscriberOutput in
                        try produce(index: index, options: options, signer: signer)
                    }
                }
            },
            consume: { (outputs: [Result<SubscriberOutput, ASNError>]) throws(ASNError) in
                for output in outputs {
                    let output = try output.get()
                    silent += output.silent
                    apiPending += output.apiPending
                    for (environment, time) in output.v2Reach {
                        reach[environment] = max(reach[environment] ?? time, time)
                    }
                    for (name, count) in output.switchFigures { summary.switchFigures[name, default: 0] += count }
                    try emit(output, files: files, rows: &rows, apiRows: &apiRows, rejects: &rejects, summary: &summary)
                }
            })
        try files.finish()
        summary.subscribers = total
        summary.v1Lines = files.linesWritten["v1"] ?? 0
        summary.v2Lines = files.linesWritten["v2"] ?? 0
        summary.v1Bytes = files.bytesWritten["v1"] ?? 0
        summary.v2Bytes = files.bytesWritten["v2"] ?? 0
        summary.files =
            files.fileNames + ["README.txt"] + (options.sign ? ["test-root.der"] : []) + [
                "truth-api.csv", "truth-rejects.csv", "truth.csv"
            ]

        if !options.switchDates.isEmpty {
            // Silence is judged against how far each environment's V2 notifications reach, known only now.
            for (row, limit) in silent where (reach[row.environment] ?? Int64.min) > limit {
                rows.append(row)
                summary.faults[row.kind, default: 0] += 1
            }
            for (row, limit) in apiPending where (reach[row.environment] ?? Int64.min) >= limit {
                apiRows.append(row)
                summary.faults[row.kind, default: 0] += 1
            }
            var figures = CSVWriter(header: ["metric", "value"])
            for name in ["live_at_switch", "continued_in_v2", "delivered_in_both"] {
                try figures.appendRow([name, String(summary.switchFigures[name] ?? 0)])
            }
            try staging.write(name: "truth-switch.csv", bytes: figures.drain())
            summary.files.append("truth-switch.csv")
        }
        rows.sort(by: TruthRow.precedes)
        var truth = CSVWriter(header: TruthRow.columns)
        for row in rows { try truth.appendRow(row.cells) }
        try staging.write(name: "truth.csv", bytes: truth.drain())
        apiRows.sort(by: TruthRow.precedes)
        var apiTruth = CSVWriter(header: TruthRow.columns)
        for row in apiRows { try apiTruth.appendRow(row.cells) }
        try staging.write(name: "truth-api.csv", bytes: apiTruth.drain())
        var rejected = CSVWriter(header: TruthReject.columns)
        for reject in rejects { try rejected.appendRow(reject.cells) }
        try staging.write(name: "truth-rejects.csv", bytes: rejected.drain())
        try staging.write(
            name: "README.txt",
            bytes: Array(SimulationReadme.text(options, summary: summary, displayRoot: displayRoot).utf8))
        return summary
    }

    /// The test CA for `--sign`, its root written to `test-root.der`.
    private static func makeSigner(_ options: SimulationOptions, staging: StagingDirectory) throws(ASNError)
        -> TestCertificateAuthority
    {
        let validity = options.signingValidity
        let authority = try TestCertificateAuthority(
            seed: options.seed, notBefore: validity.notBefore, notAfter: validity.notAfter)
        try staging.write(name: "test-root.der", bytes: authority.root.der)
        return authority
    }

    /// One line to write, and what the truth files need to know about it.
    private struct PendingLine: Sendable {
        var side: String
        var month: String
        var bytes: [UInt8]
        /// The truth row whose `v1_source` is this line's `path:line`.
        var rowIndex: Int?
        /// The reject kind when this is a malformed line.
        var rejectKind: String?
        /// The index of the record when this is its V1 line (not a retry): `truth-api.csv` rows take their source from it.
        var record: Int?
    }

    /// A subscriber's lines and truth rows (rows still without `v1_source`), produced in parallel.
    private struct SubscriberOutput: Sendable {
        var lines: [PendingLine] = []
        var rows: [TruthRow] = []
        var labels: [String: Int] = [:]
        var faults: [String: Int] = [:]
        var v1Retries = 0
        var v2Retries = 0
        var late = 0
        /// `DIR/v2-api/` lines (file stem, line): Apple's API view of this subscriber (`SimulatedAPIView`).
        var apiLines: [(String, [UInt8])] = []
        /// `truth-api.csv` rows, sources still to fill from the V1 lines.
        var apiTruth: [APIFaultInjector.Truth] = []
        /// With `--switch`: `silent_in_v2` rows, each kept when its environment's V2 notifications reach past its limit.
        var silent: [(row: TruthRow, limit: Int64)] = []
        /// With `--switch`: `transaction_missing_in_v2` rows of Apple's view, each kept when its environment's V2
        /// notifications reach past its limit.
        var apiPending: [(row: TruthRow, limit: Int64)] = []
        /// With `--switch`: the newest V2 `signedDate` written, per environment.
        var v2Reach: [String: Int64] = [:]
        /// With `--switch`: this subscriber's seam figures.
        var switchFigures: [String: Int] = [:]
    }

    /// Generates one subscriber, injects faults and renders every line.
    private static func produce(
        index: Int, options: SimulationOptions, signer: TestCertificateAuthority?
    ) throws(ASNError) -> SubscriberOutput {
        var generator = LifecycleGenerator(options: options, index: index)
        var records = try generator.generate()
        var output = SubscriberOutput()
        // Apple's view holds the lifecycle as it happened: derived before faults touch the notifications.
        // As fetched at the fetch time: only what Apple had signed by then.
        let fetchAt = options.fetchAt ?? Int64.max
        var view = SimulatedAPIView.derive(records.compactMap(\.v2).filter { $0.signedDate <= fetchAt })
        var faults: [Int: FaultInjector.Fault] = [:]
        var delivery: SwitchSeamTruth.Delivery?
        if !options.switchDates.isEmpty {
            let window = ReconcileOptions().window
            var dropV1: Set<Int> = []
            var dropV2: Set<Int> = []
            if index > 0, options.injectRate > 0 {
                var random = SimulationRandom(seed: options.seed, stream: UInt64(index), substream: 5)
                let placed = SwitchSeamTruth.inject(
                    &records, switches: options.switchDates, window: window, rate: options.injectRate,
                    random: &random)
                (dropV1, dropV2) = (placed.dropV1, placed.dropV2)
                output.faults.merge(placed.faults, uniquingKeysWith: +)
            }
            let delivered = SwitchSeamTruth.delivery(
                records, switches: options.switchDates, dropV1: dropV1, dropV2: dropV2)
            let truth = SwitchSeamTruth.judge(
                records, delivery: delivered, switches: options.switchDates, window: window)
            output.rows = truth.rows
            for row in truth.rows { output.faults[row.kind, default: 0] += 1 }
            output.silent = truth.silent
            output.switchFigures = [
                "live_at_switch": truth.live, "continued_in_v2": truth.continued,
                "delivered_in_both": truth.deliveredInBoth
            ]
            for (i, record) in records.enumerated() where delivered.v2[i] {
                if let v2 = record.v2 {
                    let name = record.environment.rawValue
                    output.v2Reach[name] = max(output.v2Reach[name] ?? v2.signedDate, v2.signedDate)
                }
            }
            delivery = delivered
            output.apiPending = SwitchSeamTruth.missingInV2(
                records, delivery: delivered, view: view, switches: options.switchDates, window: window)
        } else if index > 0, options.injectRate > 0 {
            let archive = SimulatedV1Archive(records: records)
            let span = options.start...options.end
            let apiSpan = options.start...min(options.end, options.apiFetchTime)
            var random = SimulationRandom(seed: options.seed, stream: UInt64(index), substream: 1)
            faults = FaultInjector.inject(&records, rate: options.injectRate, edges: span, random: &random) { dropped in
                APIFaultInjector.dropIsClean(archive, dropped: dropped, view: view, instant: options.apiFetchTime)
            }
            let dropped = Set(faults.compactMap { $0.value == .dropV1 ? $0.key : nil })
            if dropped.isEmpty {
                var apiRandom = SimulationRandom(seed: options.seed, stream: UInt64(index), substream: 4)
                output.apiTruth = APIFaultInjector.inject(
                    &view, archive: archive, rate: options.injectRate, span: apiSpan,
                    statusesCompared: options.apiFetchTime <= options.end + ReconcileOptions().window,
                    random: &apiRandom)
            } else {
                output.apiTruth = APIFaultInjector.lostNotificationRows(archive, dropped: dropped, view: view)
            }
        }
        var apiRandom = SimulationRandom(seed: options.seed, stream: UInt64(index), substream: 3)
        for (name, lines) in try SimulatedAPIView.files(
            view, random: &apiRandom, fetchedAt: options.apiFetchTime, signer: signer)
        {
            output.apiLines += lines.map { (name, $0) }
        }
        for (position, record) in records.enumerated() {
            output.labels[record.label, default: 0] += 1
            if record.late { output.late += 1 }
            let fault = faults[position]
            var rowIndex: Int?
            if let fault, let row = FaultInjector.truthRow(fault, record: record, v1Source: "") {
                rowIndex = output.rows.count
                output.rows.append(row)
                output.faults[row.kind, default: 0] += 1
            }
            if let line = record.v1Line, fault != .dropV1, delivery.map({ $0.v1[position] }) ?? true {
                let month = SimulationCalendar.monthKey(record.v1DeliveryTime)
                let needsSource = rowIndex.flatMap {
                    output.rows[$0].kind == "missing_in_v1" || output.rows[$0].kind == "conflicting_duplicate_v2"
                        ? nil : $0
                }
                output.lines.append(
                    PendingLine(side: "v1", month: month, bytes: line, rowIndex: needsSource, record: position))
                for _ in 0..<record.v1Retries {
                    output.lines.append(PendingLine(side: "v1", month: month, bytes: line))
                    output.v1Retries += 1
                }
                if case .malformedV1(let junk, let kind)? = fault {
                    output.lines.append(PendingLine(side: "v1", month: month, bytes: junk, rejectKind: kind))
                    output.faults["malformed_v1", default: 0] += 1
                }
            }
            if let v2 = record.v2, fault != .dropV2, delivery.map({ $0.v2[position] }) ?? true {
                let month = SimulationCalendar.monthKey(v2.signedDate)
                var bytes: [UInt8] = []
                try v2.appendLine(to: &bytes, signer: signer)
                bytes.removeLast()
                output.lines.append(PendingLine(side: "v2", month: month, bytes: bytes))
                for _ in 0..<record.v2Retries {
                    output.lines.append(PendingLine(side: "v2", month: month, bytes: bytes))
                    output.v2Retries += 1
                }
                if case .conflictingDuplicate(let duplicate)? = fault {
                    var copy: [UInt8] = []
                    try duplicate.appendLine(to: &copy, signer: signer)
                    copy.removeLast()
                    output.lines.append(PendingLine(side: "v2", month: month, bytes: copy))
                }
                if case .malformedV2(let junk, let kind)? = fault {
                    output.lines.append(PendingLine(side: "v2", month: month, bytes: junk, rejectKind: kind))
                    output.faults["malformed_v2", default: 0] += 1
                }
            }
        }
        return output
    }

    /// Writes a subscriber's lines in order, completing its truth rows with sources.
    private static func emit(
        _ output: SubscriberOutput, files: SimulationFiles, rows: inout [TruthRow], apiRows: inout [TruthRow],
        rejects: inout [TruthReject], summary: inout Summary
    ) throws(ASNError) {
        var own = output.rows
        var recordSources: [Int: String] = [:]
        for line in output.lines {
            let source = try files.append(side: line.side, month: line.month, line: line.bytes)
            if let index = line.rowIndex { own[index].v1Source = source }
            if let record = line.record { recordSources[record] = source }
            if let kind = line.rejectKind {
                rejects.append(TruthReject(side: line.side, source: source, reasonKind: kind))
            }
        }
        rows.append(contentsOf: own)
        for truth in output.apiTruth {
            var row = truth.row
            if let record = truth.sourceRecord { row.v1Source = recordSources[record] ?? "" }
            apiRows.append(row)
            summary.apiFaults[row.kind, default: 0] += 1
        }
        for (name, line) in output.apiLines { try files.append(side: "v2-api", month: name, line: line) }
        summary.eventKinds.merge(output.labels, uniquingKeysWith: +)
        summary.faults.merge(output.faults, uniquingKeysWith: +)
        summary.v1Retries += output.v1Retries
        summary.v2Retries += output.v2Retries
        summary.lateDeliveries += output.late
    }
}
