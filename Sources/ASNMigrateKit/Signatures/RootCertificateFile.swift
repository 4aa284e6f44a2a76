import CCrypto
import Foundation

/// Reads the certificates of a `--root-certificate FILE`: one DER certificate, or one or more PEM blocks.
package enum RootCertificateFile {
    /// The DER bytes of every certificate in the file at `path`; throws `.usage` naming the file when it cannot be
    /// read or holds no certificate.
    package static func load(path: String) throws(ASNError) -> [[UInt8]] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ASNError(
                .usage,
                "cannot read root certificate '\(ConsoleText.path(path))'; give a DER or PEM certificate file (--root-certificate FILE)"
            )
        }
        return try parse([UInt8](data), path: path)
    }

    /// The DER bytes of every certificate in `bytes` (DER, or PEM `CERTIFICATE` blocks); `path` names it in errors.
    package static func parse(_ bytes: [UInt8], path: String) throws(ASNError) -> [[UInt8]] {
        if Certificate(der: bytes) != nil { return [bytes] }
        let text = String(decoding: bytes, as: UTF8.self)
        var found: [[UInt8]] = []
        var rest = Substring(text)
        while let begin = rest.range(of: pemBegin) {
            guard let end = rest.range(of: pemEnd, range: begin.upperBound..<rest.endIndex) else { break }
            let body = rest[begin.upperBound..<end.lowerBound].filter { !$0.isWhitespace }
            guard let der = Base64.decode(body), Certificate(der: der) != nil else {
                throw ASNError(
                    .usage,
                    "'\(ConsoleText.path(path))' has a PEM CERTIFICATE block that is not a valid certificate; give a DER or PEM certificate file"
                )
            }
            found.append(der)
            rest = rest[end.upperBound...]
        }
        guard !found.isEmpty else {
            throw ASNError(
                .usage,
                "'\(ConsoleText.path(path))' is neither a DER certificate nor PEM with a CERTIFICATE block; give the root certificate as DER or PEM"
            )
        }
        return found
    }

    // MARK: - Private

    /// The PEM armour lines.
    private static let pemBegin = "-----BEGIN CERTIFICATE-----"
    private static let pemEnd = "-----END CERTIFICATE-----"
}
