/// Parses the textual date forms found in V1 bodies (the `_ms` forms are read as plain integers elsewhere).
package enum V1Dates {
    /// Epoch milliseconds for `2021-03-01 07:00:00 Etc/GMT`, or an ISO 8601 instant or date; nil for anything else (including `_pst` forms).
    package static func parseText(_ text: String) -> Int64? {
        if let ms = Timestamp.parseAppleGMT(text) { return ms }
        return Timestamp.parseISO8601(text)
    }
}
