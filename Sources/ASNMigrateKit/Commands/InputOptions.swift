/// The options every command that reads records shares (`migrate`, `reconcile`, `nightly` with its config keys,
/// `partition`): `--max-record-bytes`, the longest record kept (a longer one is one `record_too_large` reject read
/// past in bounded memory), and `--require-checksums` (a zstd frame without a content checksum is a reject).
enum InputOptions {
    /// `--max-record-bytes SIZE`.
    static let maxRecordBytes = OptionSpec.single(
        "--max-record-bytes", valueName: "SIZE",
        help:
            "The longest record read, in bytes or with a K, M or G suffix (binary units; default 64M): a longer record (a JSON Lines line, a JSON array element, a CSV row) is one record_too_large reject, read past without being held in memory."
    )

    /// `--require-checksums`.
    static let requireChecksums = OptionSpec.flag(
        "--require-checksums",
        help:
            "Reject a zstd file (or its rest) at a frame written without a content checksum, instead of reading it unverified with a warning."
    )

    /// Both options, in the order the commands list them.
    static let specs = [maxRecordBytes, requireChecksums]

    /// The limit given as `text` for `option` (a size as `--memory-limit` takes it: `1000`, `512K`, `64M`).
    static func parse(_ text: String, option: String = "--max-record-bytes") throws(ASNError) -> Int {
        let size = try MemoryBudget.parseSize(text, option: option)
        return Int(min(size, Int64(Int.max / 2)))
    }

    /// The run's reading limits from `arguments`, or their defaults.
    static func limits(_ arguments: ParsedArguments) throws(ASNError) -> InputLimits {
        InputLimits(
            maxRecordBytes: try arguments.value("--max-record-bytes").map { (text: String) throws(ASNError) in
                try parse(text)
            } ?? InputLimits.defaultMaxRecordBytes,
            requireChecksums: arguments.isSet("--require-checksums"))
    }
}
