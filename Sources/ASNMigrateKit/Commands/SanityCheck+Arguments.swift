import Foundation

/// The command-line side of the sanity checks: the `--max-reject-rate` option's help and value.
extension SanityCheck {
    /// The help text of `--max-reject-rate`, shared by the commands that take it.
    static let optionHelp = "Exit 3 when more than RATE of one side's records read are rejected (0.01 or 1%)"

    /// The `--max-reject-rate` value of `arguments` (default 1%), or a usage error naming the option.
    static func maxRejectRate(_ arguments: ParsedArguments) throws(ASNError) -> Double {
        guard let text = arguments.value("--max-reject-rate") else { return defaultMaxRejectRate }
        return try rate(text, option: "--max-reject-rate")
    }

    /// `text` as a reject rate (`0.01` or `1%`, between 0 and 1), or a usage error naming `option`.
    static func rate(_ text: String, option: String) throws(ASNError) -> Double {
        guard let rate = parseRate(text) else {
            throw ASNError(
                .usage, "option '\(option)' needs a fraction (0.01) or a percentage (1%) between 0 and 1, not '\(text)'"
            )
        }
        return rate
    }
}
