import Foundation

/// The benchmark's data sets, written once by `asn-migrate simulate` into the data folder and reused by later runs.
struct BenchData {
    /// A simulated data set: its folder and the V1 and V2 files in it.
    struct DataSet {
        /// The simulation's output folder.
        var directory: String
        /// The simulated subscribers.
        var subscribers: Int
        /// `v1/*.jsonl`, sorted by name (one per UTC month).
        var v1: [String]
        /// `v2/*.jsonl`, sorted by name.
        var v2: [String]
        /// Total bytes of the V1 files.
        var v1Bytes: Int { v1.reduce(0) { $0 + fileSize($1) } }
        /// Total bytes of the V2 files.
        var v2Bytes: Int { v2.reduce(0) { $0 + fileSize($1) } }
    }

    /// The `asn-migrate` binary that runs `simulate`.
    var binary: String
    /// The data folder (outside the repository).
    var folder: String

    /// The data set for `subscribers` subscribers over `months` months with `seed`, at most `receiptHistory` receipt
    /// entries per V1 body (nil: simulate's default); simulated now unless an earlier run left it in the folder.
    func dataSet(subscribers: Int, seed: UInt64, receiptHistory: Int?, months: Int = 12) throws -> DataSet {
        let name = "sim-\(subscribers)-seed\(seed)-m\(months)" + (receiptHistory.map { "-rh\($0)" } ?? "")
        let directory = "\(folder)/\(name)"
        // simulate replaces its output folder atomically, so a folder with its README.txt is complete.
        if !FileManager.default.fileExists(atPath: "\(directory)/README.txt") {
            var arguments = [
                "simulate", "--subscribers", String(subscribers), "--seed", String(seed), "--months", String(months),
                "--out",
                directory
            ]
            if let receiptHistory { arguments += ["--receipt-history", String(receiptHistory)] }
            say("simulating \(name) (once; later runs reuse it): asn-migrate \(arguments.joined(separator: " "))")
            let result = try ChildProcess.run(binary, arguments)
            guard result.status == 0 else { throw BenchError("simulate exited with \(result.status)") }
            say("  simulated in \(fixed(result.seconds, 1)) s")
        }
        return DataSet(
            directory: directory, subscribers: subscribers, v1: try Self.jsonl(in: "\(directory)/v1"),
            v2: try Self.jsonl(in: "\(directory)/v2"))
    }

    /// The `.jsonl` files of `directory`, sorted.
    private static func jsonl(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".jsonl") }.sorted().map {
            "\(directory)/\($0)"
        }
    }
}

/// The size of the file at `path` in bytes (0 when it cannot be read).
func fileSize(_ path: String) -> Int {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : 0
}
