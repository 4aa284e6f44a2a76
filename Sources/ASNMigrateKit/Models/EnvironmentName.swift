/// The App Store environment as both notification versions name it once normalised: V1's `PROD` and V2's
/// `Production` are one environment, and so are the spellings of `Sandbox`.
public enum EnvironmentName {
    /// "Production" for V1's "PROD"/"Production", "Sandbox" for "Sandbox" (any case); anything else kept raw.
    public static func normalized(_ raw: String?) -> String? {
        guard let raw else { return nil }
        switch raw.lowercased() {
        case "prod", "production": return "Production"
        case "sandbox": return "Sandbox"
        default: return raw
        }
    }
}
