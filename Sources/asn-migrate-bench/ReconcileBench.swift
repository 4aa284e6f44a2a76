import Foundation

/// The `reconcile` measurement: the real command on a simulated ~1M × ~1M data set, and issue 12's targets
/// (≤ 20 s wall, ≤ 700 MB peak RSS, release build, both cores). Part of the full run; `--only reconcile` runs only this.
enum ReconcileBench {
    /// Wall-clock target, seconds.
    static let secondsTarget = 20.0
    /// Peak RSS target, bytes.
    static let rssTarget = 700 << 20

    /// What the runs measured.
    struct Figures {
        /// The fastest run.
        var best: ChildProcess.Result
        /// The highest peak RSS of all runs, bytes.
        var worstRSS: Int
    }

    /// Runs `reconcile` `runs` times on `set` and prints the figures; returns them for the target line.
    static func run(binary: String, set: BenchData.DataSet, folder: String, runs: Int) throws -> Figures {
        let v1Records = try countLines(set.v1)
        let v2Records = try countLines(set.v2)
        say(
            "reconcile data: \(set.directory): V1 \(v1Records) records (\(fixed(Double(set.v1Bytes) / 1e9)) GB), V2 \(v2Records) records (\(fixed(Double(set.v2Bytes) / 1e9)) GB)"
        )
        _ = try Baselines.read(set.v1 + set.v2)
        let report = "\(folder)/reconcile-report"
        var figures = Figures(best: ChildProcess.Result(seconds: .infinity, status: 0, maxRSS: 0), worstRSS: 0)
        for _ in 0..<runs {
            let result = try ChildProcess.run(
                binary,
                [
                    "reconcile", "--v1", "\(set.directory)/v1", "--v2", "\(set.directory)/v2",
                    "--out", report, "--run-date", "2024-01-01"
                ])
            guard result.status == 0 || result.status == 1 else {
                throw BenchError("reconcile exited with \(result.status)")
            }
            if result.seconds < figures.best.seconds { figures.best = result }
            figures.worstRSS = max(figures.worstRSS, result.maxRSS)
        }
        let best = figures.best
        say(
            "reconcile \(v1Records) x \(v2Records): \(fixed(best.seconds, 2)) s wall, \(Int(Double(v1Records + v2Records) / best.seconds)) records/s (V1 + V2), CPU \(fixed(best.cpuSeconds, 2)) s (\(fixed(best.cpuSeconds / best.seconds, 2)) cores), max RSS \(megabytes(figures.worstRSS)) MB (highest of \(runs) run(s); best wall)"
        )
        return figures
    }

    /// The target line: each target met or not, and by how much a missed one is missed.
    static func targetLine(_ figures: Figures) -> String {
        let seconds = figures.best.seconds
        let rss = figures.worstRSS
        return
            "targets: reconcile 1M x 1M <= 20 s wall: \(seconds <= secondsTarget ? "met" : "NOT met") (\(fixed(seconds, 1)) s = \(fixed(seconds / secondsTarget, 2))x the target); "
            + "<= 700 MB max RSS: \(rss <= rssTarget ? "met" : "NOT met") (\(megabytes(rss)) MB = \(fixed(Double(rss) / Double(rssTarget), 2))x the target)"
    }
}
