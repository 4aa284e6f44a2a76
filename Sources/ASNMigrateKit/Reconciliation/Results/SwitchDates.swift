/// The day each environment's App Store Connect server URL moved from V1 to V2 notifications (`--switch`): before
/// it the V1 archive holds the subscription's history, from it the V2 notifications do.
package struct SwitchDates: Sendable, Equatable {
    /// The switch instant (epoch ms) of `Production`, when it has one.
    package var production: Int64?
    /// The switch instant (epoch ms) of `Sandbox`, when it has one.
    package var sandbox: Int64?

    /// No switch in either environment.
    package init(production: Int64? = nil, sandbox: Int64? = nil) {
        self.production = production
        self.sandbox = sandbox
    }

    /// Whether no environment has a switch.
    package var isEmpty: Bool { production == nil && sandbox == nil }

    /// The switch instant of an environment as the reports name it (`Production`, `Sandbox`), nil without one.
    package func instant(of environment: String) -> Int64? {
        switch environment {
        case "Production": return production
        case "Sandbox": return sandbox
        default: return nil
        }
    }

    /// The environments with a switch, as `(name, instant)`, Production first.
    package var environments: [(name: String, instant: Int64)] {
        [("Production", production), ("Sandbox", sandbox)].compactMap { name, instant in
            instant.map { (name, $0) }
        }
    }

    /// The switch dates `values` name: each `DATE` (both environments) or `ENVIRONMENT=DATE` (`production`,
    /// `sandbox`, any case); DATE is a UTC day or an ISO 8601 instant. `option` names the flag or config key in
    /// the usage errors: a date that does not parse, an environment that is not one, an environment given twice.
    package static func parse(_ values: [String], option: String) throws(ASNError) -> SwitchDates {
        var dates = SwitchDates()
        var given: Set<String> = []
        for value in values {
            var environments = ["Production", "Sandbox"]
            var text = value
            if let equals = value.firstIndex(of: "=") {
                let name = String(value[..<equals])
                guard let environment = EnvironmentName.normalized(name),
                    ["Production", "Sandbox"].contains(environment)
                else {
                    throw ASNError(
                        .usage,
                        "\(option) '\(value)': '\(name)' is not an environment; write production=DATE or sandbox=DATE, or a bare DATE for both"
                    )
                }
                environments = [environment]
                text = String(value[value.index(after: equals)...])
            }
            guard let parsed = Timestamp.parseUTCDayOrInstant(text) else {
                throw ASNError(
                    .usage,
                    "\(option) '\(value)': '\(text)' is not a date; give the day the server URL moved to V2 as 2023-01-01 or an ISO 8601 instant (2023-01-01T09:30:00Z)"
                )
            }
            for environment in environments {
                guard given.insert(environment).inserted else {
                    throw ASNError(
                        .usage,
                        "\(option) gives \(environment) more than one switch date; give each environment one (production=DATE, sandbox=DATE)"
                    )
                }
                if environment == "Production" { dates.production = parsed.ms } else { dates.sandbox = parsed.ms }
            }
        }
        return dates
    }
}
