import ASNMigrateKit

/// Builds V1 JSON objects in Apple's style: strings everywhere, dates as `_ms` + Etc/GMT + America/Los_Angeles texts.
public struct V1ObjectBuilder: Sendable {
    /// The members so far.
    public private(set) var object = JSONObject()

    /// Creates an empty builder.
    public init() {
        object.members.reserveCapacity(32)
    }

    /// Adds a string member.
    public mutating func string(_ key: String, _ value: String) {
        object.members.append(.init(key: key, value: .string(value)))
    }

    /// Adds any JSON member.
    public mutating func value(_ key: String, _ value: JSONValue) {
        object.members.append(.init(key: key, value: value))
    }

    /// Adds `key`, `key_ms` and `key_pst` for an instant.
    public mutating func date(_ key: String, _ ms: Int64) {
        string(key, SimulationCalendar.appleGMT(ms))
        string(key + "_ms", String(ms))
        string(key + "_pst", SimulationCalendar.applePST(ms))
    }
}
