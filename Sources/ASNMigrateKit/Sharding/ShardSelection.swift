/// One shard of a run split N ways: `--shard K/N`, or `--shard auto/N` with K from the batch engine's array index.
package struct ShardSelection: Sendable, Equatable {
    /// The environment variables that give a job's index, in the order they are looked at: Kubernetes Indexed Job,
    /// AWS Batch array job, Slurm job array, Cloud Run job.
    package static let indexVariables = [
        "JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX", "SLURM_ARRAY_TASK_ID", "CLOUD_RUN_TASK_INDEX"
    ]
    /// The largest shard count accepted.
    package static let maximumCount = 4096

    /// This shard's index, 0 ..< `count`.
    package var index: Int
    /// How many shards the run is split into.
    package var count: Int

    /// Creates a selection; `index` must lie in 0 ..< `count`.
    package init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// `K/N` as given on the command line and written to `shard.csv`.
    package var text: String { "\(index)/\(count)" }

    /// Whether a record of shard `shard` (from `ShardHash`) belongs to this one.
    package func holds(_ shard: Int) -> Bool { shard == index }

    /// Parses `K/N` or `auto/N` (`environment` gives `auto` its K); a usage error naming `option` otherwise, also when
    /// `auto` finds none of `indexVariables` set or K ≥ N.
    package static func parse(_ text: String, option: String = "--shard", environment: [String: String])
        throws(ASNError) -> ShardSelection
    {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, let count = number(parts[1]), count >= 1, count <= maximumCount else {
            throw ASNError(
                .usage,
                "option '\(option)' needs K/N or auto/N with N from 1 to \(maximumCount) (for example 0/8, or auto/8 in a Kubernetes Indexed Job, AWS Batch array job or Slurm array), not '\(text)'"
            )
        }
        let index: Int
        if parts[0] == "auto" {
            guard
                let (name, value) = indexVariables.lazy.compactMap({ name in environment[name].map { (name, $0) } })
                    .first
            else {
                throw ASNError(
                    .usage,
                    "option '\(option) auto/\(count)' takes K from the batch engine, but none of \(indexVariables.joined(separator: ", ")) is set; "
                        + "run it as a Kubernetes Indexed Job, an AWS Batch array job or a Slurm array (--array=0-\(count - 1)), or give K/\(count) yourself"
                )
            }
            guard let k = number(value) else {
                throw ASNError(
                    .usage, "option '\(option) auto/\(count)': \(name) is '\(value)', not a whole number from 0")
            }
            guard k < count else {
                throw ASNError(
                    .usage,
                    "option '\(option) auto/\(count)': \(name) is \(k), but shards are 0 to \(count - 1); make the engine's array size N (completions: \(count), --array=0-\(count - 1), array size \(count))"
                )
            }
            index = k
        } else {
            guard let k = number(parts[0]) else {
                throw ASNError(
                    .usage, "option '\(option)' needs K/N with K a whole number from 0 to N-1, not '\(text)'")
            }
            guard k < count else {
                throw ASNError(
                    .usage, "option '\(option) \(text)': K must be less than N (shards are numbered 0 to \(count - 1))")
            }
            index = k
        }
        return ShardSelection(index: index, count: count)
    }

    /// Shard (or slice) numbers for a message: the first ten, then how many in all.
    package static func listed(_ numbers: [Int]) -> String {
        numbers.prefix(10).map(String.init).joined(separator: ", ")
            + (numbers.count > 10 ? " … (\(numbers.count) in all)" : "")
    }

    /// A whole number written in ASCII digits only (no sign, no space), nil otherwise.
    private static func number(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 9,
            text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return Int(text)
    }
}
