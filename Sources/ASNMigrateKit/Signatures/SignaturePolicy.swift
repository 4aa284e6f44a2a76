/// What `reconcile --verify-signatures` checks on each V2 record: the signatures (through a shared `JWSVerifier`),
/// whether unsigned records are allowed, and which app the records must belong to.
package struct SignaturePolicy: Sendable {
    /// The verifier (accepted roots and the chain cache), shared by every decoding thread.
    package var verifier: JWSVerifier
    /// Whether records given decoded (JSON objects, CSV rows) are rejects (`--require-signatures`) rather than
    /// counted as `v2_unverified`.
    package var requireSignatures: Bool
    /// The bundle ID every payload that names one must have (`--bundle-id`), if given.
    package var bundleId: String?
    /// The `appAppleId` a Production notification must have (`--app-apple-id`, digits), if given.
    package var appAppleId: String?

    /// A policy verifying against `verifier`.
    package init(
        verifier: JWSVerifier = JWSVerifier(), requireSignatures: Bool = false, bundleId: String? = nil,
        appAppleId: String? = nil
    ) {
        self.verifier = verifier
        self.requireSignatures = requireSignatures
        self.bundleId = bundleId
        self.appAppleId = appAppleId
    }

    // MARK: - Resolving

    /// The signature checks the options ask for (shared by `reconcile` and `nightly`): nil unless `verify`; the other
    /// options without `verify` are usage errors, and so are unreadable root certificates (naming the file).
    package static func resolve(
        verify: Bool, requireSignatures: Bool, rootCertificates: [String], bundleId: String?,
        appAppleId: String?
    ) throws(ASNError) -> SignaturePolicy? {
        guard verify else {
            let given = [
                ("--require-signatures", requireSignatures), ("--root-certificate", !rootCertificates.isEmpty),
                ("--bundle-id", bundleId != nil), ("--app-apple-id", appAppleId != nil)
            ]
            for (option, isGiven) in given where isGiven {
                throw ASNError(
                    .usage, "option '\(option)' needs --verify-signatures; add it to check the V2 records' signatures")
            }
            return nil
        }
        var roots = [AppleRootCertificate.der]
        for path in rootCertificates {
            for der in try RootCertificateFile.load(path: path) where !roots.contains(der) { roots.append(der) }
        }
        if let appAppleId,
            appAppleId.isEmpty || !appAppleId.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        {
            throw ASNError(
                .usage, "option '--app-apple-id' needs the app's Apple ID, digits only (got '\(appAppleId)')")
        }
        return SignaturePolicy(
            verifier: JWSVerifier(roots: roots), requireSignatures: requireSignatures,
            bundleId: bundleId, appAppleId: appAppleId)
    }

    // MARK: - Payload checks

    /// Checks a notification's `data` object: `bundleId` and, for Production, `appAppleId`, as Apple's verifier does.
    package func checkApp(data: JSONObject, at location: SourceLocation) throws(ASNError) {
        if let bundleId, let found = Self.text(data["bundleId"]), found != bundleId {
            throw SignatureCheck.bundleId.failure(
                "the notification is for bundle \(found), not \(bundleId) (--bundle-id); it belongs to another app",
                at: location.with(key: "data.bundleId"))
        }
        if let appAppleId {
            let found = Self.text(data["appAppleId"])
            let production = Self.text(data["environment"]) == "Production"
            if let found, found != appAppleId {
                throw SignatureCheck.appAppleId.failure(
                    "the notification is for app \(found), not \(appAppleId) (--app-apple-id); it belongs to another app",
                    at: location.with(key: "data.appAppleId"))
            }
            if found == nil && production {
                throw SignatureCheck.appAppleId.failure(
                    "the Production notification has no appAppleId to compare with \(appAppleId) (--app-apple-id)",
                    at: location.with(key: "data.appAppleId"))
            }
        }
    }

    /// Checks a nested transaction or renewal info (`path` names it): its `bundleId` and its `environment`, which must
    /// be the notification's `environment` when both are given.
    package func checkNested(_ object: JSONObject, path: String, environment: String?, at location: SourceLocation)
        throws(ASNError)
    {
        if let bundleId, let found = Self.text(object["bundleId"]), found != bundleId {
            throw SignatureCheck.bundleId.failure(
                "\(path) is for bundle \(found), not \(bundleId) (--bundle-id); it belongs to another app",
                at: location.with(key: path + ".bundleId"))
        }
        if let environment, let found = Self.text(object["environment"]), found != environment {
            throw SignatureCheck.environment.failure(
                "\(path) is from environment \(found) but the notification says \(environment); the parts were mixed",
                at: location.with(key: path + ".environment"))
        }
    }

    /// The text of a string or number member.
    private static func text(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text)?: return text
        case .number(let text)?: return text
        default: return nil
        }
    }
}
