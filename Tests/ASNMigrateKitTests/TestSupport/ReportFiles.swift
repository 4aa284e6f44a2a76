import Foundation

@testable import ASNMigrateKit

/// Reading a written report folder in tests.
enum ReportFiles {
    /// `summary.csv` of the report folder as metric → value (for a metric with several rows, the last).
    static func summary(_ directory: String) throws -> [String: String] {
        var metrics: [String: String] = [:]
        let text = String(
            decoding: try Data(contentsOf: URL(fileURLWithPath: directory + "/summary.csv")), as: UTF8.self)
        for line in text.split(separator: "\n").dropFirst() {
            let parts = line.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2 { metrics[String(parts[0])] = String(parts[1]) }
        }
        return metrics
    }

    /// The rows of a written CSV report file, each as its cells, without the header.
    static func rows(_ path: String) throws -> [[String]] {
        var reader = CSVReader(path: path)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        return (try reader.feed(bytes) + reader.finish()).map(\.fields)
    }
}

extension ReportFiles {
    /// A `differences.csv` text without its money columns (`price`, `currency`): what a simulation's `truth.csv`
    /// predicts.
    static func withoutPrice(_ text: String) throws -> String {
        let csv = try CSVReader.read(Array(text.utf8), path: "differences.csv")
        guard let cut = csv.header.firstIndex(of: "price") else { return text }
        var writer = CSVWriter(header: Array(csv.header[..<cut]))
        for row in csv.records.map(\.fields) { try writer.appendRow(Array(row[..<cut])) }
        return String(decoding: writer.drain(), as: UTF8.self)
    }
}
