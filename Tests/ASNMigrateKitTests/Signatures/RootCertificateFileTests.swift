import Foundation
import Testing

@testable import ASNMigrateKit

/// `--root-certificate FILE`: DER, PEM (one or several blocks), and files that are neither.
@Suite struct RootCertificateFileTests {
    @Test func derIsReadAsIs() throws {
        #expect(try RootCertificateFile.parse(AppleRootCertificate.der, path: "root.der") == [AppleRootCertificate.der])
    }

    @Test func everyPEMBlockIsRead() throws {
        let ca = try SignatureFixture.authority()
        let pem = [ca.root.der, AppleRootCertificate.der].map {
            "-----BEGIN CERTIFICATE-----\n" + Base64.encode($0).chunked(64) + "\n-----END CERTIFICATE-----\n"
        }.joined(separator: "some text between blocks\n")
        #expect(
            try RootCertificateFile.parse(Array(pem.utf8), path: "roots.pem") == [ca.root.der, AppleRootCertificate.der]
        )
    }

    @Test func filesThatAreNeitherAreUsageErrorsNamingTheFile() throws {
        let cut = Array(AppleRootCertificate.der.prefix(100))
        for bytes in [
            cut, Array("hello".utf8), Array("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".utf8)
        ] {
            #expect {
                try RootCertificateFile.parse(bytes, path: "bad.pem")
            } throws: { error in
                (error as? ASNError)?.code == .usage && (error as? ASNError)?.message.contains("bad.pem") == true
            }
        }
        #expect(throws: ASNError.self) { try RootCertificateFile.load(path: "/nonexistent/root.der") }
    }
}

extension String {
    /// The string cut into lines of `width` characters, as PEM writes base64.
    fileprivate func chunked(_ width: Int) -> String {
        var lines: [Substring] = []
        var rest = Substring(self)
        while !rest.isEmpty {
            lines.append(rest.prefix(width))
            rest = rest.dropFirst(width)
        }
        return lines.joined(separator: "\n")
    }
}
