import Foundation

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
}
