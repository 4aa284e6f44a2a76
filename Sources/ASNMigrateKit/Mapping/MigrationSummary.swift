/// Counts of a `migrate` run; `read = migrated + unmapped + rejected` always holds.
package struct MigrationSummary: Sendable, Equatable {
    /// One line of the per-mapping breakdown.
    package struct Route: Sendable, Hashable, Comparable {
        /// V1 notification_type.
        package var v1Type: String
        /// V2 notificationType.
        package var v2Type: String
        /// V2 subtype, or nil.
        package var v2Subtype: String?
        /// Orders by V1 type, then V2 type and subtype.
        package static func < (a: Route, b: Route) -> Bool {
            (a.v1Type, a.v2Type, a.v2Subtype ?? "") < (b.v1Type, b.v2Type, b.v2Subtype ?? "")
        }
    }

    /// Records read (including ones that could not be parsed).
    package private(set) var read = 0
    /// Records migrated.
    package private(set) var migrated = 0
    /// Records no rule maps.
    package private(set) var unmapped = 0
    /// Records rejected.
    package private(set) var rejected = 0
    /// Migrated counts per V1 → V2 route.
    package private(set) var routes: [Route: Int] = [:]
    /// Unmapped counts per V1 type.
    package private(set) var unmappedTypes: [String: Int] = [:]
    /// Input files read.
    package var files = 0
    /// Entries of input directories skipped because they are not regular files (FIFOs, sockets, devices).
    package var skippedNotRegular = 0
    /// The rejects grouped by cause.
    package private(set) var causes = RejectCauses()

    /// Creates empty counts.
    package init() {}

    /// Counts one record's outcome.
    package mutating func count(_ outcome: V1RecordOutcome) {
        read += 1
        switch outcome {
        case .migrated(let p):
            migrated += 1
            let route = Route(
                v1Type: p.migration?.v1NotificationType ?? "?", v2Type: p.notificationType, v2Subtype: p.subtype)
            routes[route, default: 0] += 1
        case .unmapped(let u):
            unmapped += 1
            unmappedTypes[u.v1NotificationType, default: 0] += 1
        case .rejected(let error):
            rejected += 1
            causes.add(side: "v1", error)
        }
    }

    /// Counts `times` records migrated along `route` (records written straight from their bytes, which have no
    /// outcome).
    package mutating func count(migrated route: Route, times: Int) {
        guard times > 0 else { return }
        read += times
        migrated += times
        routes[route, default: 0] += times
    }

    /// True when every record read is accounted for.
    package var isBalanced: Bool { read == migrated + unmapped + rejected }

    /// The counts as `--summary-json` names them, in order: `files`, `read`, `migrated`, `unmapped`, `rejected`,
    /// `skipped_not_regular`.
    package var metrics: [(String, String)] {
        [
            ("files", String(files)), ("read", String(read)), ("migrated", String(migrated)),
            ("unmapped", String(unmapped)),
            ("rejected", String(rejected)), ("skipped_not_regular", String(skippedNotRegular))
        ]
    }

    /// The per-route and per-unmapped-type counts as JSON members (`routes`, `unmapped_types`), sorted.
    package var breakdownJSON: [JSONObject.Member] {
        let routeList = routes.keys.sorted().map { route in
            JSONValue.object(
                JSONObject([
                    .init(key: "v1_notification_type", value: .string(route.v1Type)),
                    .init(key: "v2_notification_type", value: .string(route.v2Type)),
                    .init(key: "v2_subtype", value: .string(route.v2Subtype ?? "")),
                    .init(key: "count", value: .number(String(routes[route] ?? 0)))
                ]))
        }
        let types = unmappedTypes.keys.sorted().map {
            JSONObject.Member(key: $0, value: .number(String(unmappedTypes[$0] ?? 0)))
        }
        return [
            .init(key: "routes", value: .array(routeList)),
            .init(key: "unmapped_types", value: .object(JSONObject(types)))
        ]
    }

    /// The one-screen summary printed to stderr.
    package func render() -> String {
        var lines = [
            "asn-migrate migrate: \(read) record\(read == 1 ? "" : "s") read from \(files) input\(files == 1 ? "" : "s")"
        ]
        lines.append("  migrated  \(migrated)")
        let width = routes.keys.map { $0.v1Type.count }.max() ?? 0
        for route in routes.keys.sorted() {
            let target = route.v2Type + (route.v2Subtype.map { " / \($0)" } ?? "")
            let name = route.v1Type.padding(toLength: width, withPad: " ", startingAt: 0)
            lines.append("    \(name) -> \(target): \(routes[route] ?? 0)")
        }
        lines.append("  unmapped  \(unmapped)")
        for type in unmappedTypes.keys.sorted() {
            lines.append("    \(ConsoleText.value(type)): \(unmappedTypes[type] ?? 0)")
        }
        lines.append("  rejected  \(rejected)")
        lines += RejectCauses.consoleLines(causes.causes)
        if skippedNotRegular > 0 { lines.append("  skipped (not a regular file) \(skippedNotRegular)") }
        lines.append(
            "  check: read \(read) = migrated \(migrated) + unmapped \(unmapped) + rejected \(rejected)\(isBalanced ? "" : "  (MISMATCH: please report)")"
        )
        return lines.joined(separator: "\n")
    }
}
