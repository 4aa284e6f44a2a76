import Foundation

/// The input sanity checks behind exit status 3: a report was written, but the input looks wrong.
///
/// A side fails when more than `--max-reject-rate` of the records read from it were rejected, or (with two sides)
/// when it has no usable records while the other side has some, or read no records at all. Pure: counts in, one line of failed checks out.
package enum SanityCheck {
    /// The default `--max-reject-rate`: 1%.
    package static let defaultMaxRejectRate = 0.01

    /// One side's counts: records read (rejected ones included) and rejected.
    package struct Side: Sendable, Equatable {
        /// `V1`, `V2` or `input`, as the message names it.
        package var name: String
        /// Records read, rejected ones included.
        package var read: Int
        /// Records rejected.
        package var rejected: Int

        /// Creates a side's counts.
        package init(name: String, read: Int, rejected: Int) {
            self.name = name
            self.read = read
            self.rejected = rejected
        }
    }

    // MARK: - Checking

    /// The failed checks as one line (nil when all pass); `pairedSides` adds the "one side empty" check and, unless
    /// `readNothingFails` is false, the "a side read nothing at all" check (both sides empty included).
    package static func failures(
        _ sides: [Side], maxRejectRate: Double, pairedSides: Bool, readNothingFails: Bool = true
    ) -> String? {
        var failed: [String] = []
        for side in sides where side.read > 0 && Double(side.rejected) / Double(side.read) > maxRejectRate {
            failed.append(
                "\(side.name) rejected \(side.rejected) of \(side.read) records read (\(percent(Double(side.rejected) / Double(side.read)))), "
                    + "above --max-reject-rate \(percent(maxRejectRate))")
        }
        var readNothing: [Side] = []
        if pairedSides {
            let usable = sides.map { $0.read - $0.rejected }
            for (index, side) in sides.enumerated() where usable[index] == 0 {
                let others = sides.indices.filter { $0 != index && usable[$0] > 0 }
                guard let other = others.first else {
                    if side.read == 0 && readNothingFails { readNothing.append(side) }
                    continue
                }
                failed.append(
                    "\(side.name) has no usable records (read \(side.read)) while \(sides[other].name) has \(usable[other]); "
                        + "check the --\(side.name.lowercased()) paths")
            }
        }
        if let nothing = nothingRead(readNothing) { failed.append(nothing) }
        return failed.isEmpty ? nil : prefix + failed.joined(separator: "; ")
    }

    /// What every line of failed checks starts with.
    package static let prefix = "sanity check failed: "

    /// The run's last line for failed checks: `report written, but V1 read no records; check the --v1 path`.
    package static func verdict(_ failed: String) -> String {
        "report written, but " + (failed.hasPrefix(prefix) ? String(failed.dropFirst(prefix.count)) : failed)
    }

    /// `V1 and V2 read no records; check the --v1 and --v2 paths`: the sides that read nothing at all, as one
    /// clause (nil when every side read something). An empty or unmounted folder must never pass as a clean run.
    package static func nothingRead(_ sides: [Side]) -> String? {
        let empty = sides.filter { $0.read == 0 }
        guard !empty.isEmpty else { return nil }
        let names = empty.map(\.name).joined(separator: " and ")
        let paths = empty.map { "--\($0.name.lowercased())" }.joined(separator: " and ")
        return "\(names) read no records; check the \(paths) path\(empty.count == 1 ? "" : "s")"
    }

    // MARK: - Parsing

    /// Parses a rate given as a fraction (`0.01`) or a percentage (`1%`, `0.5%`), between 0 and 1; nil otherwise.
    package static func parseRate(_ text: String) -> Double? {
        let isPercent = text.hasSuffix("%")
        let number = isPercent ? String(text.dropLast()) : text
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let value = Double(number)
        else { return nil }
        let rate = isPercent ? value / 100 : value
        return (0...1).contains(rate) ? rate : nil
    }

    /// `1%`, `0.5%`, `33.33%`: a rate as a percentage with at most two decimals.
    static func percent(_ rate: Double) -> String {
        var text = String(format: "%.2f", rate * 100)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text + "%"
    }
}
