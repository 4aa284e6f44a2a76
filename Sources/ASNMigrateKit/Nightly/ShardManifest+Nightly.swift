extension ShardManifest {
    /// A `nightly --shard` night's manifest: the digest covers the rules the state judged by (mapping rules, window,
    /// ignored fields, tolerance) and what else shapes the reports (settle, horizon, environment, max-lag).
    package static func nightly(_ settings: NightlySettings, shard: ShardSelection, report: NightlyReport)
        -> ShardManifest
    {
        let horizon: String = settings.horizon.map { String($0) } ?? "none"
        let lags: String = ["v1", "v2"].map { String(settings.maxLag[$0] ?? 0) }.joined(separator: " ")
        let parts: [String] = [
            "nightly", String(report.judgementDigest), String(settings.settle), horizon, settings.environment ?? "",
            lags
        ]
        return ShardManifest(
            command: "nightly", shard: shard, runDate: report.date,
            judgementDigest: String(SHA1.hexDigest(Array(parts.joined(separator: "|").utf8)).prefix(16)),
            toolVersion: BuildInfo.versionNumber)
    }
}
