import ASNMigrateKit

/// Sandbox or Production, in the spellings each place uses.
public enum SimulationEnvironment: String, Sendable, Equatable {
    /// Production.
    case production = "Production"
    /// Sandbox.
    case sandbox = "Sandbox"

    /// The V1 top-level spelling: "PROD" or "Sandbox".
    public var v1Name: String { self == .production ? "PROD" : "Sandbox" }
}
