import Foundation

/// The bench's latest figures, one row per target, kept in one Markdown table (`Sources/benchmark-results.md`): each
/// run replaces the rows it measured and keeps the others, so the table always holds the newest figure of every target
/// with the machine, date and command that measured it. History is in git.
final class BenchResults: @unchecked Sendable { // @unchecked: every member is guarded by `lock`.
    /// One measured target.
    struct Row: Equatable {
        /// What was measured; the row's key.
        var measurement: String
        /// The figure, with its unit.
        var figure: String
        /// The target.
        var target: String
        /// `met`, `NOT met`, or `-` for a figure without a target.
        var status: String
        /// The machine: cores and CPU model.
        var machine: String
        /// When: UTC, to the minute.
        var date: String
        /// The bench command that measured it.
        var command: String

        /// The row's cells in column order.
        var cells: [String] { [measurement, figure, target, status, machine, date, command] }
    }

    /// The rows of this run, in the order measured.
    private var rows: [Row] = []
    /// Guards `rows`.
    private let lock = NSLock()
    /// The machine, the date and the command every row of this run carries.
    private let context: (machine: String, date: String, command: String)

    /// The table of this run, stamped with `machine`, `date` and `command`.
    init(machine: String, date: String, command: String) {
        context = (machine, date, command)
    }

    /// Adds a measured target.
    func add(_ measurement: String, figure: String, target: String, met: Bool?) {
        let status = met.map { $0 ? "met" : "NOT met" } ?? "-"
        let row = Row(
            measurement: measurement, figure: figure, target: target, status: status, machine: context.machine,
            date: context.date, command: context.command)
        lock.lock()
        rows.append(row)
        lock.unlock()
    }

    /// The default table: `Sources/benchmark-results.md` of the package this bench was built from.
    static var defaultPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("benchmark-results.md").path
    }

    /// The table's header lines, before the rows.
    static let header = [
        "# Benchmark results", "",
        "The newest figure of every target, written by `asn-migrate-bench` (`swift build -c release &&",
        ".build/release/asn-migrate-bench`; see [`README.md`](README.md#performance)). Each run replaces the rows it",
        "measured and keeps the others; git holds the history. Figures are from release builds; allocations are counted",
        "with `../shared/tools/malloc-count.c` in a separate, untimed run.", "",
        "| measurement | figure | target | status | machine | date | command |",
        "|---|---|---|---|---|---|---|"
    ]

    /// Merges this run's rows into the table at `path` (rows of other measurements kept, in their order; new ones
    /// last) and writes it through a temporary file renamed into place.
    func write(to path: String) throws {
        lock.lock()
        let fresh = rows
        lock.unlock()
        guard !fresh.isEmpty else { return }
        var merged = Self.rows(in: (try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
        for row in fresh {
            if let index = merged.firstIndex(where: { $0.measurement == row.measurement }) {
                merged[index] = row
            } else {
                merged.append(row)
            }
        }
        let lines = Self.header + merged.map { "| " + $0.cells.map(Self.escaped).joined(separator: " | ") + " |" }
        let temporary = path + ".tmp-\(getpid())"
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, path) == 0 else {
            throw BenchError("cannot rename \(temporary) to \(path): \(String(cString: strerror(errno)))")
        }
        say("results: \(fresh.count) row(s) written to \(path)")
    }

    /// The rows of a table written by `write`.
    static func rows(in text: String) -> [Row] {
        text.split(separator: "\n").compactMap { line -> Row? in
            guard line.hasPrefix("| "), line.hasSuffix(" |"), !line.hasPrefix("| measurement |") else { return nil }
            let cells = line.dropFirst(2).dropLast(2).components(separatedBy: " | ").map(unescaped)
            guard cells.count == 7 else { return nil }
            return Row(
                measurement: cells[0], figure: cells[1], target: cells[2], status: cells[3], machine: cells[4],
                date: cells[5], command: cells[6])
        }
    }

    /// A cell with its `|` escaped for Markdown.
    static func escaped(_ cell: String) -> String { cell.replacingOccurrences(of: "|", with: "\\|") }

    /// A cell as written before escaping.
    static func unescaped(_ cell: String) -> String { cell.replacingOccurrences(of: "\\|", with: "|") }
}
