import ASNMigrateKit

/// Sandbox or Production, in the spellings each place uses.
package enum SimulationEnvironment: String, Sendable, Equatable {
    /// Production.
    case production = "Production"
    /// Sandbox.
    case sandbox = "Sandbox"

    /// The V1 top-level spelling: "PROD" or "Sandbox".
    package var v1Name: String { self == .production ? "PROD" : "Sandbox" }
}
