/// Where a migrated notification came from: `migration` in `migrate` output.
package struct MigrationInfo: Sendable, Equatable, Hashable, JSONMembers {
    /// The input file (or `-`).
    package var source: String
    /// The 1-based line where the V1 record starts, when known.
    package var line: Int?
    /// The 0-based index in a top-level JSON array, when it came from one.
    package var index: Int?
    /// The V1 `notification_type`.
    package var v1NotificationType: String
    /// The id of the mapping rule that matched.
    package var ruleId: String
    /// True when the event time was inferred (no envelope receive time, and the V1 type has no event date of its own).
    package var eventTimeInferred: Bool

    /// Creates migration info.
    package init(
        source: String, line: Int?, index: Int?, v1NotificationType: String, ruleId: String,
        eventTimeInferred: Bool = false
    ) {
        self.source = source
        self.line = line
        self.index = index
        self.v1NotificationType = v1NotificationType
        self.ruleId = ruleId
        self.eventTimeInferred = eventTimeInferred
    }

    /// `path:line`, `path[index]` or `path`.
    package var sourceReference: String {
        SourceLocation(path: source, line: line, index: index).source
    }

    /// Gives each present member to `b`, in the fixed order of this model's JSON.
    package func writeMembers<Sink: JSONMemberSink>(to b: inout Sink) {
        b.add("source", source)
        b.add("line", line)
        b.add("index", index)
        b.add("v1NotificationType", v1NotificationType)
        b.add("rule", ruleId)
        if eventTimeInferred { b.add("eventTimeInferred", true) }
    }

    /// Reads migration info back from `migrate` output; nil when the required keys are missing.
    package init?(_ object: JSONObject) {
        self.init(fields: V2FieldReader(object))
    }

    /// Reads migration info from any field source; nil when the required keys are missing.
    package init?<Source: V2FieldSource>(fields r: Source) {
        guard let source = r.string("source"), let type = r.string("v1NotificationType"), let rule = r.string("rule")
        else { return nil }
        self.init(
            source: source, line: r.int("line"), index: r.int("index"), v1NotificationType: type, ruleId: rule,
            eventTimeInferred: r.bool("eventTimeInferred") ?? false)
    }
}
