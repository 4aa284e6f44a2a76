/// Somewhere bytes can be appended to, such as an `AtomicFile`; report writers drain their buffers into one.
package protocol ByteSink: AnyObject {
    /// Appends bytes, or throws `ASNError(.outputFailed, …)`.
    func write(_ bytes: [UInt8]) throws(ASNError)
}
