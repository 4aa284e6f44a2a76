/// What identifies a run in its summaries: the run date, the tool's version and the input roots as given.
package struct RunInfo: Sendable, Equatable {
    /// One input root as given on the command line (`stdin` for `-`).
    package struct Input: Sendable, Equatable {
        /// `v1` or `v2`.
        package var side: String
        /// The path as given.
        package var root: String

        /// Creates an input root; `-` is recorded as `stdin`.
        package init(side: String, root: String) {
            self.side = side
            self.root = root == "-" ? SourceLocation.standardInputName : root
        }
    }

    /// The run date, `YYYY-MM-DD` (UTC).
    package var runDate: String
    /// The tool's version number (`0.1.0`).
    package var toolVersion: String
    /// The input roots, in command-line order.
    package var inputs: [Input]

    /// Creates run facts.
    package init(runDate: String = "", toolVersion: String = "", inputs: [Input] = []) {
        self.runDate = runDate
        self.toolVersion = toolVersion
        self.inputs = inputs
    }

    /// The summary rows: `run_date`, `tool_version`, then one `v1_input` / `v2_input` row per root.
    package var metrics: [(String, String)] {
        [("run_date", runDate), ("tool_version", toolVersion)] + inputs.map { ("\($0.side)_input", $0.root) }
    }
}
