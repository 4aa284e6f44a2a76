import Foundation

/// The progress line of a long `migrate` or `reconcile` run on a terminal: bytes and records per second and an ETA from the input
/// files' sizes, rewritten in place (`\r`) at most a few times a second and cleared at the end; silent when standard
/// error is not a terminal. The terminal decision, the clock and the writer are injected, so it is tested without one.
package struct ProgressLine {
    /// Whether to show anything at all (`isatty(2)` for the real command).
    package let enabled: Bool
    /// Bytes of all input files (0 when unknown, e.g. gzip, zstd or zip inputs, which decompress to more: then no ETA).
    package let totalBytes: Int
    /// The command the line speaks for (`migrate`, `reconcile`).
    package let label: String
    /// Nanoseconds of a monotonic clock.
    private let now: () -> UInt64
    /// Writes text to the terminal as is.
    private let write: (String) -> Void
    /// Least nanoseconds between two updates.
    private let interval: UInt64
    /// When the run started.
    private let start: UInt64
    /// When the line was last written.
    private var lastShown: UInt64?
    /// The width of the last line written, to blank it out.
    private var shownWidth = 0
    /// Bytes and records reported through `advance` so far.
    private var totals = (bytes: 0, records: 0)

    /// A progress line; `interval` is the least time between updates (a quarter second by default).
    package init(
        enabled: Bool, totalBytes: Int, label: String = "migrate", interval: Double = 0.25, now: @escaping () -> UInt64,
        write: @escaping (String) -> Void
    ) {
        self.enabled = enabled
        self.totalBytes = totalBytes
        self.label = label
        self.now = now
        self.write = write
        self.interval = UInt64(max(0, interval) * 1e9)
        start = now()
    }

    /// The line for standard error: shown only when it is a terminal; ETA from the sizes of `files` unless one is compressed
    /// (gzip, zstd or zip, told by its magic bytes).
    package static func standardError(files: [InputFile], label: String = "migrate") -> ProgressLine {
        var total = 0
        for file in files {
            guard !file.isDescriptor, !file.isCompressed(),
                let size = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? Int
            else {
                total = 0
                break
            }
            total += size
        }
        return ProgressLine(
            enabled: isatty(2) == 1, totalBytes: total, label: label, now: { DispatchTime.now().uptimeNanoseconds }
        ) { text in
            _ = FileDescriptorSink.writeAll(Array(text.utf8), to: 2)
        }
    }

    /// Reports the totals so far; writes the line unless one was written less than `interval` ago.
    package mutating func update(bytes: Int, records: Int) {
        guard enabled else { return }
        let time = now()
        if let lastShown, time &- lastShown < interval { return }
        if lastShown == nil, time &- start < interval { return }
        lastShown = time
        let text = Self.render(
            bytes: bytes, records: records, seconds: Double(time &- start) / 1e9, totalBytes: totalBytes, label: label)
        let padding = max(0, shownWidth - text.count)
        write("\r" + text + String(repeating: " ", count: padding))
        shownWidth = text.count
    }

    /// Adds a batch's bytes and records to the totals so far and reports them as `update` does.
    package mutating func advance(bytes: Int, records: Int) {
        totals.bytes += bytes
        totals.records += records
        update(bytes: totals.bytes, records: totals.records)
    }

    /// Clears the line, if one was written.
    package mutating func finish() {
        guard enabled, shownWidth > 0 else { return }
        write("\r" + String(repeating: " ", count: shownWidth) + "\r")
        shownWidth = 0
    }

    /// The text of the line: `migrate: 1.20 GB of 4.00 GB (30%), 512.0 MB/s, 10400 records/s, ETA 0:05`.
    package static func render(bytes: Int, records: Int, seconds: Double, totalBytes: Int, label: String = "migrate")
        -> String
    {
        let elapsed = max(seconds, 1e-3)
        let rate = Double(bytes) / elapsed
        var text = "\(label): \(gigabytes(bytes)) GB"
        if totalBytes > 0 {
            text += " of \(gigabytes(totalBytes)) GB (\(min(100, bytes * 100 / totalBytes))%)"
        }
        text += ", \(String(format: "%.1f", rate / 1e6)) MB/s, \(Int(Double(records) / elapsed)) records/s"
        if totalBytes > 0, rate > 0 {
            let left = Int((Double(max(0, totalBytes - bytes)) / rate).rounded())
            text += ", ETA \(left / 60):\(left % 60 < 10 ? "0" : "")\(left % 60)"
        }
        return text
    }

    /// Bytes as GB with two decimals.
    private static func gigabytes(_ bytes: Int) -> String {
        String(format: "%.2f", Double(bytes) / 1e9)
    }
}
