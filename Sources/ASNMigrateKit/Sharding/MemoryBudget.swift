#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `reconcile --memory-limit SIZE`: how many shard passes keep one run's memory under SIZE, and the peak it reached.
///
/// The estimate is from the input's size: `reconcile` keeps about `bytesPerInputByte` bytes of memory per byte of
/// uncompressed input (measured on simulated data, README "Running at scale"), on top of `baseline`; a gzip file is
/// counted as `gzipExpansion` times its size. It is an estimate: the console prints the peak reached, and `--shards N`
/// sets the count directly.
package enum MemoryBudget {
    /// Memory the process needs whatever the input (code, batches in flight, decoding threads), in bytes: about 107 MB
    /// measured (`--shards 1` and `--shards 2` peaks on the 20,000-subscriber bench set, release build).
    package static let baseline: Int64 = 112 << 20
    /// Memory kept per byte of uncompressed input in one pass (records' facts, indexes), over all shards: measured
    /// 0.085 on the 1M × 1M bench set ((689 − 107) MB for 6.8 GB) and 0.042 on the 20,000-subscriber set.
    package static let bytesPerInputByte: Double = 0.09
    /// How many times its size a gzip file is counted.
    package static let gzipExpansion: Int64 = 8

    /// Parses a size: a whole number with an optional binary unit K, M, G or T (`512M`, `2G`, `2GiB`; 1K = 1024).
    package static func parseSize(_ text: String, option: String = "--memory-limit") throws(ASNError) -> Int64 {
        var digits = Substring(text)
        var unit: Int64 = 1
        for suffix in ["iB", "B"] where digits.hasSuffix(suffix) {
            digits = digits.dropLast(suffix.count)
            break
        }
        if let last = digits.last, let shift = ["K": 10, "M": 20, "G": 30, "T": 40][String(last).uppercased()] {
            unit = Int64(1) << Int64(shift)
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.utf8.count <= 12,
            digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let value = Int64(digits), value > 0, value <= Int64.max / unit
        else {
            throw ASNError(
                .usage,
                "option '\(option)' needs a size such as 2G, 512M or 1T (binary units, 1G = 1024M), not '\(text)'")
        }
        return value * unit
    }

    /// The shard passes that should keep a run over `inputBytes` (uncompressed) under `limit` bytes: 1 when it fits.
    package static func passes(inputBytes: Int64, limit: Int64) -> Int {
        let room = Double(Swift.max(limit - baseline, 8 << 20))
        let need = Double(inputBytes) * bytesPerInputByte
        return Swift.min(ShardSelection.maximumCount, Swift.max(1, Int((need / room).rounded(.up))))
    }

    /// The input size to budget for: every regular file's size, a gzip file's times `gzipExpansion`.
    package static func inputBytes(_ files: [InputFile]) -> Int64 {
        files.reduce(Int64(0)) { total, file in
            var info = stat()
            guard !file.isDescriptor, stat(file.path, &info) == 0 else { return total }
            let size = Int64(info.st_size)
            return total + (file.path.hasSuffix(".gz") ? size * gzipExpansion : size)
        }
    }

    #if os(Linux)
        private static let currentProcess = __rusage_who_t(RUSAGE_SELF.rawValue)
    #else
        private static let currentProcess = RUSAGE_SELF
    #endif

    /// The process's peak resident memory so far, in bytes (`getrusage`).
    package static func peakResidentBytes() -> Int64 {
        var usage = rusage()
        guard getrusage(currentProcess, &usage) == 0 else { return 0 }
        #if os(Linux)
            return Int64(usage.ru_maxrss) * 1024
        #else
            return Int64(usage.ru_maxrss)
        #endif
    }
}
