/// One run's reading of its inputs: its `InputLimits`, and what the readers found that the job reports at the end
/// (the zstd frames read without a checksum). Every `InputFile` a job lists carries its run's reading; copies share
/// it, so a worker thread's note reaches the job that warns.
package final class InputReading: Sendable {
    /// The limits the run's command line set.
    package let limits: InputLimits
    /// The zstd frames read without a content checksum, per input.
    package let unverifiedFrames = UnverifiedFrames()

    /// A reading under `limits` (by default the options' defaults), with nothing found yet.
    package init(_ limits: InputLimits = InputLimits()) {
        self.limits = limits
    }
}
