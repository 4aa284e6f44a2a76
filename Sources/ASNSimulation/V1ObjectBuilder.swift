import ASNMigrateKit

/// Builds V1 JSON objects in Apple's style: strings everywhere, dates as `_ms` + Etc/GMT + America/Los_Angeles texts.
package struct V1ObjectBuilder: Sendable {
    /// The members so far.
    package private(set) var object = JSONObject()

    /// Creates an empty builder.
    package init() {
        object.members.reserveCapacity(32)
    }

    /// Adds a string member.
    package mutating func string(_ key: String, _ value: String) {
        object.members.append(.init(key: key, value: .string(value)))
    }

    /// Adds any JSON member.
    package mutating func value(_ key: String, _ value: JSONValue) {
        object.members.append(.init(key: key, value: value))
    }

    /// Adds `key`, `key_ms` and `key_pst` for an instant.
    package mutating func date(_ key: String, _ ms: Int64) {
        string(key, SimulationCalendar.appleGMT(ms))
        string(key + "_ms", String(ms))
        string(key + "_pst", SimulationCalendar.applePST(ms))
    }
}
