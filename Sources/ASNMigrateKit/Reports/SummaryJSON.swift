/// Renders a run's summary figures as the one JSON object `--summary-json FILE` writes.
package enum SummaryJSON {
    /// Metrics that may repeat (one row per input root): always arrays of strings in JSON.
    package static let listMetrics: Set<String> = ["v1_input", "v2_input"]
    /// The metric whose rows are grouped rejects; rendered from the causes as an array of objects instead.
    package static let causeMetric = "rejects_by_cause"

    /// The object: each metric once, in first-appearance order (whole numbers as JSON numbers, everything else as
    /// strings), `rejects_by_cause` as `[{side, code, cause, count, first_source, first_message, line}]`, then `extra`;
    /// ends with a newline.
    package static func render(
        metrics: [(String, String)], causes: [RejectCauses.Cause], extra: [JSONObject.Member] = []
    ) -> [UInt8] {
        var members: [JSONObject.Member] = []
        var lists: [String: Int] = [:]
        for (name, value) in metrics where name != causeMetric {
            if listMetrics.contains(name) {
                if let at = lists[name], case .array(let items) = members[at].value {
                    members[at].value = .array(items + [.string(value)])
                } else {
                    lists[name] = members.count
                    members.append(.init(key: name, value: .array([.string(value)])))
                }
            } else {
                members.append(.init(key: name, value: isCount(value) ? .number(value) : .string(value)))
            }
        }
        members.append(
            .init(
                key: causeMetric,
                value: .array(
                    causes.map { cause in
                        .object(
                            JSONObject([
                                .init(key: "side", value: .string(cause.side)),
                                .init(key: "code", value: .string(cause.first.code.rawValue)),
                                .init(key: "cause", value: .string(cause.key)),
                                .init(key: "count", value: .number(String(cause.count))),
                                .init(key: "first_source", value: .string(cause.firstSource)),
                                .init(key: "first_message", value: .string(cause.first.message)),
                                .init(key: "line", value: .string(cause.line))
                            ]))
                    })))
        members += extra
        var out = JSONWriter.bytes(.object(JSONObject(members)))
        out.append(0x0A)
        return out
    }

    /// True for a whole number written without sign or leading zeros (a count), which JSON carries as a number.
    static func isCount(_ value: String) -> Bool {
        guard let first = value.utf8.first, value.utf8.count <= 18 else { return false }
        return value.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } && (first != 0x30 || value.utf8.count == 1)
    }
}
